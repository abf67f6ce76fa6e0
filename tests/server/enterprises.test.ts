// Enterprises and sales codes (issue 33; section 7 "Images and admin"), on PGlite and PostgreSQL:
// the demo's two enterprises as each kind of user sees them (an admin every one, the reseller its
// own, anyone else 403), paging and the filter, an enterprise organization edited (every field
// refused at its name, cleared, If-Match and its 412), PUT …/access making the caller a member who
// then opens the organization, and a sales code's owning user (404 when no one owns it).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Enterprise, EnterpriseOrganization, EnterpriseSummary, EnterpriseUser, SalesCodeOwner } from '../../src/protocol/api/enterprises.ts';
import { ENTERPRISE_DISPLAY_NAME_MAX_LENGTH, ENTERPRISE_NOTES_MAX_LENGTH, ENTERPRISE_PLAN_LABEL_MAX_LENGTH } from '../../src/domain/enterprises.ts';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../sync-server/seed.ts';
import { DEMO_ENTERPRISE, DEMO_SALES_CODE, OTHER_ENTERPRISE, OTHER_SALES_CODE, RETIRED_SALES_CODE } from '../../sync-server/enterprises/demo.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type Page<T> = { Items: T[]; HasNext: boolean; Page: number };
const DEMO_ORG_URL = `/api/internal/enterprises/${DEMO_ENTERPRISE}/organizations/${ORG_DEMO}`;

describe.each(storeKinds)('enterprises on %s', (kind) => {
  let test: TestStore;
  let seeded: SeededApp;
  const clients = new Map<string, AppClient>();
  const as = (email: string) => clients.get(email)!;

  beforeAll(async () => {
    test = await openTestStore(kind);
    seeded = await seededApp(test.store);
    for (const email of ['admin@example.com', 'reseller@example.com', 'support@example.com', 'demo@example.com']) {
      const client = new AppClient(seeded.app);
      await client.login(email);
      clients.set(email, client);
    }
  }, 180_000);

  afterAll(async () => {
    await test?.drop();
  });

  const expectNotFound = (reply: { status: number; text: string }, what: string) => {
    expect(reply.status, what).toBe(404);
    expect(reply.text, `${what}: a 404 has no body`).toBe('');
  };

  it('an admin sees every enterprise, the reseller only its own, by name; paging and the filter', async () => {
    const admin = await as('admin@example.com').get('/api/internal/enterprises');
    expect(admin.status, admin.text).toBe(200);
    expect((admin.body as Page<EnterpriseSummary>).Items).toEqual([
      expect.objectContaining({ Id: DEMO_ENTERPRISE, Name: 'Castaway Demo Group', OrganizationCount: 1, UserCount: 1 }),
      expect.objectContaining({ Id: OTHER_ENTERPRISE, Name: 'Castaway Podcast Partners', OrganizationCount: 1, UserCount: 1 }),
    ]);
    const reseller = await as('reseller@example.com').get('/api/internal/enterprises');
    expect((reseller.body as Page<EnterpriseSummary>).Items.map((e) => e.Id)).toEqual([DEMO_ENTERPRISE]);

    const first = (await as('admin@example.com').get('/api/internal/enterprises?page=1&pageSize=1')).body as Page<EnterpriseSummary>;
    const second = (await as('admin@example.com').get('/api/internal/enterprises?page=2&pageSize=1')).body as Page<EnterpriseSummary>;
    expect([first.Items.map((e) => e.Name), first.HasNext, second.Items.map((e) => e.Name), second.HasNext]).toEqual([['Castaway Demo Group'], true, ['Castaway Podcast Partners'], false]);
    // Without regard to case; % and _ are taken as they are.
    expect(((await as('admin@example.com').get('/api/internal/enterprises?filter=PARTNERS')).body as Page<EnterpriseSummary>).Items.map((e) => e.Id)).toEqual([OTHER_ENTERPRISE]);
    expect(((await as('admin@example.com').get('/api/internal/enterprises?filter=%25')).body as Page<EnterpriseSummary>).Items).toEqual([]);
  });

  it('support and organization roles are refused every enterprise call (403, no body)', async () => {
    for (const email of ['support@example.com', 'demo@example.com']) {
      for (const [method, path] of [
        ['GET', '/api/internal/enterprises'],
        ['GET', `/api/internal/enterprises/${DEMO_ENTERPRISE}`],
        ['GET', `/api/internal/enterprises/${DEMO_ENTERPRISE}/users`],
        ['PATCH', DEMO_ORG_URL],
        ['PUT', `${DEMO_ORG_URL}/access`],
        ['GET', `/api/internal/sales-codes/${DEMO_SALES_CODE}/owning-user`],
      ] as const) {
        const reply = await as(email).send(method, path, method === 'PATCH' ? { json: { Notes: 'x' } } : {});
        expect(reply.status, `${email} ${method} ${path}`).toBe(403);
        expect(reply.text).toBe('');
      }
    }
  });

  it('an enterprise the reseller is not a user of is answered as one that does not exist', async () => {
    const reseller = as('reseller@example.com');
    for (const id of [OTHER_ENTERPRISE, crypto.randomUUID()]) {
      for (const path of [`/api/internal/enterprises/${id}`, `/api/internal/enterprises/${id}/organizations`, `/api/internal/enterprises/${id}/users`, `/api/internal/enterprises/${id}/organizations/${ORG_PODCASTS}`]) {
        expectNotFound(await reseller.get(path), path);
      }
      expectNotFound(await reseller.patch(`/api/internal/enterprises/${id}/organizations/${ORG_PODCASTS}`, { Notes: 'Mine now' }), `PATCH ${id}`);
      expectNotFound(await reseller.send('PUT', `/api/internal/enterprises/${id}/organizations/${ORG_PODCASTS}/access`), `PUT access ${id}`);
    }
    expectNotFound(await reseller.get('/api/internal/enterprises/not-an-id'), 'not an id');
    // The admin reads the same enterprise.
    expect((await as('admin@example.com').get(`/api/internal/enterprises/${OTHER_ENTERPRISE}`)).status).toBe(200);
  });

  it('an enterprise, its organizations and its users as the reseller reads them; an organization it does not hold is 404', async () => {
    const reseller = as('reseller@example.com');
    const enterprise = (await reseller.get(`/api/internal/enterprises/${DEMO_ENTERPRISE}`)).body as Enterprise;
    expect(enterprise).toMatchObject({ Id: DEMO_ENTERPRISE, Name: 'Castaway Demo Group', OrganizationCount: 1, UserCount: 1 });
    expect(enterprise.SalesCodes).toEqual([
      expect.objectContaining({ Name: DEMO_SALES_CODE, OwnerUserId: seedId('user:reseller@example.com'), OwnerName: 'Robin Reseller' }),
      expect.objectContaining({ Name: RETIRED_SALES_CODE, OwnerUserId: null, OwnerName: null }),
    ]);
    const organizations = (await reseller.get(`/api/internal/enterprises/${DEMO_ENTERPRISE}/organizations`)).body as Page<EnterpriseOrganization>;
    expect(organizations.Items).toEqual([expect.objectContaining({ OrganizationId: ORG_DEMO, Name: 'Castaway Demo Radio', PlanLabel: 'Group Standard', Deleted: false })]);
    expect(((await reseller.get(`/api/internal/enterprises/${DEMO_ENTERPRISE}/organizations?filter=podcasts`)).body as Page<EnterpriseOrganization>).Items).toEqual([]);
    const users = (await reseller.get(`/api/internal/enterprises/${DEMO_ENTERPRISE}/users`)).body as Page<EnterpriseUser>;
    expect(users.Items).toEqual([expect.objectContaining({ Id: seedId('user:reseller@example.com'), Name: 'Robin Reseller', Email: 'reseller@example.com' })]);
    expect(((await reseller.get(`/api/internal/enterprises/${DEMO_ENTERPRISE}/users?filter=nobody`)).body as Page<EnterpriseUser>).Items).toEqual([]);
    // Castaway Podcasts exists, and the reseller is its member, but this enterprise does not hold it.
    expectNotFound(await reseller.get(`/api/internal/enterprises/${DEMO_ENTERPRISE}/organizations/${ORG_PODCASTS}`), 'an organization of another enterprise');
    expectNotFound(await reseller.patch(`/api/internal/enterprises/${DEMO_ENTERPRISE}/organizations/${ORG_PODCASTS}`, { Notes: 'x' }), 'PATCH of another enterprise’s');
  });

  it('a bad list query is a 400 naming its parameter', async () => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['pageSize=2501', 'pageSize'],
      [`filter=${'x'.repeat(1000)}`, 'filter'],
    ] as const) {
      const reply = await as('admin@example.com').get(`/api/internal/enterprises/${DEMO_ENTERPRISE}/organizations?${query}`);
      expect(reply.status, query).toBe(400);
      expect(fields(reply).map(([f]) => f)).toEqual([field]);
    }
  });

  it('edits what the enterprise keeps about an organization: each field refused at its name, cleared with null or "", If-Match and 412', async () => {
    const reseller = as('reseller@example.com');
    const before = await reseller.get(DEMO_ORG_URL);
    expect(before.status).toBe(200);
    const base = before.body as EnterpriseOrganization;
    expect(before.headers.get('etag')).toBe(`"${base.ModifiedAtUtc}"`);

    const bad = await reseller.patch(DEMO_ORG_URL, {
      DisplayName: 'x'.repeat(ENTERPRISE_DISPLAY_NAME_MAX_LENGTH + 1),
      PlanLabel: 'y'.repeat(ENTERPRISE_PLAN_LABEL_MAX_LENGTH + 1),
      Notes: 'z'.repeat(ENTERPRISE_NOTES_MAX_LENGTH + 1),
    });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual([
      ['DisplayName', 'tooLong'],
      ['PlanLabel', 'tooLong'],
      ['Notes', 'tooLong'],
    ]);
    expect((bad.body as { Errors: Array<{ Message: string }> }).Errors[0]!.Message).toBe(`Must be ${ENTERPRISE_DISPLAY_NAME_MAX_LENGTH} characters or shorter`);
    expect(fields(await reseller.patch(DEMO_ORG_URL, { DisplayName: 'Tab\there' }))).toEqual([['DisplayName', 'invalid']]);
    expect(fields(await reseller.patch(DEMO_ORG_URL, { Notes: 42 }))).toEqual([['Notes', 'invalid']]);
    expect(fields(await reseller.patch(DEMO_ORG_URL, { Suspended: true }))).toEqual([['Suspended', 'invalid']]);
    // Nothing was saved by the refusals.
    expect(((await reseller.get(DEMO_ORG_URL)).body as EnterpriseOrganization).ModifiedAtUtc).toBe(base.ModifiedAtUtc);

    seeded.clock.advance(1000);
    const saved = await reseller.patch(DEMO_ORG_URL, { DisplayName: '  Demo Radio (North)  ', Notes: 'Renews in March.\nCall Dana first.' }, { 'if-match': `"${base.ModifiedAtUtc}"` });
    expect(saved.status, saved.text).toBe(200);
    const after = saved.body as EnterpriseOrganization;
    expect(after).toMatchObject({ DisplayName: 'Demo Radio (North)', Notes: 'Renews in March.\nCall Dana first.', PlanLabel: 'Group Standard', Name: 'Castaway Demo Radio' });
    expect(Date.parse(after.ModifiedAtUtc)).toBeGreaterThan(Date.parse(base.ModifiedAtUtc));
    expect(saved.headers.get('etag')).toBe(`"${after.ModifiedAtUtc}"`);

    // Made on the old base: 412 with the organization as it now is, and nothing changed.
    const stale = await as('admin@example.com').patch(DEMO_ORG_URL, { PlanLabel: 'Enterprise' }, { 'if-match': `"${base.ModifiedAtUtc}"` });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ DisplayName: 'Demo Radio (North)', PlanLabel: 'Group Standard', ModifiedAtUtc: after.ModifiedAtUtc });

    // Cleared: null and "" alike; fields left out stay.
    const cleared = await as('admin@example.com').patch(DEMO_ORG_URL, { DisplayName: null, PlanLabel: '' });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body).toMatchObject({ DisplayName: null, PlanLabel: null, Notes: 'Renews in March.\nCall Dana first.' });
    // The organization's own row is not the enterprise's to change.
    const [org] = await test.store.query<{ name: string }>(`SELECT name FROM organizations WHERE id = $1`, [ORG_DEMO]);
    expect(org!.name).toBe('Castaway Demo Radio');
  });

  it('PUT …/access makes the reseller a member, who then opens the organization; again changes nothing; a deleted organization is 404', async () => {
    const reseller = as('reseller@example.com');
    reseller.organizationId = ORG_DEMO;
    expectNotFound(await reseller.get('/api/v1/programs'), 'the demo organization before access');
    reseller.organizationId = null;
    const cookie = reseller.cookie;
    const granted = await reseller.send('PUT', `${DEMO_ORG_URL}/access`);
    expect(granted.status, granted.text).toBe(204);
    // A privilege change: the session has a new id.
    expect(reseller.cookie).not.toBe(cookie);
    expect(((await reseller.get(DEMO_ORG_URL)).body as EnterpriseOrganization).CallerIsMember).toBe(true);
    reseller.organizationId = ORG_DEMO;
    const programs = await reseller.get('/api/v1/programs');
    expect(programs.status, programs.text).toBe(200);
    expect((programs.body as Page<{ Id: string }>).Items.length).toBeGreaterThan(0);
    reseller.organizationId = null;
    const [membership] = await test.store.query<{ permissions: unknown }>(`SELECT permissions FROM memberships WHERE organization_id = $1 AND user_id = $2`, [ORG_DEMO, seedId('user:reseller@example.com')]);
    expect(membership!.permissions).toEqual([{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: expect.objectContaining({ HasContentAccess: true, HasManageUserAccess: true }) }]);
    const member = reseller.cookie;
    const again = await reseller.send('PUT', `${DEMO_ORG_URL}/access`);
    expect(again.status).toBe(204);
    expect(reseller.cookie, 'no new privilege, no new session id').toBe(member);

    // The other enterprise's organization: the admin may open it; once deleted, it cannot be.
    const admin = as('admin@example.com');
    await test.store.query(`UPDATE organizations SET deleted = true WHERE id = $1`, [ORG_PODCASTS]);
    try {
      expectNotFound(await admin.send('PUT', `/api/internal/enterprises/${OTHER_ENTERPRISE}/organizations/${ORG_PODCASTS}/access`), 'a deleted organization');
      expect(((await admin.get(`/api/internal/enterprises/${OTHER_ENTERPRISE}/organizations/${ORG_PODCASTS}`)).body as EnterpriseOrganization).Deleted).toBe(true);
    } finally {
      await test.store.query(`UPDATE organizations SET deleted = false WHERE id = $1`, [ORG_PODCASTS]);
    }
    expect((await admin.send('PUT', `/api/internal/enterprises/${OTHER_ENTERPRISE}/organizations/${ORG_PODCASTS}/access`)).status).toBe(204);
  });

  it('a sales code’s owning user: matched without regard to case; a code no one owns, none, or another enterprise’s for the reseller, 404', async () => {
    const reseller = as('reseller@example.com');
    const owner = await reseller.get(`/api/internal/sales-codes/${DEMO_SALES_CODE.toLowerCase()}/owning-user`);
    expect(owner.status, owner.text).toBe(200);
    expect(owner.body as SalesCodeOwner).toEqual({
      Id: seedId('user:reseller@example.com'),
      Name: 'Robin Reseller',
      Email: 'reseller@example.com',
      EnterpriseId: DEMO_ENTERPRISE,
      EnterpriseName: 'Castaway Demo Group',
      SalesCode: DEMO_SALES_CODE,
    });
    for (const code of [RETIRED_SALES_CODE, 'NO-SUCH-CODE', OTHER_SALES_CODE, 'not a code!', 'x'.repeat(41)]) {
      expectNotFound(await reseller.get(`/api/internal/sales-codes/${encodeURIComponent(code)}/owning-user`), code);
    }
    const admin = await as('admin@example.com').get(`/api/internal/sales-codes/${OTHER_SALES_CODE}/owning-user`);
    expect(admin.status).toBe(200);
    expect(admin.body).toMatchObject({ Email: 'admin@example.com', EnterpriseId: OTHER_ENTERPRISE });
  });

  it('an unactivated reseller reads its enterprises but changes nothing (403 with a body)', async () => {
    await test.store.query(`UPDATE users SET activated = false WHERE email = 'reseller@example.com'`);
    try {
      const reseller = new AppClient(seeded.app);
      await reseller.login('reseller@example.com');
      expect((await reseller.get('/api/internal/enterprises')).status).toBe(200);
      const refused = await reseller.patch(DEMO_ORG_URL, { Notes: 'Unconfirmed' });
      expect(refused.status).toBe(403);
      expect(fields(refused)).toEqual([['account', 'accountNotActivated']]);
      expect((await reseller.send('PUT', `${DEMO_ORG_URL}/access`)).status).toBe(403);
    } finally {
      await test.store.query(`UPDATE users SET activated = true WHERE email = 'reseller@example.com'`);
    }
  });

  it('the demo’s enterprises are made again after `npm run seed -- --reset` empties the organizations and users', async () => {
    // What sync-server/seed-cli.ts empties: the enterprises themselves stay, the rows naming the organizations and users go.
    await test.store.exec(
      `TRUNCATE organizations, users, memberships, networks, programs, playlists, clips, recordings, annotations, row_revisions, sessions, api_keys, login_failures, support_enquiries CASCADE`,
    );
    await seed(test.store, { clips: 4 });
    const rows = await test.store.query<{ enterprise_id: string; organization_id: string }>(`SELECT enterprise_id, organization_id FROM enterprise_organizations ORDER BY organization_id`);
    expect(rows).toEqual(
      expect.arrayContaining([
        { enterprise_id: DEMO_ENTERPRISE, organization_id: ORG_DEMO },
        { enterprise_id: OTHER_ENTERPRISE, organization_id: ORG_PODCASTS },
      ]),
    );
    expect(await test.store.query(`SELECT key FROM sales_codes ORDER BY key`)).toHaveLength(3);
  });
});
