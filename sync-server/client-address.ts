// The address of the client a request came from, as the socket says: downloads are counted by a
// salted hash of it (publishing/public-audio.ts) and failed sign-ins are limited per client
// (api/session.ts). Behind a proxy every request comes from the proxy's address; reading
// X-Forwarded-For is not done, since a header any client can write must not choose whose count
// an attempt goes to.
import type { Context } from 'hono';
import { getConnInfo } from '@hono/node-server/conninfo';

/** The socket's remote address, or '' when there is no socket (app.request in tests and benches). */
export function clientAddress(c: Context): string {
  // No Node bindings: nothing to read, and no exception thrown per request to learn it.
  if (!c.env) return '';
  try {
    return getConnInfo(c).remote.address ?? '';
  } catch {
    return '';
  }
}
