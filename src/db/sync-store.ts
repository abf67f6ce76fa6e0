// What the sync engine does to the local store: read the outbox, apply push results and pulled
// pages, and compute the status screens show. Every function is one Dexie transaction, so a tab
// closed or a worker killed in the middle leaves the store as before or as after, never between:
// a mutation leaves the outbox in the same transaction that records its result.
import { currentOrganization, EMPTY_STATUS, oldestPendingAge, SYNCED_TABLES, type CastawayDb, type ConflictEntry, type LocalRow, type NeedsAttentionEntry, type OutboxEntry, type Shadow, type SyncStatus } from './db.ts';
import { applyMutation, rebase, rebased, shadowKey } from './rebase.ts';
import type { Mutation, MutationResult, PullResponse, RowPatch, SyncEntity } from '../protocol/sync.ts';
import type { FieldError } from '../protocol/errors.ts';
import { deepEqual } from '../protocol/json-equal.ts';
import { mutationDef, mutationKind } from '../mutations/registry.ts';
import { firstSyncAfter, readFirstSync } from './first-sync.ts';

const allTables = (d: CastawayDb) => [...SYNCED_TABLES.map((t) => d[t]), d.outbox, d.shadows, d.conflicts, d.needsAttention, d.syncState, d.permissions];

export async function getClientId(d: CastawayDb): Promise<string> {
  return d.transaction('rw', d.syncState, async () => {
    const row = await d.syncState.get('clientId');
    if (row && row.key === 'clientId') return row.value;
    const id = crypto.randomUUID();
    await d.syncState.put({ key: 'clientId', value: id });
    return id;
  });
}

/** The oldest outbox entries (of one organization and one user, when given), in order. An entry
 * stamped with neither was made before stamps existed and belongs to the store's owner. */
export async function readBatch(d: CastawayDb, max: number, organizationId?: string, userId?: string): Promise<OutboxEntry[]> {
  const isMine = (m: OutboxEntry) => (organizationId === undefined || m.organizationId === undefined || m.organizationId === organizationId) && (userId === undefined || m.userId === undefined || m.userId === userId);
  // Nearly always every entry is the signed-in user's: the first `max` in one bulk read. Only when
  // some are not does a filtered cursor (entry by entry, several times slower) pick them out.
  const head = await d.outbox.orderBy('seq').limit(max).toArray();
  if (head.every(isMine)) return head;
  return d.outbox.orderBy('seq').filter(isMine).limit(max).toArray();
}

/**
 * Whether the store keeps `organizationId` (undefined: any). An engine's answer for another
 * organization is not stored: a tab whose sync lock another tab took for its organization
 * (sync.worker.ts claim) can be in the middle of a push or pull when the other tab's engine
 * starts; its rows would land in the other organization's store. Its outbox entries stay, and
 * their answers come again when that organization is synced (pushes are idempotent).
 */
async function keepsOrganization(d: CastawayDb, organizationId: string | undefined): Promise<boolean> {
  if (organizationId === undefined) return true;
  const kept = await currentOrganization(d);
  return kept === null || kept === organizationId;
}

/** Makes `organizationId` the one new edits are stamped with. */
export async function setCurrentOrganization(d: CastawayDb, organizationId: string): Promise<void> {
  // Written only when it changes: every write wakes each tab's live queries on syncState.
  if ((await currentOrganization(d)) === organizationId) return;
  await d.syncState.put({ key: 'organizationId', value: organizationId });
}

const version = (row: LocalRow | null | undefined) => (typeof row?.['Version'] === 'number' ? (row['Version'] as number) : -1);

/**
 * The server row an applied patch describes, when we hold the row it was written over; the copy
 * we hold when it is already at the patch's Version or later (a pull stored it first). Null
 * otherwise: the patch says nothing about the copy we hold.
 */
function patchedRow(known: LocalRow | null | undefined, patch: RowPatch): LocalRow | null {
  if (!known) return null;
  if (version(known) === patch.fromVersion) return { ...known, ...patch.fields } as LocalRow;
  const to = patch.fields['Version'];
  return typeof to === 'number' && version(known) >= to ? known : null;
}

/** The server copy we currently hold for a row (its shadow, else the local row itself). */
async function knownServerRow(d: CastawayDb, entity: SyncEntity, id: string): Promise<LocalRow | null | undefined> {
  const shadow = await d.shadows.get(shadowKey(entity, id));
  if (shadow) return shadow.row;
  return d[entity].get(id);
}

/** Replaces the server copy only with a newer one (responses may arrive after a newer pull). */
async function newerOf(d: CastawayDb, entity: SyncEntity, id: string, incoming: LocalRow | null): Promise<LocalRow | null> {
  const known = await knownServerRow(d, entity, id);
  if (incoming && known && version(known) > version(incoming)) return known;
  return incoming;
}

type RowState = {
  entity: SyncEntity;
  entityId: string;
  shadow: Shadow | undefined;
  /** The local row (null: none). */
  local: LocalRow | null;
  shadowChanged: boolean;
  localChanged: boolean;
};

/**
 * Records push results; each handled mutation leaves the outbox in this same transaction.
 *
 * The results are applied one after another exactly as rebase() would (server row, newer copy
 * kept, pending entries re-applied, conflicts overlaid, later bases advanced), but on an
 * in-memory copy of the rows they touch: read with a few bulk requests, written back with one
 * bulk request per table, instead of about ten IndexedDB requests per result. The reads go out
 * together, then the writes together: in Chromium every request waits for the browser process,
 * and a round of 500 results spent ~230 ms reading table after table (bench:sync's flush of 1,000
 * offline edits was three quarters storing results). A row's local copy is read only when no
 * server copy is kept for it (its shadow): with one, the row is rebuilt from it, as rebase() does.
 * `sent` is the batch the results answer, as readBatch returned it.
 */
/** False when nothing was stored because the store keeps another organization (keepsOrganization). */
export async function applyPushResults(d: CastawayDb, results: MutationResult[], sent: readonly OutboxEntry[], now = Date.now(), organizationId?: string): Promise<boolean> {
  return d.transaction('rw', allTables(d), async () => {
    const entityIds = [...new Set(sent.map((m) => m.entityId))];
    const keys = [...new Set(sent.map((m) => shadowKey(m.entity, m.entityId)))];
    // The entries still queued for these rows (an entry gone since, by another tab's flush, is not
    // found), in outbox order, and their conflicts and kept server copies.
    const [keeps, queued, conflictList, shadowList] = await Promise.all([
      keepsOrganization(d, organizationId),
      d.outbox.where('entityId').anyOf(entityIds).toArray(),
      d.conflicts.where('entityId').anyOf(entityIds).toArray(),
      d.shadows.bulkGet(keys),
    ]);
    if (!keeps) return false;
    const answered = new Set(results.map((r) => r.mutationId));
    const sentSeqs = new Set(sent.map((m) => m.seq));
    const pending = queued.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    if (!pending.some((m) => sentSeqs.has(m.seq) && answered.has(m.id))) return true; // already handled (a duplicated response)
    // The same objects as `pending`, so a base advanced by an earlier result is seen by a later one.
    const byId = new Map(pending.map((m) => [m.id, m]));
    const pendingOf = groupBy(pending, (m) => shadowKey(m.entity, m.entityId));
    const conflictsOf = groupBy(conflictList, (c) => shadowKey(c.entity, c.entityId));
    const states = new Map<string, RowState>();
    const sentOf = groupBy(sent.filter((x) => byId.has(x.id)), (x) => shadowKey(x.entity, x.entityId));
    for (const [i, key] of keys.entries()) {
      const m = sentOf.get(key)?.[0];
      if (m) states.set(key, { entity: m.entity, entityId: m.entityId, shadow: shadowList[i], local: null, shadowChanged: false, localChanged: false });
    }
    const unshadowed = groupBy([...states.values()].filter((st) => !st.shadow), (st) => st.entity);
    await Promise.all(
      [...unshadowed].map(async ([entity, list]) => {
        const rows = await d[entity].bulkGet(list.map((st) => st.entityId));
        for (const [i, st] of list.entries()) st.local = rows[i] ?? null;
      }),
    );
    const removed = new Set<number>();
    const basesChanged = new Set<OutboxEntry>();
    const newConflicts: ConflictEntry[] = [];
    const attention: NeedsAttentionEntry[] = [];

    const rebaseState = (st: RowState, serverRow?: LocalRow | null) => {
      const key = shadowKey(st.entity, st.entityId);
      const mine = (pendingOf.get(key) ?? []).filter((p) => !removed.has(p.seq!));
      const open = [...(conflictsOf.get(key) ?? [])].sort((a, b) => a.createdAt - b.createdAt);
      let base: LocalRow | null;
      if (serverRow !== undefined) base = serverRow;
      else if (st.shadow) base = st.shadow.row;
      else return;
      ({ shadow: st.shadow, row: st.local } = rebased(st.entity, st.entityId, base, mine.map(stripLocal), open));
      st.shadowChanged = true;
      st.localChanged = true;
    };
    /** The server copy we hold: the shadow, else the local row. */
    const held = (st: RowState): LocalRow | null => (st.shadow ? st.shadow.row : st.local);
    /** The server copy we hold, replaced only by a newer one. */
    const newerOf = (st: RowState, incoming: LocalRow | null): LocalRow | null => {
      const known = held(st);
      return incoming && known && version(known) > version(incoming) ? known : incoming;
    };

    for (const r of results) {
      const m = byId.get(r.mutationId);
      if (!m || removed.has(m.seq!) || !sentSeqs.has(m.seq)) continue;
      // The server failed on it (a 5xx of that one mutation), it did not refuse it: it stays queued
      // as it is, and the engine retries it after a backoff (isTransientStatus).
      if (r.status === 'rejected' && isTransientStatus(r.httpStatus)) continue;
      removed.add(m.seq!);
      const key = shadowKey(m.entity, m.entityId);
      const st = states.get(key)!;
      const mutation = stripLocal(m);
      switch (r.status) {
        case 'applied':
        case 'merged': {
          let row: LocalRow | null;
          const patched = r.status === 'applied' && r.patch ? patchedRow(held(st), r.patch) : null;
          if (r.row) row = r.row as LocalRow;
          else if (patched) row = patched;
          else if (mutationKind(m) === 'delete') row = null;
          // No row in the answer (or a patch over a row we do not hold): assume the server now
          // holds our change until the next pull.
          else row = applyMutation(st.shadow?.row ?? null, mutation);
          rebaseState(st, newerOf(st, row));
          const written = row?.['ModifiedAtUtc'];
          if (r.status === 'applied' && typeof written === 'string' && mutationDef(m.name)?.writesRow) {
            // An applied mutation wrote exactly base + its fields; later pending edits of the row
            // made on top of it (same base) now have the written row as base.
            for (const p of pendingOf.get(key) ?? []) {
              if (removed.has(p.seq!) || mutationKind(p) === 'create') continue;
              if (p.base === m.base) {
                p.base = written;
                basesChanged.add(p);
              }
            }
          }
          break;
        }
        case 'conflict': {
          const entry: ConflictEntry = { id: m.id, entity: m.entity, entityId: m.entityId, mutation, fields: r.fields, serverRow: r.serverRow as LocalRow, createdAt: now };
          const open = conflictsOf.get(key) ?? [];
          const at = open.findIndex((c) => c.id === entry.id);
          if (at >= 0) open.splice(at, 1);
          open.push(entry);
          conflictsOf.set(key, open);
          newConflicts.push(entry);
          rebaseState(st, newerOf(st, r.serverRow as LocalRow));
          break;
        }
        case 'rejected':
          attention.push({ id: m.id, entity: m.entity, entityId: m.entityId, mutation, httpStatus: r.httpStatus, errors: r.errors, createdAt: now });
          rebaseState(st);
          break;
      }
    }

    // A batch is nearly always a run of consecutive entries: one range delete, when nothing else
    // lies in the range (entries of another user or organization skipped by readBatch).
    const seqs = [...removed].sort((a, b) => a - b);
    const range = seqs.length > 1 ? d.outbox.where(':id').between(seqs[0]!, seqs[seqs.length - 1]!, true, true) : null;
    const deleteAnswered = async () => {
      if (range && (await range.count()) === seqs.length) await range.delete();
      else await d.outbox.bulkDelete(seqs);
    };
    const writes: Array<Promise<unknown>> = [deleteAnswered()];
    const stillPending = [...basesChanged].filter((p) => !removed.has(p.seq!));
    if (stillPending.length > 0) writes.push(d.outbox.bulkPut(stillPending));
    if (newConflicts.length > 0) writes.push(d.conflicts.bulkPut(newConflicts));
    if (attention.length > 0) writes.push(d.needsAttention.bulkPut(attention));
    const all = [...states.values()].filter((st) => st.shadowChanged || st.localChanged);
    const shadowPuts = all.filter((st) => st.shadowChanged && st.shadow).map((st) => st.shadow!);
    const shadowDeletes = all.filter((st) => st.shadowChanged && !st.shadow).map((st) => shadowKey(st.entity, st.entityId));
    if (shadowPuts.length > 0) writes.push(d.shadows.bulkPut(shadowPuts));
    if (shadowDeletes.length > 0) writes.push(d.shadows.bulkDelete(shadowDeletes));
    for (const [entity, changed] of groupBy(all.filter((st) => st.localChanged), (st) => st.entity)) {
      const puts = changed.filter((st) => st.local).map((st) => st.local!);
      const deletes = changed.filter((st) => !st.local).map((st) => st.entityId);
      if (puts.length > 0) writes.push(d[entity].bulkPut(puts));
      if (deletes.length > 0) writes.push(d[entity].bulkDelete(deletes));
    }
    await Promise.all(writes);
    return true;
  });
}

/** `items` by `keyOf`, each group in the order of `items`. */
function groupBy<T, K>(items: Iterable<T>, keyOf: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const group = groups.get(key);
    if (group) group.push(item);
    else groups.set(key, [item]);
  }
  return groups;
}

/** Whether an HTTP status says the server (or something on the way) could not answer now, not
 * that it refuses the change: 5xx, 408 (timeout) and 429 (too many requests). Such a change stays
 * in the outbox and goes again after a backoff; only the other 4xx (the server's refusals:
 * 400/403/404/409/413/422…) send a change to needs-attention. */
export function isTransientStatus(httpStatus: number): boolean {
  return httpStatus >= 500 || httpStatus === 408 || httpStatus === 429;
}

/** Moves a queued mutation the server refused outright (not per mutation, e.g. a 403 of the whole
 * push) to needs-attention with the server's reason; the rest of the outbox goes on. */
export async function recordRefused(d: CastawayDb, mutationId: string, httpStatus: number, errors: FieldError[]): Promise<void> {
  await d.transaction('rw', allTables(d), async () => {
    const m = await d.outbox.where('id').equals(mutationId).first();
    if (m) await toNeedsAttention(d, m, httpStatus, errors);
  });
}

async function toNeedsAttention(d: CastawayDb, m: OutboxEntry, httpStatus: number, errors: FieldError[]): Promise<void> {
  await d.outbox.delete(m.seq!);
  await d.needsAttention.put({ id: m.id, entity: m.entity, entityId: m.entityId, mutation: stripLocal(m), httpStatus, errors, createdAt: Date.now() });
  await rebase(d, m.entity, m.entityId);
}

function stripLocal(m: OutboxEntry): Mutation {
  const { seq: _seq, attempts: _attempts, organizationId: _org, userId: _user, entity: _entity, entityId: _entityId, ...mutation } = m;
  return mutation;
}

/**
 * Rows in key order (IndexedDB compares string keys by UTF-16 code unit, as `<` does). A page comes
 * in Version order, which for random UUIDs is a random key order; Chromium's IndexedDB stores rows
 * in key order, and puts in that order (the table's and its indexes', which end with the key) cost
 * its backend less: 10,000 clips in one relaxed transaction, ~9 % less browser CPU and ~15 % less
 * wall time than in Version order (medians of 12 alternating runs, bench page). Stable, so a row
 * given twice would still end as its later copy.
 */
const byId = (a: LocalRow, b: LocalRow) => (a.Id < b.Id ? -1 : a.Id > b.Id ? 1 : 0);

/** Above this many rows of one table in a page, reading the table's keys beats reading the rows. */
const PAGE_KEYS_THRESHOLD = 200;

/**
 * Stores one pulled page: rows and tombstones rebased under pending edits, cursor advanced.
 * `initial`: this page belongs to a pull that started with no cursor (the first sync of this
 * database) and the engine has stored nothing else since it began, so rows not shadowed (no
 * pending edit, no conflict) cannot already be here: they are stored without looking.
 * `organizationId`: the organization the page was pulled for; false when nothing was stored
 * because the store keeps another (keepsOrganization).
 */
export async function applyPullPage(d: CastawayDb, page: PullResponse, options: { initial?: boolean; organizationId?: string } = {}): Promise<boolean> {
  return d.transaction('rw', allTables(d), async () => {
    if (page.rebuild) {
      if (!(await keepsOrganization(d, options.organizationId))) return false;
      await clearForRebuild(d);
    }
    const byEntity = new Map([...groupBy(page.rows, (r) => r.entity)].map(([entity, rows]) => [entity, rows.map((r) => r.row as LocalRow)]));
    // Every read goes out at once, then every write (in Chromium each request waits for the
    // browser process: one after another they were most of the time a one-row page took to
    // store). Rows with a server copy kept, pending edits or conflicts are rebased one by one;
    // the rest (nearly all, on an initial sync) are stored in bulk. The reads that say which (and
    // the stored permissions) are one bulk request each, not a cursor walked entry by entry: the
    // outbox may hold a thousand edits made offline. A local row newer than the pulled one (a push
    // result stored after this page was read) is kept, so the page's rows as stored are read too,
    // but on an initial sync: nothing can be stored there yet.
    const readStored = !(options.initial && !page.rebuild);
    const [keeps, shadowKeys, pending, conflicts, storedPermissions, stored, firstSync] = await Promise.all([
      page.rebuild || keepsOrganization(d, options.organizationId),
      d.shadows.toCollection().primaryKeys(),
      d.outbox.toArray(),
      d.conflicts.toArray(),
      d.permissions.toArray(),
      Promise.all([...byEntity].map(async ([entity, rows]) => [entity, readStored ? await storedOf(d, entity, rows) : new Map()] as const)),
      readFirstSync(d),
    ]);
    if (!keeps) return false;
    const shadowed = new Set(shadowKeys as string[]);
    for (const x of [...pending, ...conflicts]) shadowed.add(shadowKey(x.entity, x.entityId));
    for (const { entity, row } of page.rows) {
      if (shadowed.has(shadowKey(entity, row.Id))) await rebase(d, entity, row.Id, await newerOf(d, entity, row.Id, row as LocalRow));
    }
    for (const t of page.tombstones) if (shadowed.has(shadowKey(t.entity, t.id))) await rebase(d, t.entity, t.id, null);

    const writes: Array<Promise<unknown>> = [];
    for (const [entity, held] of stored) {
      const rows = byEntity.get(entity)!.filter((r) => !shadowed.has(shadowKey(entity, r.Id)));
      // Nor is a row written again that the device holds as it is: after a flush the pull brings
      // back every row the push answered (1,000 edits: 1,000 rows), and each write would wake the
      // live queries showing it. Same Version is not enough: a clip's PlaylistIds change with
      // its playlists, not its Version.
      const changed = (r: LocalRow) => {
        const mine = held.get(r.Id);
        return !mine || version(mine) < version(r) || (version(mine) === version(r) && !deepEqual(mine, r));
      };
      const puts = held.size === 0 ? rows : rows.filter(changed);
      if (puts.length > 0) writes.push(d[entity].bulkPut(puts.sort(byId)));
    }
    // Tombstones of rows with nothing pending are deleted in one bulk request per table (a page
    // after a permission is taken away can be thousands of them).
    const gone = groupBy(page.tombstones.filter((t) => !shadowed.has(shadowKey(t.entity, t.id))), (t) => t.entity);
    for (const [entity, tombstones] of gone) writes.push(d[entity].bulkDelete(tombstones.map((t) => t.id)));
    // Rewritten only when they changed (each write wakes every live query on permissions).
    const permissions = page.permissions.map((p, i) => ({ key: `${i}`, ...p }));
    if (JSON.stringify(storedPermissions) !== JSON.stringify(permissions)) {
      writes.push(d.permissions.clear().then(() => d.permissions.bulkPut(permissions)));
      // A change after the first download (a right given or taken away): the page reloads its
      // session, whose copy of the permissions the menus and screens read (OrganizationScope).
      if (!options.initial) writes.push(d.syncState.put({ key: 'permissionsChangedAt', value: Date.now() }));
    }
    writes.push(d.syncState.put({ key: 'cursor', value: page.cursor }));
    const progress = firstSyncAfter(firstSync, page, options.initial === true);
    if (progress) writes.push(d.syncState.put({ key: 'firstSync', value: progress }));
    await Promise.all(writes);
    return true;
  });
}

/** The stored copies of a page's rows of one table, by Id. For a large page the table's keys (no
 * values read) say which of its rows are stored, and only those are read. */
async function storedOf(d: CastawayDb, entity: SyncEntity, rows: readonly LocalRow[]): Promise<Map<string, LocalRow>> {
  let ids = rows.map((r) => r.Id);
  if (rows.length > PAGE_KEYS_THRESHOLD) {
    const keys = new Set((await d[entity].toCollection().primaryKeys()) as string[]);
    ids = ids.filter((id) => keys.has(id));
  }
  const stored = ids.length === 0 ? [] : await d[entity].bulkGet(ids);
  return new Map(stored.filter((r): r is LocalRow => r !== undefined).map((r) => [r.Id, r]));
}

/** Drops every synced row (the caller's view changed); the outbox, conflicts and needs-attention
 * stay, and rows created offline come back from their pending creates. */
async function clearForRebuild(d: CastawayDb): Promise<void> {
  const shadows = await d.shadows.toArray();
  for (const t of SYNCED_TABLES) await d[t].clear();
  await d.shadows.clear();
  for (const s of shadows) {
    if (s.row === null) {
      await d.shadows.put(s);
      await rebase(d, s.entity, s.entityId);
    }
  }
}

export type TransientStatus = Pick<SyncStatus, 'online' | 'paused' | 'lastSyncedAt' | 'lastError' | 'storageFull'>;

async function outboxCounts(d: CastawayDb, now: number) {
  const oldest = await d.outbox.orderBy('seq').first();
  return {
    pendingCount: await d.outbox.count(),
    oldestPendingAgeMs: oldestPendingAge(oldest?.createdAt, now),
    conflictCount: await d.conflicts.count(),
    needsAttentionCount: await d.needsAttention.count(),
  };
}

export async function computeStatus(d: CastawayDb, transient: TransientStatus, now = Date.now()): Promise<SyncStatus> {
  return d.transaction('r', [d.outbox, d.conflicts, d.needsAttention], async () => ({ ...EMPTY_STATUS, ...transient, updatedAt: now, ...(await outboxCounts(d, now)) }));
}

export async function writeStatus(d: CastawayDb, status: SyncStatus): Promise<void> {
  await d.syncState.put({ key: 'status', value: status });
}

/** The status as the engine last wrote it, with the counts and the age of the oldest pending edit
 * read from the outbox now: an edit queued since (or a status written hours ago, offline) shows
 * its real age, not the one it had when the status was written. */
export async function readStatus(d: CastawayDb, now = Date.now()): Promise<SyncStatus> {
  return d.transaction('r', [d.syncState, d.outbox, d.conflicts, d.needsAttention], async () => {
    const row = await d.syncState.get('status');
    const stored = row && row.key === 'status' ? row.value : EMPTY_STATUS;
    return { ...EMPTY_STATUS, ...stored, ...(await outboxCounts(d, now)) };
  });
}
