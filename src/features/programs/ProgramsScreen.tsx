// /{organizationId}/programs — the organization's programs.
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { usePrograms } from '../../lib/rows.ts';
import { clipCountLabel } from '../../lib/labels.ts';
import { useIdParams } from '../../lib/params.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { CardList } from '../../ui/CardList.tsx';

export function ProgramsScreen() {
  const { organizationId } = useIdParams('organizationId');
  const programs = usePrograms(organizationId);
  // One query on the ProgramId index for every program's clips (not one per program); a row marked
  // Deleted is not counted, as the clip lists leave it out (live()).
  const programIds = (programs ?? []).map((p) => p.Id);
  const counts = useLiveQuery(async () => {
    const out = new Map<string, number>();
    await db.clips.where('ProgramId').anyOf(programIds).each((clip) => {
      if (!clip['Deleted']) out.set(clip['ProgramId'] as string, (out.get(clip['ProgramId'] as string) ?? 0) + 1);
    });
    return out;
  }, [programIds.join(',')]);
  return (
    <>
      <PageHeader title={m.app_programs_title()} />
      {programs === undefined ? <p className="muted">{m.app_loading()}</p> : programs.length === 0 ? <p className="empty">{m.app_programs_empty()}</p> : (
        <CardList
          items={programs.map((p) => ({
            id: p.Id,
            href: `/${organizationId}/programs/${p.Id}`,
            title: p.Name,
            details: <span className="muted">{clipCountLabel(counts?.get(p.Id) ?? 0)}</span>,
          }))}
        />
      )}
    </>
  );
}
