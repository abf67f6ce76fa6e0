// Webhook events made from revisions. Every write of a row records a revision (rows.ts) in the
// write's own transaction; after it commits, a scan of the organization reads the revisions above
// its cursor, up to the settled Version (sync/pull.ts settledVersion: no write below it is still
// in flight, so none is skipped), and makes each webhook's events of them, in one transaction with
// the cursor's move:
//
//   commit ──bus──> 'webhooks.scan' job (or the sweep) ──> revisions (cursor, settled]
//      ──webhookEventsOf(undo)──> types ──each enabled webhook that asks for one, whose scope has
//      the row, made before the write (from_version)──> webhook_events (one per webhook, revision
//      and type: a unique key) + cursor moved + a delivery job per webhook that got any
//
// A scan that runs twice over the same revisions (a crash after the commit, two instances) finds
// the cursor moved, or the unique key, and makes nothing twice. Revisions are kept per row
// (the last REVISIONS_KEPT): a row written more often than that between two scans would lose the
// oldest of those writes' events; the bus trigger scans within a turn of every commit.
import { randomUUID } from 'node:crypto';
import { WEBHOOK_ENTITIES, webhookEventsOf, type WebhookEntity, type WebhookEventType } from '../../src/domain/webhooks.ts';
import type { Queryable, Store } from '../store/store.ts';
import { loadRevisions, rebuildRevisions, revisionKey } from '../sync/revisions.ts';
import { loadClips, loadWire } from '../sync/batch.ts';
import type { WireRow } from '../rows.ts';
import { enqueueDelivery, eventBody, type WebhookRow } from './webhooks.ts';

/** Revisions read per transaction. */
const BATCH = 2_000;

type Revision = { entity: WebhookEntity; id: string; version: number | string; modified_at_utc: Date | string; undo: Record<string, unknown> | null };

type Hook = Pick<WebhookRow, 'id' | 'network_id' | 'event_types' | 'from_version'>;

/**
 * Makes the organization's events of the revisions above its cursor up to `settled` (at most
 * BATCH of them). Returns true when it reached `settled` (false: call again). `at` is the time the
 * events are made (their CreatedAtUtc and first due time).
 */
export async function scanOrganization(store: Store, organizationId: string, settled: number, at: Date): Promise<boolean> {
  return store.tx(async (q) => {
    const [cursor] = await q.query<{ version: number | string }>(`SELECT version FROM webhook_cursors WHERE organization_id = $1 FOR UPDATE`, [organizationId]);
    if (!cursor) return true;
    const from = Number(cursor.version);
    if (settled <= from) return true;
    const revisions = await q.query<Revision>(
      `SELECT entity, id, version, modified_at_utc, undo FROM row_revisions
       WHERE organization_id = $1 AND version > $2 AND version <= $3 AND entity = ANY($4::text[])
       ORDER BY version LIMIT ${BATCH}`,
      [organizationId, from, settled, WEBHOOK_ENTITIES],
    );
    const full = revisions.length === BATCH;
    const to = full ? Number(revisions[revisions.length - 1]!.version) : settled;
    const hooks = await q.query<Hook>(`SELECT id, network_id, event_types, from_version FROM webhooks WHERE organization_id = $1 AND enabled AND from_version < $2`, [
      organizationId,
      to,
    ]);
    if (hooks.length > 0 && revisions.length > 0) await makeEvents(q, organizationId, hooks, revisions, from, at);
    await q.query(`UPDATE webhook_cursors SET version = $2 WHERE organization_id = $1`, [organizationId, to]);
    return !full;
  });
}

/** Whether a Deleted flag the write changed is now true (a delete), from its undo step. */
const deletedBy = (undo: Record<string, unknown> | null) => undo !== null && 'Deleted' in undo && undo['Deleted'] !== true;

async function makeEvents(q: Queryable, organizationId: string, hooks: Hook[], revisions: Revision[], cursor: number, at: Date): Promise<void> {
  // What each revision is, and which webhooks may want it before their scope is known.
  const wanted = revisions.flatMap((r) => {
    const version = Number(r.version);
    const types = webhookEventsOf(r.entity, r.undo, deletedBy(r.undo));
    const takers = hooks.filter((h) => Number(h.from_version) < version && types.some((t) => h.event_types.includes(t)));
    return takers.length > 0 ? [{ r, version, types, takers }] : [];
  });
  if (wanted.length === 0) return;
  const rows = await rowsAtRevisions(q, organizationId, wanted.map((w) => w.r), cursor);
  const programs = new Map(
    (await q.query<{ id: string; network_id: string | null }>(`SELECT id, network_id FROM programs WHERE organization_id = $1`, [organizationId])).map((p) => [p.id, p.network_id]),
  );
  const networkOf = (entity: WebhookEntity, id: string, row: WireRow | null): string | null => {
    if (entity === 'network') return id;
    if (!row) return null;
    if (entity === 'program') return (row['NetworkId'] as string | null | undefined) ?? null;
    return programs.get(row['ProgramId'] as string) ?? null;
  };

  const ids: string[] = [];
  const webhookIds: string[] = [];
  const types: WebhookEventType[] = [];
  const entities: string[] = [];
  const entityIds: string[] = [];
  const versions: number[] = [];
  const bodies: string[] = [];
  for (const { r, version, types: revisionTypes, takers } of wanted) {
    const row = rows.get(`${revisionKey(r.entity, r.id)}@${version}`) ?? null;
    const network = networkOf(r.entity, r.id, row);
    const deleted = revisionTypes.some((t) => t.endsWith('Deleted'));
    const data = { entity: r.entity, id: r.id, version, row: deleted ? null : row, changed: r.undo === null ? [] : Object.keys(r.undo) };
    for (const type of revisionTypes) {
      for (const hook of takers) {
        if (!hook.event_types.includes(type)) continue;
        if (hook.network_id !== null && hook.network_id !== network) continue;
        const id = randomUUID();
        ids.push(id);
        webhookIds.push(hook.id);
        types.push(type);
        entities.push(r.entity);
        entityIds.push(r.id);
        versions.push(version);
        bodies.push(eventBody(id, type, r.modified_at_utc, data));
      }
    }
  }
  if (ids.length === 0) return;
  const made = await q.query<{ webhook_id: string }>(
    `INSERT INTO webhook_events (id, webhook_id, event_type, entity, entity_id, version, created_at_utc, status, next_attempt_at_utc, request_body)
     SELECT e.id, e.webhook_id, e.event_type, e.entity, e.entity_id, e.version, $8, 'Pending', $8, e.body
     FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::text[], $5::uuid[], $6::bigint[], $7::text[]) WITH ORDINALITY
       AS e(id, webhook_id, event_type, entity, entity_id, version, body, ord)
     ORDER BY e.ord
     ON CONFLICT DO NOTHING
     RETURNING webhook_id`,
    [ids, webhookIds, types, entities, entityIds, versions, bodies, at],
  );
  for (const webhookId of new Set(made.map((m) => m.webhook_id))) await enqueueDelivery(q, webhookId);
}

/**
 * Each revision's row as that write left it, by `entity:id@version`: the current row walked back
 * through the undo steps of the newer revisions (sync/revisions.ts). The rows are read first, and
 * revisions newer than a row's Version (a write committed meanwhile) are left out, so the walk
 * always starts from the row its newest revision made. A row no longer there, or whose history
 * cannot be rebuilt, is absent (the event's row is then null).
 */
async function rowsAtRevisions(q: Queryable, organizationId: string, revisions: Revision[], cursor: number): Promise<Map<string, WireRow>> {
  const idsOf = new Map<WebhookEntity, Set<string>>();
  for (const r of revisions) idsOf.set(r.entity, (idsOf.get(r.entity) ?? new Set()).add(r.id));
  const current = new Map<string, WireRow>();
  for (const [entity, ids] of idsOf) {
    const rows = entity === 'clip' ? await loadClips(q, organizationId, [...ids], false) : await loadWire(q, entity, [...ids], false);
    for (const row of rows) if (row.OrganizationId === organizationId) current.set(revisionKey(entity, row.Id), row);
  }
  const refs = revisions.map((r) => ({ entity: r.entity, id: r.id }));
  const stored = await loadRevisions(q, refs, cursor);
  const out = new Map<string, WireRow>();
  for (const [key, row] of current) {
    const kept = (stored.get(key) ?? []).filter((s) => s.version <= row.Version);
    for (const rebuilt of rebuildRevisions(row, kept)) out.set(`${key}@${rebuilt.version}`, rebuilt.row as WireRow);
  }
  return out;
}
