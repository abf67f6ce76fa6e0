// Push: runs each queued named mutation through its server run (sync-server/mutations: the same
// run, permissions and rules as the REST route of that mutation), idempotent by mutation id.
//
//   mutation ──seen before (stored, or earlier in this batch)?──yes──> the stored result, again
//      │ no        ──unreadable (shape, unknown name, args, strings)──> rejected 400, field errors
//      ▼
//   run(args, base) ──ok──> applied
//      │ 412 (+ current row)       ──400/403/404/409──> rejected (the run's errors)
//      ▼                           ──thrown (database down…)──> stop the batch here (client retries)
//   three-way merge against row_revisions (merge.ts)
//      ├ nothing conflicts ──run again with the merged fields on the current base──> merged
//      └ conflicts ──write the non-conflicting fields, report the rest──> conflict
//
// How the runs go: consecutive batchable mutations form one transaction (sync/batch.ts: their
// rows loaded with one query per table, written with a few bulk statements, the results stored by
// the last of them (resultsTail), one poke after commit). A mutation with effects outside the
// database (an action such as new audio from a URL) runs alone in a transaction of its own on a
// direct store, its result stored in that same transaction. When a batch transaction fails (a
// slug race at the bulk write, a database error), it is rolled back and its mutations run one by
// one, each in its own transaction: the same answers, slower. Every mutation received is
// answered, but for those after a failure that is the database's (the client sends them again).
//
// Protocol version 1 pushes (devices still running the earlier release) carry API calls: each is
// converted to its named mutation on arrival (src/mutations/legacy.ts) and then runs the same way.
import type { Queryable, Store } from '../store/store.ts';
import type { Auth } from '../auth.ts';
import { AppError } from '../errors.ts';
import { fieldErrorsOfZod, nfc, stringProblems } from '../body.ts';
import { directStore, mayReadRow, type OpStore } from '../mutations/store.ts';
import { argsFieldName, type RunContext, type ServerMutation } from '../mutations/run.ts';
import { loadRow, type WireRow, type WriteTail } from '../rows.ts';
import { BatchStore } from './batch.ts';
import { loadRowsWithRevisions, revisionKey, revisionRows } from './revisions.ts';
import { LegacyMutationSchema, MutationSchema, type ConflictField, type Mutation, type MutationResult, type SyncEntity, type SyncRow } from '../../src/protocol/sync.ts';
import { KIND_OF, type EntityName } from '../../src/protocol/entity-kinds.ts';
import type { FieldError } from '../../src/protocol/errors.ts';
import { deepEqual } from '../../src/protocol/json-equal.ts';
import { fromLegacy } from '../../src/mutations/legacy.ts';
import { hasPrecondition } from '../../src/mutations/define.ts';
import { authorOf, theirChangedFields, threeWayMerge, type MergeConflict, type Revision, type Row } from './merge.ts';


type PushInput = {
  store: Store;
  /** The server runs by mutation name (sync-server/mutations/run.ts mutationRegistry). */
  runs: ReadonlyMap<string, ServerMutation>;
  auth: Auth;
  clientId: string;
  /** The push request's protocol version: 1 sends API calls, converted on arrival. */
  protocolVersion: 1 | 2;
  mutations: unknown[];
  now: Date;
  /** The API origin the push reached (actions that read the studio's own media URLs). */
  origin: string;
  /** After each committed transaction that wrote rows: its highest Version (the poke). */
  onCommit: (version: number) => void;
  /** The client takes an applied row as a patch on the row it was written over (PushRequest.patches). */
  patches?: boolean;
};

const MERGE_ATTEMPTS = 5;

function rejected(mutationId: string, httpStatus: number, errors: FieldError[]): MutationResult {
  return { mutationId, status: 'rejected', httpStatus, errors };
}

function errorsOf(body: unknown): FieldError[] {
  const errors = (body as { Errors?: unknown } | null)?.Errors;
  return Array.isArray(errors) ? (errors as FieldError[]) : [];
}

/** A mutation read and checked: its server run, its arguments parsed, and the row it names. */
type Ready = { m: Mutation; run: ServerMutation; args: unknown; entity: SyncEntity; entityId: string };
/** One mutation of a push as received, read once: ready to run, or answered already. */
type Item = { raw: unknown; ready: Ready } | { raw: unknown; answer: MutationResult };

/** The mutation id as sent, for an answer to a mutation that could not be read. */
const idOf = (raw: unknown) => {
  const id = (raw as { id?: unknown } | null)?.id;
  return typeof id === 'string' ? id : '';
};

/**
 * Reads one mutation as sent: its shape, its name, its arguments by its own schema, and strings
 * no store can hold. A problem is the mutation's 400, naming the field (the fields of an update
 * by their own names, as the REST route's body names them).
 */
export function readMutation(input: Pick<PushInput, 'runs' | 'protocolVersion'>, raw: unknown): Item {
  let m: Mutation;
  if (input.protocolVersion === 1) {
    const legacy = LegacyMutationSchema.safeParse(raw);
    if (!legacy.success) return { raw, answer: rejected(idOf(raw), 400, fieldErrorsOfZod(legacy.error, raw)) };
    const converted = fromLegacy(legacy.data);
    if (!converted) return { raw, answer: rejected(legacy.data.id, 400, [{ Field: 'path', Code: 'invalid', Message: 'No change of this release is made by this call' }]) };
    m = converted;
  } else {
    const parsed = MutationSchema.safeParse(raw);
    if (!parsed.success) return { raw, answer: rejected(idOf(raw), 400, fieldErrorsOfZod(parsed.error, raw)) };
    m = parsed.data;
  }
  const run = input.runs.get(m.name);
  if (!run) return { raw, answer: rejected(m.id, 400, [{ Field: 'name', Code: 'invalid', Message: `No mutation is named ${m.name}` }]) };
  const strings = stringProblems(m.args, argsFieldName);
  if (strings.length > 0) return { raw, answer: rejected(m.id, 400, strings) };
  // Strings as the REST body reader leaves them (sync-server/body.ts): one spelling of each.
  m = { ...m, args: nfc(m.args) };
  const args = run.def.args.safeParse(m.args);
  if (!args.success) return { raw, answer: rejected(m.id, 400, fieldErrorsOfZod(args.error, m.args, argsFieldName)) };
  return { raw, ready: { m, run, args: args.data, entity: run.def.entity, entityId: run.def.rowId(args.data) } };
}

/** How one mutation's run goes: in the batch transaction (BatchStore), or in one of its own. */
type Runner = {
  /** Runs the mutation on `expected`; an AppError is the run's answer, anything else is thrown. */
  run(r: Ready, args: unknown, expected: string | null): Promise<{ ok: true; row: WireRow; before: WireRow | null } | { ok: false; error: AppError }>;
  /** The row as its reader sees it (null: absent, deleted, or not theirs to read). */
  get(r: Ready): Promise<WireRow | null>;
  /** The kept revisions of the row as whole rows, oldest first (`current`: the row now). */
  revisions(r: Ready, current: Row & { Id: string }): Promise<Revision[]>;
};

/** `before`: the row an applied write was made on (known for writes in the batch transaction). */
type Outcome = { result: MutationResult; written: string | null; before?: Row | null };

const kindOf = (r: Ready): EntityName => KIND_OF[r.entity];

/** The merge's view of a row's kept revisions: whole rows, each marked when this client wrote it. */
async function mergeRevisions(q: Queryable, clientId: string, r: Ready, current: Row & { Id: string }): Promise<Revision[]> {
  const rows = await revisionRows(q, kindOf(r), current);
  return rows.map((x) => ({ modifiedAtUtc: x.modifiedAtUtc, row: x.row, own: x.clientId === clientId }));
}

/** The row as a GET would answer the caller: of their organization, live, and theirs to read. */
async function readable(q: Queryable, s: OpStore, r: Ready): Promise<WireRow | null> {
  const row = await loadRow(q, kindOf(r), s.auth.organizationId, r.entityId);
  return row && !row.Deleted && (await mayReadRow(s, r.entity, row)) ? row : null;
}

function runContext(input: PushInput): RunContext {
  return { origin: input.origin };
}

/** Runs in the batch transaction, on its BatchStore. */
function batchRunner(input: PushInput, unit: BatchStore): Runner {
  const ctx = runContext(input);
  return {
    async run(r, args, expected) {
      try {
        const row = await unit.run(() => r.run.run(unit, args, expected, ctx));
        return { ok: true, row, before: unit.writtenOver(row) };
      } catch (err) {
        if (err instanceof AppError) return { ok: false, error: err };
        throw err;
      }
    },
    get: (r) => readable(unit.q, unit, r),
    revisions: (r, current) => mergeRevisions(unit.q, input.clientId, r, current),
  };
}

/** Runs on a direct store inside a transaction of its own (`q`). */
function directRunner(input: PushInput, q: Queryable): Runner {
  const s = directStore(q, input.auth, { organizationId: input.auth.organizationId, userId: input.auth.user.Id, now: input.now, clientId: input.clientId });
  const ctx = runContext(input);
  return {
    async run(r, args, expected) {
      // A failed run leaves nothing: its writes roll back to here, the transaction goes on.
      await q.query('SAVEPOINT run');
      try {
        const row = await r.run.run(s, args, expected, ctx);
        await q.query('RELEASE SAVEPOINT run');
        return { ok: true, row, before: null };
      } catch (err) {
        await q.query('ROLLBACK TO SAVEPOINT run');
        if (err instanceof AppError) return { ok: false, error: err };
        throw err;
      }
    },
    get: (r) => readable(q, s, r),
    revisions: (r, current) => mergeRevisions(q, input.clientId, r, current),
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
  const answered = stored.flatMap((m) => ('rowVersion' in m.result ? [{ ref: { entity: KIND_OF[m.entity], id: m.entity_id }, version: m.result.rowVersion }] : []));
  // A revision is rebuilt from the row back through the newer ones: older ones are not needed.
  const oldest = Math.min(...answered.map((a) => a.version));
  const loaded = await loadRowsWithRevisions(q, organizationId, answered.map((a) => a.ref), Number.isFinite(oldest) ? oldest - 1 : 0);
  return stored.map(({ id, entity, entity_id, result }): MutationResult => {
    if (!('rowVersion' in result)) return result;
    const found = loaded.get(revisionKey(KIND_OF[entity], entity_id));
    const row = (found?.revisions.find((r) => r.version === result.rowVersion)?.row as SyncRow | undefined) ?? null;
    if (result.status === 'applied') return { mutationId: id, status: 'applied', row };
    const now = row ?? (found?.current as SyncRow | undefined);
    return now ? { mutationId: id, status: 'merged', row: now } : { mutationId: id, status: 'applied', row: null };
  });
}

export async function processPush(input: PushInput): Promise<MutationResult[]> {
  const items = input.mutations.map((raw) => readMutation(input, raw));

  // The results of the mutations already processed (a mutation that cannot be read is refused
  // before its id is looked at).
  const ids = items.flatMap((item) => ('ready' in item ? [item.ready.m.id] : []));
  const stored = new Map<string, { user_id: string; result: MutationResult }>();
  if (ids.length > 0) {
    const rows = await input.store.query<{ id: string; user_id: string; entity: SyncEntity; entity_id: string; result: StoredResult }>(
      `SELECT id, user_id, entity, entity_id, result FROM sync_mutations WHERE id = ANY($1::uuid[])`,
      [ids],
    );
    const results = await expand(input.store, input.auth.organizationId, rows);
    for (const [i, r] of rows.entries()) stored.set(r.id, { user_id: r.user_id, result: results[i]! });
  }

  // Segments: consecutive mutations a batch transaction runs, or one that runs alone.
  const alone = (item: Item) => 'ready' in item && !item.ready.run.batchable;
  const segments: Item[][] = [];
  for (const item of items) {
    const last = segments[segments.length - 1];
    if (alone(item) || !last || alone(last[0]!)) segments.push([item]);
    else last.push(item);
  }

  const results: MutationResult[] = [];
  const chain = new Map<string, { base: string | null; written: string }>();
  const session: Session = { input, stored, chain, before: new Map() };
  for (const segment of segments) {
    const before = new Map(chain);
    const beforeStored = new Map(stored);
    if (!alone(segment[0]!)) {
      try {
        results.push(...(await inTransaction(session, segment)));
        continue;
      } catch {
        // Rolled back: the same mutations one by one.
        chain.clear();
        for (const [k, v] of before) chain.set(k, v);
        stored.clear();
        for (const [k, v] of beforeStored) stored.set(k, v);
      }
    }
    const { done, stop } = await oneByOne(session, segment);
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
 * it: a create, a row a field went away from, a write run on its own (its row before is not
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

/** The answer without a run (unreadable or already processed), or the mutation to run as sent. */
function prepare(s: Session, item: Item): { answer: MutationResult } | { r: Ready } {
  if ('answer' in item) return { answer: item.answer };
  const r = item.ready;
  // Ids are UUIDs in any case (the database gives them back in lower case): stored by the lower
  // case, answered with the id as this push sent it.
  const seen = s.stored.get(r.m.id.toLowerCase());
  if (seen) {
    if (seen.user_id !== s.input.auth.user.Id) return { answer: rejected(r.m.id, 409, []) };
    return { answer: seen.result.mutationId === r.m.id ? seen.result : { ...seen.result, mutationId: r.m.id } };
  }
  // A mutation made on top of an earlier one of this batch that applied exactly (base + its
  // fields = the row it wrote) really has that row as its base: send it so (saves a 412).
  const link = s.chain.get(r.entityId);
  return { r: link && link.base === r.m.base ? { ...r, m: { ...r.m, base: link.written } } : r };
}

function remember(s: Session, r: Ready, original: Mutation, outcome: Outcome): void {
  s.stored.set(r.m.id.toLowerCase(), { user_id: s.input.auth.user.Id, result: outcome.result });
  if (outcome.before) s.before.set(outcome.result, outcome.before);
  if (outcome.result.status === 'applied' && outcome.written) s.chain.set(r.entityId, { base: original.base, written: outcome.written });
  else s.chain.delete(r.entityId);
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
    const targets = (items: Item[]) => items.flatMap((item) => ('ready' in item ? [{ entity: kindOf(item.ready), id: item.ready.entityId }] : []));
    // A large batch on PostgreSQL runs in two halves (batch.ts, pipelining): the second half's
    // rows are read, and the first half's writes stored, while Node runs the other half.
    const half = input.store.kind === 'postgres' && segment.length >= PIPELINE_MIN ? Math.ceil(segment.length / 2) : segment.length;
    const later = targets(segment.slice(half));
    await unit.preload(targets(segment.slice(0, half)), later);
    unit.prefetch(later);
    const done: Array<{ r: Ready; outcome: Outcome }> = [];
    const runner = batchRunner(input, unit);
    const out: MutationResult[] = [];
    for (const [i, item] of segment.entries()) {
      if (i === half) unit.startFlush();
      const prepared = prepare(s, item);
      if ('answer' in prepared) {
        out.push(prepared.answer);
        continue;
      }
      const outcome = await execute(runner, input.auth.user.Id, prepared.r);
      done.push({ r: prepared.r, outcome });
      remember(s, prepared.r, (item as { ready: Ready }).ready.m, outcome);
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
function resultsTail(input: PushInput, done: ReadonlyArray<{ r: Ready; outcome: Outcome }>, ordOf: (row: unknown) => number | undefined): WriteTail {
  const docs = done.map(({ r, outcome: { result, written } }) => {
    const row = result.status === 'applied' || result.status === 'merged' ? result.row : null;
    const ord = row ? ordOf(row) : undefined;
    return { id: r.m.id, entity: r.entity, entity_id: r.entityId, written, ...(ord === undefined ? { result: compact(result) } : { status: result.status, ord }) };
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

/** Each mutation in a transaction of its own, its result stored in it. A failure of the database
 * stops the push there: the client sends the rest again. */
async function oneByOne(s: Session, segment: Item[]): Promise<{ done: MutationResult[]; stop: boolean }> {
  const { input } = s;
  const done: MutationResult[] = [];
  for (const item of segment) {
    const prepared = prepare(s, item);
    if ('answer' in prepared) {
      done.push(prepared.answer);
      continue;
    }
    const r = prepared.r;
    let outcome: Outcome;
    let version = 0;
    try {
      outcome = await input.store.tx(async (q) => {
        const o = await execute(directRunner(input, q), input.auth.user.Id, r);
        await q.query(`${STORE_RESULT} VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`, [
          r.m.id,
          input.clientId,
          input.auth.user.Id,
          r.entity,
          r.entityId,
          JSON.stringify(compact(o.result)),
          o.written,
          input.now,
        ]);
        const row = o.result.status === 'applied' || o.result.status === 'merged' ? o.result.row : o.result.status === 'conflict' ? o.result.serverRow : null;
        version = typeof row?.['Version'] === 'number' ? row['Version'] : 0;
        return o;
      });
    } catch (err) {
      // The operator's log: the device only sees the push end here and sends the rest again.
      // eslint-disable-next-line no-console
      console.error('push: a mutation failed to run', r.m.name, err);
      return { done, stop: true };
    }
    if (version > 0) input.onCommit(version);
    remember(s, r, (item as { ready: Ready }).ready.m, outcome);
    done.push(outcome.result);
  }
  return { done, stop: false };
}

async function execute(runner: Runner, userId: string, r: Ready): Promise<Outcome> {
  const { m, run } = r;
  const def = run.def;
  const expected = hasPrecondition(def) ? m.base : null;
  let res = await runner.run(r, r.args, expected);
  let merged = false;
  let conflicts: MergeConflict[] = [];

  for (let attempt = 0; !res.ok && res.error.status === 412; attempt++) {
    const current = res.error.body as (Row & { Id: string }) | undefined;
    // The row keeps changing under us: the database's problem, sent again later.
    if (!current || typeof current.Id !== 'string' || attempt >= MERGE_ATTEMPTS) throw new Error('push: the row kept changing during the merge');
    const base = m.base ?? '';
    const revisions = await runner.revisions(r, current);
    let args: unknown | null;
    if (def.kind === 'delete') {
      // A delete over someone else's edit conflicts on the row's existence; over nothing (or only
      // this client's own earlier writes) it is run again on the current base.
      const theirs = theirChangedFields(base, current, revisions);
      // Against their newest change (the map's last entry), or the row's author without the base.
      const theirsBy = theirs === null ? authorOf(current) : [...theirs.values()].at(-1);
      // What would go with the row: each field they changed, as it was at the base and is now.
      const baseRow = theirs === null ? undefined : revisions.find((x) => x.modifiedAtUtc === base)?.row;
      const theirChanges = baseRow && theirs ? [...theirs.keys()].map((field) => ({ field, base: baseRow[field] ?? null, theirs: current[field] ?? null })) : undefined;
      conflicts = theirsBy ? [{ field: 'Deleted', base: false, mine: true, theirs: false, theirsBy, ...(theirChanges ? { theirChanges } : {}) }] : [];
      args = conflicts.length > 0 ? null : r.args;
    } else {
      const result = threeWayMerge(def.fields(r.args), base, current, revisions);
      conflicts = result.conflicts;
      args = Object.keys(result.patch).length > 0 ? def.withFields(r.args, result.patch) : null;
    }
    merged = true;
    if (args === null) {
      // Nothing left to write: every field has our value already, or conflicts.
      const result: MutationResult =
        conflicts.length > 0
          ? { mutationId: m.id, status: 'conflict', serverRow: current, fields: conflicts.map(toWireConflict) }
          : { mutationId: m.id, status: 'merged', row: current };
      return { result, written: null };
    }
    res = await runner.run(r, args, String(current['ModifiedAtUtc']));
  }

  if (res.ok) {
    const row = def.kind === 'delete' ? null : res.row;
    // Only a write of the row itself is recorded as this client's revision (a cut is kept beside
    // the clip and leaves the clip row as it was).
    const written = def.writesRow && typeof res.row['ModifiedAtUtc'] === 'string' ? res.row['ModifiedAtUtc'] : null;
    if (conflicts.length > 0 && row) return { result: { mutationId: m.id, status: 'conflict', serverRow: row, fields: conflicts.map(toWireConflict) }, written };
    if (merged && row) return { result: { mutationId: m.id, status: 'merged', row }, written };
    return { result: { mutationId: m.id, status: 'applied', row }, written, before: res.before };
  }
  const error = res.error;
  if (error.status === 409 && def.kind === 'create') {
    // The Id exists: our own create whose answer was lost (applied), or someone else's row.
    const row = await runner.get(r);
    if (row && row['CreatedById'] === userId) return { result: { mutationId: m.id, status: 'applied', row }, written: null };
  }
  if (error.status === 404 && def.kind === 'delete') {
    // Already gone (an earlier attempt whose answer was lost, or someone else deleted it).
    return { result: { mutationId: m.id, status: 'applied', row: null }, written: null };
  }
  return { result: rejected(m.id, error.status, errorsOf(error.body)), written: null };
}

function toWireConflict(c: MergeConflict): ConflictField {
  return { field: c.field, base: c.base ?? null, mine: c.mine ?? null, theirs: c.theirs ?? null, theirsById: c.theirsBy.byId, theirsAtUtc: c.theirsBy.atUtc, ...(c.theirChanges ? { theirChanges: c.theirChanges } : {}) };
}
