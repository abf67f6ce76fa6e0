// Response compression. A first sync of 10,000 clips is ~20 MB of JSON; brotli makes it ~2 MB, which
// on a phone's link is the difference between seconds and most of a minute, and between a page
// that arrives before the connection drops and one that does not. Hono's own compress middleware
// streams through CompressionStream (gzip and deflate only, at zlib's default level, on the event
// loop); this one uses node:zlib: brotli where the client takes it, at fast settings for answers
// made per request, on the thread pool, so the event loop (and PGlite on it) keeps going.
//
// Requests: a JSON body may come gzip-compressed (Content-Encoding: gzip), which is what a browser's
// CompressionStream makes: the sync worker sends its pushes so (on a phone the uplink is the slow
// way). The answers under /api say so with Accept-Encoding (RFC 7694), and a client compresses only
// once it has seen that: a server of an earlier release, which would read the bytes as JSON, never
// says it. The body's limit holds for it as sent and once decoded (a small body must not decode
// into a huge one).
//
// What is compressed: text-like bodies (JSON, text, JavaScript, CSS, SVG, the manifest) of at least
// MIN_COMPRESS_BYTES that carry no Content-Encoding and no ETag. Never: server-sent events (a
// stream that must flush each poke), audio (already compressed), answers served in byte ranges
// (a waveform's JSON: its 206s must be ranges of the 200's bytes), 206/204/304 answers, HEAD
// (which says Vary all the same), `Cache-Control: no-transform`. A body is read whole to be
// compressed; a pull page, megabytes of JSON made of a part per row, is encoded and compressed by
// its route piece by piece instead (textPartsResponse). A row's ETag
// is its ModifiedAtUtc, which If-Match compares (specification section 7); a compressed body would need its own strong ETag, so
// rows with an ETag, a single row's small answer, go out as they are.
import { promisify } from 'node:util';
import { brotliCompress, constants, createBrotliCompress, createGzip, gunzip, gzip, type BrotliOptions, type ZlibOptions } from 'node:zlib';
import type { Context, MiddlewareHandler, Next } from 'hono';
import { formError } from '../src/domain/form-errors.ts';
import { JSON_BODY_LIMIT_BYTES, MIN_COMPRESS_BYTES } from '../src/protocol/errors.ts';
import { AppError, badRequest, fieldError, payloadTooLarge } from './errors.ts';

export type Encoding = 'br' | 'gzip';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/**
 * The coding to answer with for an Accept-Encoding header (RFC 9110 section 12.5.3): brotli or gzip,
 * whichever has the higher weight, brotli on a tie; `*` stands for any coding not named; a weight
 * of 0 refuses. Null when neither is acceptable (the body goes out as it is).
 */
export function negotiateEncoding(header: string | null | undefined): Encoding | null {
  if (!header) return null;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    let q = 1;
    for (const p of params) {
      const [k, v] = p.trim().split('=');
      if (k === 'q') q = /^(0(\.\d{0,3})?|1(\.0{0,3})?)$/.test(v ?? '') ? Number(v) : 0;
    }
    weights.set(name, q);
  }
  const weight = (coding: string) => weights.get(coding) ?? (coding === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

/** Content types worth compressing: text of some kind, never a stream of events. */
export function isCompressible(contentType: string | null | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  return type.startsWith('text/') || /^application\/(.+\+)?(json|javascript|xml|manifest\+json)$/.test(type) || type === 'image/svg+xml';
}

/**
 * `fast` for answers made per request (brotli quality 1, gzip level 1: ~10× smaller for the sync's
 * JSON at ~2 ms per MB); `small` for files compressed once and kept (the built PWA).
 */
export function compress(body: Uint8Array, encoding: Encoding, effort: 'fast' | 'small'): Promise<Buffer> {
  if (encoding === 'br') return brotli(body, brotliOptions(effort, body.byteLength));
  return gzipAsync(body, gzipOptions(effort));
}

const brotliOptions = (effort: 'fast' | 'small', sizeHint?: number): BrotliOptions => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: effort === 'fast' ? 1 : 9,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    ...(sizeHint !== undefined ? { [constants.BROTLI_PARAM_SIZE_HINT]: sizeHint } : {}),
  },
});
const gzipOptions = (effort: 'fast' | 'small'): ZlibOptions => ({ level: effort === 'fast' ? 1 : 9 });

/**
 * Text parts are encoded, and written to the compressor, in pieces of about this many characters.
 * Not much less: brotli's fast setting compresses what each write gives it on its own (pieces of
 * 64 Ki characters made the initial sync of bench:sync 0.91 MB instead of 0.57).
 */
const PIECE_CHARS = 1024 * 1024;

/**
 * An answer made of many text parts (a pull page: a part per row, thousands of them), encoded and
 * compressed piece by piece as the request's Accept-Encoding asks, `fast`. Never one string of
 * the whole answer, nor all of its bytes before compressing: for a page of 5,000 clips (~10 MB)
 * each of those was a fresh allocation of the page's size, its memory faulted in and given back
 * on every pull (a full pull of 10,000 clips: ~25,000 page faults, 15-20 % of its CPU time).
 * An answer under one piece, or to a client that takes no compression, is one body as usual
 * (the compression middleware compresses the first kind like any other answer).
 */
export async function textPartsResponse(c: Context, parts: Iterable<string>, contentType: string): Promise<Response> {
  const encoding = negotiateEncoding(c.req.header('accept-encoding'));
  const headers = new Headers({ 'content-type': contentType });
  const plain: Buffer[] = [];
  // Declared so: the closure below assigns it, which TypeScript's narrowing does not see.
  let compressor = null as PieceCompressor | null;
  let piece: string[] = [];
  let chars = 0;
  /** The piece so far, encoded: to the compressor once the answer has a full piece, else kept. */
  const cut = (full: boolean) => {
    const encoded = Buffer.from(piece.join(''), 'utf8');
    piece = [];
    chars = 0;
    if (encoding !== null && (full || compressor)) (compressor ??= pieceCompressor(encoding)).write(encoded);
    else plain.push(encoded);
  };
  for (const part of parts) {
    piece.push(part);
    chars += part.length;
    if (chars >= PIECE_CHARS) cut(true);
  }
  if (piece.length > 0) cut(false);
  if (compressor === null) {
    const body = plain.length === 1 ? plain[0]! : Buffer.concat(plain);
    headers.set('content-length', String(body.byteLength));
    return new Response(bytes(body), { status: 200, headers });
  }
  const compressed = await compressor.end();
  headers.set('content-encoding', compressor.encoding);
  headers.set('content-length', String(compressed.byteLength));
  varyOnEncoding(headers);
  return new Response(bytes(compressed), { status: 200, headers });
}

type PieceCompressor = ReturnType<typeof pieceCompressor>;

/** One zlib stream (working on the thread pool) that takes pieces and gives back one body. */
function pieceCompressor(encoding: Encoding) {
  const stream = encoding === 'br' ? createBrotliCompress(brotliOptions('fast')) : createGzip(gzipOptions('fast'));
  const out: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    stream.on('data', (chunk: Buffer) => out.push(chunk));
    stream.on('error', reject);
    stream.on('end', () => resolve(Buffer.concat(out)));
  });
  return {
    encoding,
    write: (piece: Buffer) => void stream.write(piece),
    end: () => {
      stream.end();
      return done;
    },
  };
}

/** Adds Accept-Encoding to a response's Vary (a cache must not hand one client's coding to another). */
export function varyOnEncoding(headers: Headers): void {
  const vary = headers.get('vary');
  if (!vary) headers.set('vary', 'Accept-Encoding');
  else if (!/(^|,)\s*(accept-encoding|\*)\s*(,|$)/i.test(vary)) headers.set('vary', `${vary}, Accept-Encoding`);
}

/** A body of bytes (zlib's output is never over a SharedArrayBuffer; the DOM types cannot know). */
export const bytes = (b: Buffer) => new Uint8Array(b.buffer as ArrayBuffer, b.byteOffset, b.byteLength);

const SKIPPED_STATUS = new Set([204, 206, 304]);

/** Compresses the answers of the routes after it (see the header for which). */
export function compression(): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (SKIPPED_STATUS.has(res.status) || !isCompressible(res.headers.get('content-type'))) return;
    if (res.headers.has('content-encoding') || res.headers.has('etag') || res.headers.has('accept-ranges') || res.headers.has('content-range')) return;
    if (/(^|,)\s*no-transform\s*(,|$)/i.test(res.headers.get('cache-control') ?? '')) return;
    varyOnEncoding(res.headers);
    if (c.req.method === 'HEAD' || res.body === null) return;
    const encoding = negotiateEncoding(c.req.header('accept-encoding'));
    const length = Number(res.headers.get('content-length') ?? Number.NaN);
    if (encoding === null || length < MIN_COMPRESS_BYTES) return;
    // Read whole (the body was read to learn its length when it has no Content-Length): what goes
    // out is this body, compressed unless it is under MIN_COMPRESS_BYTES after all.
    let body = new Uint8Array(await res.arrayBuffer());
    const headers = new Headers(res.headers);
    if (body.byteLength >= MIN_COMPRESS_BYTES) {
      body = bytes(await compress(body, encoding, 'fast'));
      headers.set('content-encoding', encoding);
      headers.set('content-length', String(body.byteLength));
    }
    c.res = undefined; // replaced, not merged with the answer read above
    c.res = new Response(body, { status: res.status, statusText: res.statusText, headers });
  };
}

/** The content codings of request bodies the server decodes (RFC 7694's Accept-Encoding answer). */
const REQUEST_ENCODINGS = 'gzip';

/** Says, on an answer, which codings a request body may come in. */
export function advertiseRequestEncodings(headers: Headers): void {
  headers.set('accept-encoding', REQUEST_ENCODINGS);
}

const contentEncodingErrors = () => [fieldError('Content-Encoding', formError('invalid'))];

/**
 * Decodes a gzip request body before the routes read it, at most JSON_BODY_LIMIT_BYTES of it
 * (413 beyond, as for a body sent as it is); a body that is not gzip is a 400 naming
 * Content-Encoding, and a coding the server does not take is a 415 (the `/api` middleware in
 * app.ts adds the Accept-Encoding offer to these refusals as to every answer).
 */
export async function decodeRequestBody(c: Context, next: Next): Promise<void> {
  const coding = c.req.header('content-encoding')?.trim().toLowerCase();
  if (!coding || coding === 'identity' || !c.req.raw.body) return next();
  if (coding !== 'gzip' && coding !== 'x-gzip') {
    throw new AppError(415, { Errors: contentEncodingErrors() });
  }
  // Read from the raw request, not c.req: Hono keeps what c.req reads and would hand the
  // compressed bytes to the route.
  const sent = new Uint8Array(await c.req.raw.arrayBuffer());
  let body: Buffer;
  try {
    body = await gunzipAsync(sent, { maxOutputLength: JSON_BODY_LIMIT_BYTES + 1 });
  } catch (err) {
    if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw payloadTooLarge();
    throw badRequest(contentEncodingErrors());
  }
  if (body.byteLength > JSON_BODY_LIMIT_BYTES) throw payloadTooLarge();
  const headers = new Headers(c.req.raw.headers);
  headers.delete('content-encoding');
  headers.set('content-length', String(body.byteLength));
  c.req.raw = new Request(c.req.raw.url, { method: c.req.raw.method, headers, body: bytes(body) });
  await next();
}
