// HTTP Range (RFC 9110 §14) for serving audio: one range per request, as browsers' <audio> ask.
//   no Range          → 200 whole body
//   bytes=a-b | a- | -n → 206 with Content-Range
//   unsatisfiable     → 416 with Content-Range: bytes */size
import type { BlobStore } from './blob-store.ts';
export type RangeAnswer =
  | { status: 200; start: 0; end: number }
  | { status: 206; start: number; end: number }
  | { status: 416 };

export function parseRange(header: string | undefined, size: number): RangeAnswer {
  const whole = { status: 200 as const, start: 0 as const, end: size - 1 };
  if (!header) return whole;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  // Several ranges or another unit: answering the whole body is allowed (§14.2).
  if (!m || (m[1] === '' && m[2] === '')) return whole;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0) return { status: 416 };
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return { status: 416 };
  return { status: 206, start, end };
}

/** Answers GET or HEAD for a stored blob with Range support; null when there is no such blob. */
export async function rangedBlobResponse(blobs: BlobStore, key: string, contentType: string, req: Request): Promise<Response | null> {
  const size = await blobs.size(key);
  if (size === null) return null;
  const range = size === 0 ? ({ status: 200, start: 0, end: -1 } as const) : parseRange(req.headers.get('range') ?? undefined, size);
  const headers: Record<string, string> = { 'accept-ranges': 'bytes', 'content-type': contentType, 'cache-control': 'private, max-age=0, must-revalidate' };
  if (range.status === 416) {
    return new Response(null, { status: 416, headers: { ...headers, 'content-range': `bytes */${size}` } });
  }
  headers['content-length'] = String(range.end - range.start + 1);
  if (range.status === 206) headers['content-range'] = `bytes ${range.start}-${range.end}/${size}`;
  const body = req.method === 'HEAD' || size === 0 ? null : blobs.stream(key, range.start, range.end);
  return new Response(body, { status: range.status, headers });
}
