// Account security (issue 31; section 7: PUT /internal/users/me/password and /email, POST and PUT
// /internal/account/password-reset, GET /internal/users/auth-type), on both stores: section 5's
// messages at each field, the current password checked and its checks limited, the other sessions
// ended by a change and every session by a reset, the reset link single-use, expiring, stored
// hashed and mailed only to an address with an account while the answer is the same for any, and
// an e-mail address that changes only once the new one is confirmed. Tokens come from the mails in
// the outbox (no SMTP server here: mail.test.ts delivers mails to one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { sha256 } from '../../sync-server/auth.ts';
import { CURRENT_PASSWORD_MAX_PER_USER, RESET_MAX_PER_ADDRESS, THROTTLE_WINDOW_MS } from '../../sync-server/accounts/throttle.ts';
import { PASSWORD_RESET_TTL_MS } from '../../sync-server/accounts/password-resets.ts';
import { AppClient, fields, testClock, type Reply, type TestClock } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type App = ReturnType<typeof createApp>;

const PASSWORD = 'a long enough secret';
const NEW_PASSWORD = 'another long secret';
let n = 0;

/** Each refused field's message, by field. */
const messages = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(400);
  return Object.fromEntries((reply.body as { Errors: Array<{ Field: string; Message: string }> }).Errors.map((e) => [e.Field, e.Message]));
};
const messageKeys = (reply: Reply) => {
  expect(reply.status, reply.text).toBe(400);
  return Object.fromEntries((reply.body as { Errors: Array<{ Field: string; MessageKey: string }> }).Errors.map((e) => [e.Field, e.MessageKey]));
};

describe.each(storeKinds)('account security on %s', (kind) => {
  let t: TestStore;
  let app: App;
  let clock: TestClock;
  beforeAll(async () => {
    t = await openTestStore(kind);
    clock = testClock();
    app = createApp({ store: t.store, bus: createMemoryBus(), clock: () => clock.now });
  });
  afterAll(() => t?.drop());

  /** The mails to `to`, newest first. */
  const mailsTo = (to: string) =>
    t.store.query<{ kind: string; subject: string; body_text: string | null; body_html: string | null }>(`SELECT kind, subject, body_text, body_html FROM mail_outbox WHERE lower(to_address) = lower($1) ORDER BY created_at_utc DESC, id`, [to]);

  /** The token of the newest link to `path` mailed to `to`. */
  async function mailedToken(to: string, path: string): Promise<string> {
    for (const mail of await mailsTo(to)) {
      const match = new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.body_text ?? '');
      if (match) return match[1]!;
    }
    throw new Error(`no ${path} link mailed to ${to}`);
  }

  /** A signed-in client with its XSRF token. */
  const signIn = (email: string, password = PASSWORD) => AppClient.signedIn(app, email, null, password);

  /** A new account (signed in, activated unless asked otherwise). */
  async function account(activated = true): Promise<{ client: AppClient; email: string }> {
    const email = `person${++n}.${kind}@station.example`;
    const client = new AppClient(app);
    clock.advance(1000);
    const made = await client.post('/api/internal/account', { Email: email, Name: 'Pat Person', Password: PASSWORD, OrganizationName: 'Pat’s Station', InterfaceLanguage: 'en-US' });
    expect(made.status, made.text).toBe(200);
    client.xsrf = ((await client.get('/api/internal/session/xsrf')).body as { XsrfToken: string }).XsrfToken;
    clock.advance(1000);
    if (activated) expect((await client.post('/api/internal/users/me/email/status', { Token: await mailedToken(email, '/account/confirm') })).status).toBe(204);
    return { client, email };
  }

  // Every call a second later than the last: the mails each makes are told apart by their time.
  const put = (client: AppClient, path: string, json: unknown) => (clock.advance(1000), client.send('PUT', path, { json }));
  const loginStatus = async (email: string, password: string) => (await new AppClient(app).post('/api/internal/session/login', { Email: email, Password: password })).status;
  const sessionType = async (client: AppClient) => ((await client.get('/api/internal/session')).body as { Type: string }).Type;

  describe('PUT /internal/users/me/password', () => {
    it('changes the password: this session stays under a new id, the others end, and the address gets a notice', async () => {
      const { client, email } = await account();
      const other = await signIn(email);
      const before = client.cookie;
      const reply = await put(client, '/api/internal/users/me/password', { CurrentPassword: PASSWORD, NewPassword: NEW_PASSWORD });
      expect(reply.status, reply.text).toBe(204);
      expect(client.cookie).not.toBe(before);
      expect(await sessionType(client)).toBe('activated');
      expect(await sessionType(other)).toBe('loggedOut');
      const stale = new AppClient(app);
      stale.cookie = before;
      expect(await sessionType(stale)).toBe('loggedOut');
      expect(await loginStatus(email, PASSWORD)).toBe(401);
      expect(await loginStatus(email, NEW_PASSWORD)).toBe(200);
      const [notice] = await mailsTo(email);
      expect(notice).toMatchObject({ kind: 'passwordChanged', subject: 'Your Castaway Studio password was changed' });
      expect(notice!.body_text).toContain('/account/forgot-password');
      expect(notice!.body_text).not.toContain(NEW_PASSWORD);
      // Stored as a scrypt hash, never as given.
      const [row] = await t.store.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE email = $1`, [email]);
      expect(row!.password_hash).toMatch(/^scrypt\$/);
    });

    it('names each field it refuses with section 5’s messages, the wrong current password and an unchanged one', async () => {
      const { client, email } = await account();
      const path = '/api/internal/users/me/password';
      expect(messages(await put(client, path, { CurrentPassword: '', NewPassword: '' }))).toEqual({ CurrentPassword: 'Please enter your current password', NewPassword: 'Please enter a new password' });
      expect(messages(await put(client, path, { CurrentPassword: PASSWORD, NewPassword: 'short' }))).toEqual({ NewPassword: 'Password must be 8 characters or longer' });
      expect(fields(await put(client, path, { CurrentPassword: PASSWORD, NewPassword: 'p'.repeat(129) }))).toEqual([['NewPassword', 'tooLong']]);
      expect(messages(await put(client, path, { CurrentPassword: 'not the password', NewPassword: NEW_PASSWORD }))).toEqual({ CurrentPassword: 'This is not your current password' });
      expect(messages(await put(client, path, { CurrentPassword: PASSWORD, NewPassword: PASSWORD }))).toEqual({ NewPassword: 'Your new password must be different from your current one' });
      expect(fields(await put(client, path, { CurrentPassword: PASSWORD }))).toEqual([['NewPassword', 'required']]);
      expect(fields(await put(client, path, { CurrentPassword: PASSWORD, NewPassword: NEW_PASSWORD, Extra: 1 }))).toEqual([['Extra', 'invalid']]);
      expect(fields(await client.send('PUT', path, { raw: '{"CurrentPassword":' }))).toEqual([['body', 'malformedJson']]);
      // Nothing changed, and no notice went out.
      expect(await loginStatus(email, PASSWORD)).toBe(200);
      expect((await mailsTo(email)).map((m) => m.kind)).not.toContain('passwordChanged');
    });

    it(`checks the current password at most ${CURRENT_PASSWORD_MAX_PER_USER} times an hour per account, only for a signed-in caller with its XSRF token`, async () => {
      const { client } = await account();
      const path = '/api/internal/users/me/password';
      const statuses: number[] = [];
      for (let i = 0; i <= CURRENT_PASSWORD_MAX_PER_USER; i++) statuses.push((await put(client, path, { CurrentPassword: `guess ${i} of many`, NewPassword: NEW_PASSWORD })).status);
      expect(statuses).toEqual([...Array(CURRENT_PASSWORD_MAX_PER_USER).fill(400), 429]);
      const limited = await put(client, path, { CurrentPassword: PASSWORD, NewPassword: NEW_PASSWORD });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      clock.advance(THROTTLE_WINDOW_MS);
      expect((await put(client, path, { CurrentPassword: PASSWORD, NewPassword: NEW_PASSWORD })).status).toBe(204);
      expect((await client.send('PUT', path, { json: { CurrentPassword: NEW_PASSWORD, NewPassword: PASSWORD }, xsrf: false })).status).toBe(403);
      expect((await put(new AppClient(app), path, { CurrentPassword: PASSWORD, NewPassword: NEW_PASSWORD })).status).toBe(401);
    });
  });

  describe('password reset', () => {
    const request = (email: string) => (clock.advance(1000), new AppClient(app)).post('/api/internal/account/password-reset', { Email: email });
    const reset = (json: unknown) => put(new AppClient(app), '/api/internal/account/password-reset', json);
    const jobs = async () => (await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'accounts.passwordReset'`))[0]!.n;

    it('answers 204 alike for any address, doing the same work, and mails a link only to an account; the link sets the password once and ends every session', async () => {
      const { client, email } = await account();
      const unknown = `nobody${++n}@station.example`;
      const before = await jobs();
      const known = await request(` ${email.toUpperCase()} `);
      const stranger = await request(unknown);
      expect([known.status, known.text, stranger.status, stranger.text]).toEqual([204, '', 204, '']);
      // One job each: the address is looked up after the answer.
      expect(await jobs()).toBe(before + 2);
      await app.jobs.drain();
      expect(await mailsTo(unknown)).toEqual([]);
      const [mail] = await mailsTo(email);
      expect(mail).toMatchObject({ kind: 'passwordReset', subject: 'Reset your Castaway Studio password' });
      expect(mail!.body_text).toContain('expires in 60 minutes');
      const token = await mailedToken(email, '/account/reset-password');
      expect(mail!.body_html).toContain(`/account/reset-password?token=${token}`);
      const stored = await t.store.query<{ token_hash: string; expires_at_utc: Date }>(`SELECT r.token_hash, r.expires_at_utc FROM password_resets r JOIN users u ON u.id = r.user_id WHERE u.email = $1`, [email]);
      expect(stored).toEqual([{ token_hash: sha256(token), expires_at_utc: new Date(clock.now.getTime() + PASSWORD_RESET_TTL_MS) }]);
      expect(JSON.stringify(stored)).not.toContain(token);

      const done = await reset({ Token: token, Password: NEW_PASSWORD });
      expect(done.status, done.text).toBe(204);
      expect(await sessionType(client)).toBe('loggedOut');
      expect(await loginStatus(email, PASSWORD)).toBe(401);
      expect(await loginStatus(email, NEW_PASSWORD)).toBe(200);
      expect((await mailsTo(email))[0]).toMatchObject({ kind: 'passwordChanged' });
      // Single-use.
      expect(messageKeys(await reset({ Token: token, Password: 'yet another secret' }))).toEqual({ Token: 'domain_password_reset_used' });
      expect(await loginStatus(email, NEW_PASSWORD)).toBe(200);
    });

    it('refuses a made-up, expired, superseded-by-a-change or emptied token and a bad password at their fields, and changes nothing', async () => {
      const { email } = await account();
      expect((await request(email)).status).toBe(204);
      await app.jobs.drain();
      const token = await mailedToken(email, '/account/reset-password');
      expect(messageKeys(await reset({ Token: 'made-up', Password: NEW_PASSWORD }))).toEqual({ Token: 'domain_password_reset_invalid' });
      expect(messages(await reset({ Token: '', Password: '' }))).toEqual({
        Token: 'This password reset link is not valid: use the link in your latest e-mail, or ask for a new one',
        Password: 'Please enter a new password',
      });
      expect(messages(await reset({ Token: token, Password: 'short' }))).toEqual({ Password: 'Password must be 8 characters or longer' });
      expect(fields(await reset({ Password: NEW_PASSWORD }))).toEqual([['Token', 'required']]);
      clock.advance(PASSWORD_RESET_TTL_MS);
      expect(messages(await reset({ Token: token, Password: NEW_PASSWORD }))).toEqual({ Token: 'This password reset link has expired: ask for a new one' });
      expect(await loginStatus(email, PASSWORD)).toBe(200);

      // A password changed meanwhile uses up the links mailed before.
      expect((await request(email)).status).toBe(204);
      await app.jobs.drain();
      const second = await mailedToken(email, '/account/reset-password');
      const client = await signIn(email);
      expect((await put(client, '/api/internal/users/me/password', { CurrentPassword: PASSWORD, NewPassword: NEW_PASSWORD })).status).toBe(204);
      expect(messageKeys(await reset({ Token: second, Password: 'yet another secret' }))).toEqual({ Token: 'domain_password_reset_used' });
      // A link to an address the account no longer has resets nothing.
      expect((await request(email)).status).toBe(204);
      await app.jobs.drain();
      const third = await mailedToken(email, '/account/reset-password');
      await t.store.query(`UPDATE users SET email = $2 WHERE email = $1`, [email, `moved-${email}`]);
      expect(messageKeys(await reset({ Token: third, Password: 'yet another secret' }))).toEqual({ Token: 'domain_password_reset_invalid' });
      expect(await loginStatus(`moved-${email}`, NEW_PASSWORD)).toBe(200);
    });

    it(`refuses a malformed address at Email and allows ${RESET_MAX_PER_ADDRESS} requests per address an hour, known or not`, async () => {
      expect(messages(await request(''))).toEqual({ Email: 'Please enter an email address' });
      expect(messages(await request('not-an-address'))).toEqual({ Email: '"not-an-address" is not a valid email address' });
      expect(fields(await new AppClient(app).post('/api/internal/account/password-reset', {}))).toEqual([['Email', 'required']]);
      const { email } = await account();
      for (const address of [email, `nobody${++n}@station.example`]) {
        const statuses: number[] = [];
        for (let i = 0; i <= RESET_MAX_PER_ADDRESS; i++) statuses.push((await request(address)).status);
        expect(statuses, address).toEqual([...Array(RESET_MAX_PER_ADDRESS).fill(204), 429]);
      }
      await app.jobs.drain();
      expect((await mailsTo(email)).filter((m) => m.kind === 'passwordReset')).toHaveLength(RESET_MAX_PER_ADDRESS);
    });
  });

  describe('PUT /internal/users/me/email', () => {
    const change = (client: AppClient, json: unknown) => put(client, '/api/internal/users/me/email', json);
    const confirm = (client: AppClient, token: string) => (clock.advance(1000), client).post('/api/internal/users/me/email/status', { Token: token });
    const emailOf = async (client: AppClient) => ((await client.get('/api/internal/session')).body as { User: { Email: string } }).User.Email;

    it('changes the address only once the new one is confirmed: a link to the new address, a notice to the old', async () => {
      const { client, email } = await account();
      const next = `next${++n}.${kind}@station.example`;
      const reply = await change(client, { Email: ` ${next} `, CurrentPassword: PASSWORD });
      expect(reply.status, reply.text).toBe(204);
      // Not yet: the account keeps its address, and signs in with it.
      expect(await emailOf(client)).toBe(email);
      expect(await loginStatus(email, PASSWORD)).toBe(200);
      const [notice] = await mailsTo(email);
      expect(notice).toMatchObject({ kind: 'emailChanging', subject: 'Your Castaway Studio e-mail address is being changed' });
      expect(notice!.body_text).toContain(next);
      expect((await mailsTo(next))[0]).toMatchObject({ kind: 'emailChange', subject: 'Confirm your new e-mail address for Castaway Studio' });
      const token = await mailedToken(next, '/account/confirm');
      // Another account cannot use the link.
      const stranger = await account();
      expect(messageKeys(await confirm(stranger.client, token))).toEqual({ Token: 'domain_confirmation_invalid' });
      const done = await confirm(client, token);
      expect(done.status, done.text).toBe(204);
      expect(await emailOf(client)).toBe(next);
      expect(await sessionType(client)).toBe('activated');
      expect(await loginStatus(email, PASSWORD)).toBe(401);
      expect(await loginStatus(next, PASSWORD)).toBe(200);
      expect(messageKeys(await confirm(client, token))).toEqual({ Token: 'domain_confirmation_used' });
    });

    it('names each field it refuses: section 5’s e-mail messages, the account’s own address, another account’s, the wrong password', async () => {
      const { client, email } = await account();
      const other = await account();
      expect(messages(await change(client, { Email: '', CurrentPassword: '' }))).toEqual({ Email: 'Please enter an email address', CurrentPassword: 'Please enter your current password' });
      expect(messages(await change(client, { Email: 'not-an-address', CurrentPassword: PASSWORD }))).toEqual({ Email: '"not-an-address" is not a valid email address' });
      expect(messages(await change(client, { Email: email.toUpperCase(), CurrentPassword: PASSWORD }))).toEqual({ Email: 'This is already your email address' });
      expect(messages(await change(client, { Email: other.email.toUpperCase(), CurrentPassword: PASSWORD }))).toEqual({ Email: 'Another account already uses this email address' });
      expect(messages(await change(client, { Email: `free${++n}@station.example`, CurrentPassword: 'not the password' }))).toEqual({ CurrentPassword: 'This is not your current password' });
      expect(fields(await change(client, { Email: `free${++n}@station.example` }))).toEqual([['CurrentPassword', 'required']]);
      expect((await mailsTo(email)).map((m) => m.kind)).not.toContain('emailChanging');
      expect((await change(new AppClient(app), { Email: `free${++n}@station.example`, CurrentPassword: PASSWORD })).status).toBe(401);
    });

    it('only the latest change’s link works; a new address taken meanwhile is refused at Token; an unactivated account is activated by it, with no notice to its unconfirmed address', async () => {
      const { client, email } = await account();
      const first = `first${++n}@station.example`;
      const second = `second${++n}@station.example`;
      expect((await change(client, { Email: first, CurrentPassword: PASSWORD })).status).toBe(204);
      const firstToken = await mailedToken(first, '/account/confirm');
      expect((await change(client, { Email: second, CurrentPassword: PASSWORD })).status).toBe(204);
      const secondToken = await mailedToken(second, '/account/confirm');
      expect(messageKeys(await confirm(client, firstToken))).toEqual({ Token: 'domain_confirmation_invalid' });
      // Someone makes an account with the new address before the link is opened.
      const taker = new AppClient(app);
      expect((await taker.post('/api/internal/account', { Email: second, Name: 'Quick', Password: PASSWORD, OrganizationName: 'Quick Radio' })).status).toBe(200);
      expect(messageKeys(await confirm(client, secondToken))).toEqual({ Token: 'domain_email_in_use' });
      expect(await emailOf(client)).toBe(email);

      const fresh = await account(false);
      const target = `fixed${++n}@station.example`;
      expect((await change(fresh.client, { Email: target, CurrentPassword: PASSWORD })).status).toBe(204);
      expect((await mailsTo(fresh.email)).map((m) => m.kind)).toEqual(['accountConfirmation']);
      expect((await confirm(fresh.client, await mailedToken(target, '/account/confirm'))).status).toBe(204);
      expect(await sessionType(fresh.client)).toBe('activated');
      expect(await emailOf(fresh.client)).toBe(target);
    });
  });

  it('GET /internal/users/auth-type answers the same for an address with an account and one without, and 400 at email for a malformed one', async () => {
    const { email } = await account();
    const anonymous = new AppClient(app);
    const known = await anonymous.get(`/api/internal/users/auth-type?email=${encodeURIComponent(email)}`);
    const unknown = await anonymous.get(`/api/internal/users/auth-type?email=${encodeURIComponent(`nobody${++n}@station.example`)}`);
    expect(known.status).toBe(200);
    expect(known.body).toEqual({ AuthType: 'Password' });
    expect(unknown.text).toBe(known.text);
    expect(messages(await anonymous.get('/api/internal/users/auth-type?email=nope'))).toEqual({ email: '"nope" is not a valid email address' });
    expect(fields(await anonymous.get('/api/internal/users/auth-type'))).toEqual([['email', 'required']]);
  });
});
