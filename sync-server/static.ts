// Serves the built PWA (dist/) next to /api: files as they are, every other non-/api GET falls
// back to index.html (client-side routes), and index.html and sw.js are never cached by the
// browser (a new build must reach users). Without a build, a plain page says how to make one.
// CASTAWAY_DIST_DIR serves another copy of the build (the update-prompt test changes sw.js in a
// copy to publish a "new version" without touching dist/).
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import type { Context, Hono } from 'hono';
import { bytes, compress, isCompressible, negotiateEncoding, varyOnEncoding, type Encoding } from './compress.ts';
import { MIN_COMPRESS_BYTES } from '../src/protocol/errors.ts';
import { PUBLIC_PREFIXES } from '../src/domain/public-urls.ts';
import { inlineScripts, studioPolicy } from './security-headers.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.mp3': 'audio/mpeg',
  '.map': 'application/json',
};

const NO_CACHE = new Set(['index.html', 'sw.js']);

/** The studio's policy with the hashes of the inline scripts of index.html as it is now (a new build may change them). */
let policy: { stamp: string; value: string } | null = null;
function studioPolicyFor(index: string): string {
  const stat = statSync(index);
  const stamp = `${stat.size} ${stat.mtimeMs}`;
  if (policy?.stamp !== stamp) policy = { stamp, value: studioPolicy(inlineScripts(readFileSync(index, 'utf8'))) };
  return policy.value;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any Hono app, whatever its route types
export function serveDist(app: Hono<any, any, any>, distDir: string): void {
  const root = resolve(process.env.CASTAWAY_DIST_DIR || distDir);
  app.on(['GET', 'HEAD'], '*', (c) => {
    if (c.req.path.startsWith('/api/') || c.req.path === '/api') return c.body(null, 404);
    // The public surface (feeds, audio, show pages, the embed) is the server's own routes: a path
    // there that none of them answered is missing, not a screen of the studio.
    if (PUBLIC_PREFIXES.some((prefix) => c.req.path.startsWith(prefix))) return c.body(null, 404);
    const index = join(root, 'index.html');
    if (!existsSync(index)) {
      return c.text('Castaway Studio: the web app is not built yet (run `npm run build`). The API is served under /api.', 503);
    }
    let rel: string;
    try {
      rel = normalize(decodeURIComponent(c.req.path)).replace(/^([/\\])+/, '');
    } catch {
      return c.body(null, 400);
    }
    let file = join(root, rel);
    if (!file.startsWith(root + sep) || !existsSync(file) || !statSync(file).isFile()) {
      // Missing asset files are 404s; anything else is a client-side route.
      if (extname(rel) !== '' && extname(rel) !== '.html') return c.body(null, 404);
      file = index;
    }
    const name = file.slice(root.length + 1);
    const type = TYPES[extname(file)] ?? 'application/octet-stream';
    c.header('Content-Type', type);
    // Every file of the build carries the studio's policy: a worker's (and the service worker's)
    // policy is the one its own script came with.
    c.header('Content-Security-Policy', studioPolicyFor(index));
    c.header('Cache-Control', NO_CACHE.has(name) ? 'no-cache' : name.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache');
    if (!isCompressible(type)) return c.body(readFileSync(file));
    return compressedFile(c, file);
  });
}

/**
 * The build's files compressed once each, at the higher effort, and kept while the file is the same
 * (its size and modification time): every install and update of the PWA downloads them all (the
 * service worker's precache), ~2.4 MB of JavaScript as built, about a quarter of that as brotli.
 * At most MAX_KEPT_FILES (a build has ~100 files; older builds' hashed files are dropped first).
 */
const compressedFiles = new Map<string, { stamp: string; body: Promise<Buffer> }>();
const MAX_KEPT_FILES = 400;

const stampOf = (file: string) => {
  const stat = statSync(file);
  return { size: stat.size, stamp: `${stat.size} ${stat.mtimeMs}` };
};

async function compressedFile(c: Context, file: string): Promise<Response> {
  // The stamp is read before and after the file: a file rewritten meanwhile (a build writing
  // sw.js in place) is sent as read but not kept under a stamp it may not match. A kept file is
  // not read at all.
  const { size, stamp } = stampOf(file);
  const encoding: Encoding | null = size < MIN_COMPRESS_BYTES ? null : negotiateEncoding(c.req.header('accept-encoding'));
  const response = encoding === null ? c.body(readFileSync(file)) : c.body(bytes(await compressedOnce(file, stamp, encoding)));
  varyOnEncoding(response.headers);
  if (encoding !== null) response.headers.set('content-encoding', encoding);
  return response;
}

function compressedOnce(file: string, stamp: string, encoding: Encoding): Promise<Buffer> {
  const key = `${encoding} ${file}`;
  const kept = compressedFiles.get(key);
  if (kept?.stamp === stamp) return kept.body;
  const made = compress(readFileSync(file), encoding, 'small');
  if (stampOf(file).stamp !== stamp) return made;
  compressedFiles.delete(key); // re-inserted last: the oldest entries are the ones dropped
  compressedFiles.set(key, { stamp, body: made });
  if (compressedFiles.size > MAX_KEPT_FILES) compressedFiles.delete(compressedFiles.keys().next().value!);
  made.catch(() => {
    if (compressedFiles.get(key)?.body === made) compressedFiles.delete(key);
  });
  return made;
}
