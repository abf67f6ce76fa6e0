// Push: runs each queued mutation through the SAME REST handlers as an online call (so
// permissions and validation are the API's), idempotent by mutation id.
//
//   mutation ──seen before?──yes──> the stored result, again
//      │ no
//      ▼
//   REST call with If-Match: "<base>" ──2xx──> applied
//      │ 412 (+ current row)       ──400/403/404/409──> rejected (the API's errors)
//      ▼                           ──5xx / thrown──> stop the batch here (client retries later)
//   three-way merge against row_revisions (merge.ts)
//      ├ nothing conflicts ──re-call with the merged fields on the current base──> merged
//      └ conflicts ──write the non-conflicting fields, report the rest──> conflict
//
// Results are stored after the REST call commits; a crash in between means the call is made
// again on retry, which the precondition and the merge turn into a no-op (same values) rather
// than a double write.
import type { Queryable } from '../store/store.ts';
import { MutationSchema, type Mutation, type MutationResult, type SyncEntity } from '../../src/protocol/sync.ts';
import type { FieldError } from '../../src/protocol/errors.ts';
import { theirChangedFields, threeWayMerge, type MergeConflict, type Revision, type Row } from './merge.ts';

export type Dispatch = (path: string, init: { method: string; headers: Record<string, string>; body?: string }) => Promise<Response>;

/** row_revisions.entity of each synced table. */
export const REVISION_ENTITY: Record<SyncEntity, string> = {
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
  store: Queryable;
  dispatch: Dispatch;
  /** Credentials and organization of the caller, forwarded to every REST call. */
  forward: Record<string, string>;
  userId: string;
  clientId: string;
  mutations: unknown[];
  now: Date;
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

export async function processPush(input: PushInput): Promise<MutationResult[]> {
  const results: MutationResult[] = [];
  const ids = input.mutations.map((m) => (m as { id?: unknown } | null)?.id).filter((id): id is string => typeof id === 'string');
  const uuidIds = ids.filter((id) => MutationSchema.shape.id.safeParse(id).success);
  const stored = new Map<string, { user_id: string; result: MutationResult }>();
  if (uuidIds.length > 0) {
    const rows = await input.store.query<{ id: string; user_id: string; result: MutationResult }>(
      `SELECT id, user_id, result FROM sync_mutations WHERE id = ANY($1::uuid[])`,
      [uuidIds],
    );
    for (const r of rows) stored.set(r.id, r);
  }

  const chain = new Map<string, { base: string | null; written: string }>();
  for (const raw of input.mutations) {
    const parsed = MutationSchema.safeParse(raw);
    const rawId = (raw as { id?: unknown } | null)?.id;
    if (!parsed.success) {
      results.push(
        rejected(typeof rawId === 'string' ? rawId : '', 400, parsed.error.issues.map((i) => ({ Field: i.path.join('.'), Code: 'invalid', Message: i.message }))),
      );
      continue;
    }
    const m = parsed.data;
    const seen = stored.get(m.id);
    if (seen) {
      results.push(seen.user_id === input.userId ? seen.result : rejected(m.id, 409, []));
      continue;
    }
    // A mutation made on top of an earlier one of this batch that applied exactly (base + its
    // fields = the row it wrote) really has that row as its base: send it so (saves a 412).
    const link = chain.get(m.entityId);
    const effective = link && link.base === m.baseModifiedAtUtc ? { ...m, baseModifiedAtUtc: link.written } : m;
    let outcome: { result: MutationResult; written: string | null };
    try {
      outcome = await execute(input, effective);
    } catch (err) {
      if (err instanceof Transient) break;
      throw err;
    }
    await input.store.query(
      `INSERT INTO sync_mutations (id, client_id, user_id, entity, entity_id, result, written_modified_at_utc, processed_at_utc)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (id) DO NOTHING`,
      [m.id, input.clientId, input.userId, m.entity, m.entityId, JSON.stringify(outcome.result), outcome.written, input.now],
    );
    results.push(outcome.result);
    if (outcome.result.status === 'applied' && outcome.written) chain.set(m.entityId, { base: m.baseModifiedAtUtc, written: outcome.written });
    else chain.delete(m.entityId);
  }
  return results;
}

async function call(input: PushInput, method: string, path: string, body: unknown, ifMatch: string | null): Promise<Response> {
  const headers: Record<string, string> = { ...input.forward };
  if (body !== null && body !== undefined) headers['content-type'] = 'application/json';
  if (ifMatch) headers['if-match'] = `"${ifMatch}"`;
  let res: Response;
  try {
    res = await input.dispatch(`/api${path}`, { method, headers, ...(body !== null && body !== undefined ? { body: JSON.stringify(body) } : {}) });
  } catch {
    throw new Transient();
  }
  if (res.status === 401) throw new PushUnauthorized();
  if (res.status >= 500) throw new Transient();
  return res;
}

/** The row after a successful write: from the response, else a GET of the row. */
async function rowAfter(input: PushInput, m: Mutation, body: unknown): Promise<(Row & { Id: string }) | null> {
  if (isRow(body) && body.Id.toLowerCase() === m.entityId.toLowerCase()) return body;
  const path = ROW_PATH[m.entity];
  if (!path || m.method === 'DELETE') return null;
  const res = await call(input, 'GET', path(m.entityId), null, null);
  if (res.status !== 200) return null;
  const got = await readJson(res);
  return isRow(got) ? got : null;
}

async function revisionsOf(input: PushInput, m: Mutation): Promise<Revision[]> {
  const revs = await input.store.query<{ row: Row }>(`SELECT row FROM row_revisions WHERE entity = $1 AND id = $2 ORDER BY version`, [
    REVISION_ENTITY[m.entity],
    m.entityId,
  ]);
  const own = await input.store.query<{ written_modified_at_utc: string }>(
    `SELECT written_modified_at_utc FROM sync_mutations WHERE client_id = $1 AND entity_id = $2 AND written_modified_at_utc IS NOT NULL`,
    [input.clientId, m.entityId],
  );
  const ownSet = new Set(own.map((o) => o.written_modified_at_utc));
  return revs.map(({ row }) => {
    const modifiedAtUtc = String(row['ModifiedAtUtc']);
    return { modifiedAtUtc, row, own: ownSet.has(modifiedAtUtc) };
  });
}

async function execute(input: PushInput, m: Mutation): Promise<{ result: MutationResult; written: string | null }> {
  if (m.method !== 'POST' && !m.path.toLowerCase().includes(m.entityId.toLowerCase())) {
    return { result: rejected(m.id, 400, [{ Field: 'path', Code: 'invalid', Message: 'The path does not name the row of the mutation' }]), written: null };
  }
  let res = await call(input, m.method, m.path, m.body, m.baseModifiedAtUtc);
  let body = await readJson(res);
  let merged = false;
  let conflicts: MergeConflict[] = [];

  for (let attempt = 0; res.status === 412; attempt++) {
    if (!isRow(body) || attempt >= MERGE_ATTEMPTS) throw new Transient(); // the row keeps changing: later
    const current = body;
    const base = m.baseModifiedAtUtc ?? '';
    const revisions = await revisionsOf(input, m);
    let patch: Row | null;
    if (m.method === 'DELETE') {
      // A delete over someone else's edit conflicts on the row's existence; over nothing (or only
      // this client's own earlier writes) it is sent again on the current base.
      const theirs = theirChangedFields(base, current, revisions);
      conflicts = theirs === null || theirs.size > 0 ? [{ field: 'Deleted', base: false, mine: true, theirs: false }] : [];
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
    res = await call(input, m.method, m.path, m.method === 'DELETE' ? null : patch, String(current['ModifiedAtUtc']));
    body = await readJson(res);
  }

  if (res.status >= 200 && res.status < 300) {
    const row = await rowAfter(input, m, body);
    // Only a write of the row itself is recorded as this client's revision (a cut is stored
    // beside the clip and leaves the clip row as it was).
    const touchesRow = !m.path.startsWith('/internal/');
    const written = touchesRow && row && typeof row['ModifiedAtUtc'] === 'string' ? row['ModifiedAtUtc'] : null;
    let result: MutationResult;
    if (conflicts.length > 0 && row) result = { mutationId: m.id, status: 'conflict', serverRow: row, fields: conflicts.map(toWireConflict) };
    else if (merged && row) result = { mutationId: m.id, status: 'merged', row };
    else result = { mutationId: m.id, status: 'applied', row };
    return { result, written };
  }
  if (res.status === 409 && m.method === 'POST') {
    // The Id exists: our own create whose answer was lost (applied), or someone else's row.
    const row = await rowAfter(input, m, null);
    if (row && row['CreatedById'] === input.userId) return { result: { mutationId: m.id, status: 'applied', row }, written: null };
  }
  if (res.status === 404 && m.method === 'DELETE') {
    // Already gone (an earlier attempt whose answer was lost, or someone else deleted it).
    return { result: { mutationId: m.id, status: 'applied', row: null }, written: null };
  }
  return { result: rejected(m.id, res.status, errorsOf(body)), written: null };
}

function toWireConflict(c: { field: string; base: unknown; mine: unknown; theirs: unknown }) {
  return { field: c.field, base: c.base ?? null, mine: c.mine ?? null, theirs: c.theirs ?? null };
}
