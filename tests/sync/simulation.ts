// A seeded, deterministic fault simulation of the whole sync path: N fake-indexeddb clients (each
// its own Dexie database, running the real engine) against the real server (createApp on PGlite),
// through a transport that drops requests, drops responses, duplicates requests and delivers some
// requests late (after newer ones: reordered); the server restarts in the middle of a batch (after
// committing some mutations, once even between a REST write and its recorded result) and clients
// are killed in the middle of a flush (request sent, answer never stored) and reopened.
//
// Every run ends quiescent and checks:
//   1. every client equals the server's view for its user (rows and tombstones, via a full pull);
//   2. every local edit is accounted for: its mutation was processed by the server and it is
//      applied or merged (the row revision its result points to has the edited values: Tags of a
//      merge with the user's additions and without their removals), a conflict the user was
//      shown, or a needs-attention item; nothing is left in any outbox. Zero silently lost.
// The server keeps only a row's last 50 revisions, so the simulation copies the rows of the
// revisions each push writes (rebuilt from row_revisions' undo steps, sync/revisions.ts) to look
// up the ones results point to at the end.
// All randomness comes from the seed: a failing seed replays exactly (`npm run sim -- --seed N`).
import { randomUUID } from 'node:crypto';
import { addUser, ALL_FLAGS, api, appTransport, comparable, login, makeClient, requestText, setPermissions, type Client, type Server } from './harness.ts';
import type { Transport } from '../../workers/sync/engine.ts';
import { openLocalDb, SYNCED_TABLES } from '../../src/db/db.ts';
import { createWrites } from '../../src/db/writes.ts';
import { conflictsApi } from '../../src/db/conflicts.ts';
import { createSyncEngine } from '../../workers/sync/engine.ts';
import { LocalRowNotFoundError } from '../../src/db/writes.ts';
import type { MutationResult, PullResponse, SyncEntity } from '../../src/protocol/sync.ts';
import type { PermissionEntry } from '../../src/domain/permissions.ts';
import { mergeSet, SET_FIELDS } from '../../sync-server/sync/merge.ts';
import { deepEqual } from '../../src/protocol/json-equal.ts';
import { KIND_OF } from '../../src/protocol/entity-kinds.ts';
import { mutationFields, mutationKind } from '../../src/mutations/registry.ts';
import type { MutationKind } from '../../src/mutations/define.ts';
import { loadRowsWithRevisions } from '../../sync-server/sync/revisions.ts';
import type { EntityName } from '../../sync-server/rows.ts';
import type { LocalRow } from '../../src/db/db.ts';

export type SimOptions = {
  seed: number;
  ops: number;
  clients?: number;
  server: Server;
  log?: (line: string) => void;
};
// Row Ids come from the seed, so a seed runs once per server: replays use a fresh one.
export type SimReport = {
  seed: number;
  ops: number;
  edits: number;
  applied: number;
  merged: number;
  conflicts: number;
  rejected: number;
  /** Applied or merged edits whose values were found in the row revision their result names. */
  landedChecked: number;
  faults: Record<string, number>;
  ms: number;
};

/** mulberry32: small, fast, good enough for choosing operations. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)]!,
    chance: (p: number) => next() < p,
    uuid: () => {
      const h = () => Math.floor(next() * 0x10000).toString(16).padStart(4, '0');
      return `${h()}${h()}-${h()}-4${h().slice(1)}-a${h().slice(1)}-${h()}${h()}${h()}`;
    },
  };
}

class SimFailure extends Error {}

type Sim = {
  server: Server;
  r: ReturnType<typeof rng>;
  clients: Array<Client & { user: number; dbName: string }>;
  users: Array<{ id: string; email: string }>;
  faults: Record<string, number>;
  late: Array<{ url: string; init: Parameters<Transport>[1]; cookie: string }>;
  faultsOn: boolean;
  edits: Map<string, Edit>;
  shownConflicts: Set<string>;
  /** Every row revision the server wrote, by `${entity}:${id}:${version}` (the server prunes them). */
  revisions: Map<string, Record<string, unknown>>;
  revisionsSeen: number;
  /** The server's record of each processed edit (filled for the final checks). */
  landed: Map<string, StoredMutation>;
  /** The organization's two networks, and user 0's session for the moves of programs between them. */
  networks: string[];
  adminCookie: string;
};

type Edit = {
  client: number;
  fields: Record<string, unknown> | null;
  kind: MutationKind | undefined;
  /** The server row the edit was made on (its base), when there was one. */
  base: LocalRow | null;
};

const count = (s: Sim, k: string) => (s.faults[k] = (s.faults[k] ?? 0) + 1);

/** A transport into the real app with faults chosen by the seed. */
function faultyTransport(s: Sim, index: number): Transport {
  return async (url, init) => {
    const c = s.clients[index]!;
    const deliver = appTransport(s.server, () => c.cookie);
    // After each push the revisions it wrote are copied, before a later push can prune them.
    const send: Transport = async (u, i) => {
      const res = await deliver(u, i);
      if (u.startsWith('/api/sync/push')) await keepRevisions(s);
      return res;
    };
    if (!s.faultsOn) return send(url, init);
    const isPush = url.startsWith('/api/sync/push');
    const roll = s.r.next();
    if (roll < 0.04) {
      count(s, 'requestDropped');
      throw new TypeError('network: request dropped');
    }
    if (roll < 0.08) {
      count(s, 'responseDropped');
      await send(url, init);
      throw new TypeError('network: response dropped');
    }
    if (roll < 0.11) {
      count(s, 'duplicated');
      await send(url, init);
      return send(url, init);
    }
    if (roll < 0.14) {
      count(s, 'delayedReordered');
      s.late.push({ url, init, cookie: c.cookie });
      throw new TypeError('network: timed out (the request arrives later)');
    }
    if (isPush && roll < 0.16) {
      count(s, 'serverRestartMidBatch');
      await restartMidBatch(s, c, url, init);
      throw new TypeError('network: connection reset (server restarted)');
    }
    if (isPush && roll < 0.18) {
      count(s, 'clientKilledMidFlush');
      await send(url, init);
      await killAndReopen(s, index);
      throw new TypeError('client killed');
    }
    return send(url, init);
  };
}

/** The server commits the first k mutations of the batch (k ≥ 1 also makes the next one's REST
 * write without recording its result, the crash window between the two), then restarts. */
async function restartMidBatch(s: Sim, c: Client, url: string, init: Parameters<Transport>[1]): Promise<void> {
  const body = JSON.parse(requestText(init) || '{}') as { mutations: Array<{ id: string }> };
  const k = s.r.int(body.mutations.length + 1);
  if (k > 0) {
    const headers = { ...init.headers };
    delete headers['content-encoding'];
    await appTransport(s.server, () => c.cookie)(url, { ...init, headers, body: JSON.stringify({ ...body, mutations: body.mutations.slice(0, k) }) });
  }
  const next = body.mutations[k];
  if (next && s.r.chance(0.5)) {
    // The next mutation's write commits and its result is not recorded: pushed alone, its stored
    // result then removed.
    count(s, 'crashBetweenWriteAndRecord');
    const headers = { ...init.headers };
    delete headers['content-encoding'];
    await appTransport(s.server, () => c.cookie)(url, { ...init, headers, body: JSON.stringify({ ...body, mutations: [next] }) });
    await s.server.store.query(`DELETE FROM sync_mutations WHERE id = $1`, [next.id]);
  }
  await keepRevisions(s);
  await s.server.restart();
}

async function killAndReopen(s: Sim, index: number): Promise<void> {
  const old = s.clients[index]!;
  old.engine.stop();
  old.db.close();
  const db = openLocalDb(old.dbName);
  const client = { ...old, db, writes: createWrites(db, { newId: s.r.uuid }), conflicts: conflictsApi(db, { newId: s.r.uuid }) };
  client.engine = createSyncEngine({ db, organizationId: s.server.organizationId, transport: faultyTransport(s, index), setTimer: () => null, clearTimer: () => undefined });
  s.clients[index] = client;
}

async function deliverLate(s: Sim): Promise<void> {
  while (s.late.length > 0 && s.r.chance(0.5)) {
    const item = s.late.splice(s.r.int(s.late.length), 1)[0]!;
    await s.server.app.request(item.url, { method: item.init.method, headers: { ...item.init.headers, cookie: item.cookie }, ...(item.init.body ? { body: item.init.body } : {}) });
    await keepRevisions(s);
  }
}

const WORDS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot', 'Golf', 'Hotel'];
const TAGS = ['news', 'sport', 'music', 'tech', 'talk'];

/** The Ids of the clips this client holds, in Id order (of one program's, with `programId`).
 * Keys only: a deleted clip leaves the table (tombstones and local deletes remove the row), and
 * copying every row out of the store for each operation took a fifth of a 10,000-operation run. */
async function clipIds(c: Client, programId?: string): Promise<string[]> {
  const clips = programId === undefined ? c.db.clips.toCollection() : c.db.clips.where('ProgramId').equals(programId);
  return (await clips.primaryKeys()) as string[];
}

async function record(s: Sim, index: number, before: number, fields: Record<string, unknown> | null, kind: MutationKind) {
  const c = s.clients[index]!;
  const added = await c.db.outbox.where('seq').above(before).toArray();
  for (const m of added) s.edits.set(m.id, { client: index, fields, kind, base: await baseOf(c, m.entity, m.entityId) });
}

async function baseOf(c: Client, entity: SyncEntity, id: string): Promise<LocalRow | null> {
  return (await c.db.shadows.get(`${entity}:${id}`))?.row ?? null;
}

/** Copies the rows of the revisions written since the last call (before the server prunes them),
 * rebuilt from the current rows and their undo steps in one transaction (no write in between). */
async function keepRevisions(s: Sim): Promise<void> {
  await s.server.store.tx(async (q) => {
    const fresh = await q.query<{ organization_id: string; entity: EntityName; id: string; version: number | string }>(
      `SELECT organization_id, entity, id::text AS id, version FROM row_revisions WHERE version > $1`,
      [s.revisionsSeen],
    );
    for (const organizationId of new Set(fresh.map((f) => f.organization_id))) {
      const loaded = await loadRowsWithRevisions(q, organizationId, fresh.filter((f) => f.organization_id === organizationId), s.revisionsSeen);
      for (const [key, { revisions }] of loaded) for (const r of revisions) s.revisions.set(`${key}:${r.version}`, r.row);
    }
    s.revisionsSeen = fresh.reduce((max, f) => Math.max(max, Number(f.version)), s.revisionsSeen);
  });
}

async function lastSeq(c: Client): Promise<number> {
  return (await c.db.outbox.orderBy('seq').last())?.seq ?? 0;
}

async function randomOp(s: Sim): Promise<void> {
  const index = s.r.int(s.clients.length);
  const c = s.clients[index]!;
  const roll = s.r.next();
  const clips = await clipIds(c);
  const before = await lastSeq(c);
  try {
    if (roll < 0.22 && clips.length > 0) {
      const fields = { Title: `${s.r.pick(WORDS)} ${s.r.int(5)}` };
      await c.writes.updateClip(s.r.pick(clips), fields);
      await record(s, index, before, fields, 'update');
    } else if (roll < 0.44 && clips.length > 0) {
      const which = s.r.int(4);
      const fields: Record<string, unknown> =
        which === 0 ? { Description: `d${s.r.int(50)}` } : which === 1 ? { Season: 1 + s.r.int(4) } : which === 2 ? { Episode: 1 + s.r.int(20) } : { Tags: TAGS.filter(() => s.r.chance(0.4)) };
      await c.writes.updateClip(s.r.pick(clips), fields);
      await record(s, index, before, fields, 'update');
    } else if (roll < 0.52) {
      const programs = await c.db.programs.toArray();
      if (programs.length === 0) return;
      const fields = { Title: `New ${s.r.pick(WORDS)}` };
      await c.writes.createClip(s.r.pick(programs).Id, fields);
      await record(s, index, before, fields, 'create');
    } else if (roll < 0.56 && clips.length > 3) {
      await c.writes.deleteClip(s.r.pick(clips));
      await record(s, index, before, null, 'delete');
    } else if (roll < 0.63) {
      const playlists = await c.db.playlists.toArray();
      if (playlists.length === 0) return;
      const pl = s.r.pick(playlists);
      const own = await clipIds(c, pl['ProgramId'] as string);
      const ids = own.filter(() => s.r.chance(0.5));
      for (let i = ids.length - 1; i > 0; i--) {
        const j = s.r.int(i + 1);
        [ids[i], ids[j]] = [ids[j]!, ids[i]!];
      }
      await c.writes.setPlaylistClips(pl.Id, ids);
      await record(s, index, before, { ClipIds: ids }, 'update');
    } else if (roll < 0.66 && clips.length > 0) {
      const fields = { Episode: -1 - s.r.int(5) }; // invalid: the server rejects it
      await c.writes.updateClip(s.r.pick(clips), fields);
      await record(s, index, before, fields, 'update');
    } else if (roll < 0.71) {
      await resolveOne(s, c, s.r.int(3));
    } else if (roll < 0.73) {
      count(s, 'permissionChange');
      await changePermissions(s);
    } else if (roll < 0.74) {
      count(s, 'programMove');
      await moveProgram(s);
    } else if (roll < 0.76) {
      await deliverLate(s);
    } else {
      await c.engine.flush();
    }
  } catch (err) {
    if (err instanceof LocalRowNotFoundError) return; // the row vanished locally: no edit made
    throw err;
  }
}

async function resolveOne(s: Sim, c: Client, how: number): Promise<boolean> {
  const conflict = await c.db.conflicts.orderBy('id').first();
  if (!conflict) return false;
  s.shownConflicts.add(conflict.id);
  const before = await lastSeq(c);
  const index = s.clients.indexOf(c as Sim['clients'][number]);
  if (how === 0) await c.conflicts.keepTheirs(conflict.id);
  else if (how === 1) await c.conflicts.keepMine(conflict.id);
  else await c.conflicts.resolveFields(conflict.id, Object.fromEntries(conflict.fields.map((f, i) => [f.field, i % 2 === 0 ? 'mine' : 'theirs'])));
  const m = (await c.db.outbox.where('seq').above(before).toArray())[0];
  if (m) s.edits.set(m.id, { client: index, fields: mutationFields(m), kind: mutationKind(m), base: await baseOf(c, m.entity, m.entityId) });
  return true;
}

/** The scoped user (users[2]) gains or loses the second program; or, a third of the time, holds
 * the first network instead, so that what they see follows the programs moved in and out of it. */
async function changePermissions(s: Sim): Promise<void> {
  const programs = await s.server.store.query<{ id: string }>(`SELECT id FROM programs WHERE organization_id = $1 ORDER BY name`, [s.server.organizationId]);
  const flags = { HasContentAccess: true, HasManageSettingsAccess: true };
  const entries: PermissionEntry[] =
    s.networks.length > 0 && s.r.chance(1 / 3)
      ? [{ ObjectType: 'Network', ObjectId: s.networks[0]!, Permissions: flags }]
      : programs.filter((_, i) => i === 0 || s.r.chance(0.5)).map((p) => ({ ObjectType: 'Program', ObjectId: p.id, Permissions: flags }));
  await setPermissions(s.server, s.users[2]!.id, entries);
}

/** A program moves to the other network, or out of both (as an administrator does, on the server). */
async function moveProgram(s: Sim): Promise<void> {
  const programs = await s.server.store.query<{ id: string }>(`SELECT id FROM programs WHERE organization_id = $1 ORDER BY name`, [s.server.organizationId]);
  const program = s.r.pick(programs);
  const to = s.r.pick([...s.networks, null]);
  const res = await api(s.server, s.adminCookie, 'PATCH', `/v1/programs/${program.id}`, { NetworkId: to });
  if (res.status !== 200) throw new Error(`moving a program: ${res.status} ${JSON.stringify(res.json)}`);
}

async function fullPull(s: Sim, cookie: string): Promise<PullResponse> {
  const res = await api(s.server, cookie, 'GET', '/sync/pull?limit=5000');
  return res.json as unknown as PullResponse;
}

/** A processed mutation as sync-server/sync/push.ts stores it: an applied or merged result keeps
 * the Version of the row revision it answered (`rowVersion`), not the row. */
type StoredMutation = {
  id: string;
  entity: SyncEntity;
  entity_id: string;
  result: MutationResult | { status: 'applied' | 'merged'; rowVersion: number };
  /** The ModifiedAtUtc of the revision this mutation wrote itself (null: it wrote none). */
  written_modified_at_utc: string | null;
};

function rowVersionOf(m: StoredMutation): number | null {
  return 'rowVersion' in m.result ? Number(m.result.rowVersion) : null;
}

/**
 * What is wrong with an applied or merged edit's landing, or null: every edited field has the
 * edited value in the row revision its result points to. Set fields (Tags) of a merge hold the
 * edit's additions and none of its removals (mergeSet). When the result's revision is not one
 * this mutation wrote (a create answered 409 and found as the user's own row, a merge with
 * nothing left to write), a later edit of the field by anyone may have superseded the value.
 */
function landedWrong(s: Sim, id: string, edit: Edit, m: StoredMutation): string | null {
  if (!edit.fields || edit.kind === 'delete') return null;
  const version = rowVersionOf(m);
  if (version === null) return m.result.status === 'applied' && 'row' in m.result && m.result.row === null ? null : 'its result names no row revision';
  const row = s.revisions.get(`${KIND_OF[m.entity]}:${m.entity_id}:${version}`);
  if (!row) return `the row revision ${version} its result points to was never written`;
  const own = m.written_modified_at_utc !== null;
  if (own && new Date(String(row['ModifiedAtUtc'])).getTime() !== new Date(m.written_modified_at_utc!).getTime()) {
    return `its result points to revision ${version} (${String(row['ModifiedAtUtc'])}), not the one it wrote (${m.written_modified_at_utc})`;
  }
  for (const [field, value] of Object.entries(edit.fields)) {
    const have = row[field];
    let ok: boolean;
    if (SET_FIELDS.has(field) && m.result.status === 'merged') {
      const merged = mergeSet(edit.base?.[field], value, have);
      ok = merged.length === (Array.isArray(have) ? have.length : 0) && merged.every((x) => (have as unknown[]).includes(x));
    } else ok = deepEqual(have, value);
    if (ok || (!own && supersededBy(s, id, m, field, have, version))) continue;
    return `${field} is ${JSON.stringify(have)} in revision ${version}, not ${JSON.stringify(value)}`;
  }
  return null;
}

/** Another user edit of the same field of the row landed (applied or merged) with this value by `version`. */
function supersededBy(s: Sim, id: string, m: StoredMutation, field: string, value: unknown, version: number): boolean {
  for (const [otherId, other] of s.edits) {
    if (otherId === id || !other.fields || !(field in other.fields) || !deepEqual(other.fields[field], value)) continue;
    const landed = s.landed.get(otherId);
    if (landed && landed.entity === m.entity && landed.entity_id === m.entity_id && (rowVersionOf(landed) ?? Infinity) <= version) return true;
  }
  return false;
}

function fail(s: Sim, seed: number, ops: number, message: string): never {
  throw new SimFailure(`simulation seed ${seed} (ops ${ops}) failed: ${message}\n  replay: npm run sim -- --seed ${seed} --ops ${ops}`);
}

export async function runSimulation(o: SimOptions): Promise<SimReport> {
  const started = performance.now();
  const r = rng(o.seed);
  const idOf = r.uuid;
  const server = o.server;
  await server.newOrganization();
  const tag = `${o.seed}-${randomUUID().slice(0, 8)}`;
  const users = [];
  for (const [i, perms] of [null, null, 'program'].entries()) {
    const email = `sim${i}.${tag}@example.com`;
    const id = await addUser(server, email, perms === null ? [{ ObjectType: 'Organization', ObjectId: server.organizationId, Permissions: ALL_FLAGS }] : []);
    users.push({ id, email });
  }
  const s: Sim = { server, r, clients: [], users, faults: {}, late: [], faultsOn: false, edits: new Map(), shownConflicts: new Set(), revisions: new Map(), revisionsSeen: 0, landed: new Map(), networks: [], adminCookie: '' };
  // Test-only index so copying the new revisions after each operation does not scan them all.
  await server.store.query(`CREATE INDEX IF NOT EXISTS sim_row_revisions_version ON row_revisions (version)`);
  await changePermissions(s);

  // Seed content as user 0: two networks; two programs, six clips each, one playlist each.
  const admin = await login(server, users[0]!.email);
  s.adminCookie = admin;
  for (const name of ['North', 'South']) s.networks.push((await api(server, admin, 'POST', '/v1/networks', { Id: idOf(), Name: name })).json!['Id'] as string);
  for (const name of ['Evening', 'Morning']) {
    // Ids from the seed: the operations pick rows in Id order, so they must replay the same.
    const p = await api(server, admin, 'POST', '/v1/programs', { Id: idOf(), Name: name });
    const pid = p.json!['Id'] as string;
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await api(server, admin, 'POST', `/v1/programs/${pid}/clips`, { Id: idOf(), Title: `${name} ${i}`, Tags: ['news'] })).json!['Id'] as string);
    const pl = await api(server, admin, 'POST', `/v1/programs/${pid}/playlists`, { Id: idOf(), Title: `${name} feed`, Visibility: 'Public' });
    await api(server, admin, 'PATCH', `/v1/playlists/${pl.json!['Id']}/clips`, { ClipIds: ids.slice(0, 3) });
  }

  const n = o.clients ?? 5;
  for (let i = 0; i < n; i++) {
    const user = i === n - 1 ? 2 : i % 2; // two devices per full user, the last client program-scoped
    const cookie = await login(server, users[user]!.email);
    const dbName = `sim-${tag}-${i}`;
    const base = makeClient(server, `c${i}`, cookie, { dbName, transport: faultyTransport(s, i), engine: { setTimer: () => null, clearTimer: () => undefined } });
    const client = { ...base, user, dbName, writes: createWrites(base.db, { newId: r.uuid }), conflicts: conflictsApi(base.db, { newId: r.uuid }) };
    s.clients.push(client);
  }
  for (const c of s.clients) await c.engine.flush();

  s.faultsOn = true;
  for (let op = 0; op < o.ops; op++) await randomOp(s);
  s.faultsOn = false;

  // Quiesce: late requests arrive, every client flushes, conflicts are all shown and answered.
  while (s.late.length > 0) await deliverLate(s);
  for (let round = 0; round < 20; round++) {
    for (const c of s.clients) {
      await c.engine.resume();
      while (await resolveOne(s, c, round % 3)) {
        /* answer every conflict */
      }
      await c.engine.flush();
    }
    const busy = await Promise.all(s.clients.map(async (c) => (await c.db.outbox.count()) + (await c.db.conflicts.count())));
    if (busy.every((b) => b === 0)) break;
    if (round === 19) fail(s, o.seed, o.ops, `clients never became quiet: ${busy.join(', ')} pending`);
  }
  for (const c of s.clients) await c.engine.flush();
  await keepRevisions(s);

  // 1. Convergence with the server's view of each user.
  for (const c of s.clients) {
    const view = await fullPull(s, c.cookie);
    for (const entity of SYNCED_TABLES) {
      const want = new Map(view.rows.filter((x) => x.entity === entity).map((x) => [x.row.Id, comparable(x.row)]));
      const have = new Map((await c.db[entity].toArray()).map((row) => [row.Id, comparable(row)]));
      for (const [id, row] of want) {
        if (!deepEqual(row, have.get(id))) fail(s, o.seed, o.ops, `${c.name} ${entity} ${id} differs from the server:\n  server ${JSON.stringify(row)}\n  client ${JSON.stringify(have.get(id))}`);
      }
      for (const id of have.keys()) if (!want.has(id)) fail(s, o.seed, o.ops, `${c.name} keeps ${entity} ${id} that the server does not show it`);
    }
    if ((await c.db.shadows.count()) !== 0) fail(s, o.seed, o.ops, `${c.name} keeps server copies with nothing pending`);
  }

  // 2. Every edit accounted for.
  const ids = [...s.edits.keys()];
  const stored = await s.server.store.query<StoredMutation>(
    `SELECT id, entity, entity_id, result, written_modified_at_utc FROM sync_mutations WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  const results = new Map(stored.map((x) => [x.id, x.result]));
  s.landed = new Map(stored.map((x) => [x.id, x]));
  const tally = { applied: 0, merged: 0, conflicts: 0, rejected: 0, landedChecked: 0 };
  for (const [id, edit] of s.edits) {
    const result = results.get(id);
    if (!result) fail(s, o.seed, o.ops, `edit ${id} of c${edit.client} (${edit.kind} ${JSON.stringify(edit.fields)}) never reached the server: silently lost`);
    const c = s.clients[edit.client]!;
    switch (result.status) {
      case 'applied':
      case 'merged': {
        tally[result.status]++;
        const lost = landedWrong(s, id, edit, s.landed.get(id)!);
        if (lost) fail(s, o.seed, o.ops, `edit ${id} of c${edit.client} (${edit.kind} ${JSON.stringify(edit.fields)}) reported ${result.status} but ${lost}`);
        if (edit.fields && edit.kind !== 'delete' && rowVersionOf(s.landed.get(id)!) !== null) tally.landedChecked++;
        break;
      }
      case 'conflict':
        tally.conflicts++;
        if (!s.shownConflicts.has(id)) fail(s, o.seed, o.ops, `conflict of edit ${id} was never shown to the user`);
        break;
      case 'rejected':
        tally.rejected++;
        if (!(await c.db.needsAttention.get(id))) fail(s, o.seed, o.ops, `rejected edit ${id} is not in c${edit.client}'s needs-attention list`);
        break;
    }
  }
  for (const c of s.clients) if ((await c.db.outbox.count()) > 0) fail(s, o.seed, o.ops, `${c.name} still has queued edits`);

  const report: SimReport = { seed: o.seed, ops: o.ops, edits: s.edits.size, ...tally, faults: s.faults, ms: Math.round(performance.now() - started) };
  for (const c of s.clients) {
    c.engine.stop();
    c.db.close();
    await c.db.delete();
  }
  o.log?.(`sim seed ${o.seed}: ${o.ops} ops, ${report.edits} edits: ${tally.applied} applied, ${tally.merged} merged (${tally.landedChecked} checked in their row revision), ${tally.conflicts} conflicts shown, ${tally.rejected} needs attention; faults ${JSON.stringify(s.faults)} in ${report.ms} ms`);
  return report;
}
