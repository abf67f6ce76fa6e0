// Push: runs each queued mutation through the SAME operations as the REST API (routes/
// content-ops.ts: permissions, preconditions and validation are the API's), idempotent by
// mutation id.
//
//   mutation ──seen before (stored, or earlier in this batch)?──yes──> the stored result, again
//      │ no
//      ▼
//   API call with If-Match: "<base>" ──2xx──> applied
//      │ 412 (+ current row)       ──400/403/404/409──> rejected (the API's errors)
//      ▼                           ──5xx / thrown──> stop the batch here (client retries later)
//   three-way merge against row_revisions (merge.ts)
//      ├ nothing conflicts ──re-call with the merged fields on the current base──> merged
//      └ conflicts ──write the non-conflicting fields, report the rest──> conflict
//
// How the calls run: consecutive mutations that a shared operation serves form one transaction
// (sync/batch.ts: their rows loaded with one query per table, written with a few bulk
// statements, the results stored by the last of them (resultsTail), one poke after commit). A mutation no
// shared operation serves (the clip cut) is called over the API's router, one transaction each,
// its result stored after the call commits; a crash in between means the call is made again on
// retry, which the precondition and the merge turn into a no-op rather than a double write. When
// a batch transaction fails (a slug race at the bulk write, a database error), it is rolled back
// and its mutations are called over the router one by one instead: the same answers, slower.
import type { Queryable, Store } from '../store/store.ts';
import type { Auth } from '../auth.ts';
import type { InProcessEnv } from '../app.ts';
import { AppError } from '../errors.ts';
import { parseJsonBody } from '../http.ts';
import { matchMutation } from '../routes/content-ops.ts';
import type { EntityName, WriteTail } from '../rows.ts';
import { BatchStore } from './batch.ts';
import { loadRowsWithRevisions, revisionKey, revisionRows } from './revisions.ts';
import { MutationSchema, type ConflictField, type Mutation, type MutationResult, type SyncEntity, type SyncRow } from '../../src/protocol/sync.ts';
import type { FieldError } from '../../src/protocol/errors.ts';
import { deepEqual } from '../../src/protocol/json-equal.ts';
import { authorOf, theirChangedFields, threeWayMerge, type MergeConflict, type Revision, type Row } from './merge.ts';

export type Dispatch = (path: string, init: { method: string; headers: Record<string, string>; body?: string }, env: InProcessEnv) => Promise<Response>;

/** row_revisions.entity of each synced table. */
export const REVISION_ENTITY: Record<SyncEntity, EntityName> = {
  organizations: 'organization',
  networks: 'network',
  programs: 'program',
  playlists: 'playlist',
  clips: 'clip',
  recordings: 'recording',
  annotations: 'annotation',
};

/** Where the REST API serves one row (annotations have no single-row GET). */
const ROW_PATH: Partial<Record<SyncEntity, (id: string) => string>> = {
  networks: (id) => `/v1/networks/${id}`,
  programs: (id) => `/v1/programs/${id}`,
  playlists: (id) => `/v1/playlists/${id}`,
  clips: (id) => `/v1/clips/${id}`,
  recordings: (id) => `/v1/recordings/${id}`,
};

export class PushUnauthorized extends Error {}

type PushInput = {
  store: Store;
  dispatch: Dispatch;
  /** Credentials and organization of the caller, forwarded to every call over the router. */
  forward: Record<string, string>;
  auth: Auth;
  clientId: string;
  mutations: unknown[];
  now: Date;
  /** After each committed transaction that wrote rows: its highest Version (the poke). */
  onCommit: (version: number) => void;
  /** The client takes an applied row as a patch on the row it was written over (PushRequest.patches). */
  patches?: boolean;
};

const MERGE_ATTEMPTS = 5;

function rejected(mutationId: string, httpStatus: number, errors: FieldError[]): MutationResult {
  return { mutationId, status: 'rejected', httpStatus, errors };
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function isRow(v: unknown): v is Row & { Id: string } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && typeof (v as Row)['Id'] === 'string';
}

function errorsOf(body: unknown): FieldError[] {
  const errors = (body as { Errors?: unknown } | null)?.Errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : [];
}

class Transient extends Error {}
/** The batch transaction cannot answer this mutation itself: roll back, call over the router. */
class NeedsRouter extends Error {}

/** `before`: the row the write was made on, when the call wrote in the batch transaction. */
type Answer = { status: number; body: unknown; before?: Row | null };

/** How one mutation's API calls are made: in the batch transaction, or over the router. */
type Caller = {
  call(method: string, path: string, body: unknown, ifMatch: string | null): Promise<Answer>;
  /** The row as a GET of the API answers it (null: not 200). */
  get(m: Mutation): Promise<(Row & { Id: string }) | null>;
  /** The kept revisions of the mutation's row as whole rows, oldest first (`current`: the row now). */
  revisions(m: Mutation, current: Row & { Id: string }): Promise<Revision[]>;
};

/** `before`: the row an applied write was made on (known for writes in the batch transaction). */
type Outcome = { result: MutationResult; written: string | null; before?: Row | null };

/** The merge's view of a row's kept revisions: whole rows, each marked when this client wrote it. */
async function mergeRevisions(q: Queryable, clientId: string, m: Mutation, current: Row & { Id: string }): Promise<Revision[]> {
  const rows = await revisionRows(q, REVISION_ENTITY[m.entity], current);
  return rows.map((r) => ({ modifiedAtUtc: r.modifiedAtUtc, row: r.row, own: r.clientId === clientId }));
}

/** Calls over the API's router (its own session check and transaction per call). */
function routerCaller(input: PushInput): Caller {
  const caller: Caller = {
    async call(method, path, body, ifMatch) {
      const headers: Record<string, string> = { ...input.forward };
      if (body !== null && body !== undefined) headers['content-type'] = 'application/json';
      if (ifMatch) headers['if-match'] = `"${ifMatch}"`;
      let res: Response;
      try {
        res = await input.dispatch(`/api${path}`, { method, headers, ...(body !== null && body !== undefined ? { body: JSON.stringify(body) } : {}) }, { syncClientId: input.clientId });
      } catch {
        throw new Transient();
      }
      if (res.status === 401) throw new PushUnauthorized();
      if (res.status >= 500) throw new Transient();
      return { status: res.status, body: await readJson(res) };
    },
    async get(m) {
      const path = ROW_PATH[m.entity];
      if (!path) return null;
      const res = await caller.call('GET', path(m.entityId), null, null);
      return res.status === 200 && isRow(res.body) ? res.body : null;
    },
    revisions: (m, current) => mergeRevisions(input.store, input.clientId, m, current),
  };
  return caller;
}

/** Calls the shared operations inside the batch transaction. */
function batchCaller(input: PushInput, unit: BatchStore): Caller {
  return {
    async call(method, path, body, ifMatch) {
      try {
        const match = matchMutation(method, path);
        if (!match) throw new NeedsRouter();
        const { op, params } = match;
        op.before?.(input.auth);
        const parsed = op.schema ? parseJsonBody(body, op.schema) : undefined;
        const row = await unit.run(() => op.run(unit, params, ifMatch, parsed));
        // As the route answers: no body for 204 (the playlist clips route's ETag names the row, as a GET would).
        if (op.answer === 'none') return { status: 204, body: null };
        return { status: op.answer === 'created' ? 201 : 200, body: row, before: unit.writtenOver(row) };
      } catch (err) {
        if (err instanceof AppError) return { status: err.status, body: err.body ?? null };
        throw err;
      }
    },
    get() {
      // Only a create answered 409 asks (rare): the router's GET applies the read rules.
      throw new NeedsRouter();
    },
    revisions: (m, current) => mergeRevisions(unit.q, input.clientId, m, current),
  };
}

/**
 * A result as stored in sync_mutations: an applied or merged result keeps its status and the
 * Version of the row it answered, nothing else (the row comes back from row_revisions, the
 * mutation id is the stored row's own; storing both per mutation doubled what a push writes).
 * Conflicts and refusals keep their whole answer (rare, and the user's view). Results stored by
 * earlier releases may still name their mutation id; it is the row's id all the same.
 */
type StoredResult = MutationResult | { status: 'applied' | 'merged'; rowVersion: number };

function compact(result: MutationResult): StoredResult {
  if ((result.status === 'applied' || result.status === 'merged') && result.row && typeof result.row['Version'] === 'number') {
    return { status: result.status, rowVersion: result.row['Version'] };
  }
  return result;
}

/**
 * The stored results again, with their rows: the row as the mutation's write left it, rebuilt
 * from the row now and its kept revisions (sync/revisions.ts). When that revision has been
 * pruned, an applied result answers without a row (the client then keeps its own copy until the
 * next pull, and does not take a later row as the base of its later edits) and a merged one with
 * the row as it now is.
 */
async function expand(q: Queryable, organizationId: string, stored: Array<{ id: string; entity: SyncEntity; entity_id: string; result: StoredResult }>): Promise<MutationResult[]> {
  const answered = stored.flatMap((m) => ('rowVersion' in m.result ? [{ ref: { entity: REVISION_ENTITY[m.entity], id: m.entity_id }, version: m.result.rowVersion }] : []));
  // A revision is rebuilt from the row back through the newer ones: older ones are not needed.
  const oldest = Math.min(...answered.map((a) => a.version));
  const loaded = await loadRowsWithRevisions(q, organizationId, answered.map((a) => a.ref), Number.isFinite(oldest) ? oldest - 1 : 0);
  return stored.map(({ id, entity, entity_id, result }): MutationResult => {
    if (!('rowVersion' in result)) return result;
    const found = loaded.get(revisionKey(REVISION_ENTITY[entity], entity_id));
    const row = (found?.revisions.find((r) => r.version === result.rowVersion)?.row as SyncRow | undefined) ?? null;
    if (result.status === 'applied') return { mutationId: id, status: 'applied', row };
    const now = row ?? (found?.current as SyncRow | undefined);
    return now ? { mutationId: id, status: 'merged', row: now } : { mutationId: id, status: 'applied', row: null };
  });
}

export async function processPush(input: PushInput): Promise<MutationResult[]> {
  // Segments: consecutive mutations the batch transaction serves, or one the router serves.
  const items: Item[] = input.mutations.map((raw) => {
    const parsed = MutationSchema.safeParse(raw);
    if (!parsed.success) return { raw, parsed, router: false };
    let router = false;
    try {
      router = matchMutation(parsed.data.method, parsed.data.path) === null;
    } catch {
      router = false; // a path parameter that names no row: the shared operation answers 404
    }
    return { raw, parsed, router };
  });

  // The results of the mutations already processed (a mutation that does not parse is refused
  // before its id is looked at).
  const ids = items.flatMap(({ parsed }) => (parsed.success ? [parsed.data.id] : []));
  const stored = new Map<string, { user_id: string; result: MutationResult }>();
  if (ids.length > 0) {
    const rows = await input.store.query<{ id: string; user_id: string; entity: SyncEntity; entity_id: string; result: StoredResult }>(
      `SELECT id, user_id, entity, entity_id, result FROM sync_mutations WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const results = await expand(input.store, input.auth.organizationId, rows);
    for (const [i, r] of rows.entries()) stored.set(r.id, { user_id: r.user_id, result: results[i]! });
  }

  const segments: Item[][] = [];
  for (const item of items) {
    const last = segments[segments.length - 1];
    if (item.router || !last || last[0]!.router) segments.push([item]);
    else last.push(item);
  }

  const results: MutationResult[] = [];
  const chain = new Map<string, { base: string | null; written: string }>();
  const session: Session = { input, stored, chain, before: new Map() };
  for (const segment of segments) {
    const before = new Map(chain);
    const beforeStored = new Map(stored);
    if (!segment[0]!.router) {
      try {
        results.push(...(await inTransaction(session, segment)));
        continue;
      } catch (err) {
        if (err instanceof PushUnauthorized) throw err;
        // Rolled back: the same mutations over the router, one by one.
        chain.clear();
        for (const [k, v] of before) chain.set(k, v);
        stored.clear();
        for (const [k, v] of beforeStored) stored.set(k, v);
      }
    }
    const { done, stop } = await overRouter(session, segment);
    results.push(...done);
    if (stop) break;
  }
  // Versions are known once every transaction has committed: only now can a patch name them.
  return input.patches ? results.map((r) => asPatch(r, session.before.get(r))) : results;
}

/**
 * An applied result as a patch when the client asks (PushRequest.patches): the fields the write
 * changed, with the Version of the row it was made on. A push of 500 clip title edits answered
 * 1,013,513 bytes of whole rows; as patches, 102,513 bytes. Whole rows stay where no patch can say
 * it: a create, a row a field went away from, a write over the router (its row before is not
 * known here), a result answered again from storage.
 */
function asPatch(result: MutationResult, before: Row | null | undefined): MutationResult {
  if (result.status !== 'applied' || !result.row || !before || typeof before['Version'] !== 'number') return result;
  const after = result.row;
  for (const k in before) if (!(k in after)) return result;
  const fields: Record<string, unknown> = {};
  for (const k in after) {
    const value = after[k];
    if (value !== before[k] && (!(k in before) || !deepEqual(before[k], value))) fields[k] = value;
  }
  // A clip's PlaylistIds change with its playlists, not its Version: the device's copy at
  // fromVersion may predate a playlist write of this very push, so they always come along.
  if ('PlaylistIds' in after) fields['PlaylistIds'] = after['PlaylistIds'];
  return { mutationId: result.mutationId, status: 'applied', patch: { fromVersion: before['Version'], fields } };
}

type Session = {
  input: PushInput;
  stored: Map<string, { user_id: string; result: MutationResult }>;
  chain: Map<string, { base: string | null; written: string }>;
  /** Per applied result of this push: the row its write was made on (for asPatch). */
  before: Map<MutationResult, Row>;
};

/** One mutation of a push as received, read once. */
type Item = { raw: unknown; parsed: ReturnType<typeof MutationSchema.safeParse>; router: boolean };

/** The answer without a call (unreadable or already processed), or the mutation to run as sent. */
function prepare(s: Session, { raw, parsed }: Item): { answer: MutationResult } | { m: Mutation } {
  const rawId = (raw as { id?: unknown } | null)?.id;
  if (!parsed.success) {
    return {
      answer: rejected(typeof rawId === 'string' ? rawId : '', 400, parsed.error.issues.map((i) => ({ Field: i.path.join('.'), Code: 'invalid', Message: i.message }))),
    };
  }
  const m = parsed.data;
  // Ids are UUIDs in any case (the database gives them back in lower case): stored by the lower
  // case, answered with the id as this push sent it.
  const seen = s.stored.get(m.id.toLowerCase());
  if (seen) {
    if (seen.user_id !== s.input.auth.user.Id) return { answer: rejected(m.id, 409, []) };
    return { answer: seen.result.mutationId === m.id ? seen.result : { ...seen.result, mutationId: m.id } };
  }
  // A mutation made on top of an earlier one of this batch that applied exactly (base + its
  // fields = the row it wrote) really has that row as its base: send it so (saves a 412).
  const link = s.chain.get(m.entityId);
  return { m: link && link.base === m.baseModifiedAtUtc ? { ...m, baseModifiedAtUtc: link.written } : m };
}

function remember(s: Session, m: Mutation, original: Mutation, outcome: Outcome): void {
  s.stored.set(m.id.toLowerCase(), { user_id: s.input.auth.user.Id, result: outcome.result });
  if (outcome.before) s.before.set(outcome.result, outcome.before);
  if (outcome.result.status === 'applied' && outcome.written) s.chain.set(m.entityId, { base: original.baseModifiedAtUtc, written: outcome.written });
  else s.chain.delete(m.entityId);
}

/**
 * Mutations from which a batch transaction on PostgreSQL runs in two halves, each with a read and
 * a write statement of its own, so that the database works while Node does. Measured on 2 cores
 * with pushes of 500 title edits, whole and in halves alternating in one process: ~5 % less time
 * per push in halves (from -1 % to 10 % over seven runs; thirds or quarters did worse than
 * halves). Not on PGlite, which runs in Node's own thread: nothing overlaps there, and the extra
 * statements made pushes 10-16 % slower.
 */
export const PIPELINE_MIN = 100;

const STORE_RESULT = `INSERT INTO sync_mutations (id, client_id, user_id, entity, entity_id, result, written_modified_at_utc, processed_at_utc)`;

async function inTransaction(s: Session, segment: Item[]): Promise<MutationResult[]> {
  const { input } = s;
  const write = { organizationId: input.auth.organizationId, userId: input.auth.user.Id, now: input.now, clientId: input.clientId };
  const { results, version } = await input.store.tx(async (q) => {
    const unit = new BatchStore(q, input.auth, write);
    const targets = (items: Item[]) => items.flatMap(({ parsed: p }) => (p.success ? [{ entity: REVISION_ENTITY[p.data.entity], id: p.data.entityId.toLowerCase() }] : []));
    // A large batch on PostgreSQL runs in two halves (batch.ts, pipelining): the second half's
    // rows are read, and the first half's writes stored, while Node runs the other half.
    const half = input.store.kind === 'postgres' && segment.length >= PIPELINE_MIN ? Math.ceil(segment.length / 2) : segment.length;
    const later = targets(segment.slice(half));
    await unit.preload(targets(segment.slice(0, half)), later);
    unit.prefetch(later);
    const done: Array<{ m: Mutation; outcome: Outcome }> = [];
    const caller = batchCaller(input, unit);
    const out: MutationResult[] = [];
    for (const [i, item] of segment.entries()) {
      if (i === half) unit.startFlush();
      const { raw } = item;
      const prepared = prepare(s, item);
      if ('answer' in prepared) {
        out.push(prepared.answer);
        continue;
      }
      const outcome = await execute(caller, input.auth.user.Id, prepared.m);
      done.push({ m: prepared.m, outcome });
      remember(s, prepared.m, raw as Mutation, outcome);
      out.push(outcome.result);
    }
    // The results go in the statement of the batch's last writes. A conflict's server row is
    // stored whole, Version included: when it is one of those writes, they are stored first.
    if (done.some(({ outcome: { result } }) => result.status === 'conflict' && unit.isPending(result.serverRow))) await unit.flush();
    await unit.flush(done.length > 0 ? (ordOf) => resultsTail(input, done, ordOf) : undefined);
    return { results: out, version: unit.maxVersion };
  });
  if (version > 0) input.onCommit(version);
  return results;
}

/**
 * The results of a batch transaction's mutations as a CTE of its last write statement (rows.ts
 * WriteTail): an applied or merged result whose row that statement writes takes its rowVersion
 * from the statement's `w`, so storing the results costs no statement of its own. Every other
 * result is stored as compact() makes it, its Versions known.
 */
function resultsTail(input: PushInput, done: ReadonlyArray<{ m: Mutation; outcome: Outcome }>, ordOf: (row: unknown) => number | undefined): WriteTail {
  const docs = done.map(({ m, outcome: { result, written } }) => {
    const row = result.status === 'applied' || result.status === 'merged' ? result.row : null;
    const ord = row ? ordOf(row) : undefined;
    return { id: m.id, entity: m.entity, entity_id: m.entityId, written, ...(ord === undefined ? { result: compact(result) } : { status: result.status, ord }) };
  });
  return {
    cte: (p) => `stored AS (${STORE_RESULT}
       SELECT r.id, $${p}, $${p + 1}, r.entity, r.entity_id, coalesce(r.result, jsonb_build_object('status', r.status, 'rowVersion', w.version)), r.written, $${p + 2}
       FROM jsonb_to_recordset($${p + 3}::jsonb) AS r(id uuid, entity text, entity_id text, result jsonb, written text, status text, ord int)
       LEFT JOIN w ON w.ord = r.ord
       ON CONFLICT (id) DO NOTHING)`,
    params: [input.clientId, input.auth.user.Id, input.now, JSON.stringify(docs)],
  };
}

async function overRouter(s: Session, segment: Item[]): Promise<{ done: MutationResult[]; stop: boolean }> {
  const { input } = s;
  const caller = routerCaller(input);
  const done: MutationResult[] = [];
  for (const item of segment) {
    const { raw } = item;
    const prepared = prepare(s, item);
    if ('answer' in prepared) {
      done.push(prepared.answer);
      continue;
    }
    let outcome: Outcome;
    try {
      outcome = await execute(caller, input.auth.user.Id, prepared.m);
    } catch (err) {
      if (err instanceof Transient) return { done, stop: true };
      throw err;
    }
    const m = prepared.m;
    await input.store.query(`${STORE_RESULT} VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`, [
      m.id,
      input.clientId,
      input.auth.user.Id,
      m.entity,
      m.entityId,
      JSON.stringify(compact(outcome.result)),
      outcome.written,
      input.now,
    ]);
    remember(s, m, raw as Mutation, outcome);
    done.push(outcome.result);
  }
  return { done, stop: false };
}

/** The row after a successful write: from the answer, else as the API's GET shows it. */
async function rowAfter(caller: Caller, m: Mutation, body: unknown): Promise<(Row & { Id: string }) | null> {
  if (isRow(body) && body.Id.toLowerCase() === m.entityId.toLowerCase()) return body;
  if (m.method === 'DELETE') return null;
  return caller.get(m);
}

async function execute(caller: Caller, userId: string, m: Mutation): Promise<Outcome> {
  if (m.method !== 'POST' && !m.path.toLowerCase().includes(m.entityId.toLowerCase())) {
    return { result: rejected(m.id, 400, [{ Field: 'path', Code: 'invalid', Message: 'The path does not name the row of the mutation' }]), written: null };
  }
  let res = await caller.call(m.method, m.path, m.body, m.baseModifiedAtUtc);
  let merged = false;
  let conflicts: MergeConflict[] = [];

  for (let attempt = 0; res.status === 412; attempt++) {
    if (!isRow(res.body) || attempt >= MERGE_ATTEMPTS) throw new Transient(); // the row keeps changing: later
    const current = res.body;
    const base = m.baseModifiedAtUtc ?? '';
    const revisions = await caller.revisions(m, current);
    let patch: Row | null;
    if (m.method === 'DELETE') {
      // A delete over someone else's edit conflicts on the row's existence; over nothing (or only
      // this client's own earlier writes) it is sent again on the current base.
      const theirs = theirChangedFields(base, current, revisions);
      // Against their newest change (the map's last entry), or the row's author without the base.
      const theirsBy = theirs === null ? authorOf(current) : [...theirs.values()].at(-1);
      // What would go with the row: each field they changed, as it was at the base and is now.
      const baseRow = theirs === null ? undefined : revisions.find((r) => r.modifiedAtUtc === base)?.row;
      const theirChanges = baseRow && theirs ? [...theirs.keys()].map((field) => ({ field, base: baseRow[field] ?? null, theirs: current[field] ?? null })) : undefined;
      conflicts = theirsBy ? [{ field: 'Deleted', base: false, mine: true, theirs: false, theirsBy, ...(theirChanges ? { theirChanges } : {}) }] : [];
      patch = conflicts.length > 0 ? null : {};
    } else {
      const result = threeWayMerge(m.body ?? {}, base, current, revisions);
      conflicts = result.conflicts;
      patch = Object.keys(result.patch).length > 0 ? result.patch : null;
    }
    merged = true;
    if (patch === null) {
      // Nothing left to write: every field has our value already, or conflicts.
      const result: MutationResult =
        conflicts.length > 0
          ? { mutationId: m.id, status: 'conflict', serverRow: current, fields: conflicts.map(toWireConflict) }
          : { mutationId: m.id, status: 'merged', row: current };
      return { result, written: null };
    }
    res = await caller.call(m.method, m.path, m.method === 'DELETE' ? null : patch, String(current['ModifiedAtUtc']));
  }

  if (res.status >= 200 && res.status < 300) {
    const row = await rowAfter(caller, m, res.body);
    // Only a write of the row itself is recorded as this client's revision (a cut is stored
    // beside the clip and leaves the clip row as it was).
    const touchesRow = !m.path.startsWith('/internal/');
    const written = touchesRow && row && typeof row['ModifiedAtUtc'] === 'string' ? row['ModifiedAtUtc'] : null;
    if (conflicts.length > 0 && row) return { result: { mutationId: m.id, status: 'conflict', serverRow: row, fields: conflicts.map(toWireConflict) }, written };
    if (merged && row) return { result: { mutationId: m.id, status: 'merged', row }, written };
    return { result: { mutationId: m.id, status: 'applied', row }, written, before: res.before ?? null };
  }
  if (res.status === 409 && m.method === 'POST') {
    // The Id exists: our own create whose answer was lost (applied), or someone else's row.
    const row = await rowAfter(caller, m, null);
    if (row && row['CreatedById'] === userId) return { result: { mutationId: m.id, status: 'applied', row }, written: null };
  }
  if (res.status === 404 && m.method === 'DELETE') {
    // Already gone (an earlier attempt whose answer was lost, or someone else deleted it).
    return { result: { mutationId: m.id, status: 'applied', row: null }, written: null };
  }
  return { result: rejected(m.id, res.status, errorsOf(res.body)), written: null };
}

function toWireConflict(c: MergeConflict): ConflictField {
  return { field: c.field, base: c.base ?? null, mine: c.mine ?? null, theirs: c.theirs ?? null, theirsById: c.theirsBy.byId, theirsAtUtc: c.theirsBy.atUtc, ...(c.theirChanges ? { theirChanges: c.theirChanges } : {}) };
}
