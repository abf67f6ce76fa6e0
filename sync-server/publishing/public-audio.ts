// The published audio of a clip, served to listeners (public audio, and later the member feeds'
// signed URLs: whoever decides that the caller may have it calls servePublishedAudio):
//
//   If-None-Match names the ETag ──> 304
//   Range (and If-Range still the ETag) ──> 206 one range | 416 Content-Range: bytes */size
//   otherwise ──> 200 whole file          (HEAD: the same headers, no body)
//
// Every answer, 404 included, is recorded as a raw download event (downloads.ts), with the bytes
// actually handed to the connection: counted as the body streams, recorded when it ends or the
// listener goes away.
//
// A player seeking through an episode asks for range after range of the same file, so neither the
// clip's row nor its published file is read again per request (bench:publish: a PGlite lookup by
// primary key costs ~2.5x a bare SELECT 1, more than the rest of the answer):
//   - publicClipRows keeps the rows the public routes read, per instance, and forgets a row
//     when the change bus says its organization changed (every committed write publishes there,
//     after its commit; with PostgreSQL the bus is LISTEN/NOTIFY, so a write on any instance
//     reaches every instance). A clip made Private stops being served by the next request once
//     the bus has delivered its change: at once with the in-process bus (PGlite, one instance),
//     after the NOTIFY's round trip (milliseconds) on every instance with PostgreSQL. A row read
//     while a change was published is not kept. ROW_TTL_MS bounds the staleness after a write
//     that reaches the database without the bus (an operator's SQL, a test's).
//   - the published file (published.json, the file's size) is kept per clip keyed by the row's
//     Version: a new version is switched in the transaction of a row write (audio/versions.ts),
//     which gives the row a new Version, so a kept file can never be one the row no longer names.
import { clientAddress } from '../client-address.ts';
import type { Context } from 'hono';
import { now, type AppDeps } from '../app.ts';
import type { BlobStore } from '../audio/blob-store.ts';
import { parseRange } from '../audio/range.ts';
import { DOWNLOAD_SOURCES } from '../../src/protocol/api/publishing.ts';
import type { DownloadEvent, DownloadRecorder } from './downloads.ts';
import { publishedAudio, type PublishedAudio } from '../audio/published-media.ts';
import type { Change } from '../bus.ts';
import { Lru } from '../lru.ts';

/** The clip being downloaded, as far as it is known (an unknown id: nulls). */
export type DownloadedClip = { Id: string | null; OrganizationId: string | null; ProgramId: string | null };

/** Listeners' copies are good for a day; after that (a new cut may have replaced the file) they
 * revalidate with If-None-Match, a 304 when nothing changed. */
const CACHE_CONTROL = 'public, max-age=86400';

/** Where the request comes from: ?src= when it names a source, else the Referer's path. */
function sourceOf(c: Context): string | null {
  const src = c.req.query('src');
  if (src && (DOWNLOAD_SOURCES as readonly string[]).includes(src)) return src;
  const referer = c.req.header('referer');
  if (!referer) return null;
  try {
    const path = new URL(referer).pathname;
    if (path.startsWith('/embed/')) return 'embed';
    if (path.startsWith('/shows/')) return 'page';
    return 'web';
  } catch {
    return null;
  }
}

/** Whether an If-None-Match / If-Range value names this ETag (weak comparison for If-None-Match). */
function matchesEtag(header: string, etag: string, weak: boolean): boolean {
  if (header.trim() === '*') return true;
  const bare = (t: string) => (weak ? t.trim().replace(/^W\//, '') : t.trim());
  return header.split(',').some((t) => bare(t) === etag);
}

const cut = (s: string | undefined, n: number) => (s === undefined ? null : s.slice(0, n));

/** How long a kept row is trusted without the bus saying anything of its organization. */
export const ROW_TTL_MS = 2_000;
/** Rows and files kept per instance (a few hundred bytes each). */
const KEPT = 10_000;

/** A clip as the public audio route decides on it. */
export type PublicClipRow = { id: string; organization_id: string; program_id: string; publish_state: string; visibility: string; deleted: boolean; version: string };

/**
 * The clip rows of public requests, kept per instance and forgotten on every change of their
 * organization announced on the bus (see the header). `get` is null for an unknown clip (never
 * kept: a clip created later must be found).
 */
export function publicClipRows(deps: AppDeps, options: { ttlMs?: number } = {}) {
  const ttlMs = options.ttlMs ?? ROW_TTL_MS;
  const kept = new Lru<string, { row: PublicClipRow; tick: number; at: number }>(KEPT);
  // Every change announced is a tick; a kept row is good while no change of its organization (or
  // of any organization: organizationId null) came after the tick its read started at.
  let tick = 0;
  let everyOrganization = 0;
  const changedAt = new Map<string, number>();
  deps.bus.subscribe((change: Change) => {
    tick++;
    if (change.organizationId === null) everyOrganization = tick;
    else changedAt.set(change.organizationId, tick);
  });
  const current = (e: { row: PublicClipRow; tick: number; at: number }) =>
    everyOrganization <= e.tick && (changedAt.get(e.row.organization_id) ?? 0) <= e.tick && performance.now() - e.at < ttlMs;

  return {
    async get(clipId: string): Promise<PublicClipRow | null> {
      const hit = kept.get(clipId);
      if (hit && current(hit)) return hit.row;
      const started = { tick, at: performance.now() };
      const [row] = await deps.store.query<PublicClipRow>(
        `SELECT id, organization_id, program_id, publish_state, visibility, deleted, version::text AS version FROM clips WHERE id = $1`,
        [clipId],
      );
      if (!row) return null;
      const entry = { row, ...started };
      if (current(entry)) kept.set(clipId, entry);
      else kept.delete(clipId);
      return row;
    },
  };
}

export function publicAudioServer(deps: AppDeps, blobs: BlobStore, downloads: DownloadRecorder) {
  /** Published files by clip, with the row Version they were read at (see the header). */
  const files = new Lru<string, { version: string; audio: Promise<PublishedAudio | null> }>(KEPT);
  /** The clip's published file; kept when the caller names the row's Version it decided on. */
  function fileOf(clipId: string, version: string | undefined): Promise<PublishedAudio | null> {
    if (version === undefined) return publishedAudio(blobs, clipId);
    const hit = files.get(clipId);
    if (hit && hit.version === version) return hit.audio;
    const audio = publishedAudio(blobs, clipId);
    const entry = { version, audio };
    files.set(clipId, entry);
    // A clip with no file yet (or a read that failed) is read again next time.
    const forget = () => files.get(clipId) === entry && files.delete(clipId);
    audio.then((a) => a ?? forget(), forget);
    return audio;
  }

  function event(c: Context, clip: DownloadedClip, adFree: boolean, status: number): DownloadEvent {
    return {
      at: now(deps),
      clipId: clip.Id,
      organizationId: clip.OrganizationId,
      programId: clip.ProgramId,
      method: c.req.method,
      status,
      rangeHeader: cut(c.req.header('range'), 100),
      rangeStart: null,
      rangeEnd: null,
      bytesSent: 0,
      userAgent: cut(c.req.header('user-agent'), 500),
      source: sourceOf(c),
      adFree,
      address: clientAddress(c),
    };
  }

  /** A 404 (no body), recorded. */
  function notServed(c: Context, clip: DownloadedClip, adFree: boolean): Response {
    downloads.record(event(c, clip, adFree, 404));
    return new Response(null, { status: 404 });
  }

  /**
   * The clip's published file, GET or HEAD; the caller has decided the requester may have it.
   * `options.version`: the clip row's Version the caller read; with it the file is kept between
   * requests (without it, read each time).
   */
  async function servePublishedAudio(c: Context, clip: DownloadedClip & { Id: string }, options: { adFree: boolean; version?: string }): Promise<Response> {
    const audio = await fileOf(clip.Id, options.version);
    if (!audio) return notServed(c, clip, options.adFree);
    const headers = new Headers({ 'accept-ranges': 'bytes', 'content-type': audio.contentType, etag: audio.etag, 'cache-control': CACHE_CONTROL });
    const done = (status: number, extra: Partial<DownloadEvent> = {}) => downloads.record({ ...event(c, clip, options.adFree, status), ...extra });

    const ifNoneMatch = c.req.header('if-none-match');
    if (ifNoneMatch !== undefined && matchesEtag(ifNoneMatch, audio.etag, true)) {
      done(304);
      return new Response(null, { status: 304, headers });
    }
    // If-Range with another ETag (or a date: we have no Last-Modified): the whole file.
    const ifRange = c.req.header('if-range');
    const rangeHeader = ifRange !== undefined && !matchesEtag(ifRange, audio.etag, false) ? undefined : c.req.header('range');
    const range = audio.size === 0 ? ({ status: 200, start: 0, end: -1 } as const) : parseRange(rangeHeader, audio.size);
    if (range.status === 416) {
      headers.set('content-range', `bytes */${audio.size}`);
      done(416);
      return new Response(null, { status: 416, headers });
    }
    const length = range.end - range.start + 1;
    headers.set('content-length', String(length));
    if (range.status === 206) headers.set('content-range', `bytes ${range.start}-${range.end}/${audio.size}`);
    const asked = range.status === 206 ? { rangeStart: range.start, rangeEnd: range.end } : {};
    if (c.req.method === 'HEAD' || length === 0) {
      done(range.status, asked);
      return new Response(null, { status: range.status, headers });
    }
    return new Response(counted(blobs.stream(audio.key, range.start, range.end), (sent) => done(range.status, { ...asked, bytesSent: sent })), { status: range.status, headers });
  }

  return { servePublishedAudio, notServed, publicClip: publicClipRows(deps).get };
}

/** The stream, calling `end` once with the bytes it handed on when it ends, fails or is cancelled. */
function counted(source: ReadableStream<Uint8Array>, end: (sent: number) => void): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let sent = 0;
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    end(sent);
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (done) {
          finish();
          controller.close();
          return;
        }
        sent += value.byteLength;
        controller.enqueue(value);
      } catch (err) {
        finish();
        controller.error(err);
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason);
    },
  });
}
