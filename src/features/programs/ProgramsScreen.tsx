// /{organizationId}/programs — the organization's programs, with their network, and "New program"
// for a user who may create one somewhere (HasCreateProgramAccess, section 6). A new program the
// server refused after it synced is shown here, where it was made, with its reasons; Edit again
// puts it back in the dialog with the reasons at their fields.
import { lazy, Suspense, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type NeedsAttentionEntry } from '../../db/db.ts';
import { dismissNeedsAttention } from '../../db/conflicts.ts';
import { newProgramPlaces } from '../../domain/structure-access.ts';
import { useNetworks, usePrograms } from '../../lib/rows.ts';
import { clipCountLabel } from '../../lib/labels.ts';
import { useIdParams } from '../../lib/params.ts';
import { Link, navigate } from '../../lib/router.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { attentionReason, refusedFieldText } from '../../lib/sync-labels.ts';
import { savedLocally } from '../../lib/local-write.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { CardList } from '../../ui/CardList.tsx';
import { RefusedErrorList } from '../../ui/RefusedErrorList.tsx';
import type { NewProgramStart } from './NewProgramDialog.tsx';

const NewProgramDialog = lazy(() => import('./NewProgramDialog.tsx').then((mod) => ({ default: mod.NewProgramDialog })));

export function ProgramsScreen() {
  const { organizationId } = useIdParams('organizationId');
  const programs = usePrograms(organizationId);
  const networks = useNetworks(organizationId) ?? [];
  const session = useSession()?.session;
  const entries = (session ? organizationById(session, organizationId)?.UserPermissions : undefined) ?? [];
  const places = newProgramPlaces(entries, networks.map((n) => n.Id));
  const [dialog, setDialog] = useState<{ start?: NewProgramStart } | null>(null);
  const refusedCreates = useLiveQuery(async () => (await db.needsAttention.toArray()).filter((a) => a.mutation.name === 'program.create'), []) ?? [];
  // One query on the ProgramId index for every program's clips (not one per program); a row marked
  // Deleted is not counted, as the clip lists leave it out (live()).
  const programIds = (programs ?? []).map((p) => p.Id);
  // A live query keeps its last answer while it reads again for new programs: the counts are
  // used only when they were counted for the programs shown (the first answer, for no programs
  // yet, read "0 clips" on every card).
  const countedFor = programs === undefined ? null : programIds.join(',');
  const counted = useLiveQuery(async () => {
    const out = new Map<string, number>();
    await db.clips.where('ProgramId').anyOf(programIds).each((clip) => {
      if (!clip['Deleted']) out.set(clip['ProgramId'] as string, (out.get(clip['ProgramId'] as string) ?? 0) + 1);
    });
    return { key: countedFor, out };
  }, [countedFor]);
  const counts = counted && counted.key === countedFor ? counted.out : undefined;
  const networkName = (id: string | null) => (id ? networks.find((n) => n.Id === id)?.Name : undefined);
  const editAgain = (item: NeedsAttentionEntry) => {
    const fields = (item.mutation.args['fields'] ?? {}) as { Name?: string | null; Slug?: string | null; NetworkId?: string | null };
    const errors = Object.fromEntries(item.errors.map((fe) => [fe.Field, refusedFieldText(fe, 'programs')]));
    setDialog({ start: { Name: fields.Name ?? '', Slug: fields.Slug ?? null, NetworkId: fields.NetworkId ?? null, errors } });
    void savedLocally(dismissNeedsAttention(item.id));
  };
  return (
    <>
      <PageHeader
        title={m.app_programs_title()}
        link={<Link href={`/${organizationId}/networks`}>{m.structure_manage_networks()}</Link>}
        actions={
          places.length > 0 && (
            <button type="button" className="button primary" onClick={() => setDialog({})}>
              {m.structure_new_program()}
            </button>
          )
        }
      />
      {refusedCreates.map((item) => (
        <div key={item.id} role="alert" className="alert alert-danger">
          <p>
            <strong>{m.structure_refused_create({ name: String((item.mutation.args['fields'] as { Name?: string } | undefined)?.Name ?? '') })}</strong> {attentionReason(item.httpStatus)}
          </p>
          <RefusedErrorList item={item} />
          <div className="form-actions">
            <button type="button" className="button" onClick={() => void savedLocally(dismissNeedsAttention(item.id))}>{m.structure_discard()}</button>
            <button type="button" className="button primary" onClick={() => editAgain(item)}>{m.structure_edit_again()}</button>
          </div>
        </div>
      ))}
      {programs === undefined ? <p className="muted">{m.app_loading()}</p> : programs.length === 0 ? <p className="empty">{m.app_programs_empty()}</p> : (
        <CardList
          items={programs.map((p) => ({
            id: p.Id,
            href: `/${organizationId}/programs/${p.Id}`,
            title: p.Name,
            details: (
              <>
                {networkName(p.NetworkId) && <span className="pill">{networkName(p.NetworkId)}</span>}
                {/* No count until they are read: "0 clips" for a moment is a wrong number. */}
                {counts && <span className="muted">{clipCountLabel(counts.get(p.Id) ?? 0)}</span>}
              </>
            ),
          }))}
        />
      )}
      {dialog && (
        <Suspense fallback={null}>
          <NewProgramDialog
            open
            places={dialog.start && !places.includes(dialog.start.NetworkId) ? [dialog.start.NetworkId, ...places] : places}
            networks={networks}
            start={dialog.start}
            onClose={() => setDialog(null)}
            onCreated={(id) => navigate(`/${organizationId}/programs/${id}/settings`)}
          />
        </Suspense>
      )}
    </>
  );
}
