// Fetching an image named by imageUrl (PUT …/image?imageUrl=…), without letting a caller make the
// server reach what only the server can reach (SSRF): the cloud's metadata address, the database,
// another service on the private network or on this host.
//
//   in the request: http: or https: only; a host that is an address of a private, loopback,
//                   link-local, shared or reserved range (or "localhost") ──> 400 naming imageUrl
//   in the job:     every address the name resolves to checked the same way AS IT CONNECTS (the
//                   lookup of the connection itself: a name that resolved to a public address for
//                   the check cannot resolve to 127.0.0.1 for the connection), each redirect
//                   checked again (at most 5), 20 s, at most IMAGE_FILE_MAX_BYTES
//
// Loopback is allowed only when the server is told (CASTAWAY_IMAGE_FETCH_ALLOW_LOOPBACK=1): tests
// serve their images on 127.0.0.1.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { IMAGE_FILE_MAX_BYTES } from '../../src/domain/artwork.ts';

const refused = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24],
  ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) refused.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32], ['100::', 64]] as const) refused.addSubnet(net, bits, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

export type FetchPolicy = { allowLoopback: boolean };

export const fetchPolicyFromEnv = (): FetchPolicy => ({ allowLoopback: process.env.CASTAWAY_IMAGE_FETCH_ALLOW_LOOPBACK === '1' });

/** Whether the server may connect to this address. */
export function addressAllowed(address: string, policy: FetchPolicy): boolean {
  let ip = address.replace(/^\[|\]$/g, '');
  // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is that IPv4 address.
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped) ip = mapped[1]!;
  const family = isIP(ip);
  if (family === 0) return false;
  const type = family === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(ip, type)) return policy.allowLoopback;
  return !refused.check(ip, type);
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

/** The connection's own lookup: every address the name has must be one the server may reach. */
function guardedLookup(policy: FetchPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = addresses.find((a) => !addressAllowed(a.address, policy));
      if (bad || addresses.length === 0) return callback(new ImageFetchError(`imageUrl resolves to an address the server may not reach (${hostname})`) as NodeJS.ErrnoException, '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      return callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

const TIMEOUT_MS = 20_000;
const MAX_REDIRECTS = 5;

function get(url: URL, policy: FetchPolicy, signal: AbortSignal): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'GET', lookup: guardedLookup(policy), signal, headers: { accept: 'image/jpeg, image/png', 'user-agent': 'CastawayStudio/1 (artwork)' } }, resolve);
    req.on('error', reject);
    req.end();
  });
}

/**
 * The image at `raw` as a web stream, after every check of the header; throws ImageFetchError
 * for a refused address, a status other than 200, too many redirects, or a declared size over
 * the limit (the blob store enforces the actual size as it streams).
 */
export async function fetchImage(raw: string, policy: FetchPolicy, signal: AbortSignal): Promise<ReadableStream<Uint8Array>> {
  const timeout = AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]);
  let url = raw;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
    const refusal = imageUrlRefusal(url, policy);
    if (refusal) throw new ImageFetchError(`imageUrl refused: ${refusal}`);
    const res = await get(new URL(url), policy, timeout);
    const status = res.statusCode ?? 0;
    if (status >= 300 && status < 400 && res.headers.location) {
      res.resume();
      url = new URL(res.headers.location, url).toString();
      continue;
    }
    if (status !== 200) {
      res.resume();
      throw new ImageFetchError(`imageUrl answered ${status}`);
    }
    const declared = Number(res.headers['content-length']);
    if (Number.isFinite(declared) && declared > IMAGE_FILE_MAX_BYTES) {
      res.destroy();
      throw new ImageFetchError(`imageUrl is larger than ${IMAGE_FILE_MAX_BYTES} bytes`);
    }
    return Readable.toWeb(res) as ReadableStream<Uint8Array>;
  }
  throw new ImageFetchError('imageUrl redirects too many times');
}
