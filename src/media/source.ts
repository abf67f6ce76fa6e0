// Random-access byte sources. Decoders read a file in bounded chunks through this seam, so the
// same code runs on a File/Blob (browser, worker, and Node's fs.openAsBlob) and on an HTTP URL
// answered with Range requests, and never holds the whole file.

export interface ByteSource {
  readonly size: number;
  /** Reads [offset, offset + length) clipped to the end of the source. */
  read(offset: number, length: number): Promise<Uint8Array>;
  /** The Blob behind this source, when there is one (mediabunny reads it directly). */
  readonly blob?: Blob;
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
  };
}

/** A source over a URL that answers Range requests (our sync server does, for audio). */
export async function urlSource(url: string, init: RequestInit = {}): Promise<ByteSource> {
  const head = await fetch(url, { ...init, method: 'HEAD' });
  if (!head.ok) throw new Error(`HEAD ${url} answered ${head.status}`);
  const size = Number(head.headers.get('content-length') ?? NaN);
  if (!Number.isFinite(size)) throw new Error(`HEAD ${url} gave no Content-Length`);
  return {
    size,
    async read(offset, length) {
      const end = Math.min(size, offset + length);
      if (offset >= end) return new Uint8Array(0);
      const headers = new Headers(init.headers);
      headers.set('range', `bytes=${offset}-${end - 1}`);
      const res = await fetch(url, { ...init, headers });
      if (res.status !== 206 && res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
      const bytes = new Uint8Array(await res.arrayBuffer());
      // A server that ignores Range sends everything: cut out what was asked for.
      return res.status === 200 ? bytes.slice(offset, end) : bytes;
    },
  };
}
