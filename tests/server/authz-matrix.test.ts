// The authorization matrix of issue 2: every demo user × every endpoint family × own and other
// organization, on PGlite and on PostgreSQL. Section 6 decides who may do what (organization,
// network and program scopes; the seven Has… flags); section 7/8: "404 gives not found with no
// body" — a row of another organization, or one the caller may not see, answers 404 with an empty
// body, exactly like a row that does not exist, so no caller learns that it is there.
//
// What each user may do is written out below from the seed (sync-server/seed.ts) and section 6,
// not recomputed with the server's own permission code.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { DEMO_PASSWORD, ORG_DEMO, ORG_PODCASTS, PROGRAMS, seed, seedId } from '../../sync-server/seed.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';
import { createApiKey } from '../../sync-server/auth.ts';
import { DEMO_ENTERPRISE, DEMO_SALES_CODE, OTHER_ENTERPRISE, OTHER_SALES_CODE } from '../../sync-server/enterprises/demo.ts';

type App = ReturnType<typeof createApp>;
type Reply = { status: number; text: string; body: unknown };

/** A cookie-keeping client over app.request, acting in one organization (x-organization-id). */
class Caller {
  cookie = '';
  xsrf = '';
  constructor(
    readonly app: App,
    readonly organizationId: string | null,
  ) {}

  async send(method: string, path: string, json?: unknown, organizationId = this.organizationId): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (organizationId) headers['x-organization-id'] = organizationId;
    if (method !== 'GET' && this.xsrf) headers['x-xsrf-token'] = this.xsrf;
    if (json !== undefined) headers['content-type'] = 'application/json';
    const response = await this.app.request(path, { method, headers, ...(json !== undefined ? { body: JSON.stringify(json) } : {}) });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('castaway_session='));
    if (cookie) this.cookie = cookie.split(';')[0]!;
    const text = await response.text();
    return { status: response.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  async login(email: string): Promise<void> {
    const reply = await this.send('POST', '/api/internal/session/login', { Email: email, Password: DEMO_PASSWORD }, null);
    expect(reply.status, reply.text).toBe(200);
    this.xsrf = ((await this.send('GET', '/api/internal/session/xsrf', undefined, null)).body as { XsrfToken: string }).XsrfToken;
  }
}

// ── The seed's rows ─────────────────────────────────────────────────────────────────────────
const programIndex = (key: string) => PROGRAMS.findIndex((p) => p.key === key);
/** Clips are dealt round-robin over PROGRAMS; the first clip of a program is clip:<its index>. */
const clipOf = (key: string) => seedId(`clip:${programIndex(key)}`);
const DEMO_PROGRAMS = PROGRAMS.filter((p) => p.org === ORG_DEMO).map((p) => seedId(`program:${p.key}`));
const PODCASTS_PROGRAMS = PROGRAMS.filter((p) => p.org === ORG_PODCASTS).map((p) => seedId(`program:${p.key}`));

type OrgRows = {
  organizationId: string;
  network: string;
  otherNetwork: string;
  programs: string[];
  networks: string[];
};
const ORGS: Record<'demo' | 'podcasts', OrgRows> = {
  demo: {
    organizationId: ORG_DEMO,
    network: seedId('network:news'),
    otherNetwork: seedId('network:sport'),
    programs: DEMO_PROGRAMS,
    networks: ['news', 'sport', 'culture'].map((k) => seedId(`network:${k}`)),
  },
  podcasts: {
    organizationId: ORG_PODCASTS,
    network: seedId('network:originals'),
    otherNetwork: seedId('network:originals'),
    programs: PODCASTS_PROGRAMS,
    networks: [seedId('network:originals')],
  },
};

/** Rows of one program: what the per-program checks touch. */
const programRows = (key: string) => ({
  program: seedId(`program:${key}`),
  name: PROGRAMS[programIndex(key)]!.name,
  clip: clipOf(key),
  playlist: seedId(`playlist:${key}:feed`),
  recording: seedId(`recording:${key}:Finalized`),
  annotation: seedId(`annotation:${key}:Finalized:0`),
});

// ── Who may do what (section 6 applied to the seed's permission entries) ──────────────────────
type Profile = {
  email: string;
  /** The organization the user acts in (x-organization-id) and the one whose rows must stay hidden. */
  own: 'demo' | 'podcasts';
  other: 'demo' | 'podcasts';
  memberOf: string[];
  sessionType: 'activated' | 'unactivated';
  /** A program of the own organization with content access, and one without (null: none such). */
  contentProgram: string | null;
  noContentProgram: string | null;
  /** Networks and programs listed (any flag held on them). */
  networks: string[];
  programs: string[];
  /** HasManageOrganizationSettingsAccess at Organization scope: network writes. */
  manageOrganization: boolean;
  /** HasContentAccess + HasManageSettingsAccess on a program: program writes. */
  manageProgramSettings: boolean;
  /** HasManageUserAccess at Organization scope: the organization's users. */
  manageUsers: boolean;
  /** Webhooks (section 6 names no rule; the studio's, src/protocol/api/webhooks.ts): read with
   * HasAuditAccess or HasManageOrganizationSettingsAccess at Organization scope, changed with the
   * latter; a network's also with HasManageSettingsAccess on the network (no demo user has that
   * at Network scope, so a network's webhooks go as the organization's where the network is seen). */
  webhooks: { read: boolean; write: boolean };
  /** Settings (src/domain/settings.ts): the organization's (named, normalization, the settings root
   * and its prefix check) read with HasAuditAccess or HasManageOrganizationSettingsAccess at
   * Organization scope and written with the latter; a network's, program's, playlist's or clip's named settings read with HasContentAccess
   * and HasAuditAccess or HasManageSettingsAccess there, written with HasContentAccess and
   * HasManageSettingsAccess (a program's normalization: read by whoever sees the program, written
   * as manageProgramSettings says). */
  settings: { organization: { read: boolean; write: boolean }; network: { read: boolean; write: boolean }; content: { read: boolean; write: boolean } };
  /** HasAuditAccess with HasContentAccess at Organization scope (section 6: audit needs content
   * access): the organization's whole audit trail. No demo user holds them below it (that case:
   * audit-events.test.ts). */
  audit: boolean;
};
const noSettings = { organization: { read: false, write: false }, network: { read: false, write: false }, content: { read: false, write: false } };
const allSettings = { organization: { read: true, write: true }, network: { read: true, write: true }, content: { read: true, write: true } };

const everything = (own: 'demo' | 'podcasts') => ({
  networks: ORGS[own].networks,
  programs: ORGS[own].programs,
});

const PROFILES: Profile[] = [
  {
    email: 'demo@example.com',
    own: 'demo',
    other: 'podcasts',
    memberOf: [ORG_DEMO, ORG_PODCASTS],
    sessionType: 'activated',
    contentProgram: 'world',
    noContentProgram: null,
    ...everything('demo'),
    manageOrganization: true,
    manageProgramSettings: true,
    manageUsers: true,
    webhooks: { read: true, write: true },
    settings: allSettings,
    audit: true,
  },
  {
    email: 'producer@example.com',
    own: 'demo',
    other: 'podcasts',
    memberOf: [ORG_DEMO],
    sessionType: 'activated',
    contentProgram: 'morning',
    noContentProgram: 'world',
    // Program scope on Morning Briefing (Castaway News) and Book Club (Castaway Culture).
    networks: [seedId('network:news'), seedId('network:culture')],
    programs: [seedId('program:morning'), seedId('program:bookclub')],
    manageOrganization: false,
    manageProgramSettings: false,
    manageUsers: false,
    webhooks: { read: false, write: false },
    settings: noSettings,
    audit: false,
  },
  {
    email: 'analyst@example.com',
    own: 'demo',
    other: 'podcasts',
    memberOf: [ORG_DEMO],
    sessionType: 'activated',
    // Analytics access only: programs and networks are listed, their content is not open.
    contentProgram: null,
    noContentProgram: 'world',
    ...everything('demo'),
    manageOrganization: false,
    manageProgramSettings: false,
    manageUsers: false,
    webhooks: { read: false, write: false },
    settings: noSettings,
    audit: false,
  },
  {
    email: 'admin@example.com',
    own: 'demo',
    other: 'podcasts',
    memberOf: [ORG_DEMO],
    sessionType: 'activated',
    contentProgram: 'soundcheck',
    noContentProgram: null,
    ...everything('demo'),
    manageOrganization: true,
    manageProgramSettings: true,
    manageUsers: true,
    webhooks: { read: true, write: true },
    settings: allSettings,
    audit: true,
  },
  {
    email: 'support@example.com',
    own: 'demo',
    other: 'podcasts',
    memberOf: [ORG_DEMO],
    sessionType: 'activated',
    contentProgram: 'matchday',
    noContentProgram: null,
    ...everything('demo'),
    manageOrganization: false,
    manageProgramSettings: false,
    manageUsers: false,
    webhooks: { read: true, write: false },
    settings: { organization: { read: true, write: false }, network: { read: true, write: false }, content: { read: true, write: false } },
    audit: true,
  },
  {
    email: 'reseller@example.com',
    own: 'podcasts',
    other: 'demo',
    memberOf: [ORG_PODCASTS],
    sessionType: 'activated',
    contentProgram: 'tinkerers',
    noContentProgram: null,
    ...everything('podcasts'),
    manageOrganization: false,
    manageProgramSettings: false,
    manageUsers: false,
    webhooks: { read: false, write: false },
    settings: noSettings,
    audit: false,
  },
  {
    email: 'newbie@example.com',
    own: 'demo',
    other: 'podcasts',
    memberOf: [ORG_DEMO],
    sessionType: 'unactivated',
    contentProgram: 'screen',
    noContentProgram: null,
    ...everything('demo'),
    manageOrganization: false,
    manageProgramSettings: false,
    manageUsers: false,
    webhooks: { read: false, write: false },
    settings: noSettings,
    audit: false,
  },
];

/** Keys made for the matrix (not by the matrix users' own calls): [maker, organization]. */
const KEY_MAKERS: Array<[string, string]> = [
  ['demo@example.com', ORG_DEMO],
  ['admin@example.com', ORG_DEMO],
  ['demo@example.com', ORG_PODCASTS],
  ['reseller@example.com', ORG_PODCASTS],
];

/** A program of the other organization, for the no-leak checks. */
const OTHER_PROGRAM: Record<'demo' | 'podcasts', string> = { demo: 'business', podcasts: 'deepdive' };

const ids = (reply: Reply) => ((reply.body as { Items: Array<{ Id: string }> }).Items ?? []).map((x) => x.Id).sort();
const orgsOf = (reply: Reply) => new Set((reply.body as { Items: Array<{ OrganizationId: string }> }).Items.map((x) => x.OrganizationId));
const sorted = (list: string[]) => [...list].sort();

function expectNotFound(reply: Reply, what: string) {
  expect(reply.status, what).toBe(404);
  expect(reply.text, `${what}: a 404 has no body`).toBe('');
}

describe.each(storeKinds)('authorization matrix on %s', (kind) => {
  let test: TestStore;
  let app: App;
  const callers = new Map<string, Caller>();
  const userIds = new Map<string, string>();
  const keys: Array<{ id: string; key: string; email: string; organizationId: string }> = [];
  /** The demo user (every flag in both organizations), acting in each: makes the webhooks others are tried on. */
  const owners = new Map<string, Caller>();

  beforeAll(async () => {
    test = await openTestStore(kind);
    // 240 clips: 20 per program, enough for every check and quick to seed on both stores.
    await seed(test.store, { clips: 240 });
    // No SMTP: an invitation's answer carries its link (api/invitations.ts).
    app = createApp({ store: test.store, bus: createMemoryBus(), mail: { smtpUrl: null } });
    for (const profile of PROFILES) {
      const caller = new Caller(app, ORGS[profile.own].organizationId);
      await caller.login(profile.email);
      callers.set(profile.email, caller);
      const session = await caller.send('GET', '/api/internal/session');
      userIds.set(profile.email, (session.body as { User: { Id: string } }).User.Id);
    }
    // API keys that are not the matrix users' to see: each user tries another user's key of its
    // own organization and someone's of the other one.
    for (const [email, organizationId] of KEY_MAKERS) {
      const { id, key } = await createApiKey(test.store, { organizationId, userId: seedId(`user:${email}`), name: `Key of ${email}`, now: new Date() });
      keys.push({ id, key, email, organizationId });
    }
    for (const organizationId of [ORG_DEMO, ORG_PODCASTS]) {
      const owner = new Caller(app, organizationId);
      await owner.login('demo@example.com');
      owners.set(organizationId, owner);
    }
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  it('refuses the own-account calls without a session (401, no body); the signed-out ones answer anyone', async () => {
    const anonymous = new Caller(app, null);
    for (const [method, path, json] of [
      ['PUT', '/api/internal/users/me/password', { CurrentPassword: DEMO_PASSWORD, NewPassword: 'a new long secret' }],
      ['PUT', '/api/internal/users/me/email', { Email: 'elsewhere@station.example', CurrentPassword: DEMO_PASSWORD }],
      ['GET', '/api/internal/users/me/mfa/config', undefined],
      ['PUT', '/api/internal/users/me/mfa/config', {}],
      ['PUT', '/api/internal/users/me/mfa', { Code: '123456' }],
      ['DELETE', '/api/internal/users/me/mfa/config', { CurrentPassword: DEMO_PASSWORD }],
      ['DELETE', `/api/v1/users/${seedId('user:producer@example.com')}/mfa`, undefined],
      ['PUT', '/api/internal/users/me/image', undefined],
      ['DELETE', '/api/internal/users/me/image', undefined],
    ] as const) {
      const reply = await anonymous.send(method, path, json);
      expect(reply.status, path).toBe(401);
      expect(reply.text, path).toBe('');
    }
    expect((await anonymous.send('GET', '/api/internal/users/auth-type?email=demo%40example.com')).body).toEqual({ AuthType: 'Password' });
    expect((await anonymous.send('PUT', '/api/internal/account/password-reset', { Token: 'made-up', Password: 'a new long secret' })).status).toBe(400);
  });

  it('refuses every family without a session (401, no body)', async () => {
    const anonymous = new Caller(app, ORG_DEMO);
    const p = programRows('morning');
    for (const path of [
      '/api/v1/networks',
      '/api/v1/programs',
      `/api/v1/playlists/${p.playlist}`,
      `/api/v1/clips/${p.clip}`,
      `/api/v1/recordings/${p.recording}`,
      `/api/v1/recordings/${p.recording}/annotations`,
      '/api/v1/users',
      '/api/v1/reference-data/languages',
      '/api/internal/users/me/organizations',
    ]) {
      const reply = await anonymous.send('GET', path);
      expect(reply.status, path).toBe(401);
      expect(reply.text, path).toBe('');
    }
  });

  describe.each(PROFILES)('$email', (profile) => {
    const caller = () => callers.get(profile.email)!;
    /**
     * One level's settings the owner set at `path`, tried by the caller: read, written and dropped
     * (each also at `alsoRead`), answered as `access` says where the row is seen and not found
     * where it is not; a 403 has no body. The owner sets them again after.
     */
    const trySettings = async (owner: Caller, path: string, probe: unknown, deleted: number, access: { read: boolean; write: boolean }, seen = true, alsoRead: string[] = []) => {
      expect((await owner.send('PUT', path, probe)).status, path).toBe(200);
      const allowed = (ok: boolean, status: number) => (ok ? status : 403);
      const replies: Array<[string, Reply, number]> = [
        ['GET', await caller().send('GET', path), allowed(access.read, 200)],
        ...(await Promise.all(alsoRead.map(async (p): Promise<[string, Reply, number]> => [`GET ${p}`, await caller().send('GET', p), allowed(access.read, 200)]))),
        ['PUT', await caller().send('PUT', path, probe), allowed(access.write, 200)],
        ['DELETE', await caller().send('DELETE', path), allowed(access.write, deleted)],
      ];
      for (const [method, reply, status] of replies) {
        if (seen) expect(reply.status, `${method} ${path}`).toBe(status);
        else expectNotFound(reply, `${method} ${path} of a row not seen`);
        if (reply.status === 403) expect(reply.text).toBe('');
      }
      await owner.send('PUT', path, probe);
    };
    /** A write the guard lets through: an unactivated account is refused it (403, issue 31). */
    const written = (status: number) => (profile.sessionType === 'unactivated' ? 403 : status);
    const own = ORGS[profile.own];
    const other = ORGS[profile.other];
    const otherRows = programRows(OTHER_PROGRAM[profile.other]);

    it('session and organizations: sees exactly its memberships', async () => {
      const session = await caller().send('GET', '/api/internal/session');
      expect(session.body).toMatchObject({
        Type: profile.sessionType,
        User: { Email: profile.email },
        UserBelongsToMultipleOrganizations: profile.memberOf.length > 1,
      });
      const orgs = await caller().send('GET', '/api/internal/users/me/organizations');
      expect(orgs.status).toBe(200);
      expect((orgs.body as Array<{ Id: string }>).map((o) => o.Id).sort()).toEqual(sorted(profile.memberOf));
      expect((await caller().send('GET', `/api/internal/users/me/organizations/${own.organizationId}`)).status).toBe(200);
      const permissions = await caller().send('GET', '/api/internal/users/me/organizations/permissions');
      expect(permissions.status).toBe(200);
      expect(permissions.body).toMatchObject({ OrganizationId: own.organizationId });
      if (!profile.memberOf.includes(other.organizationId)) {
        expectNotFound(await caller().send('GET', `/api/internal/users/me/organizations/${other.organizationId}`), 'other organization');
        // Acting in an organization one is not a member of: 404 on every family, reference data included.
        for (const path of ['/api/v1/programs', '/api/v1/networks', '/api/v1/users', '/api/v1/reference-data/countries']) {
          expectNotFound(await caller().send('GET', path, undefined, other.organizationId), `${path} as a non-member`);
        }
      }
    });

    it('own account security: every signed-in user, activated or not, reaches the checks of its own password and address', async () => {
      // Only refusals: a change would end the other sessions this matrix holds. The changes themselves: password.test.ts.
      const wrong = { CurrentPassword: 'not the password', NewPassword: 'a new long secret' };
      const password = await caller().send('PUT', '/api/internal/users/me/password', wrong, null);
      expect(password.status, password.text).toBe(400);
      expect((password.body as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['CurrentPassword']);
      const email = await caller().send('PUT', '/api/internal/users/me/email', { Email: 'elsewhere@station.example', CurrentPassword: 'not the password' }, null);
      expect(email.status, email.text).toBe(400);
      expect((email.body as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['CurrentPassword']);
      // The signed-out calls answer a signed-in caller as anyone: the same for every user.
      expect((await caller().send('GET', `/api/internal/users/auth-type?email=${encodeURIComponent(profile.email)}`, undefined, null)).body).toEqual({ AuthType: 'Password' });
      expect((await caller().send('PUT', '/api/internal/account/password-reset', { Token: 'made-up', Password: 'a new long secret' }, null)).status).toBe(400);
      expect((await caller().send('GET', '/api/internal/session')).body).toMatchObject({ Type: profile.sessionType });
    });

    it('API keys: its own are made, listed, used as a Bearer and revoked; another user’s and another organization’s are 404', async () => {
      const bearer = (key: string) => app.request('/api/v1/programs', { headers: { authorization: `Bearer ${key}` } });
      const made = await caller().send('POST', '/api/internal/api-keys', { Name: 'Matrix key' });
      expect(made.status, made.text).toBe(written(201));
      const listed = await caller().send('GET', '/api/internal/api-keys');
      expect(listed.status).toBe(200);
      if (made.status === 201) {
        const { Id, Key } = made.body as { Id: string; Key: string };
        const premade = keys.filter((k) => k.email === profile.email && k.organizationId === own.organizationId).map((k) => k.id);
        expect((listed.body as Array<{ Id: string }>).map((k) => k.Id).sort()).toEqual(sorted([Id, ...premade]));
        expect((await caller().send('GET', `/api/internal/api-keys/${Id}`)).status).toBe(200);
        // The key acts as its user: the same programs the session lists.
        const used = await bearer(Key);
        expect(used.status).toBe(200);
        expect(((await used.json()) as { Items: Array<{ Id: string }> }).Items.map((p) => p.Id).sort()).toEqual(sorted(profile.programs));
        expect((await caller().send('DELETE', `/api/internal/api-keys/${Id}`)).status).toBe(204);
        expect((await bearer(Key)).status).toBe(401);
      } else {
        expect(listed.body).toEqual([]);
      }
      // Not its own: 404 with no body, read or revoke, and in no list; the key keeps working.
      const notMine = keys.filter((k) => k.email !== profile.email && k.organizationId === own.organizationId).concat(keys.filter((k) => k.organizationId === other.organizationId));
      expect(notMine.length).toBeGreaterThanOrEqual(2);
      for (const k of notMine) {
        expectNotFound(await caller().send('GET', `/api/internal/api-keys/${k.id}`), `GET ${k.email}'s key of ${k.organizationId}`);
        expectNotFound(await caller().send('DELETE', `/api/internal/api-keys/${k.id}`), `DELETE ${k.email}'s key of ${k.organizationId}`);
        expect((await bearer(k.key)).status, `${k.email}'s key still works`).toBe(200);
      }
      const listedIds = (listed.body as Array<{ Id: string }>).map((k) => k.Id);
      for (const k of notMine) expect(listedIds).not.toContain(k.id);
      // In an organization it is not a member of: 404, list and create alike.
      if (!profile.memberOf.includes(other.organizationId)) {
        expectNotFound(await caller().send('GET', '/api/internal/api-keys', undefined, other.organizationId), 'the keys of an organization not a member of');
        expectNotFound(await caller().send('POST', '/api/internal/api-keys', { Name: 'Planted' }, other.organizationId), 'a key made in an organization not a member of');
      }
    });

    it('two-factor sign-in: its own set-up (activated accounts only); a member’s reset with HasManageUserAccess, never a non-member’s', async () => {
      // Only set-ups begun and dropped, and refused confirmations: turning it on would end the
      // other sessions this matrix holds. The whole flow: mfa.test.ts.
      const config = await caller().send('GET', '/api/internal/users/me/mfa/config', undefined, null);
      expect(config.status).toBe(200);
      expect(config.body).toMatchObject({ Enabled: false, Setup: null });
      const started = await caller().send('PUT', '/api/internal/users/me/mfa/config', {}, null);
      expect(started.status, started.text).toBe(written(204));
      const setup = (await caller().send('GET', '/api/internal/users/me/mfa/config', undefined, null)).body as { Setup: { Uri: string } | null };
      if (started.status === 204) {
        expect(setup.Setup!.Uri).toContain(encodeURIComponent(profile.email));
        const wrong = await caller().send('PUT', '/api/internal/users/me/mfa', { Code: 'abcdef' }, null);
        expect(wrong.status).toBe(400);
        expect((wrong.body as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['Code']);
      } else {
        expect(setup.Setup).toBeNull();
        expect((await caller().send('PUT', '/api/internal/users/me/mfa', { Code: '123456' }, null)).status).toBe(403);
      }
      expect((await caller().send('DELETE', '/api/internal/users/me/mfa/config', {}, null)).status).toBe(204);
      expect(((await caller().send('GET', '/api/internal/users/me/mfa/config', undefined, null)).body as { Setup: unknown }).Setup).toBeNull();
      // New recovery codes need two-factor sign-in on: refused at the body for everyone here, none of whom has it.
      const regenerated = await caller().send('POST', '/api/internal/users/me/mfa/recovery-codes', { Code: '123456' }, null);
      expect(regenerated.status, regenerated.text).toBe(400);
      expect((regenerated.body as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['body']);

      // The admin's reset: a member of the organization acted in, a user only of the other one.
      const member = seedId(`user:${profile.own === 'demo' ? 'analyst' : 'reseller'}@example.com`);
      const nonMember = seedId(`user:${profile.own === 'demo' ? 'reseller' : 'analyst'}@example.com`);
      const reset = await caller().send('DELETE', `/api/v1/users/${member}/mfa`);
      expect(reset.status, reset.text).toBe(profile.manageUsers ? written(204) : 403);
      const outsider = await caller().send('DELETE', `/api/v1/users/${nonMember}/mfa`);
      if (profile.manageUsers) expectNotFound(outsider, 'the reset of a user not a member of the organization');
      else expect(outsider.status).toBe(403);
      if (!profile.memberOf.includes(other.organizationId)) {
        expectNotFound(await caller().send('DELETE', `/api/v1/users/${nonMember}/mfa`, undefined, other.organizationId), 'a reset in an organization not a member of');
      }
    });

    it('reference data: open to every member, the same lists in every organization', async () => {
      for (const list of ['languages', 'countries', 'time-zones', 'podcast-categories', 'normalization-presets']) {
        const reply = await caller().send('GET', `/api/v1/reference-data/${list}`);
        expect(reply.status, list).toBe(200);
        expect((reply.body as unknown[]).length, list).toBeGreaterThan(0);
      }
      if (profile.memberOf.includes(other.organizationId)) {
        const here = await caller().send('GET', '/api/v1/reference-data/languages');
        const there = await caller().send('GET', '/api/v1/reference-data/languages', undefined, other.organizationId);
        expect(there.body).toEqual(here.body);
      }
    });

    it('networks', async () => {
      const list = await caller().send('GET', '/api/v1/networks');
      expect(list.status).toBe(200);
      expect(ids(list)).toEqual(sorted(profile.networks));
      const visible = profile.networks.includes(own.otherNetwork);
      expect((await caller().send('GET', `/api/v1/networks/${own.otherNetwork}`)).status).toBe(visible ? 200 : 404);
      const name = (await caller().send('GET', `/api/v1/networks/${own.network}`, undefined, own.organizationId)).body as { Name?: string };
      const patch = await caller().send('PATCH', `/api/v1/networks/${own.network}`, { Name: name.Name ?? 'Network' });
      expect(patch.status, patch.text).toBe(profile.manageOrganization ? 200 : 403);
      if (patch.status === 403) expect(patch.text).toBe('');
    });

    it('programs', async () => {
      const list = await caller().send('GET', '/api/v1/programs');
      expect(list.status).toBe(200);
      expect(ids(list)).toEqual(sorted(profile.programs));
      expect(orgsOf(list)).toEqual(new Set([own.organizationId]));
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        const listed = profile.programs.includes(p.program);
        expect((await caller().send('GET', `/api/v1/programs/${p.program}`)).status).toBe(listed ? 200 : 404);
        // A program they see but may not change: 403; one they do not see: 404, as if it did not exist.
        expect((await caller().send('PATCH', `/api/v1/programs/${p.program}`, { Name: p.name })).status).toBe(listed ? 403 : 404);
      }
      if (profile.contentProgram) {
        const p = programRows(profile.contentProgram);
        expect((await caller().send('GET', `/api/v1/programs/${p.program}`)).status).toBe(200);
        const patch = await caller().send('PATCH', `/api/v1/programs/${p.program}`, { Name: p.name });
        expect(patch.status, patch.text).toBe(profile.manageProgramSettings ? 200 : 403);
      }
    });

    it('playlists', async () => {
      const list = await caller().send('GET', '/api/v1/playlists');
      expect(list.status).toBe(200);
      const programsOfItems = new Set((list.body as { Items: Array<{ ProgramId: string }> }).Items.map((x) => x.ProgramId));
      if (profile.contentProgram) expect(programsOfItems).toContain(programRows(profile.contentProgram).program);
      if (profile.noContentProgram) {
        expect(programsOfItems).not.toContain(programRows(profile.noContentProgram).program);
        const p = programRows(profile.noContentProgram);
        // Content rows without content access are not theirs to see: 404. The program's lists: 403
        // where they see the program, 404 where they do not.
        const programSeen = profile.programs.includes(p.program) ? 403 : 404;
        expect((await caller().send('GET', `/api/v1/playlists/${p.playlist}`)).status).toBe(404);
        expect((await caller().send('GET', `/api/v1/playlists/${p.playlist}/clips`)).status).toBe(404);
        expect((await caller().send('GET', `/api/v1/programs/${p.program}/playlists`)).status).toBe(programSeen);
        expect((await caller().send('PATCH', `/api/v1/playlists/${p.playlist}`, { Visibility: 'Public' })).status).toBe(404);
      }
      if (profile.contentProgram) {
        const p = programRows(profile.contentProgram);
        expect((await caller().send('GET', `/api/v1/playlists/${p.playlist}`)).status).toBe(200);
        expect((await caller().send('GET', `/api/v1/playlists/${p.playlist}/clips`)).status).toBe(200);
        expect((await caller().send('PATCH', `/api/v1/playlists/${p.playlist}`, { Visibility: 'Public' })).status).toBe(written(200));
      }
    });

    it('clips', async () => {
      const list = await caller().send('GET', '/api/v1/clips?pageSize=2500');
      expect(list.status).toBe(200);
      const clipPrograms = new Set((list.body as { Items: Array<{ ProgramId: string }> }).Items.map((x) => x.ProgramId));
      if (!profile.contentProgram) expect(clipPrograms.size).toBe(0);
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        expect(clipPrograms).not.toContain(p.program);
        const programSeen = profile.programs.includes(p.program) ? 403 : 404;
        expect((await caller().send('GET', `/api/v1/clips/${p.clip}`)).status).toBe(404);
        expect((await caller().send('GET', `/api/v1/programs/${p.program}/clips`)).status).toBe(programSeen);
        expect((await caller().send('PATCH', `/api/v1/clips/${p.clip}`, { Description: 'Not mine' })).status).toBe(404);
        expect((await caller().send('DELETE', `/api/v1/clips/${p.clip}`)).status).toBe(404);
        expect((await caller().send('POST', `/api/v1/programs/${p.program}/clips`, { Title: 'Not mine' })).status).toBe(programSeen);
        // Asked by id, a clip one may not read is simply not in the list.
        expect(ids(await caller().send('GET', `/api/v1/clips?clipIds=${p.clip}`))).toEqual([]);
      }
      if (profile.contentProgram) {
        const p = programRows(profile.contentProgram);
        expect(clipPrograms).toContain(p.program);
        expect((await caller().send('GET', `/api/v1/clips/${p.clip}`)).status).toBe(200);
        expect((await caller().send('GET', `/api/v1/programs/${p.program}/clips`)).status).toBe(200);
        const patch = await caller().send('PATCH', `/api/v1/clips/${p.clip}`, { Description: `Edited by ${profile.email}` });
        expect(patch.status, patch.text).toBe(written(200));
        const created = await caller().send('POST', `/api/v1/programs/${p.program}/clips`, { Title: `New from ${profile.email}` });
        expect(created.status, created.text).toBe(written(201));
        const createdId = created.status === 201 ? (created.body as { Id: string }).Id : p.clip;
        expect((await caller().send('DELETE', `/api/v1/clips/${createdId}`)).status).toBe(written(204));
      }
    });

    it('chapters (issue 34): a chapter image taken from whoever holds content access somewhere in the organization; a clip’s chapters changed as the clip is, any other row 404 with no body', async () => {
      // A body that is no image: past the guard it is a 415 naming Content-Type, before it a 403.
      const image = await caller().send('POST', '/api/v1/chapters/images', { not: 'an image' });
      expect(image.status, image.text).toBe(profile.contentProgram ? written(415) : 403);
      // An unactivated account is told why (accountNotActivated); the guard's 403 has no body.
      if (image.status === 403) expect(image.text).toEqual(profile.sessionType === 'unactivated' && profile.contentProgram ? expect.stringContaining('accountNotActivated') : '');
      else expect(image.text).toContain('Content-Type');
      const chapters = { Chapters: [{ StartSeconds: 0, Title: `Part of ${profile.email}`, Url: 'https://example.com/part' }] };
      expectNotFound(await caller().send('PATCH', `/api/v1/clips/${otherRows.clip}`, chapters), 'another organization’s clip');
      if (profile.noContentProgram) expectNotFound(await caller().send('PATCH', `/api/v1/clips/${programRows(profile.noContentProgram).clip}`, chapters), 'a clip without content access');
      if (profile.contentProgram) {
        const clip = programRows(profile.contentProgram).clip;
        const saved = await caller().send('PATCH', `/api/v1/clips/${clip}`, chapters);
        expect(saved.status, saved.text).toBe(written(200));
        if (saved.status === 200) expect((saved.body as { Chapters: unknown }).Chapters).toEqual(chapters.Chapters);
      }
    });

    it('ad markers (issue 34): suggestions read with the clip and stored with content access, the override with content and manage-settings access, the validation with content access on the program; any other row 404 with no body', async () => {
      const calls = (id: string): Array<[string, string, unknown?]> => [
        ['GET', `/api/internal/clips/${id}/suggested/ad-markers`],
        ['GET', `/api/internal/clips/${id}/suggested/chapters`],
        ['PUT', `/api/internal/clips/${id}/suggested/ad-markers`, { Items: [{ Seconds: 30, SilenceSeconds: null }] }],
        ['PUT', `/api/internal/clips/${id}/suggested/chapters`, { Items: [] }],
        ['POST', `/api/internal/clips/${id}/ad-marker-rules/override`, { Rules: null }],
      ];
      const validation = (programId: string) => caller().send('POST', `/api/internal/programs/${programId}/ad-marker-rules/validation`, { AdMarkers: [{ Type: 'MidRoll', Seconds: 30, MaxAds: 2 }] });
      const unseen = [otherRows.clip, ...(profile.noContentProgram ? [programRows(profile.noContentProgram).clip] : [])];
      for (const id of unseen) for (const [method, path, body] of calls(id)) expectNotFound(await caller().send(method, path, body), `${method} ${path}`);
      expectNotFound(await validation(otherRows.program), 'validation on another organization’s program');
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        const reply = await validation(p.program);
        if (profile.programs.includes(p.program)) expect([reply.status, reply.text]).toEqual([403, '']);
        else expectNotFound(reply, 'validation on a program not seen');
      }
      if (profile.contentProgram) {
        const statuses: number[] = [];
        for (const [method, path, body] of calls(programRows(profile.contentProgram).clip)) statuses.push((await caller().send(method, path, body)).status);
        expect(statuses).toEqual([200, 200, written(204), written(204), profile.manageProgramSettings ? written(204) : 403]);
        const judged = await validation(programRows(profile.contentProgram).program);
        expect([judged.status, (judged.body as { Valid?: boolean }).Valid], judged.text).toEqual([200, true]);
      }
    });

    it('clip and recording transcripts (issue 34): content access on the row’s program; any other row is 404 with no body', async () => {
      const cues = { Cues: [{ StartSeconds: 0, EndSeconds: 2, Text: `Words of ${profile.email}` }] };
      const file = { version: '1.0.0', segments: [{ startTime: 0, endTime: 2, body: 'Imported words' }] };
      // The same six calls on a clip's and on a recording's transcript (section 7: a clip's JSON PUT
      // is under /v1, a recording's under /internal).
      const calls = (v1: string, internal: string, put: string): Array<[string, string, unknown?]> => [
        ['PUT', `${put}/transcript`, cues],
        ['GET', `${v1}/transcript?format=json`],
        ['GET', `${internal}/transcript`],
        ['PUT', `${internal}/transcript/import`, file],
        ['PUT', `${internal}/transcript/reset`],
        ['DELETE', `${v1}/transcript`],
      ];
      const clipCalls = (id: string) => calls(`/api/v1/clips/${id}`, `/api/internal/clips/${id}`, `/api/v1/clips/${id}`);
      const recordingCalls = (id: string) => calls(`/api/v1/recordings/${id}`, `/api/internal/recordings/${id}`, `/api/internal/recordings/${id}`);
      for (const [of, rows] of [
        [clipCalls, (r: ReturnType<typeof programRows>) => r.clip],
        [recordingCalls, (r: ReturnType<typeof programRows>) => r.recording],
      ] as const) {
        const unseen = [rows(otherRows), ...(profile.noContentProgram ? [rows(programRows(profile.noContentProgram))] : [])];
        for (const id of unseen) for (const [method, path, body] of of(id)) expectNotFound(await caller().send(method, path, body), `${method} ${path}`);
        if (profile.contentProgram) {
          const statuses: number[] = [];
          for (const [method, path, body] of of(rows(programRows(profile.contentProgram)))) statuses.push((await caller().send(method, path, body)).status);
          // Unactivated: the writes refused (403), so there is no transcript to read (404).
          expect(statuses).toEqual(profile.sessionType === 'unactivated' ? [403, 404, 404, 403, 403, 403] : [200, 200, 200, 200, 200, 204]);
        }
      }
    });

    it('a clip’s loudness (issue 34) and brand safety (issue 33): read by whoever reads the clip; any other row is 404 with no body', async () => {
      for (const path of [(id: string) => `/api/internal/clips/${id}/loudness`, (id: string) => `/api/v1/clips/${id}/brand-safety`]) {
        const unseen = [otherRows.clip, ...(profile.noContentProgram ? [programRows(profile.noContentProgram).clip] : [])];
        for (const id of unseen) expectNotFound(await caller().send('GET', path(id)), `GET ${path(id)}`);
        if (profile.contentProgram) {
          const clipId = programRows(profile.contentProgram).clip;
          const reply = await caller().send('GET', path(clipId));
          expect([reply.status, (reply.body as { ClipId?: string } | undefined)?.ClipId], reply.text).toEqual([200, clipId]);
        }
      }
    });

    it('automatic transcription (issue 34): asked with content access on the row’s program, its state read with read access; any other row is 404 with no body', async () => {
      const calls = (kind: 'clips' | 'recordings', id: string): Array<[string, string]> => [
        ['POST', `/api/v1/${kind}/${id}/transcript?language=en`],
        ['GET', `/api/internal/${kind}/${id}/transcript/transcription`],
      ];
      for (const [kind, rows] of [
        ['clips', (r: ReturnType<typeof programRows>) => r.clip],
        ['recordings', (r: ReturnType<typeof programRows>) => r.recording],
      ] as const) {
        const unseen = [rows(otherRows), ...(profile.noContentProgram ? [rows(programRows(profile.noContentProgram))] : [])];
        for (const id of unseen) for (const [method, path] of calls(kind, id)) expectNotFound(await caller().send(method, path), `${method} ${path}`);
        if (profile.contentProgram) {
          const [start, state] = calls(kind, rows(programRows(profile.contentProgram)));
          const asked = await caller().send(start![0], start![1]);
          // Past the guard, the seed's row has no stored audio: a 400 naming body (unactivated: 403).
          if (profile.sessionType === 'unactivated') expect(asked.status).toBe(403);
          else expect([asked.status, (asked.body as { Errors?: Array<{ Field: string }> } | undefined)?.Errors?.[0]?.Field], asked.text).toEqual([400, 'body']);
          // Nothing was asked for, so there is no state to read.
          expect((await caller().send(state![0], state![1])).status).toBe(404);
        }
      }
    });

    it('headliner videos (section 7): made with content access on the clip’s program, listed and downloaded with read access; any other clip, or a video of another clip, is 404 with no body', async () => {
      // A Ready video of a clip the caller may not see (no file: its guard answers before any file is read).
      const hidden = crypto.randomUUID();
      const otherOrganization = (await test.store.query<{ organization_id: string }>(`SELECT organization_id FROM clips WHERE id = $1`, [otherRows.clip]))[0]!.organization_id;
      await test.store.query(
        `INSERT INTO headliner_videos (id, clip_id, organization_id, aspect_ratio, transcript_enabled, background_color, foreground_color, state, blob_key, created_at_utc, modified_at_utc)
         VALUES ($1, $2, $3, '1:1', false, '#000000', '#FFFFFF', 'Ready', 'clips/none/headliner/none.mp4', now(), now())`,
        [hidden, otherRows.clip, otherOrganization],
      );
      const calls = (id: string, video = crypto.randomUUID()): Array<[string, string]> => [
        ['POST', `/api/v1/clips/${id}/headliner-videos?transcriptEnabled=false`],
        ['GET', `/api/v1/clips/${id}/headliner-videos`],
        ['GET', `/api/v1/clips/${id}/headliner-videos/${video}/download`],
      ];
      const unseen = [otherRows.clip, ...(profile.noContentProgram ? [programRows(profile.noContentProgram).clip] : [])];
      for (const id of unseen) for (const [method, path] of calls(id, hidden)) expectNotFound(await caller().send(method, path), `${method} ${path}`);
      if (profile.contentProgram) {
        const [make, list, download] = calls(programRows(profile.contentProgram).clip, hidden);
        const asked = await caller().send(make![0], make![1]);
        // Past the guard, the seed's clip has no stored audio: a 400 naming body (unactivated: 403).
        if (profile.sessionType === 'unactivated') expect(asked.status).toBe(403);
        else expect([asked.status, (asked.body as { Errors?: Array<{ Field: string }> } | undefined)?.Errors?.[0]?.Field], asked.text).toEqual([400, 'body']);
        const listed = await caller().send(list![0], list![1]);
        expect([listed.status, listed.body], listed.text).toEqual([200, { Items: [] }]);
        // Another organization's video through one's own clip: as one that does not exist.
        expectNotFound(await caller().send(download![0], download![1]), 'a hidden video through a clip one reads');
      }
    });

    it('recordings and annotations', async () => {
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        const programSeen = profile.programs.includes(p.program) ? 403 : 404;
        expect((await caller().send('GET', `/api/v1/recordings/${p.recording}`)).status).toBe(404);
        expect((await caller().send('GET', `/api/v1/programs/${p.program}/recordings`)).status).toBe(programSeen);
        expect((await caller().send('PATCH', `/api/v1/recordings/${p.recording}`, { Reviewed: true })).status).toBe(404);
        expect((await caller().send('GET', `/api/v1/recordings/${p.recording}/annotations`)).status).toBe(404);
        expect((await caller().send('POST', `/api/v1/recordings/${p.recording}/annotations`, { OffsetSeconds: 1, Text: 'x' })).status).toBe(404);
        expect((await caller().send('DELETE', `/api/v1/recordings/${p.recording}/annotations/${p.annotation}`)).status).toBe(404);
        expect(ids(await caller().send('GET', `/api/v1/recordings?recordingIds=${p.recording}`))).toEqual([]);
      }
      if (profile.contentProgram) {
        const p = programRows(profile.contentProgram);
        expect((await caller().send('GET', `/api/v1/recordings/${p.recording}`)).status).toBe(200);
        expect((await caller().send('GET', `/api/v1/programs/${p.program}/recordings`)).status).toBe(200);
        expect((await caller().send('PATCH', `/api/v1/recordings/${p.recording}`, { Reviewed: true })).status).toBe(written(200));
        expect((await caller().send('GET', `/api/v1/recordings/${p.recording}/annotations`)).status).toBe(200);
        const note = await caller().send('POST', `/api/v1/recordings/${p.recording}/annotations`, { OffsetSeconds: 42, Text: `Note by ${profile.email}` });
        expect(note.status, note.text).toBe(written(201));
        const noteId = note.status === 201 ? (note.body as { Id: string }).Id : p.annotation;
        expect((await caller().send('DELETE', `/api/v1/recordings/${p.recording}/annotations/${noteId}`)).status).toBe(written(204));
      }
    });

    it('users', async () => {
      const list = await caller().send('GET', '/api/v1/users');
      expect(list.status).toBe(profile.manageUsers ? 200 : 403);
      if (profile.manageUsers) {
        const emails = (list.body as { Items: Array<{ Email: string }> }).Items.map((u) => u.Email);
        expect(emails).toContain(profile.email);
        // Only members of this organization: the reseller belongs to Castaway Podcasts alone.
        expect(emails).not.toContain('reseller@example.com');
      }
      expect((await caller().send('GET', `/api/v1/users/${userIds.get(profile.email)}`)).status).toBe(200);
      const colleague = profile.own === 'demo' ? 'support@example.com' : 'demo@example.com';
      if (colleague !== profile.email) {
        expect((await caller().send('GET', `/api/v1/users/${userIds.get(colleague)}`)).status).toBe(profile.manageUsers ? 200 : 403);
      }
      // A user of no shared organization does not exist here.
      const stranger = profile.own === 'demo' ? 'reseller@example.com' : 'producer@example.com';
      expectNotFound(await caller().send('GET', `/api/v1/users/${userIds.get(stranger)}`), 'a user of the other organization');
      // Removing a member: manage-user access gets past the guard (removing yourself is then refused
      // with a body naming userId); without it, 403 whoever is named; another organization's user is
      // not found from this one.
      const removeSelf = await caller().send('DELETE', `/api/v1/users/${userIds.get(profile.email)}`);
      expect(removeSelf.status, removeSelf.text).toBe(profile.manageUsers ? written(400) : 403);
      if (removeSelf.status === 400) expect((removeSelf.body as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['userId']);
      const removeStranger = await caller().send('DELETE', `/api/v1/users/${userIds.get(stranger)}`);
      if (profile.manageUsers && profile.sessionType === 'activated') expectNotFound(removeStranger, 'removing a user of the other organization');
      else expect([removeStranger.status, removeStranger.text]).toEqual([403, '']);
      // Permissions within a program or a network: the guard first (not seen: not found; seen
      // without manage-user access: 403), then section 6 (a flag there beside the caller's own
      // Organization-scope entry is a mixed list: 400, nothing changed).
      const me = userIds.get(profile.email);
      for (const [kind, id] of [['programs', own.programs[0]!], ['networks', own.network]] as const) {
        const reply = await caller().send('PUT', `/api/v1/${kind}/${id}/users/${me}/permissions`, { HasContentAccess: true });
        const seen = (kind === 'programs' ? profile.programs : profile.networks).includes(id);
        if (!seen) expectNotFound(reply, `${kind} not seen`);
        else expect(reply.status, `${kind} ${reply.text}`).toBe(profile.manageUsers ? written(400) : 403);
      }
      expectNotFound(await caller().send('PUT', `/api/v1/programs/${other.programs[0]}/users/${me}/permissions`, { HasContentAccess: true }), 'another organization’s program');
      // A program's or network's people, and the members who could be added there: manage-user
      // access on it (no demo user holds it below Organization scope); not seen, or another
      // organization's: not found. Only this organization's members are named.
      const unseen = own.programs.find((p) => !profile.programs.includes(p));
      for (const [kind, id] of [['programs', own.programs[0]!], ['programs', unseen], ['networks', own.network], ['networks', own.otherNetwork]] as const) {
        if (id === undefined) continue;
        const seen = (kind === 'programs' ? profile.programs : profile.networks).includes(id);
        for (const path of [`/api/v1/${kind}/${id}/users`, `/api/internal/${kind}/${id}/user-profiles/eligible`]) {
          const reply = await caller().send('GET', path);
          if (!seen) expectNotFound(reply, `${path}: not seen`);
          else expect(reply.status, path).toBe(profile.manageUsers ? 200 : 403);
          if (reply.status === 200) expect((reply.body as { Items: Array<{ Id: string }> }).Items.map((u) => u.Id), path).not.toContain(userIds.get(stranger));
        }
      }
      for (const path of [`/v1/programs/${other.programs[0]}/users`, `/internal/programs/${other.programs[0]}/user-profiles/eligible`, `/v1/networks/${other.network}/users`, `/internal/networks/${other.network}/user-profiles/eligible`]) {
        expectNotFound(await caller().send('GET', `/api${path}`), `another organization’s ${path}`);
      }
    });

    it('invitations: made and re-sent with manage-user access in the organization acted in; the accept link answers only its token', async () => {
      const address = (what: string) => `${what}.${profile.email.split('@')[0]}.${kind}@station.example`;
      const scope = (programId: string) => [{ ObjectType: 'Program', ObjectId: programId, Permissions: { HasContentAccess: true } }];
      const made = await caller().send('POST', '/api/v1/users/invitation', { Email: address('invited'), Permissions: scope(own.programs[0]!) });
      expect(made.status, made.text).toBe(profile.manageUsers ? written(201) : 403);
      // One the owner made in each organization: re-sent by the caller, and looked up by token.
      const ownInvitation = (await owners.get(own.organizationId)!.send('POST', '/api/v1/users/invitation', { Email: address('owned'), Permissions: scope(own.programs[0]!) })).body as { Id: string; UserId: string; Link: string };
      const otherInvitation = (await owners.get(other.organizationId)!.send('POST', '/api/v1/users/invitation', { Email: address('elsewhere'), Permissions: scope(other.programs[0]!) })).body as { Id: string; UserId: string; Link: string };
      expect((await caller().send('POST', `/api/v1/users/${ownInvitation.UserId}/invitation`)).status).toBe(profile.manageUsers ? written(204) : 403);
      // Another organization's invitation is not found from this one; acted in the other organization, only its members get past the 404.
      // (Without manage-user access the guard refuses first, whatever the id: 403 says nothing of it.)
      const resentElsewhere = await caller().send('POST', `/api/v1/users/${otherInvitation.UserId}/invitation`);
      if (profile.manageUsers) expectNotFound(resentElsewhere, 'another organization’s invitation re-sent from this one');
      else expect([resentElsewhere.status, resentElsewhere.text]).toEqual([403, '']);
      // The pending list: this organization's invitations only; withdrawing another organization's is not found.
      const pending = await caller().send('GET', '/api/internal/invitations');
      expect(pending.status, pending.text).toBe(profile.manageUsers ? 200 : 403);
      if (pending.status === 200) {
        const ids = (pending.body as Array<{ Id: string }>).map((i) => i.Id);
        expect(ids).toContain(ownInvitation.Id);
        expect(ids).not.toContain(otherInvitation.Id);
      }
      const withdrawnElsewhere = await caller().send('DELETE', `/api/internal/invitations/${otherInvitation.Id}`);
      if (profile.manageUsers) expectNotFound(withdrawnElsewhere, 'another organization’s invitation withdrawn from this one');
      else expect([withdrawnElsewhere.status, withdrawnElsewhere.text]).toEqual([403, '']);
      expect((await caller().send('DELETE', `/api/internal/invitations/${ownInvitation.Id}`)).status).toBe(profile.manageUsers ? written(204) : 403);
      const inOther = await caller().send('POST', '/api/v1/users/invitation', { Email: address('planted'), Permissions: [] }, other.organizationId);
      if (profile.memberOf.includes(other.organizationId)) expect(inOther.status).toBe(201);
      else expectNotFound(inOther, 'an invitation made in an organization not a member of');
      // The accept link: its token is the credential, whoever the caller is; without it, 404 with no body.
      const link = new URL(otherInvitation.Link);
      expect((await caller().send('GET', `/api${link.pathname}${link.search}`)).status).toBe(200);
      expectNotFound(await caller().send('GET', `/api${link.pathname}?token=not-its-token`), 'another organization’s invitation without its token');
      expectNotFound(await caller().send('PUT', `/api${link.pathname}`, { Token: 'not-its-token', Name: 'Mallory', Password: 'a long enough secret' }), 'accepting without the token');
    });

    it('bulk user import: with manage-user access in the organization acted in; its report is that organization’s', async () => {
      const rows = (what: string, programId: string) => ({
        Rows: [{ Email: `${what}.${profile.email.split('@')[0]}.${kind}@station.example`, ObjectType: 'Program', ObjectId: programId, Permissions: { HasContentAccess: true } }],
      });
      const made = await caller().send('POST', '/api/internal/users/import/bulk', rows('imported', own.programs[0]!));
      expect(made.status, made.text).toBe(profile.manageUsers ? written(200) : 403);
      if (made.status === 200) expect((made.body as { OrganizationId: string; Counts: unknown }).OrganizationId).toBe(own.organizationId);
      const report = await caller().send('GET', '/api/internal/users/import/bulk/report');
      expect(report.status, report.text).toBe(profile.manageUsers ? 200 : 403);
      // Acted in the other organization: only its members get past the 404 (and then its guard).
      const elsewhere = await caller().send('POST', '/api/internal/users/import/bulk', rows('planted', other.programs[0]!), other.organizationId);
      const otherReport = await caller().send('GET', '/api/internal/users/import/bulk/report', undefined, other.organizationId);
      if (profile.memberOf.includes(other.organizationId)) {
        expect(elsewhere.status, elsewhere.text).toBe(200);
        expect((otherReport.body as { OrganizationId: string }).OrganizationId).toBe(other.organizationId);
      } else {
        expectNotFound(elsewhere, 'an import in an organization not a member of');
        expectNotFound(otherReport, 'the import report of an organization not a member of');
      }
    });

    it('webhooks: the organization’s and a network’s, and another organization’s not found', async () => {
      // Off, and aimed at nobody: made to be looked at, never sent.
      const body = { Url: 'https://hooks.example.com/matrix', EventTypes: ['ClipUpdated'], Enabled: false };
      const make = async (organizationId: string, path: string) => {
        const reply = await owners.get(organizationId)!.send('POST', path, body);
        expect(reply.status, reply.text).toBe(201);
        return (reply.body as { Id: string }).Id;
      };
      const read = profile.webhooks.read ? 200 : 403;
      const write = (ok: number) => (profile.webhooks.write ? ok : 403);
      const mine = await make(own.organizationId, '/api/v1/webhooks');
      const event = crypto.randomUUID();
      try {
        expect((await caller().send('GET', '/api/v1/webhooks')).status).toBe(read);
        expect((await caller().send('GET', `/api/v1/webhooks/${mine}`)).status).toBe(read);
        expect((await caller().send('GET', `/api/v1/webhooks/${mine}/events?status=Failed`)).status).toBe(read);
        expect((await caller().send('PATCH', `/api/v1/webhooks/${mine}`, { Description: `By ${profile.email}` })).status).toBe(write(200));
        // A re-send of an event the webhook does not have: past the guard, a 404; before it, a 403.
        expect((await caller().send('PUT', `/api/v1/webhooks/${mine}/events/${event}`)).status).toBe(write(404));
        expect((await caller().send('POST', `/api/internal/webhooks/${mine}/secret`)).status).toBe(write(200));
        expect((await caller().send('POST', `/api/internal/webhooks/${mine}/test`)).status).toBe(write(202));
        const made = await caller().send('POST', '/api/v1/webhooks', body);
        expect(made.status, made.text).toBe(write(201));
        if (made.status === 201) {
          expect((made.body as { Secret: string }).Secret).toMatch(/^whsec_/);
          expect((await caller().send('DELETE', `/api/v1/webhooks/${(made.body as { Id: string }).Id}`)).status).toBe(204);
        }
        expect((await caller().send('DELETE', `/api/v1/webhooks/${mine}`)).status).toBe(write(204));
      } finally {
        await owners.get(own.organizationId)!.send('DELETE', `/api/v1/webhooks/${mine}`);
      }

      // A network's: as the organization's where the network is seen; 404 where it is not.
      for (const network of [...new Set([own.network, own.otherNetwork])]) {
        const seen = profile.networks.includes(network);
        const hook = await make(own.organizationId, `/api/v1/networks/${network}/webhooks`);
        try {
          const paths = [`/api/v1/networks/${network}/webhooks`, `/api/v1/networks/${network}/webhooks/${hook}`, `/api/v1/networks/${network}/webhooks/${hook}/events`, `/api/v1/webhooks/${hook}`];
          for (const path of paths) {
            const reply = await caller().send('GET', path);
            if (seen) expect(reply.status, path).toBe(read);
            else expectNotFound(reply, `${path} of a network not seen`);
          }
          const patch = await caller().send('PATCH', `/api/v1/networks/${network}/webhooks/${hook}`, { Description: 'x' });
          if (seen) expect(patch.status).toBe(write(200));
          else expectNotFound(patch, 'PATCH a webhook of a network not seen');
          const create = await caller().send('POST', `/api/v1/networks/${network}/webhooks`, body);
          if (seen) expect(create.status).toBe(write(201));
          else expectNotFound(create, 'POST a webhook to a network not seen');
          if (create.status === 201) await owners.get(own.organizationId)!.send('DELETE', `/api/v1/webhooks/${(create.body as { Id: string }).Id}`);
          // Under another network than its own: not found, whoever asks.
          const elsewhere = ORGS[profile.own].networks.find((n) => n !== network);
          if (elsewhere) expectNotFound(await caller().send('GET', `/api/v1/networks/${elsewhere}/webhooks/${hook}`), 'a webhook under another network');
        } finally {
          await owners.get(own.organizationId)!.send('DELETE', `/api/v1/webhooks/${hook}`);
        }
      }

      // Another organization's: 404 with no body on every route, read or write, and in no list.
      const theirs = await make(other.organizationId, '/api/v1/webhooks');
      const theirNetwork = await make(other.organizationId, `/api/v1/networks/${other.network}/webhooks`);
      try {
        const checks: Array<[string, string, unknown?]> = [
          ['GET', `/api/v1/webhooks/${theirs}`],
          ['PATCH', `/api/v1/webhooks/${theirs}`, { Description: 'Taken over' }],
          ['DELETE', `/api/v1/webhooks/${theirs}`],
          ['GET', `/api/v1/webhooks/${theirs}/events`],
          ['PUT', `/api/v1/webhooks/${theirs}/events/${event}`],
          ['POST', `/api/internal/webhooks/${theirs}/secret`],
          ['POST', `/api/internal/webhooks/${theirs}/test`],
          ['GET', `/api/v1/webhooks/${theirNetwork}`],
          ['GET', `/api/v1/networks/${other.network}/webhooks`],
          ['POST', `/api/v1/networks/${other.network}/webhooks`, body],
          ['GET', `/api/v1/networks/${other.network}/webhooks/${theirNetwork}`],
          ['PATCH', `/api/v1/networks/${other.network}/webhooks/${theirNetwork}`, { Description: 'Taken over' }],
          ['DELETE', `/api/v1/networks/${other.network}/webhooks/${theirNetwork}`],
          ['GET', `/api/v1/networks/${other.network}/webhooks/${theirNetwork}/events`],
        ];
        for (const [method, path, json] of checks) expectNotFound(await caller().send(method, path, json), `${method} ${path}`);
        if (profile.webhooks.read) expect(ids(await caller().send('GET', '/api/v1/webhooks'))).not.toContain(theirs);
        const still = await owners.get(other.organizationId)!.send('GET', `/api/v1/webhooks/${theirs}`);
        expect(still.body).toMatchObject({ Id: theirs, Description: null });
      } finally {
        await owners.get(other.organizationId)!.send('DELETE', `/api/v1/webhooks/${theirs}`);
        await owners.get(other.organizationId)!.send('DELETE', `/api/v1/webhooks/${theirNetwork}`);
      }
    });

    it('audit events: the organization’s and an object’s by section 6; another organization’s objects not found', async () => {
      const range = 'startDate=2020-01-01&endDate=2029-12-31';
      const status = (ok: boolean) => (ok ? 200 : 403);
      const list = await caller().send('GET', `/api/v1/audit-events?${range}&pageSize=500`);
      expect(list.status, list.text).toBe(status(profile.audit));
      if (list.status === 200) {
        const theirs = new Set([...ORGS[profile.other].programs, ...ORGS[profile.other].networks]);
        const items = (list.body as { Items: Array<{ ObjectId: string; ProgramId: string | null; NetworkId: string | null }> }).Items;
        expect(items.length).toBeGreaterThan(0);
        expect(items.filter((e) => theirs.has(e.ObjectId) || theirs.has(e.ProgramId ?? '') || theirs.has(e.NetworkId ?? ''))).toEqual([]);
      }
      if (profile.contentProgram) {
        const rows = programRows(profile.contentProgram);
        expect((await caller().send('GET', `/api/v1/programs/${rows.program}/audit-events?${range}&includeRelated=true`)).status).toBe(status(profile.audit));
        expect((await caller().send('GET', `/api/v1/clips/${rows.clip}/audit-events?${range}`)).status).toBe(status(profile.audit));
        expect((await caller().send('GET', `/api/v1/playlists/${rows.playlist}/audit-events?${range}`)).status).toBe(status(profile.audit));
        expect((await caller().send('GET', `/api/v1/networks/${own.network}/audit-events?${range}`)).status).toBe(profile.networks.includes(own.network) ? status(profile.audit) : 404);
      }
      if (profile.noContentProgram) {
        // Content unseen: its clip is one that does not exist; its program is seen, but audit needs content access.
        const rows = programRows(profile.noContentProgram);
        expectNotFound(await caller().send('GET', `/api/v1/clips/${rows.clip}/audit-events?${range}`), 'the audit of a clip not seen');
        expect((await caller().send('GET', `/api/v1/programs/${rows.program}/audit-events?${range}`)).status).toBe(profile.programs.includes(rows.program) ? 403 : 404);
      }
      const theirs = programRows(OTHER_PROGRAM[profile.other]);
      for (const path of [`/api/v1/programs/${theirs.program}`, `/api/v1/clips/${theirs.clip}`, `/api/v1/playlists/${theirs.playlist}`, `/api/v1/networks/${other.network}`]) {
        expectNotFound(await caller().send('GET', `${path}/audit-events?${range}`), `the audit of another organization’s ${path}`);
      }
      // In an organization the caller is not a member of: as one that does not exist.
      if (!profile.memberOf.includes(other.organizationId)) expectNotFound(await caller().send('GET', `/api/v1/audit-events?${range}`, undefined, other.organizationId), 'the audit of an organization not a member of');
    });

    it('settings: named at every level, normalization and the settings root, by section 6; another organization’s and unseen rows not found', async () => {
      const owner = owners.get(own.organizationId)!;
      const allowed = (ok: boolean, status: number) => (ok ? status : 403);
      /** A named setting the owner made, tried by the caller (a DELETE answers the setting as it was). */
      const tryLevel = (base: string, access: { read: boolean; write: boolean }, seen = true) => trySettings(owner, `${base}/settings/matrix-probe`, { Value: { by: 'matrix' } }, 200, access, seen);
      const s = profile.settings;
      await tryLevel('/api/internal', s.organization);
      for (const network of [...new Set([own.network, own.otherNetwork])]) await tryLevel(`/api/internal/networks/${network}`, s.network, profile.networks.includes(network));
      if (profile.contentProgram) {
        const p = programRows(profile.contentProgram);
        await tryLevel(`/api/internal/programs/${p.program}`, s.content);
        await tryLevel(`/api/internal/playlists/${p.playlist}`, s.content);
        await tryLevel(`/api/internal/clips/${p.clip}`, s.content);
      }
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        // A program seen without content access: its settings refused (403); its playlists and clips not seen at all.
        await tryLevel(`/api/internal/programs/${p.program}`, { read: false, write: false }, profile.programs.includes(p.program));
        await tryLevel(`/api/internal/playlists/${p.playlist}`, { read: false, write: false }, false);
        await tryLevel(`/api/internal/clips/${p.clip}`, { read: false, write: false }, false);
      }

      // The settings root and its prefix check: as the organization's settings.
      expect((await caller().send('GET', '/api/v1/settings')).status).toBe(allowed(s.organization.read, 200));
      expect((await caller().send('PATCH', '/api/v1/settings', { MeasurementPrefixes: [] })).status).toBe(allowed(s.organization.write, 200));
      expect((await caller().send('GET', '/api/v1/settings/validate-url-prefix?prefixUrl=https%3A%2F%2Fop3.dev%2Fe%2F')).status).toBe(allowed(s.organization.read, 200));

      // Normalization: the organization's as its settings; a program's read by whoever sees it.
      expect((await caller().send('GET', '/api/v1/settings/normalization')).status).toBe(allowed(s.organization.read, 200));
      expect((await caller().send('PATCH', '/api/v1/settings/normalization', { PresetId: 'podcast' })).status).toBe(allowed(s.organization.write, 200));
      if (profile.contentProgram) {
        const path = `/api/v1/programs/${programRows(profile.contentProgram).program}/settings/normalization`;
        expect((await caller().send('GET', path)).status).toBe(200);
        expect((await caller().send('PATCH', path, { PresetId: 'streaming' })).status).toBe(allowed(profile.manageProgramSettings, 200));
        expect((await caller().send('DELETE', path)).status).toBe(allowed(profile.manageProgramSettings, 204));
      }
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        const path = `/api/v1/programs/${p.program}/settings/normalization`;
        const listed = profile.programs.includes(p.program);
        expect((await caller().send('GET', path)).status).toBe(listed ? 200 : 404);
        expect((await caller().send('PATCH', path, { PresetId: 'streaming' })).status).toBe(listed ? 403 : 404);
        expect((await caller().send('DELETE', path)).status).toBe(listed ? 403 : 404);
      }

      // Another organization's: 404 with no body, read or write, and its setting left as it was.
      const theirs = owners.get(other.organizationId)!;
      const o = otherRows;
      const bases = [`/api/internal/networks/${other.network}`, `/api/internal/programs/${o.program}`, `/api/internal/playlists/${o.playlist}`, `/api/internal/clips/${o.clip}`];
      for (const base of bases) expect((await theirs.send('PUT', `${base}/settings/matrix-probe`, { Value: 'theirs' })).status, base).toBe(200);
      for (const base of bases) {
        for (const [method, json] of [['GET'], ['PUT', { Value: 'taken over' }], ['DELETE']] as Array<[string, unknown?]>) {
          expectNotFound(await caller().send(method, `${base}/settings/matrix-probe`, json), `${method} ${base}/settings/matrix-probe`);
        }
      }
      for (const [method, json] of [['GET'], ['PATCH', { PresetId: 'podcast' }], ['DELETE']] as Array<[string, unknown?]>) {
        expectNotFound(await caller().send(method, `/api/v1/programs/${o.program}/settings/normalization`, json), `${method} another organization’s program normalization`);
      }
      if (!profile.memberOf.includes(other.organizationId)) {
        expectNotFound(await caller().send('GET', '/api/internal/settings/matrix-probe', undefined, other.organizationId), 'the organization settings of one not a member of');
        expectNotFound(await caller().send('GET', '/api/v1/settings/normalization', undefined, other.organizationId), 'the normalization of one not a member of');
        expectNotFound(await caller().send('GET', '/api/v1/settings', undefined, other.organizationId), 'the settings of one not a member of');
        expectNotFound(await caller().send('PATCH', '/api/v1/settings', { MeasurementPrefixes: ['https://taken.example/over/'] }, other.organizationId), 'a change of the settings of one not a member of');
        expectNotFound(await caller().send('GET', '/api/v1/settings/validate-url-prefix?prefixUrl=https%3A%2F%2Fop3.dev%2Fe%2F', undefined, other.organizationId), 'the prefix check of one not a member of');
      }
      for (const base of bases) expect(((await theirs.send('GET', `${base}/settings/matrix-probe`)).body as { Value: unknown }).Value).toBe('theirs');
      expect(((await theirs.send('GET', '/api/v1/settings')).body as { MeasurementPrefixes: unknown }).MeasurementPrefixes).toEqual([]);
    });

    it('Apple Podcasts Subscriptions settings at every level, as that level’s settings; another organization’s and unseen rows not found', async () => {
      const owner = owners.get(own.organizationId)!;
      /** The owner's settings at a level, tried by the caller (a program's also as in effect). */
      const tryLevel = (base: string, access: { read: boolean; write: boolean }, seen = true) => {
        const path = `${base}/settings/apple-premium`;
        return trySettings(owner, path, { ChannelId: '6450099' }, 204, access, seen, base.includes('/programs/') ? [`${path}?inherit=true`] : []);
      };
      const s = profile.settings;
      await tryLevel('/api/v1', s.organization);
      for (const network of [...new Set([own.network, own.otherNetwork])]) await tryLevel(`/api/v1/networks/${network}`, s.network, profile.networks.includes(network));
      if (profile.contentProgram) await tryLevel(`/api/v1/programs/${programRows(profile.contentProgram).program}`, s.content);
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        await tryLevel(`/api/v1/programs/${p.program}`, { read: false, write: false }, profile.programs.includes(p.program));
      }

      // Another organization's: 404 with no body, and its settings left as they were.
      const theirs = owners.get(other.organizationId)!;
      const bases = [`/api/v1/networks/${other.network}`, `/api/v1/programs/${otherRows.program}`];
      for (const base of bases) expect((await theirs.send('PUT', `${base}/settings/apple-premium`, { ProviderId: 'Theirs' })).status, base).toBe(200);
      for (const base of bases) {
        for (const [method, json] of [['GET'], ['PUT', { ProviderId: 'TakenOver' }], ['DELETE']] as Array<[string, unknown?]>) {
          expectNotFound(await caller().send(method, `${base}/settings/apple-premium`, json), `${method} ${base}/settings/apple-premium`);
        }
      }
      if (!profile.memberOf.includes(other.organizationId)) {
        for (const [method, json] of [['GET'], ['PUT', { ProviderId: 'TakenOver' }], ['DELETE']] as Array<[string, unknown?]>) {
          expectNotFound(await caller().send(method, '/api/v1/settings/apple-premium', json, other.organizationId), `${method} the Apple settings of one not a member of`);
        }
      }
      for (const base of bases) expect(((await theirs.send('GET', `${base}/settings/apple-premium`)).body as { ProviderId: unknown }).ProviderId).toBe('Theirs');
    });

    it('a playlist’s directories and premium feeds (issue 33): read with content access, written with manage-settings too, premium feed URLs with the members’ managers; another organization’s not found', async () => {
      const playlistWrites = (base: string): Array<[string, string, unknown?]> => [
        ['POST', `${base}/directories/podcast-index`, {}],
        ['DELETE', `${base}/directories/podcast-index`],
        ['POST', `${base}/directories/apple-premium`, { Linked: false }],
        ['POST', `${base}/directories/apple-premium/resync`, {}],
      ];
      const premium = (base: string, program: string): Array<[string, string, unknown, number]> => [
        ['GET', `${base}/third-party-premium/spotify`, undefined, 200],
        ['PUT', `${base}/third-party-premium/spotify`, { Enabled: false }, written(200)],
        ['GET', `/api/internal/programs/${program}/settings/playlist-premium-feed-urls?adFree=true`, undefined, 200],
      ];
      if (profile.contentProgram) {
        const p = programRows(profile.contentProgram);
        const base = `/api/internal/playlists/${p.playlist}`;
        expect((await caller().send('GET', `${base}/directories`)).status).toBe(200);
        for (const [method, path, json] of playlistWrites(base)) {
          const reply = await caller().send(method, path, json);
          expect(reply.status, `${method} ${path}`).toBe(profile.manageProgramSettings ? written(204) : 403);
          if (!profile.manageProgramSettings) expect(reply.text).toBe('');
        }
        // The linking report: an async report (202) for those who may write.
        expect((await caller().send('POST', `${base}/directories/apple-premium/linking-report`, {})).status).toBe(profile.manageProgramSettings ? written(202) : 403);
        for (const [method, path, json, ok] of premium(base, p.program)) {
          const reply = await caller().send(method, path, json);
          expect(reply.status, `${method} ${path}`).toBe(profile.manageProgramSettings ? ok : 403);
        }
      }
      if (profile.noContentProgram) {
        // Its playlists are not open without content access; its program is listed or not.
        const p = programRows(profile.noContentProgram);
        const base = `/api/internal/playlists/${p.playlist}`;
        expectNotFound(await caller().send('GET', `${base}/directories`), 'the directories of a playlist without content access');
        for (const [method, path, json] of playlistWrites(base)) expectNotFound(await caller().send(method, path, json), `${method} ${path} without content access`);
        for (const [method, path, json] of premium(base, p.program).slice(0, 2)) expectNotFound(await caller().send(method, path, json), `${method} ${path} without content access`);
        const urls = await caller().send('GET', `/api/internal/programs/${p.program}/settings/playlist-premium-feed-urls`);
        if (profile.programs.includes(p.program)) expect(urls.status).toBe(403);
        else expectNotFound(urls, 'the premium feed URLs of a program not seen');
      }
      // Another organization's: 404 with no body, and its link not listed.
      const theirs = owners.get(other.organizationId)!;
      const theirBase = `/api/internal/playlists/${otherRows.playlist}`;
      expect((await theirs.send('POST', `${theirBase}/directories/apple-premium`, { Linked: true })).status).toBe(204);
      expectNotFound(await caller().send('GET', `${theirBase}/directories`), 'another organization’s directories');
      for (const [method, path, json] of playlistWrites(theirBase)) expectNotFound(await caller().send(method, path, json), `${method} another organization’s ${path}`);
      expectNotFound(await caller().send('POST', `${theirBase}/directories/apple-premium/linking-report`, {}), 'another organization’s linking report');
      for (const [method, path, json] of premium(theirBase, otherRows.program)) expectNotFound(await caller().send(method, path, json), `${method} another organization’s ${path}`);
      const apple = await caller().send('GET', '/api/internal/third-party-premium/apple');
      expect(apple.status).toBe(200);
      expect((apple.body as { Items: Array<{ PlaylistId: string }> }).Items.map((i) => i.PlaylistId)).not.toContain(otherRows.playlist);
      if (!profile.memberOf.includes(other.organizationId)) expectNotFound(await caller().send('GET', '/api/internal/third-party-premium/apple', undefined, other.organizationId), 'the Apple links of one not a member of');
      expect(((await theirs.send('GET', `${theirBase}/directories`)).body as { ApplePremium: { State: string } }).ApplePremium.State).not.toBe('NotLinked');
    });

    it('program settings root, monetization, video monetization, headliner videos and the organization’s program defaults (issue 33): read with the program, written with content and manage-settings access; the defaults as the organization’s settings; another organization’s not found', async () => {
      const allowed = (ok: boolean, status: number) => (ok ? status : 403);
      const reads = (p: string) => [p, `${p}/monetization`, `${p}/monetization/defaults`, `${p}/video-monetization`, `${p}/headliner-videos`];
      const writes = (p: string): Array<[string, string, unknown]> => [
        ['PATCH', p, { Monetization: { HouseAdsFallback: true } }],
        ['PUT', `${p}/monetization`, { HouseAdsFallback: true }],
        ['PATCH', `${p}/video-monetization`, { VideoAdsEnabled: true }],
      ];
      const s = profile.settings.organization;
      expect((await caller().send('GET', '/api/v1/settings/program-defaults')).status).toBe(allowed(s.read, 200));
      expect((await caller().send('PATCH', '/api/v1/settings/program-defaults', { Monetization: { HouseAdsFallback: false } })).status).toBe(allowed(s.write, 200));
      if (profile.contentProgram) {
        const base = `/api/v1/programs/${programRows(profile.contentProgram).program}/settings`;
        for (const path of reads(base)) expect((await caller().send('GET', path)).status, path).toBe(200);
        for (const [method, path, json] of writes(base)) {
          const reply = await caller().send(method, path, json);
          expect(reply.status, `${method} ${path}`).toBe(allowed(profile.manageProgramSettings, 200));
          if (reply.status === 403) expect(reply.text).toBe('');
        }
      }
      if (profile.noContentProgram) {
        const base = `/api/v1/programs/${programRows(profile.noContentProgram).program}/settings`;
        const listed = profile.programs.includes(programRows(profile.noContentProgram).program);
        for (const path of reads(base)) {
          const reply = await caller().send('GET', path);
          if (listed) expect(reply.status, path).toBe(200);
          else expectNotFound(reply, `GET ${path} of a program not seen`);
        }
        for (const [method, path, json] of writes(base)) {
          const reply = await caller().send(method, path, json);
          if (listed) expect(reply.status, `${method} ${path}`).toBe(403);
          else expectNotFound(reply, `${method} ${path} of a program not seen`);
        }
      }
      // Another organization's: 404 with no body, read or write, and its settings left as they were.
      const theirs = owners.get(other.organizationId)!;
      const base = `/api/v1/programs/${otherRows.program}/settings`;
      expect((await theirs.send('PUT', `${base}/monetization`, { CpmFloor: { Amount: 30, Currency: 'USD' } })).status).toBe(200);
      for (const path of reads(base)) expectNotFound(await caller().send('GET', path), `GET ${path}`);
      for (const [method, path, json] of writes(base)) expectNotFound(await caller().send(method, path, json), `${method} ${path}`);
      if (!profile.memberOf.includes(other.organizationId)) {
        expectNotFound(await caller().send('GET', '/api/v1/settings/program-defaults', undefined, other.organizationId), 'the program defaults of one not a member of');
        expectNotFound(await caller().send('PATCH', '/api/v1/settings/program-defaults', { Monetization: null }, other.organizationId), 'a change of the program defaults of one not a member of');
      }
      const after = (await theirs.send('GET', `${base}/monetization`)).body as { Own: { CpmFloor: unknown; HouseAdsFallback: unknown } };
      expect(after.Own).toMatchObject({ CpmFloor: { Amount: 30, Currency: 'USD' }, HouseAdsFallback: null });
    });

    it('recording agents: as the organization’s settings (read with audit or organization settings access, written with the latter); another organization’s not found', async () => {
      const s = profile.settings.organization;
      const owner = owners.get(own.organizationId)!;
      const program = own.programs[0]!;
      const made = await owner.send('POST', '/api/v1/recording-agents', { Name: 'Matrix encoder', ProgramIds: [program] });
      expect(made.status, made.text).toBe(201);
      const mine = (made.body as { Id: string }).Id;
      try {
        const read = await caller().send('GET', '/api/v1/recording-agents?includeProgramIds=true');
        expect(read.status).toBe(s.read ? 200 : 403);
        if (read.status === 200) expect(read.text).not.toContain((made.body as { Token: string }).Token);
        expect((await caller().send('PATCH', `/api/v1/recording-agents/${mine}`, { Name: `By ${profile.email}` })).status).toBe(s.write ? 200 : 403);
        const created = await caller().send('POST', '/api/v1/recording-agents', { Name: 'Planted', ProgramIds: [program] });
        expect(created.status, created.text).toBe(s.write ? 201 : 403);
        if (created.status === 201) expect((await caller().send('DELETE', `/api/v1/recording-agents/${(created.body as { Id: string }).Id}`)).status).toBe(204);
        expect((await caller().send('DELETE', `/api/v1/recording-agents/${mine}`)).status).toBe(s.write ? 204 : 403);
      } finally {
        await owner.send('DELETE', `/api/v1/recording-agents/${mine}`);
      }
      // Another organization's agent: 404 with no body, and left as it was.
      const theirs = owners.get(other.organizationId)!;
      const agent = ((await theirs.send('POST', '/api/v1/recording-agents', { Name: 'Theirs', ProgramIds: [otherRows.program] })).body as { Id: string }).Id;
      try {
        // Without write access the guard refuses first (403, whatever the id: nothing learnt of it).
        for (const [method, json] of [['PATCH', { Name: 'Taken over' }], ['DELETE']] as Array<[string, unknown?]>) {
          const reply = await caller().send(method, `/api/v1/recording-agents/${agent}`, json);
          if (s.write) expectNotFound(reply, `${method} another organization’s agent`);
          else expect(reply.status, `${method} another organization’s agent`).toBe(403);
        }
        if (s.read) expect(((await caller().send('GET', '/api/v1/recording-agents')).body as Array<{ Id: string }>).map((a) => a.Id)).not.toContain(agent);
        if (!profile.memberOf.includes(other.organizationId)) {
          expectNotFound(await caller().send('GET', '/api/v1/recording-agents', undefined, other.organizationId), 'the agents of one not a member of');
        }
        expect(((await theirs.send('GET', '/api/v1/recording-agents')).body as Array<{ Id: string; Name: string }>).find((a) => a.Id === agent)?.Name).toBe('Theirs');
      } finally {
        await theirs.send('DELETE', `/api/v1/recording-agents/${agent}`);
      }
    });

    it('live recordings: the peaks of a recording with content access, another organization’s not found; the ingest takes an agent’s credentials, never a session', async () => {
      if (profile.contentProgram) {
        const p = programRows(profile.contentProgram);
        // An event stream, not JSON: read past the Caller, with its cookie.
        const reply = await app.request(`/api/v1/recordings/${p.recording}/live/peaks`, { headers: { cookie: caller().cookie, 'x-organization-id': own.organizationId } });
        expect(reply.status).toBe(200);
        // Not live on this instance: the stream says so and ends.
        expect(await reply.text()).toContain('event: end');
        // Its live audio: not live here, so not found (the row's AudioUrl names the whole recording).
        expectNotFound(await caller().send('GET', `/api/v1/recordings/${p.recording}/live/audio`), 'the live audio of a recording not live');
        const ingest = await caller().send('PUT', `/api/v1/programs/${p.program}/recordings/live`);
        expect(ingest.status).toBe(401);
        expect((ingest.body as { Errors: Array<{ Field: string }> }).Errors[0]!.Field).toBe('Authorization');
      }
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        // Seen or not, its recordings are not open without content access (404, as one that does not exist).
        expectNotFound(await caller().send('GET', `/api/v1/recordings/${p.recording}/live/peaks`), 'the live peaks of a recording without content access');
        expectNotFound(await caller().send('GET', `/api/v1/recordings/${p.recording}/live/audio`), 'the live audio of a recording without content access');
      }
      expectNotFound(await caller().send('GET', `/api/v1/recordings/${otherRows.recording}/live/peaks`), 'the live peaks of another organization’s recording');
      expectNotFound(await caller().send('GET', `/api/v1/recordings/${otherRows.recording}/live/audio`), 'the live audio of another organization’s recording');
    });

    it('recording summary: as the program’s recordings (content access); another organization’s and unseen programs not found', async () => {
      if (profile.contentProgram) expect((await caller().send('GET', `/api/v1/programs/${programRows(profile.contentProgram).program}/recordings/summary`)).status).toBe(200);
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        const reply = await caller().send('GET', `/api/v1/programs/${p.program}/recordings/summary`);
        if (profile.programs.includes(p.program)) expect(reply.status).toBe(403);
        else expectNotFound(reply, 'the summary of a program not seen');
      }
      expectNotFound(await caller().send('GET', `/api/v1/programs/${otherRows.program}/recordings/summary`), 'the summary of another organization’s program');
    });

    it('production memos: as the program’s recordings (content access); another organization’s and unseen programs not found', async () => {
      const memos = (program: string) => `/api/v1/programs/${program}/recordings/memos?startDate=2026-01-01&endDate=2026-01-31`;
      if (profile.contentProgram) expect((await caller().send('GET', memos(programRows(profile.contentProgram).program))).status).toBe(200);
      if (profile.noContentProgram) {
        const p = programRows(profile.noContentProgram);
        const reply = await caller().send('GET', memos(p.program));
        if (profile.programs.includes(p.program)) expect(reply.status).toBe(403);
        else expectNotFound(reply, 'the memos of a program not seen');
      }
      expectNotFound(await caller().send('GET', memos(otherRows.program)), 'the memos of another organization’s program');
    });

    it('a program’s intro and outro (issue 33): as the program’s settings by section 6; another organization’s program and operation not found', async () => {
      const allowed = (ok: boolean, status: number) => (ok ? status : 403);
      const s = profile.settings.content;
      /** An operation of the program, as an upload by its organization's owner leaves it (the matrix stores no files). */
      const operationOf = async (programId: string, organizationId: string) => {
        const id = crypto.randomUUID();
        await test.store.query(
          `INSERT INTO program_audio_operations (id, organization_id, program_id, type, upload_id, file_name, content_type, size_bytes, status, started_at_utc)
           VALUES ($1, $2, $3, 'intro', $4, 'jingle.mp3', 'audio/mpeg', 1000, 'Busy', now())`,
          [id, organizationId, programId, crypto.randomUUID()],
        );
        return id;
      };
      const calls = (programId: string) =>
        [
          ['GET', `/api/media/programs/${programId}/audio/intro`],
          ['DELETE', `/api/v1/programs/${programId}/settings/audio/outro`],
          ['POST', `/api/internal/programs/${programId}/settings/audio/apply`, {}],
          // A JSON body is no audio file: 415 once the guard let it through.
          ['PUT', `/api/v1/programs/${programId}/settings/audio/intro?fileName=a.mp3`, { NotAudio: true }],
        ] as Array<[string, string, unknown?]>;
      if (profile.contentProgram) {
        const program = programRows(profile.contentProgram).program;
        const operation = `/api/v1/programs/settings/audio/${await operationOf(program, own.organizationId)}`;
        expect((await caller().send('GET', operation)).status).toBe(allowed(s.read, 200));
        // No intro set: the file is not found by those who may read it.
        const expected = [allowed(s.read, 404), allowed(s.write, 204), allowed(s.write, 202), allowed(s.write, 415)];
        for (const [i, [method, path, json]] of calls(program).entries()) {
          const reply = await caller().send(method, path, json);
          expect(reply.status, `${method} ${path}`).toBe(expected[i]);
          if (reply.status === 403) expect(reply.text).toBe('');
        }
      }
      if (profile.noContentProgram) {
        // A program seen without content access: its intro and outro refused (403); one not seen 404.
        const p = programRows(profile.noContentProgram);
        const listed = profile.programs.includes(p.program);
        const operation = `/api/v1/programs/settings/audio/${await operationOf(p.program, own.organizationId)}`;
        expect((await caller().send('GET', operation)).status).toBe(listed ? 403 : 404);
        for (const [method, path, json] of calls(p.program)) expect((await caller().send(method, path, json)).status, `${method} ${path}`).toBe(listed ? 403 : 404);
      }
      // Another organization's program and its operation: 404 with no body.
      const o = otherRows;
      expectNotFound(await caller().send('GET', `/api/v1/programs/settings/audio/${await operationOf(o.program, other.organizationId)}`), 'another organization’s intro operation');
      for (const [method, path, json] of calls(o.program)) expectNotFound(await caller().send(method, path, json), `${method} ${path} of another organization`);
    });

    it('recording settings and deletion estimates: by section 6; another organization’s and unseen programs not found', async () => {
      const allowed = (ok: boolean, status: number) => (ok ? status : 403);
      const s = profile.settings;
      const estimates = (programId: string) => [`/api/v1/programs/${programId}/settings/clip-deletion-estimate?days=30`, `/api/v1/programs/${programId}/settings/recording-deletion-estimate?days=30`];
      // The organization's estimates: as its settings are read.
      for (const path of ['/api/v1/settings/clip-deletion-estimate?days=30', '/api/v1/settings/recording-deletion-estimate?days=30']) {
        expect((await caller().send('GET', path)).status, path).toBe(allowed(s.organization.read, 200));
      }
      if (profile.contentProgram) {
        const program = programRows(profile.contentProgram).program;
        const path = `/api/v1/programs/${program}/settings/recording`;
        expect((await caller().send('GET', path)).status).toBe(200);
        expect((await caller().send('PATCH', path, { DeleteRecordingsAfterDays: null })).status).toBe(allowed(profile.manageProgramSettings, 200));
        for (const estimate of estimates(program)) expect((await caller().send('GET', estimate)).status, estimate).toBe(200);
      }
      if (profile.noContentProgram) {
        // A program seen without content access: its settings read, not written; its clips and recordings not counted (403).
        const p = programRows(profile.noContentProgram);
        const listed = profile.programs.includes(p.program);
        const path = `/api/v1/programs/${p.program}/settings/recording`;
        expect((await caller().send('GET', path)).status).toBe(listed ? 200 : 404);
        expect((await caller().send('PATCH', path, { DeleteRecordingsAfterDays: 30 })).status).toBe(listed ? 403 : 404);
        for (const estimate of estimates(p.program)) expect((await caller().send('GET', estimate)).status, estimate).toBe(listed ? 403 : 404);
      }
      // Another organization's program: 404 with no body, and its retention left as it was.
      const o = otherRows;
      for (const [method, path, json] of [
        ['GET', `/api/v1/programs/${o.program}/settings/recording`],
        ['PATCH', `/api/v1/programs/${o.program}/settings/recording`, { DeleteRecordingsAfterDays: 1 }],
        ...estimates(o.program).map((e) => ['GET', e] as const),
      ] as Array<[string, string, unknown?]>) {
        expectNotFound(await caller().send(method, path, json), `${method} ${path} of another organization`);
      }
      expect(((await owners.get(other.organizationId)!.send('GET', `/api/v1/programs/${o.program}/settings/recording`)).body as { DeleteRecordingsAfterDays: unknown }).DeleteRecordingsAfterDays).toBeNull();
      if (!profile.memberOf.includes(other.organizationId)) {
        expectNotFound(await caller().send('GET', '/api/v1/settings/recording-deletion-estimate?days=30', undefined, other.organizationId), 'the estimate of one not a member of');
      }
    });

    it("another organization's rows are 404 with no body, on every family, read or write", async () => {
      const o = otherRows;
      const checks: Array<[string, string, unknown?]> = [
        ['GET', `/api/v1/networks/${other.network}`],
        ['PATCH', `/api/v1/networks/${other.network}`, { Name: 'Taken over' }],
        ['DELETE', `/api/v1/networks/${other.network}`],
        ['GET', `/api/v1/networks/${other.network}/programs`],
        ['GET', `/api/v1/programs/${o.program}`],
        ['PATCH', `/api/v1/programs/${o.program}`, { Name: 'Taken over' }],
        ['DELETE', `/api/v1/programs/${o.program}`],
        ['GET', `/api/v1/programs/${o.program}/clips`],
        ['GET', `/api/v1/programs/${o.program}/playlists`],
        ['GET', `/api/v1/programs/${o.program}/recordings`],
        ['POST', `/api/v1/programs/${o.program}/clips`, { Title: 'Planted' }],
        ['POST', `/api/v1/programs/${o.program}/playlists`, { Title: 'Planted' }],
        ['GET', `/api/v1/playlists/${o.playlist}`],
        ['GET', `/api/v1/playlists/${o.playlist}/clips`],
        ['PATCH', `/api/v1/playlists/${o.playlist}`, { Title: 'Taken over' }],
        ['PATCH', `/api/v1/playlists/${o.playlist}/clips`, { ClipIds: [] }],
        ['DELETE', `/api/v1/playlists/${o.playlist}`],
        ['GET', `/api/v1/clips/${o.clip}`],
        ['PATCH', `/api/v1/clips/${o.clip}`, { Title: 'Taken over' }],
        ['DELETE', `/api/v1/clips/${o.clip}`],
        ['GET', `/api/v1/recordings/${o.recording}`],
        ['PATCH', `/api/v1/recordings/${o.recording}`, { Title: 'Taken over' }],
        ['DELETE', `/api/v1/recordings/${o.recording}`],
        ['GET', `/api/v1/recordings/${o.recording}/annotations`],
        ['POST', `/api/v1/recordings/${o.recording}/annotations`, { OffsetSeconds: 1, Text: 'Planted' }],
        ['DELETE', `/api/v1/recordings/${o.recording}/annotations/${o.annotation}`],
      ];
      for (const [method, path, body] of checks) {
        expectNotFound(await caller().send(method, path, body), `${method} ${path}`);
      }
      // Lists asked for the other organization's ids come back empty, never with its rows.
      for (const [path, id] of [
        ['/api/v1/clips?clipIds=', o.clip],
        ['/api/v1/networks?networkIds=', other.network],
        ['/api/v1/programs?programIds=', o.program],
        ['/api/v1/playlists?playlistIds=', o.playlist],
        ['/api/v1/recordings?recordingIds=', o.recording],
      ] as const) {
        const reply = await caller().send('GET', `${path}${id}&includeDeleted=true`);
        expect(reply.status, path).toBe(200);
        expect(ids(reply), path).toEqual([]);
      }
      // A playlist of one's own organization cannot take the other organization's clips.
      if (profile.contentProgram) {
        const mine = programRows(profile.contentProgram);
        const reply = await caller().send('PATCH', `/api/v1/playlists/${mine.playlist}/clips`, { ClipIds: [o.clip] });
        expect(reply.status).toBe(written(400));
      }
    });

    it('object search and the staff clip tool (issue 33): admin and support users only, finding any organization’s rows and saying which are theirs', async () => {
      // Section 6: the Admin section is for admin or support users (the seed's admin and support).
      const staff = profile.email === 'admin@example.com' || profile.email === 'support@example.com';
      for (const [id, organizationId] of [
        [otherRows.clip, other.organizationId],
        [programRows(profile.contentProgram ?? profile.noContentProgram ?? OTHER_PROGRAM[profile.other]).clip, null],
      ] as const) {
        const reply = await caller().send('GET', `/api/admin/lookup?query=${id}`);
        if (!staff) {
          expect(reply.status, `lookup by ${profile.email}`).toBe(403);
          expect(reply.text).toBe('');
          continue;
        }
        expect(reply.status, reply.text).toBe(200);
        const [row, ...rest] = (reply.body as { Results: Array<{ Kind: string; Id: string; OrganizationId: string; CallerIsMember: boolean }> }).Results;
        expect(rest).toEqual([]);
        expect(row).toMatchObject({ Kind: 'Clip', Id: id, ...(organizationId ? { OrganizationId: organizationId } : {}) });
        expect(row!.CallerIsMember).toBe(profile.memberOf.includes(row!.OrganizationId));
      }
      // The staff clip tool, on another organization's clip: staff get past the guard (the matrix's
      // store keeps no audio, so its answer is the clip's, 409 with no audio; staff-regenerate.test
      // makes it run); anyone else 403.
      const regenerate = await caller().send('POST', `/api/internal/tools/clips/${otherRows.clip}/regenerate-audio`);
      expect(regenerate.status, regenerate.text).toBe(staff ? 409 : 403);
      if (!staff) expect(regenerate.text).toBe('');
      // The brand-safety retry, on another organization's clip: queued for staff, 403 with no body for anyone else.
      const retry = await caller().send('POST', `/api/internal/tools/clips/${otherRows.clip}/brand-safety/retry`);
      expect(retry.status, retry.text).toBe(staff ? 204 : 403);
      expect(retry.text).toBe('');
    });

    it('billing & features, the subscription and the config (issue 33): billing admins only, the subscription with organization settings access or staff, the config staff only; another organization’s not found', async () => {
      // Section 6: "'Billing & features' is admins only"; the Admin section (and its Admin settings,
      // the config) is for admin or support users. The subscription is the organization's settings
      // people's to read (HasManageOrganizationSettingsAccess at organization scope) and staff's; its
      // notices are changed by the former and admins.
      const admin = profile.email === 'admin@example.com';
      const staff = admin || profile.email === 'support@example.com';
      const notices = { Thresholds: [80, 100], Recipients: [], NotifyBillingContact: true };
      const calls: Array<[string, string, unknown, boolean, number]> = [
        ['GET', '/api/internal/billing', undefined, admin, 200],
        ['GET', '/api/internal/billing/usage', undefined, admin, 200],
        ['GET', '/api/internal/billing/invoices', undefined, admin, 200],
        ['GET', '/api/internal/billing/add-on/ExtraStorage/usage?dateUtc=2025-06-01', undefined, admin, 200],
        ['GET', '/api/internal/billing/add-on/ExtraStorage/restrictions', undefined, admin, 200],
        ['PATCH', '/api/internal/billing/add-on/ExtraStorage/restrictions', { MaxOverage: null }, admin, written(200)],
        ['PATCH', '/api/internal/billing', {}, admin, written(204)],
        ['GET', '/api/internal/subscription', undefined, profile.manageOrganization || staff, 200],
        ['GET', `/api/internal/programs/${own.programs[0]}/subscription`, undefined, profile.manageOrganization || staff, 200],
        ['GET', '/api/internal/subscription/add-on/ExtraSeats/notification-settings', undefined, profile.manageOrganization || staff, 200],
        ['PUT', '/api/internal/subscription/add-on/ExtraSeats/notification-settings', notices, profile.manageOrganization || admin, written(200)],
        ['GET', '/api/internal/config', undefined, staff, 200],
        ['GET', '/api/internal/config/plans/Starter', undefined, staff, 200],
        ['GET', '/api/internal/config/organization', undefined, staff, 200],
        ['GET', `/api/internal/config/programs/${own.programs[0]}`, undefined, staff, 200],
      ];
      for (const [method, path, json, may, ok] of calls) {
        const reply = await caller().send(method, path, json);
        const status = may ? ok : 403;
        // The program asked about may be one the caller does not see: not found before refused.
        if (path.includes('/programs/') && !profile.programs.includes(own.programs[0]!)) expectNotFound(reply, `${method} ${path}`);
        else expect(reply.status, `${method} ${path}: ${reply.text.slice(0, 100)}`).toBe(status);
        if (reply.status === 403) expect(reply.text).toBe('');
      }
      // Acting in an organization one is not a member of: not found, as one that does not exist.
      if (!profile.memberOf.includes(other.organizationId)) {
        for (const path of ['/api/internal/billing', '/api/internal/subscription', '/api/internal/config/organization']) {
          expectNotFound(await caller().send('GET', path, undefined, other.organizationId), `${path} as a non-member`);
        }
      }
      // Another organization's program, from one's own: not found.
      expectNotFound(await caller().send('GET', `/api/internal/programs/${otherRows.program}/subscription`), 'another organization’s program’s subscription');
    });

    it('the plan’s features (billing): analytics with playlist-download-analytics, which Castaway Podcasts’ Starter plan lacks (403 naming it); the flags’ bare 403 and a non-member’s 404 come first', async () => {
      // Written out from the seed: who holds HasAnalyticsAccess at Organization scope where (the
      // producer's is on programs, so the organization's figures are not theirs), and each
      // organization's plan (sync-server/billing/demo.ts: Castaway Demo Radio on Broadcast).
      const analyticsIn: Record<string, string[]> = {
        'demo@example.com': [ORG_DEMO, ORG_PODCASTS],
        'analyst@example.com': [ORG_DEMO],
        'admin@example.com': [ORG_DEMO],
      };
      const planHasAnalytics = (organizationId: string) => organizationId === ORG_DEMO;
      const range = 'startDate=2025-05-09&endDate=2025-05-12';
      for (const organizationId of [ORG_DEMO, ORG_PODCASTS]) {
        for (const path of [`/api/v1/analytics/downloads?${range}`, `/api/v1/analytics/progress`]) {
          const reply = await caller().send('GET', path, undefined, organizationId);
          const what = `${path} in ${organizationId === ORG_DEMO ? 'Castaway Demo Radio' : 'Castaway Podcasts'}`;
          if (!profile.memberOf.includes(organizationId)) expectNotFound(reply, what);
          else if (!(analyticsIn[profile.email] ?? []).includes(organizationId)) expect([reply.status, reply.text], what).toEqual([403, '']);
          else if (!planHasAnalytics(organizationId)) {
            expect(reply.status, what).toBe(403);
            expect((reply.body as { Errors: Array<{ Code: string; Params?: unknown }> }).Errors, what).toEqual([expect.objectContaining({ Code: 'featureNotInPlan', Params: { feature: 'playlist-download-analytics' } })]);
          } else expect(reply.status, `${what}: ${reply.text}`).toBe(200);
        }
      }
      // A program of Castaway Podcasts: not found for non-members, the flags' bare 403 for the
      // reseller (content access only, so it sees the program), the plan's 403 for the demo user.
      const deepDive = `/api/v1/programs/${seedId('program:deepdive')}/analytics/downloads?${range}`;
      const reply = await caller().send('GET', deepDive, undefined, ORG_PODCASTS);
      if (!profile.memberOf.includes(ORG_PODCASTS)) expectNotFound(reply, deepDive);
      else if (!(analyticsIn[profile.email] ?? []).includes(ORG_PODCASTS)) expect([reply.status, reply.text], deepDive).toEqual([403, '']);
      else expect([reply.status, (reply.body as { Errors: Array<{ Code: string }> }).Errors[0]!.Code], deepDive).toEqual([403, 'featureNotInPlan']);
    });

    it('lists never carry a row of another organization', async () => {
      for (const path of ['/api/v1/networks', '/api/v1/programs', '/api/v1/playlists', '/api/v1/clips', '/api/v1/recordings']) {
        const reply = await caller().send('GET', `${path}?includeDeleted=true`);
        expect(reply.status, path).toBe(200);
        for (const organizationId of orgsOf(reply)) expect(organizationId, path).toBe(own.organizationId);
      }
    });

    it('enterprises and sales codes (issue 33): an admin every enterprise, the reseller its own (another is 404 with no body), support and organization roles none (403)', async () => {
      // Section 6: Enterprises shows to admins and to users with reseller access. The seed: the
      // reseller manages Castaway Demo Group (the demo organization, code CASTAWAY-DEMO); Castaway
      // Podcast Partners (the other organization, code PARTNERS-2025) is the admin's, not the reseller's.
      const who = profile.email === 'admin@example.com' ? 'admin' : profile.email === 'reseller@example.com' ? 'reseller' : 'none';
      const groups = [
        { enterprise: DEMO_ENTERPRISE, organization: ORG_DEMO, code: DEMO_SALES_CODE, sees: who !== 'none' },
        { enterprise: OTHER_ENTERPRISE, organization: ORG_PODCASTS, code: OTHER_SALES_CODE, sees: who === 'admin' },
      ];
      const listed = await caller().send('GET', '/api/internal/enterprises');
      if (who === 'none') expect([listed.status, listed.text]).toEqual([403, '']);
      else expect(ids(listed)).toEqual(sorted(groups.filter((g) => g.sees).map((g) => g.enterprise)));
      for (const g of groups) {
        const base = `/api/internal/enterprises/${g.enterprise}`;
        const calls: Array<[string, string, unknown, number]> = [
          ['GET', base, undefined, 200],
          ['GET', `${base}/organizations`, undefined, 200],
          ['GET', `${base}/users`, undefined, 200],
          ['GET', `${base}/organizations/${g.organization}`, undefined, 200],
          ['PATCH', `${base}/organizations/${g.organization}`, { Notes: `Seen by ${profile.email}` }, written(200)],
          ['GET', `/api/internal/sales-codes/${g.code}/owning-user`, undefined, 200],
          // Last: the caller becomes a member of the organization (or already is).
          ['PUT', `${base}/organizations/${g.organization}/access`, undefined, written(204)],
        ];
        for (const [method, path, json, ok] of calls) {
          const reply = await caller().send(method, path, json);
          const status = who === 'none' ? 403 : g.sees ? ok : 404;
          expect(reply.status, `${method} ${path}: ${reply.text.slice(0, 100)}`).toBe(status);
          if (status === 403 && method === 'GET') expect(reply.text).toBe('');
          if (status === 404) expectNotFound(reply, `${method} ${path}`);
        }
        // An organization the enterprise does not hold is not found, for whoever sees the enterprise.
        if (who !== 'none' && g.sees) expectNotFound(await caller().send('GET', `/api/internal/enterprises/${g.enterprise}/organizations/${groups.find((o) => o !== g)!.organization}`), 'an organization of the other enterprise');
      }
      // The seed's memberships again (PUT …/access made more): the cases after this one count on them.
      await test.store.query(`DELETE FROM memberships WHERE user_id = $1 AND NOT (organization_id = ANY($2::uuid[]))`, [userIds.get(profile.email), profile.memberOf]);
    });
  });

  it('a freshly invited Program-scope user reaches its program and its own account, and no other user’s or organization’s', async () => {
    const morning = seedId('program:morning');
    const permissions = [{ ObjectType: 'Program', ObjectId: morning, Permissions: { HasContentAccess: true } }];
    const made = await owners.get(ORG_DEMO)!.send('POST', '/api/v1/users/invitation', { Email: `fresh.${kind}@station.example`, Permissions: permissions });
    expect(made.status, made.text).toBe(201);
    const { Link, UserId } = made.body as { Link: string; UserId: string };
    const fresh = new Caller(app, ORG_DEMO);
    const link = new URL(Link);
    const accepted = await fresh.send('PUT', `/api${link.pathname}`, { Token: link.searchParams.get('token'), Name: 'Fresh Producer', Password: 'a long enough secret' }, null);
    expect(accepted.status, accepted.text).toBe(204);
    fresh.xsrf = ((await fresh.send('GET', '/api/internal/session/xsrf', undefined, null)).body as { XsrfToken: string }).XsrfToken;
    expect(ids(await fresh.send('GET', '/api/v1/programs'))).toEqual([morning]);
    expect((await fresh.send('GET', `/api/v1/users/${UserId}`)).body).toMatchObject({ Id: UserId, Permissions: permissions });
    for (const [method, path, json] of [
      ['GET', '/api/v1/users', undefined],
      ['GET', `/api/v1/users/${userIds.get('support@example.com')}`, undefined],
      ['PUT', `/api/v1/users/${UserId}/permissions`, [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasManageUserAccess: true } }]],
      ['POST', '/api/v1/users/invitation', { Email: `friend.${kind}@station.example`, Permissions: permissions }],
      ['POST', `/api/v1/users/${userIds.get('producer@example.com')}/invitation`, undefined],
    ] as const) {
      const reply = await fresh.send(method, path, json);
      expect(reply.status, `${method} ${path}`).toBe(403);
      expect(reply.text, `${method} ${path}`).toBe('');
    }
    expect((await fresh.send('GET', `/api/v1/programs/${seedId('program:world')}`)).status).toBe(404);
    expectNotFound(await fresh.send('GET', `/api/v1/users/${userIds.get('reseller@example.com')}`), 'a user of the other organization');
    for (const path of ['/api/v1/users', '/api/v1/programs']) expectNotFound(await fresh.send('GET', path, undefined, ORG_PODCASTS), `${path} of an organization not a member of`);
    expect((await fresh.send('POST', '/api/internal/api-keys', { Name: 'Fresh key' })).status).toBe(201);
  });

  it("the other organization's rows stayed as they were", async () => {
    // After every user above tried to change Castaway Podcasts' Deep Dive rows from Castaway Demo Radio.
    const demo = new Caller(app, ORG_PODCASTS);
    await demo.login('demo@example.com');
    const p = programRows('deepdive');
    expect((await demo.send('GET', `/api/v1/programs/${p.program}`)).body).toMatchObject({ Name: 'Deep Dive', Deleted: false });
    expect((await demo.send('GET', `/api/v1/clips/${p.clip}`)).body).toMatchObject({ Deleted: false });
    expect((await demo.send('GET', `/api/v1/recordings/${p.recording}/annotations`)).body).toMatchObject({
      Items: expect.arrayContaining([expect.objectContaining({ Id: p.annotation })]),
    });
    const clips = (await demo.send('GET', `/api/v1/programs/${p.program}/clips`)).body as { Items: Array<{ Title: string | null }> };
    expect(clips.Items.map((c) => c.Title)).not.toContain('Planted');
    // And the demo user, a member of both, reads them when acting in Castaway Podcasts.
    expect((await demo.send('GET', `/api/v1/clips/${p.clip}`)).status).toBe(200);
    expectNotFound(await demo.send('GET', `/api/v1/clips/${p.clip}`, undefined, ORG_DEMO), 'the same clip from Castaway Demo Radio');
  });
});
