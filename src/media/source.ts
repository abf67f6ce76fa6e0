// Random-access byte sources. Decoders read a file in bounded chunks through this seam, so the
// same code runs on a File/Blob (browser, worker, and Node's fs.openAsBlob) and on an HTTP URL
// answered with Range requests, and never holds the whole file.
import { MediaError, MediaErrorCode } from './errors.ts';

export interface ByteSource {
  readonly size: number;
  /** Reads [offset, offset + length) clipped to the end of the source. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** The Blob behind this source, when there is one (mediabunny reads it directly). */
  readonly blob?: Blob;
  /**
   * Reads [offset, end) in order, in pieces of exactly `chunk` bytes (the last may be shorter),
   * into ONE reused buffer: a yielded view is valid only until the next one is asked for. Sources
   * without it are read with read() (readSequential does both).
   */
  sequential?(offset: number, end: number, chunk: number): AsyncIterable<Uint8Array>;
}

/** Sequential reading of `src`, through its reused-buffer reader when it has one. */
export function readSequential(src: ByteSource, offset: number, end: number, chunk: number): AsyncIterable<Uint8Array> {
  if (src.sequential) return src.sequential(offset, end, chunk);
  return (async function* () {
    for (let off = offset; off < end; off += chunk) yield await src.read(off, Math.min(chunk, end - off));
  })();
}

/**
 * A Blob's bytes through its stream with a BYOB reader: one buffer of `chunk` bytes is filled and
 * handed back again and again, so reading a 3-hour file leaves no garbage behind (a new
 * ArrayBuffer per read is only collected once about 64 MiB of them pile up outside V8's heap).
 */
async function* blobChunks(blob: Blob, offset: number, end: number, chunk: number): AsyncGenerator<Uint8Array> {
  if (offset >= end) return;
  const stream = blob.slice(offset, end).stream();
  let reader: ReadableStreamBYOBReader;
  try {
    reader = stream.getReader({ mode: 'byob' });
  } catch {
    // Not a byte stream here: chunks as the platform gives them, regrouped to `chunk` bytes.
    const buf = new Uint8Array(chunk);
    let filled = 0;
    for await (const piece of stream as unknown as AsyncIterable<Uint8Array>) {
      for (let at = 0; at < piece.length;) {
        const n = Math.min(chunk - filled, piece.length - at);
        buf.set(piece.subarray(at, at + n), filled);
        filled += n;
        at += n;
        if (filled === chunk) {
          yield buf;
          filled = 0;
        }
      }
    }
    if (filled > 0) yield buf.subarray(0, filled);
    return;
  }
  let buffer = new ArrayBuffer(chunk);
  let finished = false;
  try {
    while (!finished) {
      let filled = 0;
      while (filled < chunk) {
        const r = await reader.read(new Uint8Array(buffer, filled, chunk - filled));
        if (r.value) buffer = r.value.buffer as ArrayBuffer;
        if (r.done) {
          finished = true;
          break;
        }
        filled += r.value.byteLength;
      }
      if (filled > 0) yield new Uint8Array(buffer, 0, filled);
      if (finished || buffer.byteLength === 0) break;
    }
  } finally {
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

export function blobSource(blob: Blob): ByteSource {
  return {
    size: blob.size,
    blob,
    async read(offset, length) {
      const end = Math.min(blob.size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      return new Uint8Array(await blob.slice(offset, end).arrayBuffer());
    },
    sequential: (offset, end, chunk) => blobChunks(blob, offset, Math.min(end, blob.size), chunk),
  };
}

/**
 * fetch() for media files, whose failures say what happened in the user's terms (MediaError):
 *   fetch throws, device offline ──> Offline        fetch throws, online ──> Unreachable
 *   404 / 410 ──> NotAvailable                      any other error status ──> DownloadFailed {status}
 * so a file that never arrived is not reported as one that could not be decoded.
 */
export async function fetchMedia(url: string, init: RequestInit = {}): Promise<Response> {
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch (e) {
    if (init.signal?.aborted) throw new MediaError(MediaErrorCode.Aborted, 'Decoding was cancelled');
    const offline = typeof navigator !== 'undefined' && navigator.onLine === false;
    throw new MediaError(offline ? MediaErrorCode.Offline : MediaErrorCode.Unreachable, `${init.method ?? 'GET'} ${url} failed: ${(e as Error).message}`);
  }
  if (res.ok) return res;
  const code = res.status === 404 || res.status === 410 ? MediaErrorCode.NotAvailable : MediaErrorCode.DownloadFailed;
  throw new MediaError(code, `${init.method ?? 'GET'} ${url} answered ${res.status}`, { status: res.status });
}

/** A source over a URL that answers Range requests (our sync server does, for audio). */
export async function urlSource(url: string, init: RequestInit = {}): Promise<ByteSource> {
  const head = await fetchMedia(url, { ...init, method: 'HEAD' });
  const size = Number(head.headers.get('content-length') ?? NaN);
  if (!Number.isFinite(size)) throw new MediaError(MediaErrorCode.DownloadFailed, `HEAD ${url} gave no Content-Length`, { status: head.status });
  return {
    size,
    async read(offset, length) {
      const end = Math.min(size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      const headers = new Headers(init.headers);
      headers.set('range', `bytes=${offset}-${end - 1}`);
      const res = await fetchMedia(url, { ...init, headers });
      const bytes = new Uint8Array(await res.arrayBuffer());
      // A server that ignores Range sends everything: cut out what was asked for.
      return res.status === 200 ? bytes.slice(offset, end) : bytes;
    },
  };
}
