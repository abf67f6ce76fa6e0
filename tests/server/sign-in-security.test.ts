// Sign-in security over real HTTP (issue 35), where the server sees each client's address: each
// case speaks from its own loopback address (127.0.0.x), so their counts never meet.
//   - per account: 40 guesses at once at one account get 5 passwords checked, not 11;
//   - per client: one address failing at many accounts is refused after
//     LOGIN_MAX_FAILURES_PER_CLIENT, while another address signs in;
//   - successful sign-ins never use up a client's allowance;
//   - a password longer than PASSWORD_MAX_LENGTH is a 400 at the field, never hashed;
//   - a hash of the earlier scrypt cost is made again at the next sign-in;
//   - signing in again ends the session the browser held (no fixation);
//   - behind a trusted proxy each forwarded client has its own count, and nobody else can
//     choose one with X-Forwarded-For;
//   - a privilege change (an organization granted, one's own permissions changed) gives the
//     session a new id, and the old one stops working.
import { randomBytes, scryptSync } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../sync-server/seed.ts';
import { allPermissions } from '../../src/domain/permissions.ts';
import { startServer, type RunningServer } from '../../sync-server/server.ts';
import { LOGIN_MAX_FAILURES, LOGIN_MAX_FAILURES_PER_CLIENT } from '../../sync-server/api/session.ts';
import { needsRehash } from '../../sync-server/passwords.ts';
import { parseTrustedProxies } from '../../sync-server/client-address.ts';
import { PASSWORD_MAX_LENGTH } from '../../src/domain/constants.ts';
import { openTestStore, type TestStore } from './test-store.ts';

let t: TestStore;
let server: RunningServer;

beforeAll(async () => {
  t = await openTestStore('pglite');
  await seed(t.store, { clips: 4 });
  server = await startServer({ store: t.store, distDir: '/nonexistent', port: 0 });
});
afterAll(async () => {
  await server?.close();
  await t?.drop();
});

/** POST /api/internal/session/login from `from` (a loopback address); the status and Retry-After. */
function login(from: string, email: string, password: string, cookie?: string, headers: Record<string, string> = {}, port = server.port): Promise<{ status: number; retryAfter: string | undefined; body: string; session: string | undefined }> {
  const body = JSON.stringify({ Email: email, Password: password });
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/api/internal/session/login', method: 'POST', localAddress: from, agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(cookie ? { cookie } : {}), ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        const session = res.headers['set-cookie']?.find((c) => c.startsWith('castaway_session='))?.split(';')[0];
        res.on('end', () => resolve({ status: res.statusCode ?? 0, retryAfter: res.headers['retry-after'] as string | undefined, body: text, session }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;

describe('sign-in throttles', () => {
  it(`checks ${LOGIN_MAX_FAILURES} passwords of 40 parallel guesses at one account, and refuses the rest with Retry-After`, async () => {
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => login('127.0.0.2', 'admin@example.com', `guess-${i}`)));
    const statuses = answers.map((a) => a.status);
    expect(count(statuses, 401)).toBe(LOGIN_MAX_FAILURES);
    expect(count(statuses, 429)).toBe(40 - LOGIN_MAX_FAILURES);
    expect(answers.filter((a) => a.status === 429).every((a) => Number(a.retryAfter) > 0)).toBe(true);
    // The right password is refused too while the window lasts, from any client.
    expect((await login('127.0.0.9', 'admin@example.com', 'castaway-demo')).status).toBe(429);
  });

  it(`refuses a client after ${LOGIN_MAX_FAILURES_PER_CLIENT} failures at any accounts, and only that client`, async () => {
    const statuses: number[] = [];
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_CLIENT + 3; i++) statuses.push((await login('127.0.0.3', `nobody-${i}@example.com`, 'wrong')).status);
    expect(statuses.slice(0, LOGIN_MAX_FAILURES_PER_CLIENT)).toEqual(Array(LOGIN_MAX_FAILURES_PER_CLIENT).fill(401));
    expect(statuses.slice(LOGIN_MAX_FAILURES_PER_CLIENT)).toEqual([429, 429, 429]);
    // Even the right password of an account it never tried: the client is refused before any check.
    expect((await login('127.0.0.3', 'analyst@example.com', 'castaway-demo')).status).toBe(429);
    // Another client signs in to that account.
    expect((await login('127.0.0.4', 'analyst@example.com', 'castaway-demo')).status).toBe(200);
  });

  it('never counts successful sign-ins against a client (an office behind one address)', async () => {
    for (let i = 0; i < LOGIN_MAX_FAILURES_PER_CLIENT + 2; i++) expect((await login('127.0.0.5', 'demo@example.com', 'castaway-demo')).status, `sign-in ${i + 1}`).toBe(200);
    expect((await login('127.0.0.5', 'demo@example.com', 'wrong')).status).toBe(401);
  });

  it(`answers a password longer than ${PASSWORD_MAX_LENGTH} characters with a 400 at the field`, async () => {
    const res = await login('127.0.0.6', 'producer@example.com', 'x'.repeat(PASSWORD_MAX_LENGTH + 1));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body)).toMatchObject({ Errors: [{ Field: 'Password', Message: `Password must be ${PASSWORD_MAX_LENGTH} characters or shorter` }] });
  });

  it('makes a hash of the earlier cost again at the next sign-in, and the password still works', async () => {
    // The form the server wrote before: scrypt N=2^14, r=8, p=1.
    const salt = randomBytes(16);
    const old = ['scrypt', 16384, 8, 1, salt.toString('base64url'), scryptSync('castaway-demo', salt, 32, { N: 16384, r: 8, p: 1 }).toString('base64url')].join('$');
    await t.store.query(`UPDATE users SET password_hash = $1 WHERE email = 'reseller@example.com'`, [old]);
    expect(needsRehash(old)).toBe(true);
    expect((await login('127.0.0.7', 'reseller@example.com', 'castaway-demo')).status).toBe(200);
    const [row] = await t.store.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE email = 'reseller@example.com'`);
    expect(row!.password_hash).not.toBe(old);
    expect(needsRehash(row!.password_hash)).toBe(false);
    expect((await login('127.0.0.7', 'reseller@example.com', 'castaway-demo')).status).toBe(200);
    expect((await login('127.0.0.7', 'reseller@example.com', 'not-it')).status).toBe(401);
  });

  it('ends the session the browser held when it signs in again, so a planted session never becomes a signed-in one', async () => {
    const first = (await login('127.0.0.8', 'demo@example.com', 'castaway-demo')).session!;
    const second = await login('127.0.0.8', 'demo@example.com', 'castaway-demo', first);
    expect(second.status).toBe(200);
    expect(second.session).toBeDefined();
    expect(second.session).not.toBe(first);
    const typeWith = async (cookie: string) => ((await (await fetch(`${server.url}/api/internal/session`, { headers: { cookie } })).json()) as { Type: string }).Type;
    expect(await typeWith(first)).toBe('loggedOut');
    expect(await typeWith(second.session!)).not.toBe('loggedOut');
  });

  describe('a privilege change gives the session a new id', () => {
    /** A call over HTTP with a session cookie; the answer's status and the session cookie it sets. */
    const call = async (method: string, path: string, cookie: string, xsrf?: string, body?: unknown, organizationId?: string) => {
      const res = await fetch(`${server.url}${path}`, {
        method,
        headers: { cookie, ...(xsrf ? { 'x-xsrf-token': xsrf } : {}), ...(organizationId ? { 'x-organization-id': organizationId } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      const set = res.headers.getSetCookie().find((c) => c.startsWith('castaway_session='));
      return { status: res.status, session: set?.split(';')[0], text: await res.text() };
    };
    const xsrfOf = async (cookie: string) => (JSON.parse((await call('GET', '/api/internal/session/xsrf', cookie)).text) as { XsrfToken: string }).XsrfToken;
    const typeWith = async (cookie: string) => (JSON.parse((await call('GET', '/api/internal/session', cookie)).text) as { Type: string }).Type;

    it('a support user granting itself an organization: the old id stops working, the new one works, the XSRF token stays', async () => {
      const before = (await login('127.0.0.10', 'support@example.com', 'castaway-demo')).session!;
      const xsrf = await xsrfOf(before);
      const granted = await call('POST', '/api/admin/users/me/organizations', before, xsrf, { OrganizationId: ORG_PODCASTS });
      expect(granted.status, granted.text).toBe(204);
      expect(granted.session).toBeDefined();
      expect(granted.session).not.toBe(before);
      expect(await typeWith(before)).toBe('loggedOut');
      expect(await typeWith(granted.session!)).not.toBe('loggedOut');
      expect(await xsrfOf(granted.session!)).toBe(xsrf);
    });

    it('a user changing its own permissions gets a new id; changing another user’s leaves the caller’s as it is', async () => {
      const demo = (await login('127.0.0.10', 'demo@example.com', 'castaway-demo')).session!;
      const xsrf = await xsrfOf(demo);
      const entries = [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: allPermissions() }];
      const other = await call('PUT', `/api/v1/users/${seedId('user:analyst@example.com')}/permissions`, demo, xsrf, [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasAnalyticsAccess: true } }], ORG_DEMO);
      expect(other.status, other.text).toBe(200);
      expect(other.session).toBeUndefined();
      expect(await typeWith(demo)).not.toBe('loggedOut');
      const own = await call('PUT', `/api/v1/users/${seedId('user:demo@example.com')}/permissions`, demo, xsrf, entries, ORG_DEMO);
      expect(own.status, own.text).toBe(200);
      expect(own.session).toBeDefined();
      expect(await typeWith(demo)).toBe('loggedOut');
      expect(await typeWith(own.session!)).not.toBe('loggedOut');
    });
  });

  describe('behind a trusted proxy (CASTAWAY_TRUSTED_PROXIES)', () => {
    let proxied: RunningServer;
    beforeAll(async () => {
      proxied = await startServer({ store: t.store, distDir: '/nonexistent', port: 0, trustedProxies: parseTrustedProxies('127.0.0.40') });
    });
    afterAll(async () => {
      await proxied?.close();
    });
    const via = (from: string, forwardedFor: string, email: string, password: string) => login(from, email, password, undefined, { 'x-forwarded-for': forwardedFor }, proxied.port);

    it('limits each client the proxy forwards, not the proxy; a client that is not the proxy cannot choose its address', async () => {
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_CLIENT; i++) expect((await via('127.0.0.40', `203.0.113.${i % 3}, 198.51.100.1`, `nobody-${i}@example.com`, 'wrong')).status).toBe(401);
      // 198.51.100.1 is spent; another client behind the same proxy is not.
      expect((await via('127.0.0.40', '198.51.100.1', 'nobody@example.com', 'wrong')).status).toBe(429);
      expect((await via('127.0.0.40', '198.51.100.2', 'nobody@example.com', 'wrong')).status).toBe(401);
      // From an address that is not the proxy the header is ignored: its own count, not 198.51.100.2's.
      for (let i = 0; i < LOGIN_MAX_FAILURES_PER_CLIENT; i++) expect((await via('127.0.0.41', '198.51.100.2', `someone-${i}@example.com`, 'wrong')).status).toBe(401);
      expect((await via('127.0.0.41', '198.51.100.3', 'someone@example.com', 'wrong')).status).toBe(429);
      expect((await via('127.0.0.40', '198.51.100.2', 'someone@example.com', 'wrong')).status).toBe(401);
    });
  });
});
