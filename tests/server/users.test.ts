// The organization's users (issue 31; section 7: DELETE /v1/users/{userId}, PUT
// /v1/users/{userId}/permissions; section 6's rules), on both stores: removing a member takes away
// their access to this organization and never another's; removing yourself is refused with a body (the
// caller manages users, so a removal cannot reach the last-manager rule of src/domain/users.ts: its
// unit test pins it); the last manager cannot lose Manage users at Organization scope through a
// permissions change (their own demotion), until another member has it; an organization-only flag
// outside Organization scope is a 400 naming the flag.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { createLogger } from '../../sync-server/observability/log.ts';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../sync-server/seed.ts';
import { AppClient, fields } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

type App = ReturnType<typeof createApp>;
type Errors = { Errors: Array<{ Field: string; Code: string; Message: string }> };

const NEWS = seedId('network:news');
const MORNING = seedId('program:morning');

describe.each(storeKinds)('users on %s', (kind) => {
  let t: TestStore;
  let app: App;
  beforeAll(async () => {
    t = await openTestStore(kind);
    await seed(t.store, { clips: 8 });
    app = createApp({ store: t.store, bus: createMemoryBus(), log: createLogger({ level: 'error' }) });
  }, 120_000);
  afterAll(async () => {
    await t?.drop();
  });

  const signIn = (email: string, organizationId = ORG_DEMO) => AppClient.signedIn(app, email, organizationId);

  it("DELETE /v1/users/{userId} removes the user's access to this organization and never another's", async () => {
    const producerId = seedId('user:producer@example.com');
    // The producer also belongs to Castaway Podcasts, with content access on Deep Dive.
    await t.store.query(
      `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version) VALUES ($1, $2, $3, now(), now(), next_row_version())`,
      [ORG_PODCASTS, producerId, JSON.stringify([{ ObjectType: 'Program', ObjectId: seedId('program:deepdive'), Permissions: { HasContentAccess: true } }])],
    );
    const demo = await signIn('demo@example.com');
    const producer = await signIn('producer@example.com');
    expect((await producer.get(`/api/v1/programs/${MORNING}/clips`)).status).toBe(200);

    const removed = await demo.delete(`/api/v1/users/${producerId}`);
    expect([removed.status, removed.text]).toEqual([204, '']);
    const emails = ((await demo.get('/api/v1/users')).body as { Items: Array<{ Email: string }> }).Items.map((u) => u.Email);
    expect(emails).not.toContain('producer@example.com');
    expect((await demo.get(`/api/v1/users/${producerId}`)).status).toBe(404);
    // Their open session loses this organization at its next request; the other one stays.
    expect((await producer.get(`/api/v1/programs/${MORNING}/clips`)).status).toBe(404);
    producer.organizationId = ORG_PODCASTS;
    expect((await producer.get(`/api/v1/programs/${seedId('program:deepdive')}/clips`)).status).toBe(200);
    const inPodcasts = await signIn('demo@example.com', ORG_PODCASTS);
    expect(((await inPodcasts.get(`/api/v1/users/${producerId}`)).body as { Email: string }).Email).toBe('producer@example.com');
    // Removed once: a second time it is not a member here.
    expect((await demo.delete(`/api/v1/users/${producerId}`)).status).toBe(404);
  });

  it('refuses removing yourself with a body naming userId; another organization’s user is not found', async () => {
    const demo = await signIn('demo@example.com');
    const self = await demo.delete(`/api/v1/users/${seedId('user:demo@example.com')}`);
    expect(self.status, self.text).toBe(400);
    expect(fields(self)).toEqual([['userId', 'invalid']]);
    expect((self.body as Errors).Errors[0]!.Message).toBe('You cannot remove yourself from the organization');
    const stranger = await demo.delete(`/api/v1/users/${seedId('user:reseller@example.com')}`);
    expect([stranger.status, stranger.text]).toEqual([404, '']);
    const analyst = await signIn('analyst@example.com');
    expect((await analyst.delete(`/api/v1/users/${seedId('user:support@example.com')}`)).status).toBe(403);
  });

  it('the last member who manages users keeps Manage users at Organization scope until another has it', async () => {
    // In the other organization the demo owner is its only user manager; the reseller has content access.
    const owner = await signIn('demo@example.com', ORG_PODCASTS);
    const ownerId = seedId('user:demo@example.com');
    const resellerId = seedId('user:reseller@example.com');
    const org = (flags: Record<string, boolean>) => [{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: flags }];
    const all = { HasAnalyticsAccess: true, HasAuditAccess: true, HasContentAccess: true, HasCreateProgramAccess: true, HasManageOrganizationSettingsAccess: true, HasManageSettingsAccess: true, HasManageUserAccess: true };
    const demoted = await owner.send('PUT', `/api/v1/users/${ownerId}/permissions`, { json: org({ HasContentAccess: true }) });
    expect(demoted.status, demoted.text).toBe(400);
    expect(fields(demoted)).toEqual([['body', 'invalid']]);
    expect((demoted.body as Errors).Errors[0]!.Message).toBe('This is the last user who can manage users: they keep Manage users at Organization scope until another user has it');
    expect((await owner.get('/api/v1/users')).status).toBe(200);
    // Another manager first; then the demotion goes through, and the new manager puts it back.
    expect((await owner.send('PUT', `/api/v1/users/${resellerId}/permissions`, { json: org({ HasContentAccess: true, HasManageUserAccess: true }) })).status).toBe(200);
    expect((await owner.send('PUT', `/api/v1/users/${ownerId}/permissions`, { json: org({ HasContentAccess: true }) })).status).toBe(200);
    const reseller = await signIn('reseller@example.com', ORG_PODCASTS);
    expect((await reseller.send('PUT', `/api/v1/users/${ownerId}/permissions`, { json: org(all) })).status).toBe(200);
    const restored = await signIn('demo@example.com', ORG_PODCASTS);
    expect((await restored.send('PUT', `/api/v1/users/${resellerId}/permissions`, { json: org({ HasContentAccess: true }) })).status).toBe(200);
  });

  it('an organization-only flag outside Organization scope is a 400 naming the flag; at Organization scope it is stored', async () => {
    const demo = await signIn('demo@example.com');
    const analystId = seedId('user:analyst@example.com');
    const atNetwork = await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, {
      json: [{ ObjectType: 'Network', ObjectId: NEWS, Permissions: { HasContentAccess: true, HasManageOrganizationSettingsAccess: true } }],
    });
    expect(atNetwork.status).toBe(400);
    expect(fields(atNetwork)).toEqual([['0.Permissions.HasManageOrganizationSettingsAccess', 'invalid']]);
    expect((atNetwork.body as Errors).Errors[0]!.Message).toBe('Organization settings access can be given only at Organization scope');
    const duplicate = await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, {
      json: [
        { ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } },
        { ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasAuditAccess: true } },
      ],
    });
    expect(fields(duplicate)).toEqual([['1.ObjectId', 'duplicateObjectId']]);
    const atOrganization = [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasAnalyticsAccess: true, HasManageOrganizationSettingsAccess: true } }];
    const stored = await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, { json: atOrganization });
    expect([stored.status, stored.body]).toEqual([200, atOrganization]);
  });

  it('permissions per user within a network and within a program: that entry set, the others kept, the rules held', async () => {
    const demo = await signIn('demo@example.com');
    const supportId = seedId('user:support@example.com');
    const bookclub = seedId('program:bookclub');
    // Support is at Organization scope: a Program entry beside it is mixed, a 400 naming body.
    const mixed = await demo.send('PUT', `/api/v1/programs/${MORNING}/users/${supportId}/permissions`, { json: { HasContentAccess: true } });
    expect(fields(mixed)).toEqual([['body', 'mixedObjectTypes']]);
    // A user with Program scope gets one more program, then that program's flags changed, then it taken away.
    const newbieId = seedId('user:newbie@example.com');
    expect((await demo.send('PUT', `/api/v1/users/${newbieId}/permissions`, { json: [{ ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } }] })).status).toBe(200);
    const added = await demo.send('PUT', `/api/v1/programs/${bookclub}/users/${newbieId}/permissions`, { json: { HasContentAccess: true, HasAnalyticsAccess: false } });
    expect([added.status, added.body]).toEqual([
      200,
      [
        { ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } },
        { ObjectType: 'Program', ObjectId: bookclub, Permissions: { HasContentAccess: true } },
      ],
    ]);
    const orgOnly = await demo.send('PUT', `/api/v1/programs/${bookclub}/users/${newbieId}/permissions`, { json: { HasManageOrganizationSettingsAccess: true } });
    expect(fields(orgOnly)).toEqual([['1.Permissions.HasManageOrganizationSettingsAccess', 'invalid']]);
    const removed = await demo.send('PUT', `/api/v1/programs/${MORNING}/users/${newbieId}/permissions`, { json: {} });
    expect(removed.body).toEqual([{ ObjectType: 'Program', ObjectId: bookclub, Permissions: { HasContentAccess: true } }]);
    // Network scope likewise; a user of another organization is not found; a member without manage-user access is refused.
    const analystId = seedId('user:analyst@example.com');
    expect((await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, { json: [] })).status).toBe(200);
    const atNetwork = await demo.send('PUT', `/api/v1/networks/${NEWS}/users/${analystId}/permissions`, { json: { HasAnalyticsAccess: true } });
    expect(atNetwork.body).toEqual([{ ObjectType: 'Network', ObjectId: NEWS, Permissions: { HasAnalyticsAccess: true } }]);
    expect((await demo.send('PUT', `/api/v1/networks/${NEWS}/users/${seedId('user:reseller@example.com')}/permissions`, { json: {} })).status).toBe(404);
    const support = await signIn('support@example.com');
    expect((await support.send('PUT', `/api/v1/programs/${bookclub}/users/${newbieId}/permissions`, { json: {} })).status).toBe(403);
  });

  it('a network’s user manager gives only the flags they hold there', async () => {
    const demo = await signIn('demo@example.com');
    const analystId = seedId('user:analyst@example.com');
    expect((await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, { json: [{ ObjectType: 'Network', ObjectId: NEWS, Permissions: { HasManageUserAccess: true, HasContentAccess: true } }] })).status).toBe(200);
    const analyst = await signIn('analyst@example.com');
    const newbieId = seedId('user:newbie@example.com');
    expect((await demo.send('PUT', `/api/v1/users/${newbieId}/permissions`, { json: [] })).status).toBe(200);
    expect((await analyst.send('PUT', `/api/v1/networks/${NEWS}/users/${newbieId}/permissions`, { json: { HasAuditAccess: true } })).status).toBe(403);
    const given = await analyst.send('PUT', `/api/v1/networks/${NEWS}/users/${newbieId}/permissions`, { json: { HasContentAccess: true } });
    expect([given.status, given.body]).toEqual([200, [{ ObjectType: 'Network', ObjectId: NEWS, Permissions: { HasContentAccess: true } }]]);
    // Not their network: Sport is not seen, so not found.
    expect((await analyst.send('PUT', `/api/v1/networks/${seedId('network:sport')}/users/${newbieId}/permissions`, { json: {} })).status).toBe(404);
  });
});
