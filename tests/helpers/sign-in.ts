// Signing in as a test's client does: POST the login, keep the session cookie, read the XSRF token.
// The headers a signed-in caller's writes carry, over app.request or over HTTP (overHttp).
import { DEMO_PASSWORD } from '../../sync-server/seed.ts';

/** app.request, or fetch against a base URL (overHttp). */
export type Requester = (path: string, init?: RequestInit) => Response | Promise<Response>;

export const overHttp =
  (base: string): Requester =>
  (path, init) =>
    fetch(`${base}${path}`, init);

export type SignedIn = { cookie: string; 'x-xsrf-token': string };

export async function signIn(request: Requester, email = 'demo@example.com', password = DEMO_PASSWORD): Promise<SignedIn> {
  const login = await request('/api/internal/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: email, Password: password }) });
  if (login.status !== 200) throw new Error(`sign-in as ${email}: ${login.status} ${await login.text()}`);
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('castaway_session='))?.split(';')[0];
  if (!cookie) throw new Error(`sign-in as ${email}: no session cookie`);
  const xsrf = await request('/api/internal/session/xsrf', { headers: { cookie } });
  if (xsrf.status !== 200) throw new Error(`XSRF token for ${email}: ${xsrf.status}`);
  return { cookie, 'x-xsrf-token': ((await xsrf.json()) as { XsrfToken: string }).XsrfToken };
}
