// Fetching an image named by imageUrl (PUT …/image?imageUrl=…), without letting a caller make the
// server reach what only the server can reach (SSRF): the cloud's metadata address, the database,
// another service on the private network or on this host.
//
//   in the request: http: or https: only; a host that is an address of a private, loopback,
//                   link-local, shared or reserved range (or "localhost") ──> 400 naming imageUrl
//   in the job:     sync-server/net/outbound.ts safeGet: every address the name resolves to
//                   checked, the connection pinned to the checked address, each redirect checked
//                   again (at most 5), 20 s; at most IMAGE_FILE_MAX_BYTES
//
// Loopback is allowed only when the server is told (CASTAWAY_IMAGE_FETCH_ALLOW_LOOPBACK=1): tests
// serve their images on 127.0.0.1.
import { isIP } from 'node:net';
import { IMAGE_FILE_MAX_BYTES } from '../../src/domain/artwork.ts';
import { refusedAddress, safeGet } from '../net/outbound.ts';

export type FetchPolicy = { allowLoopback: boolean };

export const fetchPolicyFromEnv = (): FetchPolicy => ({ allowLoopback: process.env.CASTAWAY_IMAGE_FETCH_ALLOW_LOOPBACK === '1' });

/** Whether the server may connect to this address (sync-server/net/outbound.ts decides). */
export function addressAllowed(address: string, policy: FetchPolicy): boolean {
  return refusedAddress(address.replace(/^\[|\]$/g, ''), policy) === null;
}

export type UrlRefusal = 'notHttp' | 'privateAddress' | 'invalid';

/** The request-time check of imageUrl (no name resolved, nothing connected); null when it may be fetched. */
export function imageUrlRefusal(raw: string, policy: FetchPolicy): UrlRefusal | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'invalid';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'notHttp';
  if (url.username !== '' || url.password !== '') return 'invalid';
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) !== 0) return addressAllowed(host, policy) ? null : 'privateAddress';
  if (host === 'localhost' || host.endsWith('.localhost')) return policy.allowLoopback ? null : 'privateAddress';
  return null;
}

export class ImageFetchError extends Error {}

const TIMEOUT_MS = 20_000;

/**
 * The image at `raw` as a web stream, after every check (each address and redirect: safeGet);
 * throws ImageFetchError for a refused address, an error status, too many redirects, or a declared
 * size over the limit (the blob store enforces the actual size as it streams).
 */
export async function fetchImage(raw: string, policy: FetchPolicy, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const refusal = imageUrlRefusal(raw, policy);
  if (refusal) throw new ImageFetchError(`imageUrl refused: ${refusal}`);
  let fetched: Awaited<ReturnType<typeof safeGet>>;
  try {
    fetched = await safeGet(raw, { allowLoopback: policy.allowLoopback, timeoutMs: TIMEOUT_MS });
  } catch (e) {
    throw new ImageFetchError(`imageUrl: ${(e as Error).message}`);
  }
  signal.addEventListener('abort', () => fetched.cancel(), { once: true });
  if (fetched.contentLength !== null && fetched.contentLength > IMAGE_FILE_MAX_BYTES) {
    fetched.cancel();
    throw new ImageFetchError(`imageUrl is larger than ${IMAGE_FILE_MAX_BYTES} bytes`);
  }
  return fetched.body;
}
