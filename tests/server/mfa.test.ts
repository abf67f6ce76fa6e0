// Two-factor sign-in (issue 31; section 7: GET, PUT and DELETE /internal/users/me/mfa/config, PUT
// /internal/users/me/mfa, an admin's DELETE /v1/users/{userId}/mfa), on both stores: set-up with a
// pending key confirmed by a code of it; recovery codes answered once and kept only hashed; sign-in
// asks for the code after the password; a wrong code, a reused code and a used recovery code are
// refused at their field; wrong codes are throttled; turning it off needs a proof; an organization
// admin resets a member's, never a non-member's; new recovery codes replace the old ones with a code
// of the app; each change mails a notice to the account's address in its language. Codes are made
// here with otpauth at the server's test clock.
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../../sync-server/auth.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { normalizeRecoveryCode } from '../../src/domain/mfa.ts';
import { MFA_CODE_MAX_PER_USER } from '../../sync-server/accounts/mfa.ts';
import { mailWords } from '../../src/domain/mail-words.ts';
import { AppClient, fields, seededApp, type Reply, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type Config = { Enabled: boolean; EnabledAtUtc: string | null; RecoveryCodesLeft: number; Setup: { Secret: string; Uri: string } | null };
const PASSWORD = 'castaway-demo';
const CONFIG = '/api/internal/users/me/mfa/config';
const REGENERATE = '/api/internal/users/me/mfa/recovery-codes';
type QueuedMail = { id: string; kind: string; to_address: string; locale: string; subject: string; body_text: string; body_html: string };

describe.each(storeKinds)('two-factor sign-in on %s', (kind) => {
  let t: TestStore;
  let s: SeededApp;
  beforeAll(async () => {
    t = await openTestStore(kind);
    s = await seededApp(t.store);
  }, 120_000);
  afterAll(() => t?.drop());

  const code = (secret: string, offsetMs = 0) => OTPAuth.TOTP.generate({ secret: OTPAuth.Secret.fromBase32(secret), timestamp: s.clock.now.getTime() + offsetMs });
  const put = (client: AppClient, path: string, json: unknown) => client.send('PUT', path, { json });
  const del = (client: AppClient, path: string, json?: unknown) => client.send('DELETE', path, json === undefined ? {} : { json });
  const messageKeys = (reply: Reply) => (reply.body as { Errors: Array<{ MessageKey?: string }> }).Errors.map((e) => e.MessageKey);

  const signIn = (email: string, organizationId: string = ORG_DEMO) => AppClient.signedIn(s.app, email, organizationId);
  const config = async (client: AppClient) => {
    const reply = await client.get(CONFIG);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as Config;
  };
  /** Sign-in's call, by a fresh client; the XSRF token fetched when it signs in. */
  async function login(json: Record<string, string>): Promise<{ client: AppClient; reply: Reply }> {
    const client = new AppClient(s.app);
    const reply = await client.post('/api/internal/session/login', { Password: PASSWORD, ...json });
    if (reply.status === 200) client.xsrf = ((await client.get('/api/internal/session/xsrf')).body as { XsrfToken: string }).XsrfToken;
    return { client, reply };
  }
  /** Turns it on for `email`: its key and its recovery codes. Leaves the clock on a new step. */
  async function enable(email: string): Promise<{ client: AppClient; secret: string; codes: string[] }> {
    const client = await signIn(email);
    expect((await put(client, CONFIG, {})).status).toBe(204);
    const secret = (await config(client)).Setup!.Secret;
    const confirmed = await put(client, '/api/internal/users/me/mfa', { Code: code(secret) });
    expect(confirmed.status, confirmed.text).toBe(200);
    s.clock.advance(30_000);
    return { client, secret, codes: (confirmed.body as { RecoveryCodes: string[] }).RecoveryCodes };
  }

  it('set-up: a pending key and its otpauth:// URI, confirmed by a code of it; recovery codes answered once, kept only hashed', async () => {
    const producer = await signIn('producer@example.com');
    const elsewhere = await signIn('producer@example.com');
    expect(await config(producer)).toEqual({ Enabled: false, EnabledAtUtc: null, RecoveryCodesLeft: 0, Setup: null });
    // Nothing to confirm before a set-up starts.
    expect(fields(await put(producer, '/api/internal/users/me/mfa', { Code: '123456' }))).toEqual([['Code', 'invalid']]);

    expect((await put(producer, CONFIG, {})).status).toBe(204);
    const { Setup } = await config(producer);
    expect(Setup!.Secret).toMatch(/^[A-Z2-7]{32}$/);
    const uri = new URL(Setup!.Uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Castaway Studio:producer@example.com');
    expect(Object.fromEntries(uri.searchParams)).toMatchObject({ secret: Setup!.Secret, issuer: 'Castaway Studio', algorithm: 'SHA1', digits: '6', period: '30' });
    // Starting again replaces a key not confirmed.
    expect((await put(producer, CONFIG, {})).status).toBe(204);
    const secret = (await config(producer)).Setup!.Secret;
    expect(secret).not.toBe(Setup!.Secret);

    // A wrong code, and one that is no code, are refused at Code; the set-up stays pending.
    const wrong = await put(producer, '/api/internal/users/me/mfa', { Code: code(Setup!.Secret) === code(secret) ? '000000' : code(Setup!.Secret) });
    expect(wrong.status).toBe(400);
    expect(fields(wrong)).toEqual([['Code', 'invalid']]);
    expect(messageKeys(wrong)).toEqual(['domain_mfa_code_invalid']);
    expect(fields(await put(producer, '/api/internal/users/me/mfa', { Code: '12ab' }))).toEqual([['Code', 'invalid']]);
    expect(fields(await put(producer, '/api/internal/users/me/mfa', { Code: '' }))).toEqual([['Code', 'required']]);
    expect((await config(producer)).Enabled).toBe(false);

    const confirmed = await put(producer, '/api/internal/users/me/mfa', { Code: code(secret).replace(/^(\d{3})/, '$1 ') });
    expect(confirmed.status, confirmed.text).toBe(200);
    const codes = (confirmed.body as { RecoveryCodes: string[] }).RecoveryCodes;
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    expect(new Set(codes).size).toBe(10);
    const userId = seedId('user:producer@example.com');
    const stored = await t.store.query<{ code_hash: string }>(`SELECT code_hash FROM mfa_recovery_codes WHERE user_id = $1`, [userId]);
    expect(new Set(stored.map((r) => r.code_hash))).toEqual(new Set(codes.map((c) => sha256(normalizeRecoveryCode(c)))));
    expect(JSON.stringify(await t.store.query(`SELECT * FROM mfa_recovery_codes WHERE user_id = $1`, [userId]))).not.toContain(codes[0]!.replace('-', ''));

    // On; the key and the codes are never answered again.
    const after = await producer.get(CONFIG);
    expect(after.body).toEqual({ Enabled: true, EnabledAtUtc: s.clock.now.toISOString(), RecoveryCodesLeft: 10, Setup: null });
    expect(after.text).not.toContain(secret);
    expect(fields(await put(producer, CONFIG, {}))).toEqual([['body', 'invalid']]);
    // The session signed in without the second factor elsewhere ended; this one goes on.
    expect((await elsewhere.get(CONFIG)).status).toBe(401);
    expect((await producer.get(CONFIG)).status).toBe(200);
  });

  it('sign-in asks for the code after the password; a wrong code is refused at MfaCode; a code is taken once', async () => {
    const { secret } = await enable('support@example.com');
    // The password alone: no session, a 400 at MfaCode saying a code is needed.
    const first = await login({ Email: 'support@example.com' });
    expect(first.reply.status).toBe(400);
    expect(fields(first.reply)).toEqual([['MfaCode', 'mfaRequired']]);
    expect(first.client.cookie).toBe('');
    expect(((await first.client.get('/api/internal/session')).body as { Type: string }).Type).toBe('loggedOut');
    // A wrong password says nothing of the second factor.
    expect((await login({ Email: 'support@example.com', Password: 'wrong-password', MfaCode: code(secret) })).reply.status).toBe(401);

    const wrongCode = code(secret) === '000000' ? '111111' : '000000';
    const wrong = await login({ Email: 'support@example.com', MfaCode: wrongCode });
    expect(wrong.reply.status).toBe(400);
    expect(fields(wrong.reply)).toEqual([['MfaCode', 'invalid']]);
    expect(wrong.client.cookie).toBe('');
    expect(fields((await login({ Email: 'support@example.com', MfaCode: 'abc' })).reply)).toEqual([['MfaCode', 'invalid']]);

    const ok = await login({ Email: 'support@example.com', MfaCode: code(secret) });
    expect(ok.reply.status, ok.reply.text).toBe(200);
    expect(ok.reply.body).toMatchObject({ Type: 'activated', User: { Email: 'support@example.com' } });
    expect((await ok.client.get(CONFIG)).status).toBe(200);

    // The same code again, even within its 30 seconds: refused.
    const reused = await login({ Email: 'support@example.com', MfaCode: code(secret) });
    expect(fields(reused.reply)).toEqual([['MfaCode', 'invalid']]);
    expect(messageKeys(reused.reply)).toEqual(['domain_mfa_code_used']);
    // The next step's code works; then the code of the step before it (still in the window) does not.
    s.clock.advance(30_000);
    expect((await login({ Email: 'support@example.com', MfaCode: code(secret) })).reply.status).toBe(200);
    expect(messageKeys((await login({ Email: 'support@example.com', MfaCode: code(secret, -30_000) })).reply)).toEqual(['domain_mfa_code_used']);
  });

  it('a recovery code signs in once; wrong codes are throttled as passwords are', async () => {
    const { secret, codes, client } = await enable('analyst@example.com');
    const used = await login({ Email: 'analyst@example.com', RecoveryCode: codes[3]!.toLowerCase().replace('-', ' ') });
    expect(used.reply.status, used.reply.text).toBe(200);
    const again = await login({ Email: 'analyst@example.com', RecoveryCode: codes[3]! });
    expect(fields(again.reply)).toEqual([['RecoveryCode', 'invalid']]);
    expect(messageKeys(again.reply)).toEqual(['domain_recovery_code_invalid']);
    expect(fields((await login({ Email: 'analyst@example.com', RecoveryCode: 'not-a-code' })).reply)).toEqual([['RecoveryCode', 'invalid']]);
    expect((await config(client)).RecoveryCodesLeft).toBe(9);

    // Wrong codes count against the address as wrong passwords do: five, then 429 even for the right one.
    s.clock.advance(16 * 60_000);
    for (let i = 0; i < 5; i++) expect((await login({ Email: 'analyst@example.com', MfaCode: code(secret) === '000000' ? '111111' : '000000' })).reply.status).toBe(400);
    const locked = await login({ Email: 'analyst@example.com', MfaCode: code(secret) });
    expect(locked.reply.status).toBe(429);
    expect(Number(locked.reply.headers.get('retry-after'))).toBeGreaterThan(0);
    s.clock.advance(16 * 60_000);
    expect((await login({ Email: 'analyst@example.com', MfaCode: code(secret) })).reply.status).toBe(200);
  });

  it('turned off with a code, a recovery code or the password, never without; wrong codes throttled', async () => {
    const { client, secret, codes } = await enable('demo@example.com');
    const none = await del(client, CONFIG, {});
    expect(none.status).toBe(400);
    expect(fields(none)).toEqual([['Code', 'required']]);
    expect(fields(await del(client, CONFIG, { CurrentPassword: 'not-the-password' }))).toEqual([['CurrentPassword', 'invalid']]);
    expect(fields(await del(client, CONFIG, { RecoveryCode: 'AAAAA-AAAAA' }))).toEqual([['RecoveryCode', 'invalid']]);
    expect((await config(client)).Enabled).toBe(true);
    // An API key turns nothing off, even with the right code.
    const key = ((await client.post('/api/internal/api-keys', { Name: 'script' })).body as { Key: string }).Key;
    const byKey = await s.app.request(CONFIG, { method: 'DELETE', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ Code: code(secret) }) });
    expect(byKey.status).toBe(403);

    expect((await del(client, CONFIG, { RecoveryCode: codes[0]! })).status).toBe(204);
    expect(await config(client)).toEqual({ Enabled: false, EnabledAtUtc: null, RecoveryCodesLeft: 0, Setup: null });
    expect((await login({ Email: 'demo@example.com' })).reply.status).toBe(200);

    // On again: off with the password; and on once more: off with a code of the app.
    const second = await enable('demo@example.com');
    expect((await del(second.client, CONFIG, { CurrentPassword: PASSWORD })).status).toBe(204);
    const third = await enable('demo@example.com');
    const wrongCode = code(third.secret) === '000000' ? '111111' : '000000';
    for (let i = 0; i < MFA_CODE_MAX_PER_USER; i++) expect(fields(await del(third.client, CONFIG, { Code: wrongCode }))).toEqual([['Code', 'invalid']]);
    expect((await del(third.client, CONFIG, { Code: code(third.secret) })).status).toBe(429);
    s.clock.advance(61 * 60_000);
    expect((await del(third.client, CONFIG, { Code: code(third.secret) })).status).toBe(204);
    expect((await login({ Email: 'demo@example.com' })).reply.status).toBe(200);
  });

  it('a set-up not confirmed is dropped without proof; an API key and an unactivated account cannot set it up', async () => {
    const newbie = await signIn('newbie@example.com');
    const refused = await put(newbie, CONFIG, {});
    expect(refused.status).toBe(403);
    expect(fields(refused)).toEqual([['account', 'accountNotActivated']]);
    const admin = await signIn('admin@example.com');
    const key = ((await admin.post('/api/internal/api-keys', { Name: 'script' })).body as { Key: string }).Key;
    const byKey = await s.app.request(CONFIG, { method: 'PUT', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: '{}' });
    expect(byKey.status).toBe(403);
    expect((await put(admin, CONFIG, {})).status).toBe(204);
    expect((await config(admin)).Setup).not.toBeNull();
    expect((await del(admin, CONFIG, {})).status).toBe(204);
    expect((await config(admin)).Setup).toBeNull();
    expect((await login({ Email: 'admin@example.com' })).reply.status).toBe(200);
  });

  it('an admin with HasManageUserAccess resets a member’s; not a non-member’s, not without the flag', async () => {
    // The producer's is on since the first test.
    const reseller = await enable('reseller@example.com');
    const resellerId = seedId('user:reseller@example.com');
    const producerId = seedId('user:producer@example.com');
    expect(fields((await login({ Email: 'producer@example.com' })).reply)).toEqual([['MfaCode', 'mfaRequired']]);

    // Without HasManageUserAccess: 403.
    const support = await signInWithCode('support@example.com');
    expect((await del(support, `/api/v1/users/${producerId}/mfa`)).status).toBe(403);

    // An admin of this organization, for someone who is not its member: 404, and theirs stays on.
    const admin = await signIn('admin@example.com');
    expect((await del(admin, `/api/v1/users/${resellerId}/mfa`)).status).toBe(404);
    expect((await del(admin, `/api/v1/users/${seedId('user:nobody@example.com')}/mfa`)).status).toBe(404);
    // In an organization the admin is no member of: 404.
    admin.organizationId = ORG_PODCASTS;
    expect((await del(admin, `/api/v1/users/${resellerId}/mfa`)).status).toBe(404);
    expect(fields((await login({ Email: 'reseller@example.com' })).reply)).toEqual([['MfaCode', 'mfaRequired']]);
    expect((await config(reseller.client)).Enabled).toBe(true);

    // A member: shown as on in the users list (what the reset button is offered on), then off, and
    // they sign in with the password alone.
    admin.organizationId = ORG_DEMO;
    const mfaOf = async () => ((await admin.get(`/api/v1/users/${producerId}`)).body as { MfaEnabled: boolean }).MfaEnabled;
    const listed = (await admin.get('/api/v1/users')).body as { Items: Array<{ Id: string; MfaEnabled: boolean }> };
    expect(listed.Items.find((u) => u.Id === producerId)?.MfaEnabled).toBe(true);
    expect(await mfaOf()).toBe(true);
    expect((await del(admin, `/api/v1/users/${producerId}/mfa`)).status).toBe(204);
    expect(await mfaOf()).toBe(false);
    expect((await login({ Email: 'producer@example.com' })).reply.status).toBe(200);
    // demo@example.com administers both organizations: resets the reseller's in theirs.
    const demo = await signIn('demo@example.com', ORG_PODCASTS);
    expect((await del(demo, `/api/v1/users/${resellerId}/mfa`)).status).toBe(204);
    expect((await login({ Email: 'reseller@example.com' })).reply.status).toBe(200);
  });

  const mailsTo = (email: string) => t.store.query<QueuedMail>(`SELECT id, kind, to_address, locale, subject, body_text, body_html FROM mail_outbox WHERE to_address = $1`, [email]);
  /** The mails to `email` that `run` queued. */
  async function queuedBy(email: string, run: () => Promise<unknown>): Promise<QueuedMail[]> {
    const before = new Set((await mailsTo(email)).map((m) => m.id));
    await run();
    return (await mailsTo(email)).filter((m) => !before.has(m.id));
  }
  /** One notice, in `locale`, saying what `words` say; the way back in; none of `secrets`. */
  function expectNotice(mails: QueuedMail[], kind: string, locale: string, words: { subject: string; intro: string }, secrets: string[] = []) {
    expect(mails.map((m) => [m.kind, m.locale])).toEqual([[kind, locale]]);
    const [mail] = mails;
    expect(mail!.subject).toBe(words.subject);
    expect(mail!.body_text).toContain(words.intro);
    expect(mail!.body_text).toContain(mailWords(locale).notYou.text);
    expect(mail!.body_text).toContain('/forgot-password');
    expect(mail!.body_html).toContain(mail!.subject);
    for (const secret of secrets) {
      expect(mail!.body_text).not.toContain(secret);
      expect(mail!.body_html).not.toContain(secret);
    }
  }

  it('each change mails a notice to the account’s address in its language: on, new recovery codes (the old ones stop working), off, an admin’s reset', async () => {
    const email = 'producer@example.com';
    const userId = seedId(`user:${email}`);
    await t.store.query(`UPDATE users SET interface_language = 'de-DE' WHERE id = $1`, [userId]);
    const de = mailWords('de-DE');
    // The producer's was turned off by the admin's reset in the test before.
    let on!: Awaited<ReturnType<typeof enable>>;
    let at = new Date(s.clock.now.getTime());
    const enabled = await queuedBy(email, async () => (on = await enable(email)));
    expectNotice(enabled, 'mfaEnabled', 'de-DE', de.mfaEnabled(at), [on.secret, ...on.codes]);
    expect(enabled[0]!.body_text).toContain('UTC');

    // New codes, with a code of the app: answered once, 10 new ones, every old one gone.
    at = new Date(s.clock.now.getTime());
    let reply!: Reply;
    const regenerated = await queuedBy(email, async () => (reply = await on.client.post(REGENERATE, { Code: code(on.secret) })));
    expect(reply.status, reply.text).toBe(200);
    const fresh = (reply.body as { RecoveryCodes: string[] }).RecoveryCodes;
    expect(fresh).toHaveLength(10);
    for (const c of fresh) expect(c).toMatch(/^[A-Z2-7]{5}-[A-Z2-7]{5}$/);
    expect(fresh.filter((c) => on.codes.includes(c))).toEqual([]);
    expectNotice(regenerated, 'recoveryCodesRegenerated', 'de-DE', de.recoveryCodes(at), [...fresh, ...on.codes]);
    const stored = await t.store.query<{ code_hash: string }>(`SELECT code_hash FROM mfa_recovery_codes WHERE user_id = $1`, [userId]);
    expect(new Set(stored.map((r) => r.code_hash))).toEqual(new Set(fresh.map((c) => sha256(normalizeRecoveryCode(c)))));
    expect((await config(on.client)).RecoveryCodesLeft).toBe(10);
    expect(fields((await login({ Email: email, RecoveryCode: on.codes[0]! })).reply)).toEqual([['RecoveryCode', 'invalid']]);
    expect((await login({ Email: email, RecoveryCode: fresh[0]! })).reply.status).toBe(200);
    expect((await config(on.client)).RecoveryCodesLeft).toBe(9);

    // Off by the owner (a new step: the code above was taken).
    s.clock.advance(30_000);
    at = new Date(s.clock.now.getTime());
    const disabled = await queuedBy(email, async () => expect((await del(on.client, CONFIG, { Code: code(on.secret) })).status).toBe(204));
    expectNotice(disabled, 'mfaDisabled', 'de-DE', de.mfaDisabled(at));

    // A set-up dropped before it was confirmed protected nothing: no mail.
    expect(await queuedBy(email, async () => {
      expect((await put(on.client, CONFIG, {})).status).toBe(204);
      expect((await del(on.client, CONFIG, {})).status).toBe(204);
    })).toEqual([]);

    // Reset by an admin: the notice names the organization.
    await enable(email);
    const admin = await signIn('admin@example.com');
    const [organization] = await t.store.query<{ name: string }>(`SELECT name FROM organizations WHERE id = $1`, [ORG_DEMO]);
    at = new Date(s.clock.now.getTime());
    const reset = await queuedBy(email, async () => expect((await del(admin, `/api/v1/users/${userId}/mfa`)).status).toBe(204));
    expectNotice(reset, 'mfaReset', 'de-DE', de.mfaReset(at, organization!.name));
    // Nothing was on to reset: no mail.
    expect(await queuedBy(email, async () => expect((await del(admin, `/api/v1/users/${userId}/mfa`)).status).toBe(204))).toEqual([]);
  });

  it('new recovery codes need two-factor sign-in on, a right code of the app (throttled with the others) and a session, not an API key', async () => {
    // Off: 400 with a body naming it.
    const admin = await signIn('admin@example.com');
    const off = await admin.post(REGENERATE, { Code: '123456' });
    expect(off.status).toBe(400);
    expect(fields(off)).toEqual([['body', 'invalid']]);
    expect(messageKeys(off)).toEqual(['domain_mfa_not_enabled']);

    // The analyst's is on since the recovery code test; the code signing in is taken, so the clock moves on.
    const client = await signInWithCode('analyst@example.com');
    const [{ secret }] = (await t.store.query<{ secret: string }>(`SELECT secret FROM user_mfa WHERE user_id = $1`, [seedId('user:analyst@example.com')])) as [{ secret: string }];
    s.clock.advance(30_000);
    const codesBefore = await t.store.query<{ code_hash: string }>(`SELECT code_hash FROM mfa_recovery_codes WHERE user_id = $1 ORDER BY code_hash`, [seedId('user:analyst@example.com')]);
    expect(fields(await client.post(REGENERATE, { Code: '' }))).toEqual([['Code', 'required']]);
    expect(fields(await client.post(REGENERATE, { Code: '12ab' }))).toEqual([['Code', 'invalid']]);
    const wrongCode = code(secret) === '000000' ? '111111' : '000000';
    const noMail = await queuedBy('analyst@example.com', async () => {
      const wrong = await client.post(REGENERATE, { Code: wrongCode });
      expect(wrong.status).toBe(400);
      expect(fields(wrong)).toEqual([['Code', 'invalid']]);
      expect(messageKeys(wrong)).toEqual(['domain_mfa_code_invalid']);
    });
    expect(noMail).toEqual([]);

    // An API key gets nothing, even with the right code.
    const key = ((await client.post('/api/internal/api-keys', { Name: 'script' })).body as { Key: string }).Key;
    const byKey = await s.app.request(REGENERATE, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ Code: code(secret) }) });
    expect(byKey.status).toBe(403);
    expect(await byKey.text()).not.toContain('RecoveryCodes');

    // Wrong codes count with the turn-off's and sign-in's: past the limit even the right one waits.
    for (let i = 1; i < MFA_CODE_MAX_PER_USER; i++) expect(fields(await client.post(REGENERATE, { Code: wrongCode }))).toEqual([['Code', 'invalid']]);
    const locked = await client.post(REGENERATE, { Code: code(secret) });
    expect(locked.status).toBe(429);
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await t.store.query(`SELECT code_hash FROM mfa_recovery_codes WHERE user_id = $1 ORDER BY code_hash`, [seedId('user:analyst@example.com')])).toEqual(codesBefore);
    s.clock.advance(61 * 60_000);
    expect((await client.post(REGENERATE, { Code: code(secret) })).status).toBe(200);
  });

  async function signInWithCode(email: string): Promise<AppClient> {
    const [row] = await t.store.query<{ secret: string }>(`SELECT secret FROM user_mfa WHERE user_id = $1`, [seedId(`user:${email}`)]);
    s.clock.advance(30_000);
    const { client, reply } = await login({ Email: email, MfaCode: code(row!.secret) });
    expect(reply.status, reply.text).toBe(200);
    client.organizationId = ORG_DEMO;
    return client;
  }
});
