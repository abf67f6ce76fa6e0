// Accounts made by their users (issue 31; section 7: POST /internal/account, 200 or 451; POST
// /internal/users/me/email/status and /email/activation, 204), on both stores: the account is
// signed in and unactivated, each field is refused with section 5's message, a taken address is
// refused at Email, attempts are limited per address and per client, the location rule answers 451
// only where it is configured, and the confirmation token is single-use, expires and is its
// account's own. No SMTP server here: mails are kept in the outbox (tests/server/mail.test.ts
// delivers them).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { sha256 } from '../../sync-server/auth.ts';
import { DEFAULT_UNSERVED_COUNTRIES, locationPolicy } from '../../sync-server/accounts/location.ts';
import { ACCOUNT_MAX_PER_ADDRESS, ACCOUNT_MAX_PER_CLIENT, ACTIVATION_MAX_PER_USER, THROTTLE_WINDOW_MS } from '../../sync-server/accounts/throttle.ts';
import { CONFIRMATION_TTL_MS } from '../../sync-server/accounts/confirmations.ts';
import { AppClient, fields, testClock, type Reply, type TestClock } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type App = ReturnType<typeof createApp>;

const PASSWORD = 'a long enough secret';
let n = 0;
/** A valid sign-up of a new address. */
const signUp = (over: Record<string, unknown> = {}) => ({ Email: `owner${++n}@station.example`, Name: 'Ada Owner', Password: PASSWORD, OrganizationName: 'Station Ada', ...over });

/** A POST from the client address `from`, as the Node server would see its socket. */
async function postFrom(app: App, from: string, path: string, json: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const res = await app.request(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(json) }, { incoming: { socket: { remoteAddress: from, remotePort: 50000, remoteFamily: 'IPv4' } } });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** The token of the newest confirmation mail to `email`, read from the outbox (the kept mail's link). */
async function mailedToken(t: TestStore, email: string): Promise<string> {
  const [mail] = await t.store.query<{ body_text: string }>(`SELECT body_text FROM mail_outbox WHERE to_address = $1 ORDER BY created_at_utc DESC, id LIMIT 1`, [email]);
  const match = /\/account\/confirm\?token=([A-Za-z0-9_-]+)/.exec(mail?.body_text ?? '');
  if (!match) throw new Error(`no confirmation link mailed to ${email}`);
  return match[1]!;
}

/** A new account, signed in with its XSRF token, on `app`. */
async function newAccount(app: App, over: Record<string, unknown> = {}): Promise<{ client: AppClient; email: string }> {
  const client = new AppClient(app);
  const body = signUp(over);
  const reply = await client.post('/api/internal/account', body);
  expect(reply.status, reply.text).toBe(200);
  client.xsrf = ((await client.get('/api/internal/session/xsrf')).body as { XsrfToken: string }).XsrfToken;
  return { client, email: body.Email as string };
}

describe('the location rule (accounts/location.ts)', () => {
  it('is off until the operator names the header, and refuses the countries under comprehensive US sanctions by default', () => {
    expect(locationPolicy({}).header).toBeNull();
    expect([...locationPolicy({}).unserved].sort()).toEqual(['CU', 'IR', 'KP', 'SY']);
    expect(DEFAULT_UNSERVED_COUNTRIES).toEqual(['CU', 'IR', 'KP', 'SY']);
    const custom = locationPolicy({ CASTAWAY_LOCATION_HEADER: 'CF-IPCountry', CASTAWAY_UNSERVED_COUNTRIES: ' cu, ir,KP ,sy,RU ' });
    expect(custom.header).toBe('cf-ipcountry');
    expect([...custom.unserved].sort()).toEqual(['CU', 'IR', 'KP', 'RU', 'SY']);
    // Set but empty: no country is refused.
    expect(locationPolicy({ CASTAWAY_UNSERVED_COUNTRIES: '' }).unserved.size).toBe(0);
    expect(() => locationPolicy({ CASTAWAY_UNSERVED_COUNTRIES: 'CU,Iran' })).toThrow(/"IRAN" is not an ISO 3166-1 alpha-2/);
    expect(() => locationPolicy({ CASTAWAY_LOCATION_HEADER: 'X Country' })).toThrow(/not a header name/);
  });
});

describe.each(storeKinds)('POST /internal/account on %s', (kind) => {
  let t: TestStore;
  let app: App;
  let located: App;
  let clock: TestClock;
  beforeAll(async () => {
    t = await openTestStore(kind);
    clock = testClock();
    app = createApp({ store: t.store, bus: createMemoryBus(), clock: () => clock.now });
    // The same store behind a proxy that says where each client is (Cloudflare's header).
    located = createApp({ store: t.store, bus: createMemoryBus(), clock: () => clock.now, accounts: { location: locationPolicy({ CASTAWAY_LOCATION_HEADER: 'CF-IPCountry' }) } });
  });
  afterAll(() => t?.drop());

  it('makes an organization and its owner, signed in and unactivated, and mails a confirmation link whose token is stored only hashed', async () => {
    const client = new AppClient(app);
    const body = signUp({ Email: ' Nina.New@Station.example ', Name: 'Nina New', OrganizationName: 'Radio Nina', InterfaceLanguage: 'de-DE' });
    const reply = await client.post('/api/internal/account', body);
    expect(reply.status, reply.text).toBe(200);
    expect(reply.body).toMatchObject({ Type: 'unactivated', User: { Email: 'Nina.New@Station.example', Name: 'Nina New', FirstName: 'Nina', Activated: false, InterfaceLanguage: 'de-DE' }, UserBelongsToMultipleOrganizations: false });
    expect(reply.headers.get('set-cookie')).toMatch(/castaway_session=[^;]+; .*HttpOnly/i);
    // The same session as a sign-in: the session call, the XSRF token, the organization with every flag.
    expect((await client.get('/api/internal/session')).body).toMatchObject({ Type: 'unactivated' });
    client.xsrf = ((await client.get('/api/internal/session/xsrf')).body as { XsrfToken: string }).XsrfToken;
    const organizations = (await client.get('/api/internal/users/me/organizations')).body as Array<{ Id: string; Name: string; Provider: string; UserPermissions: Array<{ ObjectType: string }> }>;
    expect(organizations).toHaveLength(1);
    expect(organizations[0]).toMatchObject({ Name: 'Radio Nina', Provider: 'Podcaster', UserPermissions: [{ ObjectType: 'Organization' }] });
    // Unactivated: it reads, and its writes are refused until the address is confirmed.
    client.organizationId = organizations[0]!.Id;
    expect((await client.get('/api/v1/programs')).status).toBe(200);
    const write = await client.post('/api/v1/programs', { Name: 'Not yet' });
    expect(write.status, write.text).toBe(403);
    expect(fields(write)).toEqual([['account', 'accountNotActivated']]);
    // The confirmation: one mail in German, its link's token stored as its SHA-256 only.
    const mails = await t.store.query<{ kind: string; locale: string; subject: string; status: string }>(`SELECT kind, locale, subject, status FROM mail_outbox WHERE to_address = $1`, ['Nina.New@Station.example']);
    expect(mails).toEqual([{ kind: 'accountConfirmation', locale: 'de-DE', subject: 'Bestätigen Sie Ihre E-Mail-Adresse für Castaway Studio', status: 'Queued' }]);
    const token = await mailedToken(t, 'Nina.New@Station.example');
    const stored = await t.store.query<{ token_hash: string; expires_at_utc: Date; used_at_utc: Date | null }>(
      `SELECT c.token_hash, c.expires_at_utc, c.used_at_utc FROM email_confirmations c JOIN users u ON u.id = c.user_id WHERE u.email = $1`,
      ['Nina.New@Station.example'],
    );
    expect(stored).toEqual([{ token_hash: sha256(token), expires_at_utc: new Date(clock.now.getTime() + CONFIRMATION_TTL_MS), used_at_utc: null }]);
    expect(JSON.stringify(stored)).not.toContain(token);
    // Without SMTP_URL the delivery keeps it (mail.test.ts sends one).
    await app.jobs.drain();
    expect((await t.store.query(`SELECT status FROM mail_outbox WHERE to_address = $1`, ['Nina.New@Station.example']))[0]).toEqual({ status: 'Kept' });
  });

  it('names every field it refuses, with the messages of section 5', async () => {
    const client = new AppClient(app);
    const empty = await client.post('/api/internal/account', { Email: '', Name: ' ', Password: '', OrganizationName: '' });
    expect(empty.status).toBe(400);
    const messages = (reply: Reply) => Object.fromEntries((reply.body as { Errors: Array<{ Field: string; Message: string }> }).Errors.map((e) => [e.Field, e.Message]));
    expect(messages(empty)).toEqual({ Email: 'Please enter an email address', Name: 'You must enter a name', Password: 'Please enter your password', OrganizationName: 'You must enter a name' });
    const wrong = await client.post('/api/internal/account', signUp({ Email: 'not-an-address', Password: 'short', Name: 'x'.repeat(101) }));
    expect(messages(wrong)).toEqual({ Email: '"not-an-address" is not a valid email address', Password: 'Password must be 8 characters or longer', Name: expect.stringMatching(/100/) });
    expect(fields(await client.post('/api/internal/account', signUp({ Password: 'p'.repeat(129) })))).toEqual([['Password', 'tooLong']]);
    expect(fields(await client.post('/api/internal/account', signUp({ InterfaceLanguage: 'xx-XX' })))).toEqual([['InterfaceLanguage', 'invalid']]);
    expect(fields(await client.post('/api/internal/account', signUp({ Provider: 'Pirate' })))).toEqual([['Provider', 'invalid']]);
    expect(fields(await client.post('/api/internal/account', signUp({ IsAdmin: true })))).toEqual([['IsAdmin', 'invalid']]);
    expect(fields(await client.post('/api/internal/account', { Name: 'A', Password: PASSWORD, OrganizationName: 'B' }))).toEqual([['Email', 'required']]);
    // Nothing refused was written, and no cookie was set.
    expect(client.cookie).toBe('');
    expect(await t.store.query(`SELECT email FROM users WHERE email = 'not-an-address'`)).toEqual([]);
  });

  it('refuses an address that has an account, in any case, at Email, and writes nothing', async () => {
    const { email } = await newAccount(app);
    const [before] = await t.store.query<{ users: number; organizations: number; mails: number }>(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM organizations) AS organizations, (SELECT count(*)::int FROM mail_outbox) AS mails`,
    );
    const again = await new AppClient(app).post('/api/internal/account', signUp({ Email: email.toUpperCase(), OrganizationName: 'Someone else’s' }));
    expect(again.status).toBe(400);
    expect((again.body as { Errors: unknown[] }).Errors).toEqual([{ Field: 'Email', Code: 'invalid', Message: 'An account with this email address already exists: log in instead', MessageKey: 'domain_email_taken' }]);
    const [after] = await t.store.query(
      `SELECT (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM organizations) AS organizations, (SELECT count(*)::int FROM mail_outbox) AS mails`,
    );
    expect(after).toEqual(before);
    // Two at once for one address: one account, the other refused at Email.
    const same = signUp();
    const both = await Promise.all([new AppClient(app).post('/api/internal/account', same), new AppClient(app).post('/api/internal/account', same)]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(await t.store.query(`SELECT count(*)::int AS n FROM users WHERE lower(email) = lower($1)`, [same.Email])).toEqual([{ n: 1 }]);
  });

  it(`allows ${ACCOUNT_MAX_PER_ADDRESS} attempts per address and ${ACCOUNT_MAX_PER_CLIENT} per client in an hour, then 429 with Retry-After`, async () => {
    const address = signUp().Email as string;
    const statuses: number[] = [];
    for (let i = 0; i <= ACCOUNT_MAX_PER_ADDRESS; i++) statuses.push((await new AppClient(app).post('/api/internal/account', signUp({ Email: address }))).status);
    // The first makes it, the next are taken, and the one past the limit is not even looked up.
    expect(statuses).toEqual([200, ...Array(ACCOUNT_MAX_PER_ADDRESS - 1).fill(400), 429]);
    const limited = await new AppClient(app).post('/api/internal/account', signUp({ Email: address }));
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBe(THROTTLE_WINDOW_MS / 1000);
    // Per client: the eleventh new address from one client address is refused, another client is not.
    const from = '198.51.100.23';
    const made: number[] = [];
    for (let i = 0; i <= ACCOUNT_MAX_PER_CLIENT; i++) made.push((await postFrom(app, from, '/api/internal/account', signUp())).status);
    expect(made).toEqual([...Array(ACCOUNT_MAX_PER_CLIENT).fill(200), 429]);
    expect((await postFrom(app, '198.51.100.24', '/api/internal/account', signUp())).status).toBe(200);
    // An hour later the window has ended, for the address and for the client.
    clock.advance(THROTTLE_WINDOW_MS);
    expect((await new AppClient(app).post('/api/internal/account', signUp({ Email: address }))).status).toBe(400);
    expect((await postFrom(app, from, '/api/internal/account', signUp())).status).toBe(200);
  });

  it('answers 451 with a body from an unserved country, only where the location header is configured', async () => {
    const users = async () => (await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM users`))[0]!.n;
    const before = await users();
    for (const country of ['IR', 'kp', ' CU ', 'SY']) {
      const reply = await new AppClient(located).post('/api/internal/account', signUp(), { 'CF-IPCountry': country });
      expect(reply.status, country).toBe(451);
      expect(reply.body).toEqual({
        Errors: [{ Field: 'location', Code: 'unavailableInLocation', Message: 'This service is not available in your location to comply with US sanctions', MessageKey: 'domain_unavailable_in_location' }],
      });
      expect(reply.headers.get('set-cookie')).toBeNull();
    }
    // Before the body is read: a sanctioned location is told so, not that its fields are wrong.
    expect((await new AppClient(located).post('/api/internal/account', { Email: '' }, { 'CF-IPCountry': 'IR' })).status).toBe(451);
    expect(await users()).toBe(before);
    // Served countries, no header, or a value that is no country pass.
    for (const headers of [{ 'CF-IPCountry': 'DE' }, {}, { 'CF-IPCountry': 'XX' }, { 'CF-IPCountry': '' }]) {
      expect((await new AppClient(located).post('/api/internal/account', signUp(), headers)).status, JSON.stringify(headers)).toBe(200);
    }
    // Not configured: the header is any client's to write, so it means nothing.
    expect((await new AppClient(app).post('/api/internal/account', signUp(), { 'CF-IPCountry': 'IR' })).status).toBe(200);
  });

  it('signs the browser out of the account it held, as a sign-in does', async () => {
    const first = await newAccount(app);
    const oldCookie = first.client.cookie;
    const reply = await first.client.post('/api/internal/account', signUp());
    expect(reply.status, reply.text).toBe(200);
    expect(first.client.cookie).not.toBe(oldCookie);
    const stale = new AppClient(app);
    stale.cookie = oldCookie;
    expect((await stale.get('/api/internal/session')).body).toMatchObject({ Type: 'loggedOut' });
  });
});

describe.each(storeKinds)('confirming the address on %s', (kind) => {
  let t: TestStore;
  let app: App;
  let clock: TestClock;
  beforeAll(async () => {
    t = await openTestStore(kind);
    clock = testClock();
    app = createApp({ store: t.store, bus: createMemoryBus(), clock: () => clock.now });
  });
  afterAll(() => t?.drop());

  const confirm = (client: AppClient, token: string) => client.post('/api/internal/users/me/email/status', { Token: token });
  const refusal = (reply: Reply) => {
    expect(reply.status, reply.text).toBe(400);
    const [error] = (reply.body as { Errors: Array<{ Field: string; MessageKey: string }> }).Errors;
    expect(error!.Field).toBe('Token');
    return error!.MessageKey;
  };

  it('activates the account with its token, once: the session becomes activated under a new id, and it may write', async () => {
    const { client, email } = await newAccount(app);
    const token = await mailedToken(t, email);
    const before = client.cookie;
    const done = await confirm(client, token);
    expect(done.status, done.text).toBe(204);
    expect(client.cookie).not.toBe(before);
    expect((await client.get('/api/internal/session')).body).toMatchObject({ Type: 'activated', User: { Activated: true } });
    const stale = new AppClient(app);
    stale.cookie = before;
    expect((await stale.get('/api/internal/session')).body).toMatchObject({ Type: 'loggedOut' });
    const program = await client.post('/api/v1/programs', { Name: 'Now we can' });
    expect(program.status, program.text).toBe(201);
    // Used: refused, and it says so.
    expect(refusal(await confirm(client, token))).toBe('domain_confirmation_used');
    // Confirmed: asking for another mail sends none.
    const mails = async () => (await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM mail_outbox WHERE to_address = $1`, [email]))[0]!.n;
    const count = await mails();
    expect((await client.post('/api/internal/users/me/email/activation', {})).status).toBe(204);
    expect(await mails()).toBe(count);
  });

  it('refuses another account’s token (which still works for its own), a made-up one, and an expired one; a new mail brings a token that works', async () => {
    const a = await newAccount(app);
    const b = await newAccount(app);
    const tokenOfB = await mailedToken(t, b.email);
    expect(refusal(await confirm(a.client, tokenOfB))).toBe('domain_confirmation_invalid');
    expect(refusal(await confirm(a.client, 'made-up'))).toBe('domain_confirmation_invalid');
    expect(refusal(await confirm(a.client, ''))).toBe('domain_confirmation_invalid');
    expect((await a.client.get('/api/internal/session')).body).toMatchObject({ Type: 'unactivated' });
    expect((await confirm(b.client, tokenOfB)).status).toBe(204);

    const first = await mailedToken(t, a.email);
    clock.advance(CONFIRMATION_TTL_MS);
    expect(refusal(await confirm(a.client, first))).toBe('domain_confirmation_expired');
    expect((await a.client.post('/api/internal/users/me/email/activation', {})).status).toBe(204);
    const second = await mailedToken(t, a.email);
    expect(second).not.toBe(first);
    expect((await confirm(a.client, second)).status).toBe(204);
    // Once confirmed, every link of the account is used, the expired one too.
    expect(refusal(await confirm(a.client, first))).toBe('domain_confirmation_used');
  });

  it('a token for an address the account no longer has confirms nothing', async () => {
    const { client, email } = await newAccount(app);
    const token = await mailedToken(t, email);
    await t.store.query(`UPDATE users SET email = $2 WHERE email = $1`, [email, `moved-${email}`]);
    expect(refusal(await confirm(client, token))).toBe('domain_confirmation_invalid');
  });

  it(`sends the confirmation again at most ${ACTIVATION_MAX_PER_USER} times an hour, only to a signed-in caller with its XSRF token`, async () => {
    const { client, email } = await newAccount(app);
    const statuses: number[] = [];
    for (let i = 0; i <= ACTIVATION_MAX_PER_USER; i++) statuses.push((await client.post('/api/internal/users/me/email/activation', {})).status);
    expect(statuses).toEqual([...Array(ACTIVATION_MAX_PER_USER).fill(204), 429]);
    // The sign-up's mail and one per 204.
    expect(await t.store.query(`SELECT count(*)::int AS n FROM mail_outbox WHERE to_address = $1`, [email])).toEqual([{ n: ACTIVATION_MAX_PER_USER + 1 }]);
    expect((await client.send('POST', '/api/internal/users/me/email/activation', { xsrf: false })).status).toBe(403);
    expect((await new AppClient(app).post('/api/internal/users/me/email/activation', {})).status).toBe(401);
    expect((await new AppClient(app).post('/api/internal/users/me/email/status', { Token: 'x' })).status).toBe(401);
  });
});
