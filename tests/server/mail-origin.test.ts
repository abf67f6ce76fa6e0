// Links mailed with a token are built only on an origin the studio knows (sync-server/public-origin.ts
// mailOrigin): PUBLIC_URL when set, else the request's own origin when its host is this machine's
// (loopback, an address of its own, its hostname). A request arriving with another Host header (a
// forged one, to mail a victim a reset link pointing at the forger's site) is a 421 naming
// PUBLIC_URL, and nothing is mailed or changed. Both stores.
import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { isOwnHostname } from '../../sync-server/public-origin.ts';
import { ORG_DEMO, seed } from '../../sync-server/seed.ts';
import { AppClient, testClock } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

describe('isOwnHostname', () => {
  it('knows loopback, its own names and addresses, and nothing else', () => {
    for (const host of ['localhost', 'LOCALHOST', '127.0.0.1', '127.12.0.9', '[::1]', 'studio.localhost', hostname()]) expect(isOwnHostname(host), host).toBe(true);
    for (const host of ['evil.example', 'localhost.evil.example', '127.0.0.1.evil.example', '10.255.255.254', '[2001:db8::1]', '']) expect(isOwnHostname(host), host).toBe(false);
  });
});

describe.each(storeKinds)('mailed links on %s', (kind) => {
  let t: TestStore;
  let app: ReturnType<typeof createApp>;
  const saved = process.env.PUBLIC_URL;
  beforeAll(async () => {
    t = await openTestStore(kind);
    await seed(t.store, { clips: 0 });
    app = createApp({ store: t.store, bus: createMemoryBus(), clock: () => testClock().now });
  }, 120_000);
  afterEach(() => {
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });
  afterAll(() => t?.drop());

  const outbox = async () => Number((await t.store.query<{ n: string }>(`SELECT count(*) AS n FROM mail_outbox`))[0]!.n);
  const jobs = async () => Number((await t.store.query<{ n: string }>(`SELECT count(*) AS n FROM jobs`))[0]!.n);
  const resetRequest = (host: string) =>
    app.request(`http://${host}/api/internal/account/password-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: 'admin@example.com' }) });

  it('refuses a reset request that arrived under an unknown host, sending nothing', async () => {
    delete process.env.PUBLIC_URL;
    const [mails, queued] = [await outbox(), await jobs()];
    const res = await resetRequest('evil.example');
    expect(res.status).toBe(421);
    expect(((await res.json()) as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['PUBLIC_URL']);
    expect([await outbox(), await jobs()]).toEqual([mails, queued]);
  });

  it('takes the request on loopback, and any host once PUBLIC_URL names the studio', async () => {
    delete process.env.PUBLIC_URL;
    expect((await resetRequest('127.0.0.1:8080')).status).toBe(204);
    process.env.PUBLIC_URL = 'https://studio.example/';
    expect((await resetRequest('evil.example')).status).toBe(204);
  });

  it('refuses an invitation made under an unknown host, creating nothing', async () => {
    delete process.env.PUBLIC_URL;
    const admin = new AppClient(app);
    await admin.login('admin@example.com');
    admin.organizationId = ORG_DEMO;
    const email = `forged-host.${kind}@station.example`;
    const body = { Email: email, Permissions: [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasContentAccess: true } }] };
    const forged = await admin.send('POST', 'http://evil.example/api/v1/users/invitation', { json: body });
    expect(forged.status, forged.text).toBe(421);
    expect(await t.store.query(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [email])).toEqual([]);
    const made = await admin.post('/api/v1/users/invitation', body);
    expect(made.status, made.text).toBe(201);
    expect((made.body as { Link: string | null }).Link ?? '').toMatch(/^http:\/\/localhost\//);
  });
});
