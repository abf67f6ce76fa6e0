// Fetching what another host serves (an imported feed, its chapters, its episodes' audio, artwork
// named by imageUrl), and posting webhooks' deliveries, without letting a URL point the server at
// itself or its neighbours (SSRF). The one place for these checks: imports (sync-server/imports),
// artwork (sync-server/images) and webhooks (sync-server/webhooks, safePost: no redirects) use it.
//
//   URL ──not http(s), credentials──> refused
//    │ host an IP literal ──private, loopback, link-local, metadata──> refused (never connected)
//    │ host a name ──resolved HERE (dns.lookup, every address)──any refused──> refused
//    ▼ connect to the address just checked (the request's own `lookup`, so no second resolution
//      can answer differently: DNS rebinding), send, read the status
//   3xx ──Location──> the same checks again, at most MAX_REDIRECTS times
//   2xx ──body streamed, counted against the limit, under a deadline
//
// Loopback is allowed only when the settings say so (tests serve feeds on 127.0.0.1).
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { ImportErrorCode } from '../../src/domain/imports.ts';

export type NetSettings = {
  /** Tests only: let 127.0.0.0/8 and ::1 through (every other refused range stays refused). */
  allowLoopback: boolean;
  /** Whole request, connect to last byte. */
  timeoutMs: number;
};

export class FetchError extends Error {
  constructor(
    readonly code: ImportErrorCode,
    message: string,
    /** Worth another attempt (a timeout, a 5xx, a reset connection). */
    readonly transient = false,
  ) {
    super(message);
  }
}

const MAX_REDIRECTS = 5;
const USER_AGENT = 'CastawayStudio-Import/1.0 (+podcast import)';

const blocked = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24], ['192.0.2.0', 24],
  ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['fc00::', 7], ['fe80::', 10], ['fec0::', 10], ['ff00::', 8], ['2001:db8::', 32], ['100::', 64], ['2001::', 23],
] as const) blocked.addSubnet(net, prefix, 'ipv6');
const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

/** The IPv4 address an IPv6 one carries (mapped ::ffff:a.b.c.d, NAT64 64:ff9b::/96), or null. */
function embeddedIpv4(address: string): string | null {
  const lower = address.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1]!;
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return null;
  const hi = parseInt(hex[1]!, 16);
  const lo = parseInt(hex[2]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** Why an address may not be fetched from ('loopback', 'private'), or null when it may. */
export function refusedAddress(address: string, settings: Pick<NetSettings, 'allowLoopback'>): string | null {
  const family = isIP(address);
  if (family === 0) return 'notAnAddress';
  const v4 = family === 6 ? embeddedIpv4(address) : address;
  const [addr, type] = v4 !== null ? [v4, 'ipv4' as const] : [address, 'ipv6' as const];
  if (loopback.check(addr, type)) return settings.allowLoopback ? null : 'loopback';
  if (blocked.check(addr, type)) return 'private';
  return null;
}

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** The URL, if it is one this server may fetch from: http(s), no credentials, a public address. */
export function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchError(ImportErrorCode.RefusedTarget, 'not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchError(ImportErrorCode.RefusedTarget, `${url.protocol} is not http or https`);
  if (url.username || url.password) throw new FetchError(ImportErrorCode.RefusedTarget, 'a URL with credentials');
  return url;
}

function resolveAll(host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));
}

/**
 * Every address the URL's host names, each allowed; throws RefusedTarget (or Unreachable: the
 * name does not resolve). Connecting to none of them: this is the check before any connection.
 */
export async function checkTarget(url: URL, settings: Pick<NetSettings, 'allowLoopback'>): Promise<LookupAddress[]> {
  const host = hostOf(url);
  if (isIP(host) !== 0) {
    const why = refusedAddress(host, settings);
    if (why) throw new FetchError(ImportErrorCode.RefusedTarget, `${host} is a ${why} address`);
    return [{ address: host, family: isIP(host) }];
  }
  let addresses: LookupAddress[];
  try {
    addresses = await resolveAll(host);
  } catch (e) {
    throw new FetchError(ImportErrorCode.Unreachable, `${host} does not resolve (${(e as NodeJS.ErrnoException).code ?? 'error'})`, true);
  }
  for (const a of addresses) {
    const why = refusedAddress(a.address, settings);
    if (why) throw new FetchError(ImportErrorCode.RefusedTarget, `${host} resolves to a ${why} address`);
  }
  if (addresses.length === 0) throw new FetchError(ImportErrorCode.Unreachable, `${host} does not resolve`, true);
  return addresses;
}

/** A `lookup` for http.request that answers only with the addresses already checked. */
function pinnedLookup(addresses: LookupAddress[]): LookupFunction {
  return ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
}

export type Fetched = {
  /** The URL that answered (after redirects). */
  url: URL;
  status: number;
  contentType: string | null;
  contentLength: number | null;
  body: ReadableStream<Uint8Array>;
  /** Stops reading (and the deadline). */
  cancel(): void;
};

function requestOnce(url: URL, addresses: LookupAddress[], signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(url, { method: 'GET', headers: { 'user-agent': USER_AGENT, accept: '*/*' }, lookup: pinnedLookup(addresses), signal });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

/**
 * GET with the checks above on the URL and on every redirect. The body is the caller's to read
 * (readLimited, or a blob store's put with its own limit) before the deadline.
 */
export async function safeGet(raw: string, settings: NetSettings): Promise<Fetched> {
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(new FetchError(ImportErrorCode.Timeout, `no complete answer in ${settings.timeoutMs / 1000} s`, true)), settings.timeoutMs);
  deadline.unref();
  const fail = (e: unknown): never => {
    clearTimeout(deadline);
    if (e instanceof FetchError) throw e;
    if (abort.signal.aborted && abort.signal.reason instanceof FetchError) throw abort.signal.reason;
    throw new FetchError(ImportErrorCode.Unreachable, `the host could not be reached (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, true);
  };
  let url = parseTarget(raw);
  try {
    for (let hop = 0; ; hop++) {
      const addresses = await checkTarget(url, settings);
      const res = await requestOnce(url, addresses, abort.signal);
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        if (hop >= MAX_REDIRECTS) throw new FetchError(ImportErrorCode.TooManyRedirects, `more than ${MAX_REDIRECTS} redirects`);
        url = parseTarget(new URL(res.headers.location, url).toString());
        continue;
      }
      if (status < 200 || status >= 300) {
        res.resume();
        throw new FetchError(ImportErrorCode.HttpStatus, `the host answered ${status}`, status >= 500 || status === 429 || status === 408);
      }
      const length = Number(res.headers['content-length']);
      const body = Readable.toWeb(res) as unknown as ReadableStream<Uint8Array>;
      return {
        url,
        status,
        contentType: res.headers['content-type'] ?? null,
        contentLength: Number.isFinite(length) ? length : null,
        body,
        cancel: () => {
          clearTimeout(deadline);
          res.destroy();
        },
      };
    }
  } catch (e) {
    return fail(e);
  }
}

/** The whole body as text, refused past maxBytes (the declared length first, then as it arrives). */
export async function readLimited(fetched: Fetched, maxBytes: number, what: string): Promise<string> {
  const tooLarge = () => new FetchError(ImportErrorCode.TooLarge, `the ${what} is larger than ${Math.round(maxBytes / 1024)} KB`);
  try {
    if (fetched.contentLength !== null && fetched.contentLength > maxBytes) throw tooLarge();
    const chunks: Uint8Array[] = [];
    let size = 0;
    const reader = fetched.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        throw tooLarge();
      }
      chunks.push(value);
    }
    return Buffer.concat(chunks).toString('utf8');
  } catch (e) {
    if (e instanceof FetchError) throw e;
    throw new FetchError(ImportErrorCode.Timeout, `the ${what} did not arrive whole (${(e as Error).message})`, true);
  } finally {
    fetched.cancel();
  }
}

export type Posted = {
  status: number;
  /** The start of the answer's body (at most maxResponseBytes, as text). */
  body: string;
  durationMs: number;
};

/**
 * POST a body to a URL with the same checks as safeGet (the target and every address its name
 * resolves to, connected to by the address checked), for webhooks: no redirect is followed (a 3xx
 * is answered as it is, for the caller to count as a failure: following one would send the signed
 * body somewhere its owner did not name), the whole exchange is under settings.timeoutMs, and the
 * answer's body is read up to maxResponseBytes and the rest dropped. Throws FetchError when no
 * answer came: RefusedTarget (nothing was sent), Unreachable, Timeout.
 */
export async function safePost(raw: string, body: string, headers: Record<string, string>, settings: NetSettings & { maxResponseBytes: number }): Promise<Posted> {
  const started = performance.now();
  const abort = new AbortController();
  const deadline = setTimeout(() => abort.abort(new FetchError(ImportErrorCode.Timeout, `no complete answer in ${settings.timeoutMs / 1000} s`, true)), settings.timeoutMs);
  deadline.unref();
  try {
    const url = parseTarget(raw);
    const addresses = await checkTarget(url, settings);
    const payload = Buffer.from(body, 'utf8');
    const res = await new Promise<http.IncomingMessage>((resolve, reject) => {
      const client = url.protocol === 'https:' ? https : http;
      const req = client.request(url, {
        method: 'POST',
        headers: { ...headers, 'content-length': String(payload.byteLength) },
        lookup: pinnedLookup(addresses),
        signal: abort.signal,
      });
      req.on('response', resolve);
      req.on('error', reject);
      req.end(payload);
    });
    const chunks: Buffer[] = [];
    let kept = 0;
    await new Promise<void>((resolve, reject) => {
      res.on('data', (chunk: Buffer) => {
        if (kept >= settings.maxResponseBytes) return;
        const part = chunk.subarray(0, settings.maxResponseBytes - kept);
        chunks.push(part);
        kept += part.byteLength;
        // Enough is kept: the rest is not read (the connection is closed).
        if (kept >= settings.maxResponseBytes) {
          res.destroy();
          resolve();
        }
      });
      res.on('end', resolve);
      res.on('close', resolve);
      res.on('error', reject);
    });
    return { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), durationMs: performance.now() - started };
  } catch (e) {
    if (e instanceof FetchError) throw e;
    if (abort.signal.aborted && abort.signal.reason instanceof FetchError) throw abort.signal.reason;
    throw new FetchError(ImportErrorCode.Unreachable, `the host could not be reached (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`, true);
  } finally {
    clearTimeout(deadline);
  }
}
