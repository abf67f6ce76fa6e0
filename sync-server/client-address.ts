// The address of the client a request came from: downloads are counted by a salted hash of it
// (publishing/public-audio.ts) and failed sign-ins are limited per client (api/session.ts).
//
// By default it is the socket's address, and X-Forwarded-For is not read: a header any client can
// write must not choose whose count an attempt goes to. Behind a load balancer or reverse proxy
// every socket is the proxy's, so one client's failures would lock out everyone and every listener
// would be one download: CASTAWAY_TRUSTED_PROXIES names the proxies (addresses or CIDR ranges).
// From one of them the client is the right-most X-Forwarded-For entry that is not itself a trusted
// proxy (the entries to its left were written by the client, and may be anything).
import { BlockList, isIP } from 'node:net';
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

export type TrustedProxies = { list: BlockList; describe: string };

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** IPv4 addresses as IPv6 sockets report them (::ffff:10.0.0.1) are checked as IPv4. */
const plain = (address: string) => (/^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(address) ? address.slice(7) : address);

/** Parses CASTAWAY_TRUSTED_PROXIES ("10.0.0.0/8, 127.0.0.1, fd00::/8"); throws naming a bad entry. */
export function parseTrustedProxies(value: string | undefined): TrustedProxies | null {
  const entries = (value ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (entries.length === 0) return null;
  const list = new BlockList();
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const kind = isIP(address ?? '');
    const prefix = bits === undefined ? null : Number(bits);
    const maxBits = kind === 6 ? 128 : 32;
    if (kind === 0 || extra !== undefined || (prefix !== null && !(Number.isInteger(prefix) && prefix >= 0 && prefix <= maxBits && bits === String(prefix)))) {
      throw new Error(`CASTAWAY_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR range (e.g. 10.0.0.0/8, 127.0.0.1, fd00::/8)`);
    }
    if (prefix === null) list.addAddress(address!, family(address!));
    else list.addSubnet(address!, prefix, family(address!));
  }
  return { list, describe: entries.join(', ') };
}

const isTrustedProxy = (address: string, trusted: TrustedProxies | null) =>
  trusted !== null && isIP(plain(address)) !== 0 && trusted.list.check(plain(address), family(plain(address)));

/** The client's address: the socket's, or behind trusted proxies the right-most untrusted hop. */
export function resolveClient(socket: string, forwardedFor: string | undefined, trusted: TrustedProxies | null): string {
  const isTrusted = (address: string) => isTrustedProxy(address, trusted);
  if (!socket || !isTrusted(socket) || !forwardedFor) return socket;
  const hops = forwardedFor.split(',').map((h) => h.trim());
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = hops[i]!;
    // A hop that is not an address (garbage, "unknown") ends the walk: what is left of it is the
    // client's to write, and the last trusted proxy is the client we can vouch for.
    if (isIP(plain(hop)) === 0) return plain(hops[i + 1] ?? socket);
    if (!isTrusted(hop)) return plain(hop);
  }
  // Every hop is a trusted proxy: the left-most is the closest we know to the client.
  return plain(hops[0] ?? socket);
}

/** The socket's remote address, or '' when there is none (app.request in tests and benches). */
function socketAddress(c: Context): string {
  // No Node bindings: nothing to read, and no exception thrown per request to learn it.
  if (!c.env) return '';
  try {
    return getConnInfo(c).remote.address ?? '';
  } catch {
    return '';
  }
}

/** The client's address for this request, or '' when there is no socket (app.request in tests and benches). */
export function clientAddress(c: Context): string {
  const socket = socketAddress(c);
  if (!socket) return '';
  return resolveClient(socket, c.req.header('x-forwarded-for'), c.get('deps').trustedProxies ?? null);
}

/**
 * Whether the client reached the studio over TLS, the one rule for the cookies' Secure flag and for
 * HSTS: the request's own URL is https, the operator said TLS ends in front of the studio
 * (CASTAWAY_SECURE_COOKIES=1), or a trusted proxy (CASTAWAY_TRUSTED_PROXIES) says
 * X-Forwarded-Proto: https. The header from anyone else is not believed, as X-Forwarded-For is not.
 */
export function requestOverTls(c: Context): boolean {
  if (new URL(c.req.url).protocol === 'https:') return true;
  const deps = c.get('deps') as { secureCookies?: boolean | undefined; trustedProxies?: TrustedProxies | null | undefined } | undefined;
  if (deps?.secureCookies === true) return true;
  const proto = c.req.header('x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return proto === 'https' && isTrustedProxy(socketAddress(c), deps?.trustedProxies ?? null);
}
