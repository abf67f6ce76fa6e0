// The origin that listeners reach the studio on, for what leaves the studio with an absolute URL
// (a feed's enclosures, a page's OpenGraph tags): PUBLIC_URL when the studio is configured with
// one (behind a proxy, on a public name), else the origin the request itself arrived on.
//
// Links in mails are stricter (mailOrigin): a mailed link carries a secret (a reset, confirmation
// or invitation token) to someone other than the caller, so an origin taken from the request's Host
// header would let anyone who can reach the studio mail a victim a token pointing at their own site.
// Without PUBLIC_URL, a mail link is built only on a host this machine is known by (a loopback name,
// one of its own addresses, its hostname); any other Host is a 421 naming PUBLIC_URL, and the log
// says to set it, rather than a mail sent with a link nobody should follow.
import { hostname, networkInterfaces } from 'node:os';
import type { Context } from 'hono';
import { AppError } from './errors.ts';

export function publicOrigin(c: Context): string {
  const configured = process.env.PUBLIC_URL?.trim();
  if (configured) return new URL(configured).origin;
  return new URL(c.req.url).origin;
}

/** The names this machine answers to on its own: loopback, its addresses, its hostname. */
function ownHostnames(): Set<string> {
  const names = new Set(['localhost', '::1', hostname().toLowerCase()]);
  for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(a.address.toLowerCase());
  return names;
}

/** Whether a URL hostname (as URL.hostname gives it: IPv6 in brackets) is this machine's own. */
export function isOwnHostname(host: string, own: Set<string> = ownHostnames()): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return own.has(h) || /^127(\.\d{1,3}){3}$/.test(h) || h.endsWith('.localhost');
}

export const MAIL_ORIGIN_REFUSED = {
  Errors: [{ Field: 'PUBLIC_URL', Code: 'invalid', Message: 'This studio was reached under a name it does not know; mails with links are sent only once PUBLIC_URL names the studio’s public origin.' }],
};

/** The origin for links mailed with a token: see the header. Throws a 421 for an unknown host. */
export function mailOrigin(c: Context): string {
  const configured = process.env.PUBLIC_URL?.trim();
  if (configured) return new URL(configured).origin;
  const url = new URL(c.req.url);
  if (isOwnHostname(url.hostname)) return url.origin;
  console.warn(`A mail link was refused for the host "${url.host}": set PUBLIC_URL to the studio's public origin (README, "Running it as a service").`);
  throw new AppError(421, MAIL_ORIGIN_REFUSED);
}
