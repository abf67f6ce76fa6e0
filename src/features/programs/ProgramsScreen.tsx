// /{organizationId}/programs — the organization's programs.
import { m } from '../../paraglide/messages.js';
import { db, useLiveQuery } from '../../db/db.ts';
import { usePrograms } from '../../lib/rows.ts';
import { clipCountLabel } from '../../lib/labels.ts';
import { useIdParams } from '../../app/params.ts';
import { PageHeader } from '../../components/PageHeader.tsx';
import { CardList } from '../../components/CardList.tsx';

export function ProgramsScreen() {
  const { organizationId } = useIdParams('organizationId');
  const programs = usePrograms(organizationId);
  const counts = useLiveQuery(async () => {
    const out = new Map<string, number>();
    for (const p of programs ?? []) out.set(p.Id, await db.clips.where('ProgramId').equals(p.Id).count());
    return out;
  }, [programs]);
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
