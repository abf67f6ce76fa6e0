// The sync engine: drains the outbox to the server and pulls changes. A plain module over a
// fetch-like transport so the same code runs in the worker and in Node tests/simulation.
//
//            trigger (start, online, visibility, poke, new outbox entry, flush())
//   idle ───────────────────────────────────────────────> flushing: push batches, then pull pages
//    ▲  ▲                                                    │   │
//    │  └────────────── ok (lastSyncedAt = now) ─────────────┘   │ network error / 5xx / timeout
//    │                                                           ▼
//    └──── timer: 500 ms · 2^n (+ jitter), capped at 30 s ── waiting (online = false on network errors;
//                                                               serverError + retryAt on a 5xx: the edits stay
//                                                               queued, never sent to needs-attention)
//   any ──401──> paused 'auth' (outbox kept; nothing sent) ──resume() after login──> flushing
//   start ──store owned by another user──> paused 'otherUser' (nothing sent or pulled) ──resume()
//          after that user's data is discarded or they log in again──> flushing
//   any ──the device's storage is full (a write refused for its quota)──> storageFull, retried
//          with the same backoff (space may be freed at any time); online is what the network
//          last showed (true once any answer arrived). A status the store refuses still reaches
//          the screens through onStatus, marked as not stored.
//
// A 403 of a whole push is first taken for a stale XSRF token (the server's XSRF refusal is a
// 403 without a body, sync-server/auth.ts): a fresh token, the same batch again. Refused again,
// or refused with a body (another reason), the push is retried one mutation at a time to find
// the refused ones, which go to needs-attention with the server's reason; the rest go on.
//
// How much a push carries: the oldest mutations, at most PUSH_BATCH_MAX, whose body fits the
// server's JSON limit. A 413 of several (a proxy with a smaller limit) halves the body size from
// then on; a 413 of one sends it to needs-attention. A push that times out halves the count, and
// an answer well within the timeout doubles it back. A 400 naming `mutations` (a server of an
// earlier release, which takes fewer) halves the count for good.
//
// A push body of 1 KB or more goes gzip-compressed (CompressionStream) while the server's last
// answer said it takes that (Accept-Encoding: gzip, RFC 7694): a push of 500 title edits goes up
// in 26 KB, not 151 KB (its ids and paths do not compress), on a phone the slow way of its link.
// A server of an earlier release never says it. Behind a balancer in a rolling deploy, the push
// may still reach one: its 400 (the bytes read as JSON) sends the push again as it is. A 415, or a
// 400 naming Content-Encoding (something on the way spoils or refuses it), ends compression for
// this engine, and the push goes again as it is.
//
// Mutations leave the outbox only in the transaction that records their result (sync-store.ts),
// so nothing is dropped whatever fails, and one flush runs at a time, so same-row order is kept.
import type { CastawayDb, SyncStatus } from '../../src/db/db.ts';
import {
  applyPullPage,
  applyPushResults,
  computeStatus,
  getClientId,
  readBatch,
  readStatus,
  isTransientStatus,
  recordRefused,
  setCurrentOrganization,
  writeStatus,
} from '../../src/db/sync-store.ts';
import { getCursor } from '../../src/db/first-sync.ts';
import type { OutboxEntry, StoreOwner } from '../../src/db/db.ts';
import { claimStore } from '../../src/db/owner.ts';
import { isStorageFull } from '../../src/db/storage-errors.ts';
import { JSON_BODY_LIMIT_BYTES, MIN_COMPRESS_BYTES, ServerErrorCode, type FieldError } from '../../src/protocol/errors.ts';
import { domain_change_too_large } from '../../locales/domain/en-US.json';
import { parsePullResponse, PULL_LIMIT_MAX, PULL_NEXT_CURSOR_HEADER, PUSH_BATCH_MAX, PushResponseSchema, SYNC_PROTOCOL_VERSION, type PullResponse } from '../../src/protocol/sync.ts';

export type TransportResponse = {
  status: number;
  json(): Promise<unknown>;
  text?(): Promise<string>;
  body?: ReadableStream<Uint8Array> | null;
  headers?: { get(name: string): string | null };
};
export type Transport = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string | Uint8Array<ArrayBuffer>; signal?: AbortSignal },
) => Promise<TransportResponse>;

export type EngineOptions = {
  db: CastawayDb;
  transport: Transport;
  organizationId: string;
  /** The signed-in user. The engine syncs only a store this user owns (or claims one that has no
   * owner); without it (older callers, the benchmark) the store's owner is not checked. */
  user?: StoreOwner;
  /** Prefix of the API, '' in the browser (same origin). */
  baseUrl?: string;
  /** Extra request headers (Node: the session cookie; the browser sends cookies itself). */
  headers?: () => Record<string, string>;
  batchSize?: number;
  pullLimit?: number;
  requestTimeoutMs?: number;
  /** The same database, where pulled pages are stored (the worker opens it with relaxed
   * durability: a page lost to an OS crash is pulled again, its cursor lost with it). */
  pullDb?: CastawayDb;
  maxBackoffMs?: number;
  baseBackoffMs?: number;
  now?: () => number;
  random?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Each status the engine publishes; `stored`: whether the store took it (false on a full disk,
   * when this is the only way it reaches the screens). */
  onStatus?: (status: SyncStatus, stored: boolean) => void;
};

export const MAX_BACKOFF_MS = 30_000;

/** A push that times out halves the next one, but not below this: a few mutations are a small
 * answer, and their timeout says more about the link dropping (a tunnel) than about their size. */
const TIMEOUT_SHRINK_FLOOR = 8;

/**
 * Rows per pulled page: the first page of a pull is small so the first rows land (and a screen
 * fills) within a few tens of milliseconds; each next page is four times larger, up to
 * PULL_PAGE_CAP. Since the page after next is asked for as soon as the next one's headers are in
 * (pull(): the server computes it while this one is stored), what matters is that the server
 * answers a page in no more time than IndexedDB takes to store the one before it, and that the
 * last page, which is stored with nothing left to overlap, is not a large one. Pages growing
 * fourfold up to the server's 5,000 (250, 1,000, 4,000, 4,770 for 10,000 clips) kept IndexedDB
 * waiting for the 4,000-row page while it stored 1,000, and stored the last 4,770 alone;
 * capped at 2,500 (250, 1,000, 2,500, 2,500, 2,500, 1,270) it waits less (bench:sync, A/B in
 * alternating fresh profiles: IndexedDB idle between page transactions, median 2,223 -> 844 ms
 * on the loaded 2-core machine; see the commit).
 */
export const FIRST_PULL_PAGE = 250;
/** The largest page the sync worker asks for (never more than the server takes, PULL_LIMIT_MAX). */
export const PULL_PAGE_CAP = Math.min(2500, PULL_LIMIT_MAX);
export function pullPageSize(page: number): number {
  return Math.min(PULL_PAGE_CAP, FIRST_PULL_PAGE * 4 ** page);
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}
class AuthError extends Error {}
/** The store keeps another organization than this engine's: an engine of another tab, stopped
 * since, wrote its own at the start of its cycle (sync.worker.ts claim). Tried again: the next
 * cycle makes this engine's organization the store's again. */
class OtherOrganizationError extends Error {
  constructor() {
    super('the store keeps another organization');
  }
}
class OtherUserError extends Error {}
/** Nothing of the answer arrived for requestTimeoutMs (its headers, or the next part of its body). */
class TimeoutError extends Error {}

/** An answer of the server, its body read in full. */
type Answer = { status: number; text: string };
/** An answer of the server whose body is not read yet: `read()` reads it, once; `cancel()` lets
 * it go unread. */
type Pending = { status: number; header(name: string): string | null; read(): Promise<string>; cancel(): void };
/** A pull page asked for, its answer's headers in: the next page's cursor if the server names it
 * there (null otherwise), and its body, read and parsed by `read()`, once (or let go: `cancel()`). */
type AskedPage = { next: string | null; read(): Promise<PullResponse>; cancel(): void };

/**
 * A response's body as text. A body stream (fetch's) is read part by part, calling `progress`
 * for each; otherwise text(), or json() (a transport of the tests and the simulation may offer
 * only that: an unreadable body is empty, unless the request was aborted meanwhile).
 */
async function bodyText(res: TransportResponse, progress: () => void, signal: AbortSignal): Promise<string> {
  if (res.body) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const parts: string[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      progress();
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
    return parts.join('');
  }
  if (res.text) return res.text();
  try {
    const json = await res.json();
    return json === null || json === undefined ? '' : JSON.stringify(json);
  } catch (err) {
    if (signal.aborted) throw err;
    return '';
  }
}

/** The errors of an answer whose body is the server's Errors body; null for any other body. */
function bodyErrors({ text }: Answer): FieldError[] | null {
  try {
    const errors = (JSON.parse(text) as { Errors?: unknown } | null)?.Errors;
    return Array.isArray(errors) && errors.length > 0 ? (errors as FieldError[]) : null;
  } catch {
    return null; // not JSON (a proxy's page, an empty body)
  }
}

/** Whether an answer's Errors body names `field` (a 400 naming `mutations`: more than the server takes). */
function namesField(answer: Answer, field: string): boolean {
  return bodyErrors(answer)?.some((e) => e?.Field === field) ?? false;
}

/** The body of an answer as JSON (an empty body is null). */
function bodyJson(answer: Answer): unknown {
  return answer.text === '' ? null : (JSON.parse(answer.text) as unknown);
}

/** A 413 that is not the server's (a proxy's page, whose limit is not known): what the
 * needs-attention list says, in English with its catalogue key, as a server's error is (the
 * screens say it in their user's language). The one message is imported, not the catalogue. */
const tooLarge: FieldError = { Field: '', Code: ServerErrorCode.PayloadTooLarge, Message: domain_change_too_large, MessageKey: 'domain_change_too_large' };

/** Why a push was refused (403, 413): null when a 403 has no body (the server's XSRF refusal),
 * else the errors of an Errors body; otherwise, for a 403 its text, for a 413 `tooLarge` (a
 * proxy's 413 is an HTML page). */
function refusalReason(answer: Answer): FieldError[] | null {
  const errors = bodyErrors(answer);
  if (errors) return errors;
  const { status, text } = answer;
  if (status === 413) return [tooLarge];
  if (text.trim() === '' || text.trim() === 'null') return null;
  return [{ Field: '', Code: 'forbidden', Message: text.trim().slice(0, 300) }];
}

const utf8 = new TextEncoder();
const utf8Length = (text: string) => utf8.encode(text).byteLength;

/**
 * The push request for the oldest mutations of `batch` whose body fits `limit` bytes (the server's
 * JSON_BODY_LIMIT_BYTES, or less behind a proxy): a 413 would refuse them all, and the same batch
 * would be sent again and again. Always at least one mutation (one larger than the limit is
 * refused alone). `bytes`: the body's size.
 */
export function pushBody(clientId: string, batch: readonly OutboxEntry[], limit: number = JSON_BODY_LIMIT_BYTES): { sent: OutboxEntry[]; body: string; bytes: number } {
  // patches: applied rows come back as the fields each write changed (sync-store.ts patchedRow).
  const head = `{"protocolVersion":${SYNC_PROTOCOL_VERSION},"clientId":${JSON.stringify(clientId)},"patches":true,"mutations":[`;
  let bytes = utf8Length(head) + 2; // and the closing "]}"
  const texts: string[] = [];
  // Each mutation as the wire takes it ({ id, name, args, base, createdAt }): the outbox's own
  // bookkeeping (order, attempts, stamps, the row it names) stays on the device.
  for (const { seq: _s, attempts: _a, organizationId: _o, userId: _u, entity: _e, entityId: _i, ...m } of batch) {
    const text = JSON.stringify(m);
    const more = utf8Length(text) + (texts.length > 0 ? 1 : 0);
    if (texts.length > 0 && bytes + more > limit) break;
    texts.push(text);
    bytes += more;
  }
  return { sent: batch.slice(0, texts.length), body: `${head}${texts.join(',')}]}`, bytes };
}

/** Whether an answer's Accept-Encoding (the codings the server decodes in a request) names gzip. */
function takesGzip(res: TransportResponse): boolean {
  const header = res.headers?.get('accept-encoding');
  return header != null && header.split(',').some((c) => c.trim().split(';')[0]!.toLowerCase() === 'gzip');
}

async function gzipText(text: string): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export type SyncEngine = ReturnType<typeof createSyncEngine>;

export function createSyncEngine(options: EngineOptions) {
  const o = { ...options };
  const d = o.db;
  const base = o.baseUrl ?? '';
  const now = o.now ?? (() => Date.now());
  const random = o.random ?? Math.random;
  const setTimer = o.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = o.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const batchMax = Math.min(o.batchSize ?? PUSH_BATCH_MAX, PUSH_BATCH_MAX);
  const timeoutMs = o.requestTimeoutMs ?? 30_000;
  let xsrf: string | null = null;
  let online = true;
  let paused: 'auth' | 'otherUser' | null = null;
  /** undefined until read from the stored status: the last success survives reloads. */
  let lastSyncedAt: number | null | undefined = undefined;
  let lastError: string | null = null;
  let storageFull = false;
  /** The status of the server's last error (isTransientStatus) while a retry waits; null otherwise. */
  let serverError: number | null = null;
  /** When the waiting retry is due (null: none). */
  let retryAt: number | null = null;
  let failures = 0;
  let timer: unknown = null;
  let running: Promise<void> | null = null;
  let again = false;
  /** The highest Version a poke has named, and the Version the last stored pull page brought this
   * device up to (null: the server does not say, PullResponse.upToVersion). A poke at or below
   * it asks for nothing new: most often this device's own push, whose cycle pulls right after. */
  let poked = 0;
  let pulledUpTo: number | null = null;
  let stopped = false;
  let clientId: string | null = null;
  /** Most mutations the next push carries: half of what a push that timed out carried (on a slow
   * link, a push whose answer can be read in time; not below TIMEOUT_SHRINK_FLOOR), twice as many
   * after a full push answered quickly, never above pushCeiling (lowered by a server that takes
   * fewer). */
  let pushLimit = batchMax;
  let pushCeiling = batchMax;
  /** Largest push body: the server's limit, lowered by a proxy's 413. */
  let bodyLimit = JSON_BODY_LIMIT_BYTES;
  /** The last answer said the server decodes gzip request bodies; something on the way refused one. */
  let offersGzip = false;
  let gzipRefused = false;

  /**
   * One request (`body`: JSON text), answered up to its headers: `read()` reads its body. The
   * timeout is one of inactivity: until the headers, then again while the body is read, where
   * with a body stream (fetch's, the worker's transport) it runs again with each part of the
   * answer that arrives, so a slow link still brings a large page, and a connection that stalls
   * halfway (a train entering a tunnel) does not hold the sync cycle until the browser gives up on
   * it. A transport without a stream is given the timeout as a whole. Between the headers and
   * `read()` no timeout runs: an answer waiting to be read (a pull page asked for ahead) is not
   * stalled.
   */
  async function send(method: string, path: string, body?: string | Uint8Array<ArrayBuffer>): Promise<Pending> {
    const headers: Record<string, string> = { 'x-organization-id': o.organizationId, ...(o.headers?.() ?? {}) };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (body instanceof Uint8Array) headers['content-encoding'] = 'gzip';
    if (method !== 'GET' && xsrf) headers['x-xsrf-token'] = xsrf;
    const controller = new AbortController();
    const timedOut = (err: unknown) =>
      controller.signal.aborted && !(err instanceof AuthError) ? new TimeoutError(`${method} ${path.split('?')[0]}: nothing arrived for ${timeoutMs} ms`) : err;
    let t = setTimer(() => controller.abort(), timeoutMs);
    let res: TransportResponse;
    try {
      const init = { method, headers, signal: controller.signal, ...(body !== undefined ? { body } : {}) };
      res = await o.transport(base + path, init);
      online = true; // the server answered, whatever a later step of this attempt makes of it
      offersGzip = takesGzip(res);
      if (res.status === 401) {
        void res.body?.cancel().catch(() => undefined); // not read: let the connection go
        throw new AuthError('401');
      }
    } catch (err) {
      throw timedOut(err);
    } finally {
      clearTimer(t);
    }
    return {
      status: res.status,
      header: (name) => res.headers?.get(name) ?? null,
      cancel: () => controller.abort(),
      async read() {
        t = setTimer(() => controller.abort(), timeoutMs);
        const progress = () => {
          clearTimer(t);
          t = setTimer(() => controller.abort(), timeoutMs);
        };
        try {
          return await bodyText(res, progress, controller.signal);
        } catch (err) {
          throw timedOut(err);
        } finally {
          clearTimer(t);
        }
      },
    };
  }

  /** One request and its whole answer (send, then read). */
  async function request(method: string, path: string, body?: string | Uint8Array<ArrayBuffer>): Promise<Answer> {
    const answer = await send(method, path, body);
    return { status: answer.status, text: await answer.read() };
  }

  async function ensureXsrf(): Promise<void> {
    if (xsrf) return;
    const res = await request('GET', '/api/internal/session/xsrf');
    if (res.status !== 200) throw new HttpError(res.status, `xsrf ${res.status}`);
    const json = bodyJson(res) as { XsrfToken?: unknown } | null;
    if (typeof json?.XsrfToken !== 'string') throw new HttpError(500, 'xsrf token missing');
    xsrf = json.XsrfToken;
  }

  async function push(clientId: string): Promise<void> {
    // A 403 without a body is retried once per push with a fresh XSRF token.
    let tokenRenewed = false;
    // After a refused push (403): one mutation at a time, to find the refused ones.
    let oneByOne = false;
    // After a 400 to a compressed push that a server of an earlier release read as JSON: the same
    // push as it is.
    let plainOnce = false;
    for (;;) {
      if (stopped) return;
      const batch = await readBatch(d, oneByOne ? 1 : pushLimit, o.organizationId, o.user?.userId);
      if (batch.length === 0) return;
      await ensureXsrf();
      const { sent, body, bytes } = pushBody(clientId, batch, bodyLimit);
      const started = now();
      const compressed = !plainOnce && !gzipRefused && offersGzip && bytes >= MIN_COMPRESS_BYTES && typeof CompressionStream === 'function';
      plainOnce = false;
      let res: Answer;
      try {
        res = await request('POST', '/api/sync/push', compressed ? await gzipText(body) : body);
      } catch (err) {
        // Its mutations are sent again (the server answers the applied ones from its stored results).
        if (err instanceof TimeoutError) pushLimit = Math.min(pushLimit, Math.max(Math.ceil(sent.length / 2), TIMEOUT_SHRINK_FLOOR));
        throw err;
      }
      if (compressed && (res.status === 415 || (res.status === 400 && namesField(res, 'Content-Encoding')))) {
        gzipRefused = true; // something on the way does not take it: as it is, from now on
        continue;
      }
      if (compressed && res.status === 400 && !namesField(res, 'mutations')) {
        plainOnce = true; // a server of an earlier release read the bytes as JSON
        continue;
      }
      if (res.status === 403 || res.status === 413) {
        const reason = refusalReason(res);
        if (res.status === 403 && reason === null && !tokenRenewed) {
          xsrf = null; // a stale XSRF token: a fresh one, and the same batch again
          tokenRenewed = true;
          continue;
        }
        if (sent.length > 1) {
          // 413 of several: a proxy on the way takes less than the server; bodies half this size.
          if (res.status === 403) oneByOne = true;
          else bodyLimit = Math.floor(bytes / 2);
          continue;
        }
        if (stopped) return;
        // One mutation the server will never take: it waits for the user, the others go on.
        await recordRefused(d, sent[0]!.id, res.status, reason ?? []);
        continue;
      }
      if (res.status === 400 && sent.length > 1 && namesField(res, 'mutations')) {
        // A server of an earlier release, which takes fewer mutations a push (a rolling deploy).
        pushCeiling = pushLimit = Math.ceil(sent.length / 2);
        continue;
      }
      if (res.status !== 200) throw new HttpError(res.status, `push ${res.status}`);
      const parsed = PushResponseSchema.parse(bodyJson(res));
      if (stopped) return;
      // An answer that applied nothing is the server failing, not refusing: the edits stay queued
      // and go again after a backoff, however often it happens (only a refusal needs the user).
      if (parsed.results.length === 0) throw new HttpError(500, 'push made no progress');
      if (!(await applyPushResults(d, parsed.results, sent, now(), o.organizationId))) throw new OtherOrganizationError();
      // A mutation the server failed on (a 5xx of its own) was left queued: the rest are recorded,
      // and the push waits out the backoff rather than sending it again at once.
      const failed = parsed.results.find((r) => r.status === 'rejected' && isTransientStatus(r.httpStatus));
      if (failed && failed.status === 'rejected') throw new HttpError(failed.httpStatus, `push: ${failed.httpStatus} for one change`);
      // Grow back only after a full push whose round (sending, the answer, storing the results)
      // took well within the timeout: twice as many mutations take about twice as long, and a
      // push that times out is a wasted round.
      if (sent.length === pushLimit && now() - started < timeoutMs / 4) pushLimit = Math.min(pushCeiling, pushLimit * 2);
    }
  }

  /** Asks for a pull page; resolves once its answer's headers are in. */
  async function askPage(cursor: string | null, page: number): Promise<AskedPage> {
    const qs = new URLSearchParams({ limit: String(o.pullLimit ?? pullPageSize(page)) });
    if (cursor) qs.set('cursor', cursor);
    const answer = await send('GET', `/api/sync/pull?${qs}`);
    if (answer.status !== 200) {
      await answer.read(); // let the connection go
      throw new HttpError(answer.status, `pull ${answer.status}`);
    }
    return { next: answer.header(PULL_NEXT_CURSOR_HEADER), read: async () => parsePullResponse(bodyJson({ status: 200, text: await answer.read() })), cancel: answer.cancel };
  }

  /** askPage, its failure left to whoever awaits it (a page asked for ahead may never be). */
  function ask(cursor: string | null, page: number): Promise<AskedPage> {
    const asked = askPage(cursor, page);
    asked.catch(() => undefined);
    return asked;
  }

  /**
   * A page's body read, and the page after it asked for as early as it can be: when the server
   * names its cursor in the answer's headers (PULL_NEXT_CURSOR_HEADER), before this body is read,
   * so the server computes the next page while this one is read, parsed and stored (it waited
   * for each until then, and IndexedDB for it); else from the body's cursor. `next` is null after
   * the last page.
   */
  async function readPage(asked: Promise<AskedPage>, page: number): Promise<{ parsed: PullResponse; next: Promise<AskedPage> | null }> {
    const answer = await asked;
    const early = answer.next !== null && !stopped ? ask(answer.next, page + 1) : null;
    const parsed = await answer.read();
    // The header is the body's cursor; one that is not (something on the way rewrote either) is
    // not trusted: the body's is asked for, and the page asked for ahead let go unread.
    const followed = early !== null && parsed.hasMore && !stopped && answer.next === parsed.cursor;
    if (early !== null && !followed) void early.then((a) => a.cancel(), () => undefined);
    if (!parsed.hasMore || stopped) return { parsed, next: null };
    return { parsed, next: followed ? early : ask(parsed.cursor, page + 1) };
  }

  /** Pages in order; while one is stored, the next is read and the one after it asked for. */
  async function pull(): Promise<void> {
    const cursor = await getCursor(d);
    // The first sync of this database: nothing but this pull stores synced rows until it ends
    // (pushes and pulls run one after the other in this cycle).
    const initial = cursor === null;
    let current = readPage(ask(cursor, 0), 0);
    for (let page = 0; page < 10_000; page++) {
      const { parsed, next } = await current;
      if (stopped) return;
      if (next) {
        current = readPage(next, page + 1);
        current.catch(() => undefined); // awaited on the next turn; a failure then ends the pull
      }
      if (!(await applyPullPage(o.pullDb ?? d, parsed, { initial, organizationId: o.organizationId }))) {
        if (stopped) return;
        throw new OtherOrganizationError();
      }
      pulledUpTo = parsed.upToVersion ?? null;
      if (!parsed.hasMore) return;
    }
  }

  async function restoreLastSynced(): Promise<number | null> {
    lastSyncedAt ??= (await readStatus(d)).lastSyncedAt;
    return lastSyncedAt;
  }

  async function transient() {
    return { online, paused, lastSyncedAt: await restoreLastSynced(), lastError, storageFull, serverError, retryAt };
  }

  /** Stores the status for every tab and hands it to onStatus. Never rejects: a full disk refuses
   * the write (onStatus still carries it, marked not stored), and a closed store has no one left
   * to tell. */
  async function publishStatus(): Promise<void> {
    let status: SyncStatus;
    try {
      status = await computeStatus(d, await transient(), now());
    } catch {
      return;
    }
    let stored = true;
    try {
      await writeStatus(d, status);
    } catch (err) {
      stored = false;
      if (isStorageFull(err)) {
        // A cycle that wrote nothing else learns of the full disk here; try again later, so the
        // status clears once space is freed even if nothing else calls for a sync.
        storageFull = true;
        status = { ...status, storageFull: true };
        if (timer === null) {
          failures++;
          scheduleRetry();
        }
      }
      // Any other refusal (a store closed under us): onStatus still carries the status.
    }
    if (stopped) return;
    try {
      o.onStatus?.(status, stored);
    } catch {
      // A listener that fails (a channel closed as the tab goes) must not fail the sync.
    }
  }

  async function cycle(): Promise<void> {
    if (paused || stopped) return;
    try {
      await restoreLastSynced();
      if (o.user && (await claimStore(d, o.user)).kind === 'otherUser') throw new OtherUserError();
      clientId ??= await getClientId(d);
      // A stopped engine (its tab's lock taken by another tab) must not make its organization the store's.
      if (stopped) return;
      await setCurrentOrganization(d, o.organizationId);
      await push(clientId);
      await pull();
      // Edits made while we pulled go out now rather than at the next trigger.
      await push(clientId);
      online = true;
      failures = 0;
      lastError = null;
      storageFull = false;
      serverError = null;
      lastSyncedAt = now();
    } catch (err) {
      if (stopped) return;
      if (err instanceof AuthError) {
        // The server answered (401): the network is there, whatever the last failure said.
        online = true;
        paused = 'auth';
        xsrf = null;
        lastError = 'Signed out: sign in again to send your changes';
      } else if (err instanceof OtherUserError) {
        paused = 'otherUser';
        lastError = "This device holds another user's data";
      } else {
        if (isStorageFull(err)) storageFull = true;
        else online = err instanceof HttpError || err instanceof OtherOrganizationError;
        // A server that failed (5xx) or a request cut off mid-way is retried with the backoff below,
        // its edits kept; the badge says the server is unavailable and when the next try is.
        serverError = err instanceof HttpError && isTransientStatus(err.status) ? err.status : null;
        lastError = err instanceof Error ? err.message : String(err);
        failures++;
        scheduleRetry();
      }
    }
    if (!stopped) await publishStatus();
  }

  function scheduleRetry(): void {
    if (timer !== null || stopped) return;
    const max = o.maxBackoffMs ?? MAX_BACKOFF_MS;
    const exp = Math.min(max, (o.baseBackoffMs ?? 500) * 2 ** Math.min(failures - 1, 16));
    const delay = Math.min(max, exp / 2 + random() * (exp / 2));
    retryAt = now() + delay;
    timer = setTimer(() => {
      timer = null;
      retryAt = null;
      void flush();
    }, delay);
  }

  /** Runs a flush now, or once more after the running one; resolves when done. Never rejects. */
  function flush(): Promise<void> {
    if (running) {
      again = true;
      return running;
    }
    if (timer !== null) {
      clearTimer(timer);
      timer = null;
    }
    retryAt = null;
    running = (async () => {
      do {
        again = false;
        await cycle();
        // A poke that came during the cycle and is newer than what its pull brought goes round
        // again (a failed cycle has its retry timer instead).
      } while ((again || (pulledUpTo !== null && poked > pulledUpTo && timer === null)) && !paused && !stopped);
    })().finally(() => {
      running = null;
    });
    return running;
  }

  return {
    flush,
    /** After a new login (or another user's data discarded): forget the paused state and send
     * what waited. `user`: who signed in (the tab that calls this has claimed the store for them;
     * the leader may have been started by another tab for the user before). */
    resume(user?: StoreOwner): Promise<void> {
      if (user) o.user = user;
      paused = null;
      xsrf = null;
      return flush();
    },
    /**
     * The network came back, or a poke arrived (`version`: the Version it names): try at once,
     * forgetting the backoff. A poke for what the device has already pulled starts nothing, and
     * one during a flush waits for it: its pull most often brings the poked change already (every
     * push pokes its own device too, whose cycle pulls right after the push). Without the server
     * saying how far its pulls reach, every poke flushes.
     */
    nudge(version?: number | null): Promise<void> {
      failures = 0;
      if (version === undefined || version === null || pulledUpTo === null) return flush();
      poked = Math.max(poked, version);
      if (running) return running;
      if (timer === null && version <= pulledUpTo) return Promise.resolve();
      return flush();
    },
    stop(): void {
      stopped = true;
      if (timer !== null) clearTimer(timer);
      timer = null;
    },
    status: async () => computeStatus(d, await transient(), now()),
    /** Waits for the running flush, if any (tests). */
    idle: () => running ?? Promise.resolve(),
  };
}
