// The headers an exposed service sends on every answer (issue 35, "security of an exposed
// service"): no MIME sniffing, no full URLs in Referer to other sites, HTTPS remembered once it is
// used, and a Content-Security-Policy on everything. Routes that know better set their own policy
// first and it is kept: the studio's files (static.ts, with the hash of index.html's one inline
// script), the API reference (Swagger UI), the show pages and the embed player (pages/routes.ts,
// the one thing made to be framed by other sites).
import { requestOverTls } from './client-address.ts';
import { createHash } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { PUBLIC_PREFIXES } from '../src/domain/public-urls.ts';
import { cors } from 'hono/cors';

/** One year, the figure browsers' preload lists ask for. */
const HSTS_MAX_AGE_SECONDS = 31_536_000;

/** What answers that render nothing (JSON, audio, feeds, images) may do when opened as a page: nothing. */
export const NOTHING_POLICY = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/**
 * The studio's policy, for index.html, its scripts, the workers and the service worker (a worker's
 * policy is the one its own script was served with).
 * - script-src: the built files, the theme and install-offer snippet of index.html by its hash, and
 *   'wasm-unsafe-eval' because the FLAC and MP3 decoders compile their WebAssembly at run time;
 *   never 'unsafe-inline' or 'unsafe-eval'.
 * - style-src 'unsafe-inline': React and Ark UI position popovers and draw progress with inline
 *   style attributes; styles cannot run code.
 * - blob: for images and media the device keeps (artwork picked before upload, audio played
 *   offline, cut previews) and for downloads of CSV and reports.
 * - frame-ancestors 'none': the studio is never framed (clickjacking); the embed player is a page of
 *   its own with its own policy.
 */
export function studioPolicy(inlineScripts: readonly string[]): string {
  const hashes = inlineScripts.map((s) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${[...hashes, "'wasm-unsafe-eval'"].join(' ')}`,
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "media-src 'self' blob:",
    "connect-src 'self'",
    "font-src 'self'",
    "manifest-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-src 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The bodies of the <script> elements of `html` that have no src (what a hash must allow). */
export function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)].filter(([, attrs]) => !/\bsrc\s*=/i.test(attrs ?? '')).map(([, , body]) => body ?? '');
}

/** Swagger UI (GET /api/docs): its own files, inline styles and data: images. */
export const REFERENCE_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'";

/**
 * Sets what a route did not: the policy (NOTHING_POLICY by default), nosniff, Referrer-Policy,
 * X-Frame-Options for browsers without frame-ancestors (unless the route's policy lets others
 * frame it), and HSTS when the request came over HTTPS or the server is told it sits behind TLS.
 */
export function securityHeaders(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const headers = c.res.headers;
    if (!headers.has('content-security-policy')) headers.set('content-security-policy', NOTHING_POLICY);
    if (!headers.has('x-content-type-options')) headers.set('x-content-type-options', 'nosniff');
    if (!headers.has('referrer-policy')) headers.set('referrer-policy', 'strict-origin-when-cross-origin');
    if (/frame-ancestors 'none'/.test(headers.get('content-security-policy') ?? '')) headers.set('x-frame-options', 'DENY');
    if (requestOverTls(c)) headers.set('strict-transport-security', `max-age=${HSTS_MAX_AGE_SECONDS}; includeSubDomains`);
  };
}

/** What listeners' apps read from other sites' pages (a web player fetching a feed, drawing the
 * audio, showing the artwork): feeds, audio and images. The show pages and the embed are pages,
 * opened or framed, never read by script. */
const READABLE_ANYWHERE = PUBLIC_PREFIXES.filter((prefix) => prefix !== '/embed/' && prefix !== '/shows/');

/**
 * CORS: closed everywhere (no Access-Control-* header: another site's script reads nothing of the
 * API or the studio), except the public feeds, audio and images, readable from any origin without
 * credentials, with the headers a player needs for ranges and revalidation, and their preflight.
 */
export function publicCors(): MiddlewareHandler {
  const open = cors({
    origin: '*',
    allowMethods: ['GET', 'HEAD'],
    allowHeaders: ['Range', 'If-None-Match', 'If-Modified-Since', 'If-Range'],
    exposeHeaders: ['Content-Length', 'Content-Range', 'Accept-Ranges', 'ETag', 'Last-Modified'],
    maxAge: 86_400,
  });
  return (c, next) => (READABLE_ANYWHERE.some((prefix) => c.req.path.startsWith(prefix)) ? open(c, next) : next());
}
