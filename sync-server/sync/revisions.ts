// The kept revisions of rows, as whole rows again. row_revisions keeps undo steps (rows.ts header):
// the row at a revision is the current row with the undo step of every newer revision applied,
// newest first, and that revision's own Version, ModifiedAtUtc and author set.
//
//   current row ──undo(rₙ)──> row at rₙ₋₁ ──undo(rₙ₋₁)──> row at rₙ₋₂ … ──> row at the oldest kept
//
// Two readers: the merge (push.ts: every kept revision of the row a stale mutation names, with
// which were this client's own) and the answers to retried mutations (the row a revision wrote).
import type { Queryable } from '../store/store.ts';
import type { EntityName, WireRow } from '../rows.ts';
import { loadClips, loadWire } from './batch.ts';

export type StoredRevision = {
  version: number;
  modifiedAtUtc: string;
  modifiedById: string | null;
  clientId: string | null;
  /** The values the fields this write changed had before it; null for a create (or unknown). */
  undo: Record<string, unknown> | null;
};

/** A revision as a whole row: the row as that write left it. */
export type RevisionRow = { version: number; modifiedAtUtc: string; clientId: string | null; row: Record<string, unknown> };

/** How the maps of this module name a row. */
export const revisionKey = (entity: EntityName, id: string) => `${entity}:${id.toLowerCase()}`;

/** The kept revisions of each row named, oldest first, by `entity:id` (one statement); with
 * `afterVersion`, only those newer than it (enough to rebuild them: the walk starts at the row). */
export async function loadRevisions(q: Queryable, refs: ReadonlyArray<{ entity: EntityName; id: string }>, afterVersion = 0): Promise<Map<string, StoredRevision[]>> {
  const out = new Map<string, StoredRevision[]>();
  if (refs.length === 0) return out;
  const rows = await q.query<{ entity: EntityName; id: string; version: number | string; modified_at_utc: Date | string; modified_by_id: string | null; client_id: string | null; undo: Record<string, unknown> | null }>(
    `SELECT r.entity, r.id, r.version, r.modified_at_utc, r.modified_by_id, r.client_id, r.undo
     FROM row_revisions r JOIN (SELECT DISTINCT * FROM unnest($1::text[], $2::uuid[]) AS w(entity, id)) w ON r.entity = w.entity AND r.id = w.id
     WHERE r.version > $3
     ORDER BY r.entity, r.id, r.version`,
    [refs.map((r) => r.entity), refs.map((r) => r.id.toLowerCase()), afterVersion],
  );
  for (const r of rows) {
    const key = revisionKey(r.entity, r.id);
    const list = out.get(key) ?? [];
    list.push({
      version: Number(r.version),
      modifiedAtUtc: new Date(r.modified_at_utc).toISOString(),
      modifiedById: r.modified_by_id,
      clientId: r.client_id,
      undo: r.undo,
    });
    out.set(key, list);
  }
  return out;
}

function revisionsOf(loaded: Map<string, StoredRevision[]>, entity: EntityName, id: string): StoredRevision[] {
  return loaded.get(revisionKey(entity, id)) ?? [];
}

/**
 * The revisions that can be rebuilt from `current`, oldest first: back from the newest until one
 * has no undo step (a create, or the oldest of a store converted by migration 0102). Empty when
 * `current` is not the row the newest revision left (a write no revision recorded): then the
 * row's history is not known, and the merge treats every base as no longer kept.
 */
export function rebuildRevisions(current: Readonly<Record<string, unknown>>, revisions: readonly StoredRevision[]): RevisionRow[] {
  const newest = revisions[revisions.length - 1];
  if (!newest || newest.modifiedAtUtc !== current['ModifiedAtUtc']) return [];
  const out: RevisionRow[] = [];
  let row: Record<string, unknown> = { ...current };
  for (let i = revisions.length - 1; i >= 0; i--) {
    const r = revisions[i]!;
    row = { ...row, ModifiedAtUtc: r.modifiedAtUtc, ModifiedById: r.modifiedById, Version: r.version };
    out.push({ version: r.version, modifiedAtUtc: r.modifiedAtUtc, clientId: r.clientId, row });
    if (r.undo === null) break;
    row = { ...row, ...r.undo };
  }
  return out.reverse();
}

/**
 * Each named row that exists, as it now is (clips with their PlaylistIds), with its kept
 * revisions as whole rows, by revisionKey: two statements per entity named, one for revisions.
 * `afterVersion`: only the revisions newer than it.
 */
export async function loadRowsWithRevisions(
  q: Queryable,
  organizationId: string,
  refs: ReadonlyArray<{ entity: EntityName; id: string }>,
  afterVersion = 0,
): Promise<Map<string, { current: WireRow; revisions: RevisionRow[] }>> {
  const out = new Map<string, { current: WireRow; revisions: RevisionRow[] }>();
  if (refs.length === 0) return out;
  const stored = await loadRevisions(q, refs, afterVersion);
  const idsOf = new Map<EntityName, Set<string>>();
  for (const r of refs) idsOf.set(r.entity, (idsOf.get(r.entity) ?? new Set()).add(r.id.toLowerCase()));
  for (const [entity, ids] of idsOf) {
    const rows = entity === 'clip' ? await loadClips(q, organizationId, [...ids], false) : await loadWire(q, entity, [...ids], false);
    for (const current of rows) out.set(revisionKey(entity, current.Id), { current, revisions: rebuildRevisions(current, revisionsOf(stored, entity, current.Id)) });
  }
  return out;
}

/** Every kept revision of one row as whole rows, oldest first (the row as `current` gives it). */
export async function revisionRows(q: Queryable, entity: EntityName, current: Readonly<Record<string, unknown>> & { Id: string }): Promise<RevisionRow[]> {
  return rebuildRevisions(current, revisionsOf(await loadRevisions(q, [{ entity, id: current.Id }]), entity, current.Id));
}
