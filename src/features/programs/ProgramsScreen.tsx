// /{organizationId}/programs — the organization's programs.
import { m } from '../../paraglide/messages.js';
import { db, useLiveQuery } from '../../db/db.ts';
import { asProgram, live } from '../../lib/rows.ts';
import { Link } from '../../lib/router.ts';
import { useIdParams } from '../../app/params.ts';
import { PageHeader } from '../../components/PageHeader.tsx';

export function ProgramsScreen() {
  const { organizationId } = useIdParams('organizationId');
  const programs = useLiveQuery(async () => live((await db.programs.where('OrganizationId').equals(organizationId).toArray()).map(asProgram)).sort((a, b) => a.Name.localeCompare(b.Name)), [organizationId]);
  const counts = useLiveQuery(async () => {
    const out = new Map<string, number>();
    for (const p of programs ?? []) out.set(p.Id, await db.clips.where('ProgramId').equals(p.Id).count());
    return out;
  }, [programs]);
  return (
    <>
      <PageHeader title={m.app_programs_title()} />
      {programs === undefined ? <p className="muted">{m.app_loading()}</p> : programs.length === 0 ? <p className="empty">{m.app_programs_empty()}</p> : (
        <ul className="card-list">
          {programs.map((p) => (
            <li key={p.Id}>
              <Link href={`/${organizationId}/programs/${p.Id}`} className="card-link">
                <span className="avatar" aria-hidden="true">{p.Name.slice(0, 1).toUpperCase()}</span>
                <span className="card-title">{p.Name}</span>
                <span className="muted">{m.app_program_clip_count({ count: counts?.get(p.Id) ?? 0 })}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
