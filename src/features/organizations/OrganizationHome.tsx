// /{organizationId} — 'Manage audio': the organization's programs and its recently changed clips.
import { clipLabel, seasonEpisodeLabel } from '../../domain/clip.ts';
import { canSeeAnyContent } from '../../domain/permissions.ts';
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { asClip, usePrograms } from '../../lib/rows.ts';
import { Link } from '../../lib/router.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { useIdParams } from '../../lib/params.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { CardList } from '../../ui/CardList.tsx';

const RECENT_CLIPS = 8;

export function OrganizationHome() {
  const { organizationId } = useIdParams('organizationId');
  const state = useSession();
  const org = state ? organizationById(state.session, organizationId) : undefined;
  const programs = usePrograms(organizationId);
  // Without content access anywhere in the organization no clip reaches this device: say why the
  // list is empty rather than "No clips match." (there is no filter here).
  const content = org ? canSeeAnyContent(org.UserPermissions) : true;
  const recent = useLiveQuery(
    // Newest first along the [OrganizationId+ModifiedAtUtc] index: reads 8 rows, whatever the size of the catalogue.
    async () =>
      (
        await db.clips
          .where('[OrganizationId+ModifiedAtUtc]')
          .between([organizationId, ''], [organizationId, '\uffff'])
          .reverse()
          .filter((c) => !c['Deleted'])
          .limit(RECENT_CLIPS)
          .toArray()
      ).map(asClip),
    [organizationId],
  );
  return (
    <>
      <PageHeader eyebrow={org?.Name} title={m.app_home_title()} />
      <div className="grid-2">
        <section aria-labelledby="home-programs">
          <h2 id="home-programs">{m.app_home_programs()}</h2>
          {programs === undefined ? <p className="muted">{m.app_loading()}</p> : programs.length === 0 ? <p className="empty">{m.app_programs_empty()}</p> : (
            <CardList items={programs.map((p) => ({ id: p.Id, href: `/${organizationId}/programs/${p.Id}`, title: p.Name }))} />
          )}
        </section>
        <section aria-labelledby="home-recent">
          <h2 id="home-recent">{m.app_home_recent_clips()}</h2>
          {!content ? (
            <p className="empty">{m.app_home_no_content_access()}</p>
          ) : recent === undefined ? (
            <p className="muted">{m.app_loading()}</p>
          ) : recent.length > 0 ? (
            <ul className="plain-list">
              {recent.map((c) => (
                <li key={c.Id}>
                  <Link href={`/${organizationId}/programs/${c.ProgramId}/clips/${c.Id}`}>{clipLabel(c)}</Link>
                  {seasonEpisodeLabel(c) && <span className="muted"> · {seasonEpisodeLabel(c)}</span>}
                </li>
              ))}
            </ul>
          ) : (
            <p className="empty">{m.app_home_no_clips()}</p>
          )}
        </section>
      </div>
    </>
  );
}
