// Rebase: what a screen shows for a row = the server's copy (shadow) with the user's pending
// mutations re-applied in outbox order, then the user's values of unresolved conflicts on top.
//
//   shadow (server truth) ──apply pending outbox entries──> ──overlay conflicts' mine──> local row
//
// A row without pending mutations or conflicts has no shadow: the local row IS the server copy.
import type { CastawayDb, ConflictEntry, LocalRow, OutboxEntry, Shadow } from './db.ts';
import type { Mutation, SyncEntity } from '../protocol/sync.ts';
import { mutationDef, mutationKind } from '../mutations/registry.ts';

export const shadowKey = (entity: SyncEntity, id: string) => `${entity}:${id}`;

/** The local effect of one mutation on its row (null: the row does not exist): its named
 * mutation's own apply (src/mutations). A name this release does not know leaves the row as it is.
 * Pure. */
export function applyMutation(row: LocalRow | null, m: Mutation): LocalRow | null {
  const def = mutationDef(m.name);
  if (!def) return row;
  // The arguments were checked by the mutation's schema when the edit was queued (writes.ts).
  return def.apply(row, m.args as never, { createdAt: m.createdAt }) as LocalRow | null;
}

/** The user's side of an unresolved conflict, shown until they choose. Pure. */
export function applyConflict(row: LocalRow | null, c: ConflictEntry): LocalRow | null {
  if (mutationKind(c.mutation) === 'delete') return null;
  if (!row) return row;
  const out: LocalRow = { ...row };
  for (const f of c.fields) out[f.field] = f.mine;
  return out;
}

export function rebaseRow(shadow: LocalRow | null, pending: Mutation[], conflicts: ConflictEntry[]): LocalRow | null {
  let row = shadow;
  for (const m of pending) row = applyMutation(row, m);
  for (const c of conflicts) row = applyConflict(row, c);
  return row;
}

/** Pending outbox entries of one row, in outbox order. Call inside a transaction over outbox. */
export async function pendingFor(d: CastawayDb, entity: SyncEntity, entityId: string): Promise<OutboxEntry[]> {
  const list = await d.outbox.where('entityId').equals(entityId).toArray();
  return list.filter((m) => m.entity === entity).sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
}

/** Unresolved conflicts of one row, oldest first. Call inside a transaction over conflicts. */
export async function conflictsFor(d: CastawayDb, entity: SyncEntity, entityId: string): Promise<ConflictEntry[]> {
  const list = await d.conflicts.where('entityId').equals(entityId).toArray();
  return list.filter((c) => c.entity === entity).sort((a, b) => a.createdAt - b.createdAt);
}

/**
 * A row rebased on `base` (its server copy): the shadow it keeps (none once nothing is pending on
 * it and no conflict is open: the row is then the server copy itself) and the row to show. Pure;
 * rebase() and every batch that rebases many rows at once (writes.ts enqueue, sync-store.ts
 * applyPushResults) keep a shadow by this one rule.
 */
export function rebased(entity: SyncEntity, entityId: string, base: LocalRow | null, pending: Mutation[], conflicts: ConflictEntry[]): { shadow: Shadow | undefined; row: LocalRow | null } {
  const shadow = pending.length === 0 && conflicts.length === 0 ? undefined : { key: shadowKey(entity, entityId), entity, entityId, row: base };
  return { shadow, row: rebaseRow(base, pending, conflicts) };
}

/**
 * Recomputes the local row from its shadow. Call inside a rw transaction over the entity table,
 * outbox, shadows and conflicts. `serverRow` (when given) replaces the shadow first; `undefined`
 * keeps it. Without a shadow the local row is left as it is (it is already server truth), unless
 * a server row is given.
 */
export async function rebase(d: CastawayDb, entity: SyncEntity, entityId: string, serverRow?: LocalRow | null): Promise<void> {
  const key = shadowKey(entity, entityId);
  // Together: in Chromium each request waits for the browser process (writes.ts enqueue).
  const [shadow, pending, conflicts] = await Promise.all([d.shadows.get(key), pendingFor(d, entity, entityId), conflictsFor(d, entity, entityId)]);
  let base: LocalRow | null;
  if (serverRow !== undefined) base = serverRow;
  else if (shadow) base = shadow.row;
  else return;
  const next = rebased(entity, entityId, base, pending, conflicts);
  const table = d[entity];
  await Promise.all([
    next.shadow ? d.shadows.put(next.shadow) : shadow ? d.shadows.delete(key) : null,
    next.row ? table.put(next.row) : table.delete(entityId),
  ]);
}
