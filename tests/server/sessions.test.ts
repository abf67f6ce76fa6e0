// The account's sessions list (issue 31: "sessions list with sign out everywhere"), on both stores:
// every browser signed in to the account with its device and last use (kept to 5 minutes), one
// signed out by id, every other one at once; only one's own sessions, only with a session (an API
// key is refused), and never signed out.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../sync-server/auth.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import type { AccountSession } from '../../src/protocol/api/sessions.ts';
import { AppClient, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const ANDROID_CHROME = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.6478.122 Mobile Safari/537.36';
const MAC_FIREFOX = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0';

describe.each(storeKinds)('sessions on %s', (kind) => {
  let t: TestStore;
  let seeded: SeededApp;
  beforeAll(async () => {
    t = await openTestStore(kind);
    seeded = await seededApp(t.store);
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  async function browser(userAgent: string, email = 'reseller@example.com'): Promise<AppClient> {
    const client = new AppClient(seeded.app);
    const login = await client.send('POST', '/api/internal/session/login', { json: { Email: email, Password: 'castaway-demo' }, headers: { 'user-agent': userAgent } });
    expect(login.status, login.text).toBe(200);
    client.xsrf = ((await client.send('GET', '/api/internal/session/xsrf', { headers: { 'user-agent': userAgent } })).body as { XsrfToken: string }).XsrfToken;
    return client;
  }
  const list = async (client: AppClient) => {
    const reply = await client.get('/api/internal/users/me/sessions');
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as { Items: AccountSession[] }).Items;
  };
  const sessionType = async (client: AppClient) => ((await client.get('/api/internal/session')).body as { Type: string }).Type;

  it('lists the account’s browsers, this one first and marked, with device and last use; signs one out by id', async () => {
    const phone = await browser(ANDROID_CHROME);
    seeded.clock.advance(60_000);
    const laptop = await browser(MAC_FIREFOX);
    const seen = await list(laptop);
    expect(seen.map((s) => [s.Current, s.Device])).toEqual([
      [true, 'Firefox 127 on Mac OS'],
      [false, 'Chrome 126 on Android'],
    ]);
    expect(seen[0]!.LastSeenAtUtc).toBe(seeded.clock.now.toISOString());
    // Another user's list holds none of these.
    const other = await browser(ANDROID_CHROME, 'analyst@example.com');
    expect((await list(other)).map((s) => s.Id)).not.toContain(seen[1]!.Id);
    expect((await other.delete(`/api/internal/users/me/sessions/${seen[1]!.Id}`)).status).toBe(404);

    expect((await laptop.delete(`/api/internal/users/me/sessions/${seen[1]!.Id}`)).status).toBe(204);
    expect(await sessionType(phone)).toBe('loggedOut');
    expect((await list(laptop)).map((s) => s.Id)).toEqual([seen[0]!.Id]);
    expect((await laptop.delete(`/api/internal/users/me/sessions/${seen[1]!.Id}`)).status).toBe(404);
  });

  it('keeps the last use to 5 minutes: a request within them writes nothing', async () => {
    const client = await browser(MAC_FIREFOX, 'producer@example.com');
    const first = (await list(client))[0]!.LastSeenAtUtc;
    seeded.clock.advance(4 * 60_000);
    expect((await list(client))[0]!.LastSeenAtUtc).toBe(first);
    seeded.clock.advance(60_000);
    expect((await list(client))[0]!.LastSeenAtUtc).toBe(seeded.clock.now.toISOString());
  });

  it('signs out everywhere else: every other session ends, this one stays', async () => {
    const a = await browser(ANDROID_CHROME, 'demo@example.com');
    const b = await browser(MAC_FIREFOX, 'demo@example.com');
    const c = await browser(MAC_FIREFOX, 'demo@example.com');
    expect((await b.delete('/api/internal/users/me/sessions')).status).toBe(204);
    expect([await sessionType(a), await sessionType(b), await sessionType(c)]).toEqual(['loggedOut', 'activated', 'loggedOut']);
    expect((await list(b)).map((s) => s.Current)).toEqual([true]);
  });

  it('signing out the current session by id signs this browser out', async () => {
    const client = await browser(ANDROID_CHROME, 'support@example.com');
    const [mine] = await list(client);
    const reply = await client.delete(`/api/internal/users/me/sessions/${mine!.Id}`);
    expect(reply.status).toBe(204);
    expect(reply.headers.getSetCookie().some((cookie) => cookie.startsWith('castaway_session=;'))).toBe(true);
    expect(await sessionType(client)).toBe('loggedOut');
  });

  it('refuses an API key (403 naming Authorization), no session (401), a malformed id (404) and no XSRF token (403)', async () => {
    const { key } = await createApiKey(t.store, { organizationId: ORG_DEMO, userId: seedId('user:demo@example.com'), name: 'sessions test', now: new Date() });
    const bearer = { authorization: `Bearer ${key}` };
    const byKey = await seeded.app.request('/api/internal/users/me/sessions', { headers: bearer });
    expect(byKey.status).toBe(403);
    expect(await byKey.text()).toContain('"Field":"Authorization"');
    expect((await seeded.app.request('/api/internal/users/me/sessions', { method: 'DELETE', headers: bearer })).status).toBe(403);
    const anonymous = new AppClient(seeded.app);
    expect((await anonymous.get('/api/internal/users/me/sessions')).status).toBe(401);
    expect((await anonymous.delete('/api/internal/users/me/sessions')).status).toBe(401);
    const client = await browser(MAC_FIREFOX, 'admin@example.com');
    // A malformed id is a row that does not exist, as everywhere in the API.
    expect((await client.delete('/api/internal/users/me/sessions/not-an-id')).status).toBe(404);
    expect((await client.send('DELETE', '/api/internal/users/me/sessions', { xsrf: false })).status).toBe(403);
  });
});
