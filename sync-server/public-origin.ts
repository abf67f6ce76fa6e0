// The origin that listeners reach the studio on, for what leaves the studio with an absolute URL
// (a feed's enclosures, a page's OpenGraph tags): PUBLIC_URL when the studio is configured with
// one (behind a proxy, on a public name), else the origin the request itself arrived on.
import type { Context } from 'hono';

export function publicOrigin(c: Context): string {
  const configured = process.env.PUBLIC_URL?.trim();
  if (configured) return new URL(configured).origin;
  return new URL(c.req.url).origin;
}
