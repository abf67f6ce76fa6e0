// API keys (issue 31; section 7: GET, POST /internal/api-keys, GET and DELETE /internal/api-keys/{id}),
// on both stores: a key made in a signed-in session works as a Bearer on /api/v1 at once and is
// refused (401) once revoked; its secret is answered once and kept only hashed; each user sees and
// revokes only their own keys in the organization they act in; a key cannot make a key; a password
// change or reset revokes every key of the account and the notice says so; a bad body is a 400
// naming its field.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../sync-server/auth.ts';
import { ORG_DEMO, ORG_PODCASTS } from '../../sync-server/seed.ts';
import { AppClient, fields, seededApp, type Reply, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type Key = { Id: string; OrganizationId: string; Name: string; CreatedAtUtc: string; LastUsedAtUtc: string | null; Key?: string };

describe.each(storeKinds)('API keys on %s', (kind) => {
  let t: TestStore;
  let s: SeededApp;
  beforeAll(async () => {
    t = await openTestStore(kind);
    s = await seededApp(t.store);
  }, 120_000);
  afterAll(() => t?.drop());

  const signIn = (email: string, organizationId = ORG_DEMO) => AppClient.signedIn(s.app, email, organizationId);
  async function make(client: AppClient, name: string): Promise<Key & { Key: string }> {
    const reply = await client.post('/api/internal/api-keys', { Name: name });
    expect(reply.status, reply.text).toBe(201);
    return reply.body as Key & { Key: string };
  }
  /** A call with the key alone: no cookie, no organization header. */
  const bearer = (key: string, path = '/api/v1/programs', init: RequestInit = {}) =>
    s.app.request(path, { ...init, headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string> | undefined) } });
  const list = async (client: AppClient) => {
    const reply = await client.get('/api/internal/api-keys');
    expect(reply.status, reply.text).toBe(200);
    return reply.body as Key[];
  };

  it('made, used as a Bearer on /v1, listed with its last use, revoked: then refused with 401', async () => {
    const demo = await signIn('demo@example.com');
    const made = await make(demo, '  Nightly import  ');
    expect(made).toMatchObject({ Name: 'Nightly import', OrganizationId: ORG_DEMO, LastUsedAtUtc: null, CreatedAtUtc: s.clock.now.toISOString() });
    expect(made.Key).toMatch(/^cak_[A-Za-z0-9_-]{43}$/);
    // Kept only as its hash.
    const [row] = await t.store.query<{ key_hash: string }>(`SELECT key_hash FROM api_keys WHERE id = $1`, [made.Id]);
    expect(row!.key_hash).toBe(sha256(made.Key));
    expect(JSON.stringify(await t.store.query(`SELECT * FROM api_keys WHERE id = $1`, [made.Id]))).not.toContain(made.Key);

    const used = await bearer(made.Key);
    expect(used.status).toBe(200);
    const programs = (await used.json()) as { Items: Array<{ OrganizationId: string }> };
    expect(programs.Items.length).toBeGreaterThan(0);
    expect(new Set(programs.Items.map((p) => p.OrganizationId))).toEqual(new Set([ORG_DEMO]));

    // Listed and read without the secret, with the last use.
    const listed = await list(demo);
    expect(listed.map((k) => k.Id)).toContain(made.Id);
    const one = await demo.get(`/api/internal/api-keys/${made.Id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ Id: made.Id, OrganizationId: ORG_DEMO, Name: 'Nightly import', CreatedAtUtc: made.CreatedAtUtc, LastUsedAtUtc: s.clock.now.toISOString() });
    expect(one.text).not.toContain(made.Key);
    // The last use is kept to the minute: a use within it writes nothing, one after it does.
    const firstUse = s.clock.now.toISOString();
    s.clock.advance(30_000);
    expect((await bearer(made.Key)).status).toBe(200);
    expect(((await demo.get(`/api/internal/api-keys/${made.Id}`)).body as Key).LastUsedAtUtc).toBe(firstUse);
    s.clock.advance(31_000);
    expect((await bearer(made.Key)).status).toBe(200);
    expect(((await demo.get(`/api/internal/api-keys/${made.Id}`)).body as Key).LastUsedAtUtc).toBe(s.clock.now.toISOString());

    const revoked = await demo.delete(`/api/internal/api-keys/${made.Id}`);
    expect(revoked.status).toBe(204);
    const refused = await bearer(made.Key);
    expect(refused.status).toBe(401);
    expect(await refused.text()).toBe('');
    // Gone from the list; a second revoke and a read are 404.
    expect((await list(demo)).map((k) => k.Id)).not.toContain(made.Id);
    expect((await demo.get(`/api/internal/api-keys/${made.Id}`)).status).toBe(404);
    expect((await demo.delete(`/api/internal/api-keys/${made.Id}`)).status).toBe(404);
  });

  it('a key acts in its own organization only, with its user’s permissions as they are at each call', async () => {
    const producer = await signIn('producer@example.com');
    const key = (await make(producer, 'Scheduling')).Key;
    const programs = (await (await bearer(key)).json()) as { Items: Array<{ Name: string }> };
    expect(programs.Items.map((p) => p.Name).sort()).toEqual(['Book Club', 'Morning Briefing']);
    // Asked for another organization: 404, as for a non-member.
    expect((await bearer(key, '/api/v1/programs', { headers: { 'x-organization-id': ORG_PODCASTS } })).status).toBe(404);
    // The membership taken away: the key answers nothing of the organization any more.
    const where = `user_id = (SELECT id FROM users WHERE email = 'producer@example.com') AND organization_id = $1`;
    const [saved] = await t.store.query<{ row: unknown }>(`SELECT row_to_json(m) AS row FROM memberships m WHERE ${where}`, [ORG_DEMO]);
    await t.store.query(`DELETE FROM memberships WHERE ${where}`, [ORG_DEMO]);
    try {
      expect((await bearer(key)).status).toBe(404);
    } finally {
      await t.store.query(`INSERT INTO memberships SELECT * FROM json_populate_record(null::memberships, $1::json)`, [JSON.stringify(saved!.row)]);
    }
    expect((await bearer(key)).status).toBe(200);
  });

  it('each user sees and revokes only their own keys, in the organization they act in', async () => {
    const demo = await signIn('demo@example.com');
    const admin = await signIn('admin@example.com');
    const demoKey = await make(demo, 'Demo’s key');
    const adminKey = await make(admin, 'Admin’s key');
    // The demo user's key in the other organization it belongs to.
    const demoElsewhere = await signIn('demo@example.com', ORG_PODCASTS);
    const podcastsKey = await make(demoElsewhere, 'Podcasts key');
    expect(podcastsKey.OrganizationId).toBe(ORG_PODCASTS);

    // An admin of the organization (every flag) does not see or revoke another user's key: 404, no body.
    expect((await list(admin)).map((k) => k.Id)).toEqual([adminKey.Id]);
    for (const reply of [await admin.get(`/api/internal/api-keys/${demoKey.Id}`), await admin.delete(`/api/internal/api-keys/${demoKey.Id}`)]) {
      expect(reply.status).toBe(404);
      expect(reply.text).toBe('');
    }
    // Its own key of another organization is not listed or touched from this one.
    expect((await list(demo)).map((k) => k.Id)).not.toContain(podcastsKey.Id);
    expect((await demo.get(`/api/internal/api-keys/${podcastsKey.Id}`)).status).toBe(404);
    expect((await demo.delete(`/api/internal/api-keys/${podcastsKey.Id}`)).status).toBe(404);
    expect((await list(demoElsewhere)).map((k) => k.Id)).toEqual([podcastsKey.Id]);
    // Every key still works.
    for (const k of [demoKey, adminKey, podcastsKey]) expect((await bearer(k.Key)).status, k.Name).toBe(200);
    // Without a session: 401.
    const anonymous = new AppClient(s.app);
    expect((await anonymous.get('/api/internal/api-keys')).status).toBe(401);
    expect((await anonymous.post('/api/internal/api-keys', { Name: 'x' })).status).toBe(401);
  });

  it('an API key cannot make another key (403 naming Authorization); it may list and revoke its user’s keys', async () => {
    const analyst = await signIn('analyst@example.com');
    const made = await make(analyst, 'Reports');
    const json = { 'content-type': 'application/json' };
    const refused = await bearer(made.Key, '/api/internal/api-keys', { method: 'POST', headers: json, body: JSON.stringify({ Name: 'Successor' }) });
    expect(refused.status).toBe(403);
    expect((await refused.json()) as unknown).toMatchObject({ Errors: [{ Field: 'Authorization', Code: 'apiKeyByKey' }] });
    expect((await list(analyst)).map((k) => k.Name)).toEqual(['Reports']);
    const listed = await bearer(made.Key, '/api/internal/api-keys');
    expect(((await listed.json()) as Key[]).map((k) => k.Id)).toEqual([made.Id]);
    expect((await bearer(made.Key, `/api/internal/api-keys/${made.Id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await bearer(made.Key)).status).toBe(401);
  });

  it('an account whose address is not confirmed cannot make a key (403)', async () => {
    const newbie = await signIn('newbie@example.com');
    const reply = await newbie.post('/api/internal/api-keys', { Name: 'Too early' });
    expect(reply.status).toBe(403);
    expect(fields(reply)).toEqual([['account', 'accountNotActivated']]);
    expect(await list(newbie)).toEqual([]);
  });

  it('a bad body is a 400 naming its field; nothing is made', async () => {
    const support = await signIn('support@example.com');
    const path = '/api/internal/api-keys';
    const name = (reply: Reply) => (reply.body as { Errors: Array<{ Field: string; Message: string }> }).Errors.map((e) => [e.Field, e.Message]);
    const cases: Array<[unknown, Array<[string, string]>]> = [
      [{}, [['Name', 'required']]],
      [{ Name: null }, [['Name', 'invalid']]],
      [{ Name: 7 }, [['Name', 'invalid']]],
      [{ Name: 'Fine', Scope: 'all' }, [['Scope', 'invalid']]],
    ];
    for (const [json, expected] of cases) {
      const reply = await support.post(path, json);
      expect(reply.status, JSON.stringify(json)).toBe(400);
      expect(fields(reply), JSON.stringify(json)).toEqual(expected);
    }
    // Section 5's name rule, with its messages.
    const blank = await support.post(path, { Name: '   ' });
    expect(blank.status).toBe(400);
    expect(name(blank)).toEqual([['Name', 'You must enter a name']]);
    const long = await support.post(path, { Name: 'n'.repeat(101) });
    expect(long.status).toBe(400);
    expect(fields(long)).toEqual([['Name', 'tooLong']]);
    expect(fields(await support.send('POST', path, { raw: '{"Name":' }))).toEqual([['body', 'malformedJson']]);
    expect(fields(await support.send('POST', path))).toEqual([['body', 'required']]);
    expect(await list(support)).toEqual([]);
  });

  it('a password change revokes every key of the account, the notice says so; other users’ keys stay', async () => {
    const reseller = await signIn('reseller@example.com', ORG_PODCASTS);
    const demo = await signIn('demo@example.com', ORG_PODCASTS);
    const mine = [await make(reseller, 'One'), await make(reseller, 'Two')];
    const theirs = await make(demo, 'Someone else’s');
    s.clock.advance(1000);
    const changed = await reseller.send('PUT', '/api/internal/users/me/password', { json: { CurrentPassword: 'castaway-demo', NewPassword: 'a brand new secret' } });
    expect(changed.status, changed.text).toBe(204);
    for (const k of mine) expect((await bearer(k.Key)).status, k.Name).toBe(401);
    expect((await bearer(theirs.Key)).status).toBe(200);
    expect(await list(reseller)).toEqual([]);
    const revokedAt = await t.store.query<{ revoked_at_utc: Date }>(`SELECT revoked_at_utc FROM api_keys WHERE id = ANY($1::uuid[])`, [mine.map((k) => k.Id)]);
    expect(revokedAt.map((r) => new Date(r.revoked_at_utc).toISOString())).toEqual([s.clock.now.toISOString(), s.clock.now.toISOString()]);
    const [notice] = await t.store.query<{ kind: string; body_text: string }>(`SELECT kind, body_text FROM mail_outbox WHERE to_address = 'reseller@example.com' ORDER BY created_at_utc DESC, id LIMIT 1`);
    expect(notice).toMatchObject({ kind: 'passwordChanged' });
    expect(notice!.body_text).toContain('its API keys were revoked');
    // Keys made after the change work.
    expect((await bearer((await make(reseller, 'Three')).Key)).status).toBe(200);
  });

  it('a password reset by a mailed link revokes every key of the account', async () => {
    const support = await signIn('support@example.com');
    const key = await make(support, 'Before the reset');
    expect((await bearer(key.Key)).status).toBe(200);
    s.clock.advance(1000);
    expect((await new AppClient(s.app).post('/api/internal/account/password-reset', { Email: 'support@example.com' })).status).toBe(204);
    await s.app.jobs.drain();
    const [mail] = await t.store.query<{ body_text: string }>(`SELECT body_text FROM mail_outbox WHERE to_address = 'support@example.com' AND kind = 'passwordReset' ORDER BY created_at_utc DESC LIMIT 1`);
    const token = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail!.body_text)![1]!;
    const reset = await new AppClient(s.app).send('PUT', '/api/internal/account/password-reset', { json: { Token: token, Password: 'a reset long secret' } });
    expect(reset.status, reset.text).toBe(204);
    expect((await bearer(key.Key)).status).toBe(401);
  });
});
