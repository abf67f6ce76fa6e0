// Snapshots of a demo organization's content metadata (specification section 6): save copies the
// wire rows of its networks, programs, playlists (with their clip order), clips, recordings and
// annotations; restore makes the organization's rows equal to the copy again.
//
//   save:    demo_snapshot_rows := every row of the organization, as the wire has it (deleted too)
//   restore: per row, compared without bookkeeping fields (Id, Version, ModifiedAtUtc, …):
//              in both, different      → updated to the snapshot's fields (a row deleted since
//                                        comes back; one deleted in the snapshot is deleted again)
//              only in the organization → soft-deleted (created after the snapshot); a program's
//                                        intro and outro files swept after the grace period, as
//                                        after any deletion
//              only in the snapshot     → inserted again
//              equal                    → left alone (no new Version, nothing for clients to pull)
//
// The writes go through rows.ts planWrite/writePlanned, the path of the API's own writes: every
// changed row gets a new ModifiedAtUtc and Version and a revision, so sync clients pull the
// restore like any other change. Rows that end deleted are written first, in their own statement,
// so that a restored row can take back a slug that a newer row held (the unique slug indexes skip
// deleted rows).
import { enqueueIntroOutroSweep } from '../audio/intro-outro.ts';
import type { Queryable } from '../store/store.ts';
import { ENTITIES, planWrite, wireSql, writePlanned, type EntityName, type PlannedWrite, type WireRow, type WriteContext } from '../rows.ts';

/** The content a snapshot holds, in the order it is written back. */
export const SNAPSHOT_ENTITIES: readonly EntityName[] = ['network', 'program', 'playlist', 'clip', 'recording', 'annotation'];

/** Fields that say when and by whom, not what: a restore neither compares nor restores them. */
const BOOKKEEPING = ['Id', 'OrganizationId', 'CreatedAtUtc', 'CreatedById', 'ModifiedAtUtc', 'ModifiedById', 'Version', 'PlaylistIds'];
const STRIP = `'{${BOOKKEEPING.join(',')}}'::text[]`;

/** Replaces the organization's snapshot with its rows as they are now. */
export async function saveSnapshot(q: Queryable, organizationId: string, userId: string, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO demo_snapshots (organization_id, saved_at_utc, saved_by_id) VALUES ($1, $2, $3)
     ON CONFLICT (organization_id) DO UPDATE SET saved_at_utc = EXCLUDED.saved_at_utc, saved_by_id = EXCLUDED.saved_by_id`,
    [organizationId, at, userId],
  );
  await q.query(`DELETE FROM demo_snapshot_rows WHERE organization_id = $1`, [organizationId]);
  for (const entity of SNAPSHOT_ENTITIES) {
    await q.query(
      `INSERT INTO demo_snapshot_rows (organization_id, entity, id, row)
       SELECT $1, $2, t.id, ${wireSql(entity, 't')} FROM ${ENTITIES[entity].table} t WHERE t.organization_id = $1`,
      [organizationId, entity],
    );
  }
}

/** Whether the organization has a saved snapshot; locks it against a save while a restore runs. */
export async function lockSnapshot(q: Queryable, organizationId: string): Promise<boolean> {
  const rows = await q.query(`SELECT 1 FROM demo_snapshots WHERE organization_id = $1 FOR UPDATE`, [organizationId]);
  return rows.length > 0;
}

type Difference = { current: WireRow | null; snapshot: WireRow | null };

/** The rows of one entity whose content differs between the organization and its snapshot (current rows locked). */
async function differences(q: Queryable, entity: EntityName, organizationId: string): Promise<Difference[]> {
  const [result] = await q.query<{ j: string }>(
    `WITH t AS (SELECT * FROM ${ENTITIES[entity].table} WHERE organization_id = $1 FOR UPDATE),
          cur AS (SELECT t.id, ${wireSql(entity, 't')} AS row FROM t),
          s AS (SELECT id, row FROM demo_snapshot_rows WHERE organization_id = $1 AND entity = $2)
     SELECT coalesce(json_agg(json_build_object('current', cur.row, 'snapshot', s.row)), '[]')::text AS j
     FROM cur FULL JOIN s ON s.id = cur.id
     WHERE CASE
       WHEN cur.id IS NULL THEN NOT (s.row->>'Deleted')::boolean
       WHEN s.id IS NULL THEN NOT (cur.row->>'Deleted')::boolean
       ELSE (cur.row - ${STRIP}) IS DISTINCT FROM (s.row - ${STRIP})
     END`,
    [organizationId, entity],
  );
  return JSON.parse(result?.j ?? '[]') as Difference[];
}

/**
 * Two live rows that swapped slugs since the snapshot would each hit the unique slug index while
 * the other still holds its slug: the rows whose slug changes give theirs up first, inside the
 * restore's transaction (no Version, no revision: the write that follows is the row's one change).
 */
async function releaseSlugs(q: Queryable, writes: ReadonlyArray<{ write: PlannedWrite; current: WireRow | null }>): Promise<void> {
  for (const entity of SNAPSHOT_ENTITIES) {
    if (!('Slug' in ENTITIES[entity].columns)) continue;
    const ids = writes
      .filter(({ write, current }) => write.entity === entity && current !== null && current.Slug !== null && current.Slug !== write.wire.Slug)
      .map(({ write }) => write.wire.Id);
    if (ids.length > 0) await q.query(`UPDATE ${ENTITIES[entity].table} SET slug = NULL WHERE id = ANY($1::uuid[])`, [ids]);
  }
}

/**
 * Writes the snapshot back over the organization's rows (see the header). Returns the highest
 * Version written (0 when nothing differed), for the change bus after commit.
 */
export async function restoreSnapshot(q: Queryable, ctx: WriteContext): Promise<number> {
  const deletions: PlannedWrite[] = [];
  /** Programs the restore deletes: their intro and outro files go as after any deletion. */
  const deletedPrograms: string[] = [];
  const rest: Array<{ write: PlannedWrite; current: WireRow | null }> = [];
  for (const entity of SNAPSHOT_ENTITIES) {
    for (const { current, snapshot } of await differences(q, entity, ctx.organizationId)) {
      const id = (snapshot ?? current)!.Id;
      const fields = snapshot ?? { ...current!, Deleted: true };
      const write = planWrite(entity, ctx, current, id, fields);
      if (write.wire.Deleted) {
        deletions.push(write);
        if (entity === 'program' && current !== null && current.Deleted !== true) deletedPrograms.push(id);
      } else rest.push({ write, current });
    }
  }
  await writePlanned(q, deletions);
  for (const programId of deletedPrograms) await enqueueIntroOutroSweep(q, ctx.organizationId, programId);
  await releaseSlugs(q, rest);
  const writes = rest.map((r) => r.write);
  await writePlanned(q, writes);
  return Math.max(0, ...deletions.map((w) => w.wire.Version), ...writes.map((w) => w.wire.Version));
}
