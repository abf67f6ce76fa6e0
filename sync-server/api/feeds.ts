// Public feeds (issue 29): a playlist's podcast feed and its clips' chapters, for anyone, outside
// /api. Podcast apps poll feeds all day, nearly always with the validators of the copy they hold,
// so the answer is decided before anything is built:
//
//   GET /feeds/{id}.xml ──feedValidators: one query (404 when not public)──> ETag, Last-Modified
//        │ If-None-Match names it, or (without one) If-Modified-Since is not older ──> 304
//        ▼
//   feedContent (one query for the clips) ──buildRss──> gzip / br as asked ──> 200
//
// The ETag is strong and made from the feed's version key (feed-data.ts), so a 304 never builds
// the feed and every instance gives the same ETag for the same feed. A compressed answer's ETag
// carries the coding (`"…-gz"`, `"…-br"`, as RFC 9110 §8.8.3 asks of distinct representations);
// If-None-Match matches any coding of the current feed. The compression middleware leaves
// answers with an ETag alone, so the feed compresses itself (the middleware's own `compress`).
import type { Context } from 'hono';
import * as routes from '../../src/protocol/api/feeds.ts';
import { feedIncludes, playlistHasPublicFeed, visibilityAt } from '../../src/domain/feed.ts';
import { absoluteUrl, publicPaths } from '../../src/domain/public-urls.ts';
import { podcastChaptersJson, type Chapter } from '../../src/domain/chapters.ts';
import { onPublishedTimeline } from '../../src/domain/intro-outro.ts';
import { publishedIntroSql } from '../audio/intro-outro-render.ts';
import { bytes, compress, negotiateEncoding, varyOnEncoding, type Encoding } from '../compress.ts';
import { Lru } from '../lru.ts';
import { feedDocument, feedValidators, type FeedValidators } from '../feeds/feed-data.ts';
import { MIN_COMPRESS_BYTES } from '../../src/protocol/errors.ts';
import { now } from '../app.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';
import { publicOrigin } from '../public-origin.ts';

/** Compressed feed documents kept per store by playlist, ETag and coding: a 200 for a feed that
 * did not change (a client without validators, a proxy's first fetch) is not built or compressed
 * again. A tag is every input of the document (feed-data.ts), so a kept answer is the one a build
 * would make. Only compressed answers (a few hundred KB for 2,500 episodes): identity ones are
 * rare and ten times the size. On PostgreSQL public feeds are also kept in the store
 * (feed_documents, the newest per feed and coding): the instances sharing it build a feed once
 * between them, and none again after a restart. Not on PGlite: one instance, and its bytea and
 * large-text writes cost ~30 ms for 200 KB (more than half a build) on its one connection. */
const keptDocuments = new WeakMap<object, Lru<string, Buffer>>();
const KEPT_DOCUMENTS = 64;

/** Podcast apps and directories poll; a minute's freshness keeps a new episode close behind. */
const FEED_CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=600';

/** The opaque parts of the ETags in an If-None-Match header ('*' matches anything). */
function etagsIn(header: string): string[] {
  return header.split(',').map((t) => t.trim().replace(/^W\//, '').replace(/^"|"$/g, '').replace(/-(gz|br)$/, ''));
}

/** Whether the client's copy is current (RFC 9110 §13.2.2: If-None-Match wins over If-Modified-Since). */
export function notModified(c: Context, tag: string, lastModified: Date): boolean {
  const inm = c.req.header('if-none-match');
  if (inm !== undefined) return etagsIn(inm).some((t) => t === '*' || t === tag);
  const ims = c.req.header('if-modified-since');
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && lastModified.getTime() <= since;
}

function validatorHeaders(tag: string, lastModified: Date, suffix = ''): Record<string, string> {
  return { etag: `"${tag}${suffix}"`, 'last-modified': lastModified.toUTCString(), 'cache-control': FEED_CACHE_CONTROL, vary: 'Accept-Encoding' };
}

/**
 * A public text answer with validators: 304 when the client's copy is current, else the body
 * (made only then) compressed as the client asks.
 */
export async function conditionalText(
  c: Context,
  tag: string,
  lastModified: Date,
  contentType: string,
  make: () => Promise<string | Buffer>,
  /** Keep the compressed answer under this name (with the tag and the coding): a feed's id;
   * `stored`: in a PostgreSQL store too (feed_documents), not only in this instance's memory. */
  keep?: { name: string; stored: boolean },
): Promise<Response> {
  if (notModified(c, tag, lastModified)) return new Response(null, { status: 304, headers: validatorHeaders(tag, lastModified) });
  const asked = negotiateEncoding(c.req.header('accept-encoding'));
  const store = c.get('deps').store;
  let kept: Lru<string, Buffer> | undefined;
  const name = `${keep?.name}|${asked}`;
  const key = `${name}|${tag}`;
  if (keep !== undefined && asked !== null) {
    kept = keptDocuments.get(store);
    if (!kept) keptDocuments.set(store, (kept = new Lru(KEPT_DOCUMENTS)));
    const hit = kept.get(key);
    if (hit) return encodedAnswer(c, tag, lastModified, contentType, asked, hit);
    if (keep.stored && store.kind === 'postgres') {
      const [row] = await store.query<{ body: Uint8Array }>(`SELECT body FROM feed_documents WHERE name = $1 AND tag = $2`, [name, tag]);
      if (row) {
        const body = Buffer.from(row.body.buffer, row.body.byteOffset, row.body.byteLength);
        kept.set(key, body);
        return encodedAnswer(c, tag, lastModified, contentType, asked, body);
      }
    }
  }
  const made = await make();
  const body = typeof made === 'string' ? Buffer.from(made, 'utf8') : made;
  const encoding = body.byteLength >= MIN_COMPRESS_BYTES ? asked : null;
  if (encoding === null) {
    const headers = new Headers({ 'content-type': contentType, ...validatorHeaders(tag, lastModified) });
    varyOnEncoding(headers);
    headers.set('content-length', String(body.byteLength));
    return new Response(c.req.method === 'HEAD' ? null : bytes(body), { status: 200, headers });
  }
  const compressed = await compress(body, encoding, 'fast');
  if (kept) {
    kept.set(key, compressed);
    // Awaited: a write left running could outlive its store (a test's, a shutdown's), and costs a
    // few ms next to the build it saves every other instance.
    if (keep?.stored && store.kind === 'postgres') {
      await store.query(
        `INSERT INTO feed_documents (name, tag, body) VALUES ($1, $2, $3)
         ON CONFLICT (name) DO UPDATE SET tag = excluded.tag, body = excluded.body, built_at_utc = now()`,
        [name, tag, compressed],
      );
    }
  }
  return encodedAnswer(c, tag, lastModified, contentType, encoding, compressed);
}

function encodedAnswer(c: Context, tag: string, lastModified: Date, contentType: string, encoding: Encoding, compressed: Buffer): Response {
  const headers = new Headers({ 'content-type': contentType, ...validatorHeaders(tag, lastModified, encoding === 'gzip' ? '-gz' : '-br') });
  varyOnEncoding(headers);
  headers.set('content-encoding', encoding);
  headers.set('content-length', String(compressed.byteLength));
  return new Response(c.req.method === 'HEAD' ? null : bytes(compressed), { status: 200, headers });
}

/** The public feed of a playlist, built (the validators already read). */
export async function publicFeedXml(c: Context, v: FeedValidators, origin: string, at: Date, block: boolean): Promise<string> {
  return (await publicFeedBytes(c, v, origin, at, block)).toString('utf8');
}

/** publicFeedXml as the UTF-8 bytes the answer sends. */
export function publicFeedBytes(c: Context, v: FeedValidators, origin: string, at: Date, block: boolean): Promise<Buffer> {
  return feedDocument(c.get('deps').store, v, origin, { now: at, feedPath: publicPaths.feed(v.playlistId), block });
}

/** What of a clip decides whether a listener can reach what it publishes (chapters, transcript). */
export type ReachClip = {
  state: string;
  publish_state: string;
  visibility: string;
  deleted: boolean;
  program_deleted: boolean | null;
  scheduled_visibility: string | null;
  visible_at_utc: string | null;
};

/** A clip a listener can reach: listed in a feed, or Unlisted (reachable by link), its program live. */
export function listenerReaches(clip: ReachClip, at: Date): boolean {
  return (
    clip.program_deleted === false &&
    feedIncludes(
      { Deleted: clip.deleted, State: clip.state, PublishState: clip.publish_state, Visibility: clip.visibility, ScheduledVisibility: clip.scheduled_visibility, VisibleAtUtc: clip.visible_at_utc },
      { now: at, unlisted: true },
    )
  );
}

type ChapterClip = ReachClip & { version: number; modified_at_utc: Date; chapters: Chapter[] | null; intro_seconds: number | string };

export function feedRoutes() {
  return resourceApp()
    .openapi(guarded(routes.getFeed, guard.public()), async (c) => {
      const playlistId = c.req.valid('param').feedFile;
      const at = now(c.get('deps'));
      const origin = publicOrigin(c);
      let visibility = '';
      const v = await feedValidators(c.get('deps').store, playlistId, at, origin, (p) => {
        visibility = p.Visibility;
        return playlistHasPublicFeed(p);
      });
      if (!v) return c.body(null, 404);
      return conditionalText(c, v.tag, v.lastModified, 'application/rss+xml; charset=utf-8', () => publicFeedBytes(c, v, origin, at, visibility === 'Unlisted'), {
        name: `feed:${v.playlistId}`,
        stored: true,
      });
    })
    .openapi(guarded(routes.getChapters, guard.public()), async (c) => {
      const clipId = c.req.valid('param').chaptersFile;
      const at = now(c.get('deps'));
      const [clip] = await c.get('deps').store.query<ChapterClip>(
        `SELECT c.version, c.modified_at_utc, c.state, c.publish_state, c.visibility, c.deleted, g.deleted AS program_deleted,
           c.data->>'ScheduledVisibility' AS scheduled_visibility, c.data->>'VisibleAtUtc' AS visible_at_utc, c.data->'Chapters' AS chapters,
           ${publishedIntroSql('c')} AS intro_seconds
         FROM clips c LEFT JOIN programs g ON g.id = c.program_id WHERE c.id = $1`,
        [clipId],
      );
      if (!clip || !listenerReaches(clip, at) || !Array.isArray(clip.chapters) || clip.chapters.length === 0) return c.body(null, 404);
      // On the published audio's timeline: later by the program's intro in front of it (a version
      // switch writes the clip's row, so the Version in the tag below changes with it).
      const intro = Number(clip.intro_seconds);
      const chapters = clip.chapters.map((ch) => ({ ...ch, StartSeconds: onPublishedTimeline(ch.StartSeconds, { introSeconds: intro }) }));
      // The clip's Version, and whether its schedule has come due, are all this document depends on.
      const tag = `c${clip.version}.${visibilityAt({ State: clip.state, Visibility: clip.visibility, ScheduledVisibility: clip.scheduled_visibility, VisibleAtUtc: clip.visible_at_utc }, at).visibility}`;
      const lastModified = new Date(Math.floor(new Date(clip.modified_at_utc).getTime() / 1000) * 1000);
      return conditionalText(c, tag, lastModified, 'application/json+chapters; charset=utf-8', async () =>
        // A chapter image uploaded here is stored with its absolute URL; one kept as a path is made absolute.
        JSON.stringify(podcastChaptersJson(chapters, (u) => absoluteUrl(u, publicOrigin(c)))),
      );
    });
}
