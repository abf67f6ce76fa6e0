// The public pages (src/protocol/api/pages.ts), mounted outside /api: no session, nothing but what
// section 4 lets a listener see (published.ts decides), HTML made on the server (render.ts).
//
//   GET /shows/{programId}             the program's page: artwork, description, public episodes, feeds
//   GET /shows/{programId}/{clipSlug}  a Public or Unlisted clip's page (Unlisted: noindex, not listed)
//   GET /embed/{clipId}                the player for an iframe (any site may frame it)
//   GET /embed/assets/player.js        its script
//
// Every answer has an ETag (the page's own hash) and is answered 304 when If-None-Match holds
// it; pages are cached briefly (a publish or an edit shows within a minute).
import { createHash } from 'node:crypto';
import type { Context } from 'hono';
import { guarded, resourceApp } from '../api/route.ts';
import { guard } from '../api/guard.ts';
import { notFound } from '../errors.ts';
import { now } from '../app.ts';
import { publicOrigin } from '../public-origin.ts';
import { clipPage, embedPage, embedScript as embedScriptRoute, programPage } from '../../src/protocol/api/pages.ts';
import { clipExposure, listedClips, loadClip, loadClipBySlug, loadProgram, PROGRAM_PAGE_EPISODES, publicPlaylists } from './published.ts';
import { clipPageHtml, embedPageHtml, programPageHtml } from './render.ts';
import { EMBED_SCRIPT_PATH, embedScript } from './embed-script.ts';
import { EMBED_STYLE, PAGE_STYLE, styleHash } from './style.ts';
import { bytes, compress, negotiateEncoding } from '../compress.ts';
import { MIN_COMPRESS_BYTES } from '../../src/protocol/errors.ts';

/** How long a listener's browser (or a proxy) may keep a page without asking again. */
export const PAGE_MAX_AGE_SECONDS = 60;

/** The pages load nothing from elsewhere (the studio may run on a closed network), and the policy
 * says so: their one style sheet by its hash, the embed's one script from here, audio and images from here. */
function securityHeaders(style: string, frameAncestors: string): Record<string, string> {
  return {
    'content-security-policy': `default-src 'none'; style-src ${styleHash(style)}; script-src 'self'; img-src 'self' data:; media-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors ${frameAncestors}`,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
  };
}
const PAGE_HEADERS = securityHeaders(PAGE_STYLE, "'self'");
// The embed is made to be framed by any site: no X-Frame-Options, frame-ancestors *.
const EMBED_HEADERS = securityHeaders(EMBED_STYLE, '*');

const hashOf = (body: string) => createHash('sha256').update(body).digest('base64url').slice(0, 27);

/** If-None-Match naming the page as it is now, in any coding (the hash before a "-br"/"-gzip"), or *. */
function matches(header: string | undefined, hash: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim().replace(/^W\//, '');
    return t === '*' || t === `"${hash}"` || t.startsWith(`"${hash}-`);
  });
}

/**
 * A page with its ETag, or 304. The app's compression leaves bodies with an ETag alone (a
 * compressed body needs an ETag of its own), so pages compress here: each coding its own strong
 * ETag ("<hash>-br"), and any of them answers 304 for the page they were made from.
 */
async function answer(c: Context, body: string, type: string, headers: Record<string, string>, cacheControl: string): Promise<Response> {
  const hash = hashOf(body);
  const encoding = body.length >= MIN_COMPRESS_BYTES ? negotiateEncoding(c.req.header('accept-encoding')) : null;
  const common: Record<string, string> = { etag: encoding ? `"${hash}-${encoding}"` : `"${hash}"`, 'cache-control': cacheControl, vary: 'Accept-Encoding', ...headers };
  if (matches(c.req.header('if-none-match'), hash)) return c.body(null, 304, common);
  if (encoding === null) return c.body(body, 200, { 'content-type': type, ...common });
  return c.body(bytes(await compress(Buffer.from(body), encoding, 'fast')), 200, { 'content-type': type, 'content-encoding': encoding, ...common });
}

const HTML = 'text/html; charset=utf-8';
const pageCache = `public, max-age=${PAGE_MAX_AGE_SECONDS}`;

export function pageRoutes() {
  return resourceApp()
    .openapi(guarded(programPage, guard.public()), async (c) => {
      const { store } = c.get('deps');
      const { programId } = c.req.valid('param');
      const program = await loadProgram(store, programId);
      if (!program) throw notFound();
      const at = now(c.get('deps'));
      const [clips, playlists] = [await listedClips(store, programId, at), await publicPlaylists(store, programId)];
      // A program with nothing public has no page yet: its name and description are the studio's until then.
      if (clips.length === 0 && playlists.length === 0) throw notFound();
      const body = programPageHtml({ origin: publicOrigin(c), program, clips, playlists, more: clips.length >= PROGRAM_PAGE_EPISODES });
      return answer(c, body, HTML, PAGE_HEADERS, pageCache);
    })
    .openapi(guarded(clipPage, guard.public()), async (c) => {
      const { store } = c.get('deps');
      const { programId, clipSlug } = c.req.valid('param');
      const clip = await loadClipBySlug(store, programId, clipSlug);
      const exposure = clip ? clipExposure(clip, now(c.get('deps'))) : null;
      if (!clip || !exposure) throw notFound();
      const program = await loadProgram(store, programId);
      if (!program) throw notFound();
      const playlists = await publicPlaylists(store, programId);
      const inPlaylists = new Set((clip['PlaylistIds'] as string[] | undefined) ?? []);
      // The feed that lists the clip, else the program's first: where a listener subscribes.
      const feed = playlists.find((pl) => inPlaylists.has(pl.Id)) ?? playlists[0] ?? null;
      const body = clipPageHtml({ origin: publicOrigin(c), program, clip, unlisted: exposure === 'unlisted', feed });
      return answer(c, body, HTML, PAGE_HEADERS, pageCache);
    })
    .openapi(guarded(embedScriptRoute, guard.public()), async (c) => {
      const script = await embedScript();
      // The embed page names it with its hash (?v=…): that URL never changes content.
      const versioned = c.req.query('v') === script.hash;
      return answer(c, script.code, 'text/javascript; charset=utf-8', { 'x-content-type-options': 'nosniff' }, versioned ? 'public, max-age=31536000, immutable' : pageCache);
    })
    .openapi(guarded(embedPage, guard.public()), async (c) => {
      const { store } = c.get('deps');
      const { clipId } = c.req.valid('param');
      const clip = await loadClip(store, clipId);
      const exposure = clip ? clipExposure(clip, now(c.get('deps'))) : null;
      if (!clip || !exposure) throw notFound();
      const program = await loadProgram(store, clip['ProgramId'] as string);
      if (!program) throw notFound();
      const script = await embedScript();
      const body = embedPageHtml({ origin: publicOrigin(c), program, clip, unlisted: exposure === 'unlisted', script: `${EMBED_SCRIPT_PATH}?v=${script.hash}` });
      return answer(c, body, HTML, EMBED_HEADERS, pageCache);
    });
}
