// Grant access (POST /admin/users/me/organizations, sections 6 and 7) and the demo organizations'
// snapshots (POST /internal/demo-data, POST /internal/demo-data/restores, GET …/restores/{id}),
// on PGlite and PostgreSQL, against a small demo seed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Change } from '../../sync-server/bus.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { DemoRestoreOperationSchema } from '../../src/protocol/admin.ts';
import { RESTORE_ABANDONED_MS } from '../../sync-server/api/demo-data.ts';
import { INTRO_OUTRO_SWEEP_JOB } from '../../sync-server/audio/intro-outro.ts';
import { ClipSchema, OrganizationSchema, PlaylistSchema } from '../../src/protocol/entities.ts';
import type { PullResponse } from '../../src/protocol/sync.ts';
import { AppClient, fields, seededApp, type SeededApp, type TestClock } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const DEEPDIVE = seedId('program:deepdive');
const GRANT = '/api/admin/users/me/organizations';
const SAVE = '/api/internal/demo-data';
const RESTORES = '/api/internal/demo-data/restores';

type Paged = { Items: Array<Record<string, unknown>> };

describe.each(storeKinds)('grant access and demo snapshots on %s', (kind) => {
  let t: TestStore;
  let app: SeededApp['app'];
  let clock: TestClock;
  let changes: Change[];

  const as = (email: string, organizationId: string | null = ORG_DEMO) => AppClient.signedIn(app, email, organizationId);

  beforeAll(async () => {
    t = await openTestStore(kind);
    ({ app, changes, clock } = await seededApp(t.store));
  });
  afterAll(async () => {
    await t?.drop();
  });

  describe('POST /admin/users/me/organizations', () => {
    it('makes a support user a member who reads the organization content, answering 204 with no body', async () => {
      const support = await as('support@example.com', null);
      expect((await support.get(`/api/internal/users/me/organizations/${ORG_PODCASTS}`)).status).toBe(404);
      support.organizationId = ORG_PODCASTS;
      expect((await support.get('/api/v1/programs')).status).toBe(404);

      const reply = await support.post(GRANT, { OrganizationId: ORG_PODCASTS.toUpperCase() });
      expect(reply.status).toBe(204);
      expect(reply.text).toBe('');

      const org = OrganizationSchema.parse((await support.get(`/api/internal/users/me/organizations/${ORG_PODCASTS}`)).body);
      expect(org.UserPermissions).toEqual([{ ObjectType: 'Organization', ObjectId: ORG_PODCASTS, Permissions: { HasContentAccess: true, HasAuditAccess: true } }]);
      const clips = await support.get(`/api/v1/programs/${DEEPDIVE}/clips?pageSize=1`);
      expect(clips.status).toBe(200);
      expect((clips.body as Paged).Items).toHaveLength(1);
      // Two organizations now: the session says so (the menu then offers 'Switch organization').
      expect((await support.get('/api/internal/session')).body).toMatchObject({ UserBelongsToMultipleOrganizations: true });
    });

    it('gives an admin every flag, and leaves an existing membership as it is', async () => {
      const admin = await as('admin@example.com', null);
      expect((await admin.post(GRANT, { OrganizationId: ORG_PODCASTS })).status).toBe(204);
      const org = OrganizationSchema.parse((await admin.get(`/api/internal/users/me/organizations/${ORG_PODCASTS}`)).body);
      expect(org.UserPermissions[0]?.Permissions).toMatchObject({ HasManageOrganizationSettingsAccess: true, HasManageUserAccess: true, HasContentAccess: true });

      const support = await as('support@example.com', null);
      const before = OrganizationSchema.parse((await support.get(`/api/internal/users/me/organizations/${ORG_DEMO}`)).body);
      expect((await support.post(GRANT, { OrganizationId: ORG_DEMO })).status).toBe(204);
      const after = OrganizationSchema.parse((await support.get(`/api/internal/users/me/organizations/${ORG_DEMO}`)).body);
      expect(after.UserPermissions).toEqual(before.UserPermissions);
    });

    it('answers 404 with no body for an organization that does not exist', async () => {
      const admin = await as('admin@example.com', null);
      const reply = await admin.post(GRANT, { OrganizationId: randomUUID() });
      expect(reply.status).toBe(404);
      expect(reply.text).toBe('');
    });

    it('answers 400 naming OrganizationId when it is missing, or not a GUID, and for malformed JSON', async () => {
      const admin = await as('admin@example.com', null);
      const missing = await admin.post(GRANT, {});
      expect(missing.status).toBe(400);
      expect(fields(missing)).toEqual([['OrganizationId', 'required']]);
      expect(fields(await admin.post(GRANT, { OrganizationId: 'not-a-guid' }))).toEqual([['OrganizationId', 'invalid']]);
      expect(fields(await admin.post(GRANT, { OrganizationId: ORG_DEMO, Extra: 1 }))).toEqual([['Extra', 'invalid']]);
      const malformed = await admin.send('POST', GRANT, { raw: '{"OrganizationId":' });
      expect(malformed.status).toBe(400);
      expect(fields(malformed)).toEqual([['body', 'malformedJson']]);
    });

    it('refuses users who are neither admin nor support (403), anonymous callers (401) and a missing XSRF token (403)', async () => {
      const demo = await as('demo@example.com', null);
      const refused = await demo.post(GRANT, { OrganizationId: ORG_PODCASTS });
      expect(refused.status).toBe(403);
      expect(refused.text).toBe('');
      const reseller = await as('reseller@example.com', null);
      expect((await reseller.post(GRANT, { OrganizationId: ORG_DEMO })).status).toBe(403);
      expect((await new AppClient(app).post(GRANT, { OrganizationId: ORG_DEMO })).status).toBe(401);
      const admin = await as('admin@example.com', null);
      expect((await admin.send('POST', GRANT, { json: { OrganizationId: ORG_DEMO }, xsrf: false })).status).toBe(403);
    });
  });

  describe('demo snapshots', () => {
    async function clipsOf(client: AppClient, programId = MORNING) {
      const list = await client.get(`/api/v1/programs/${programId}/clips?pageSize=50`);
      return (list.body as Paged).Items.map((c) => ClipSchema.parse(c));
    }

    async function restore(client: AppClient) {
      const start = await client.post(RESTORES, undefined);
      expect(start.status, start.text).toBe(202);
      const operation = DemoRestoreOperationSchema.parse(start.body);
      expect(operation.Status).toBe('Busy');
      for (let i = 0; i < 200; i++) {
        const poll = await client.get(`${RESTORES}/${operation.Id}`);
        expect(poll.status).toBe(200);
        const progress = DemoRestoreOperationSchema.parse(poll.body);
        expect(progress.Id).toBe(operation.Id);
        if (progress.Status !== 'Busy') return progress;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the restore did not finish');
    }

    it('restoring before any snapshot was saved is 404; an unknown operation is 404', async () => {
      const demo = await as('demo@example.com');
      const reply = await demo.post(RESTORES, undefined);
      expect(reply.status).toBe(404);
      expect(reply.text).toBe('');
      expect((await demo.get(`${RESTORES}/${randomUUID()}`)).status).toBe(404);
      expect((await demo.get(`${RESTORES}/not-an-id`)).status).toBe(404);
    });

    it('is 403 in an organization that is not a demo organization, even with every flag', async () => {
      const demo = await as('demo@example.com', ORG_PODCASTS);
      expect((await demo.post(SAVE, undefined)).status).toBe(403);
      expect((await demo.post(RESTORES, undefined)).status).toBe(403);
    });

    it('is 403 for members without manage-organization-settings who are not admins', async () => {
      for (const email of ['analyst@example.com', 'producer@example.com', 'support@example.com']) {
        const member = await as(email);
        expect((await member.post(SAVE, undefined)).status, email).toBe(403);
        expect((await member.post(RESTORES, undefined)).status, email).toBe(403);
      }
      const demo = await as('demo@example.com');
      expect((await demo.send('POST', SAVE, { xsrf: false })).status).toBe(403);
    });

    it('restore brings back titles, clip order, deleted clips and slugs, deletes newer clips, and only rewrites what differs', async () => {
      const demo = await as('demo@example.com');
      const [changed, deleted, untouched] = await clipsOf(demo);
      const playlistId = seedId('playlist:morning:feed');
      const playlist = PlaylistSchema.parse((await demo.get(`/api/v1/playlists/${playlistId}`)).body);
      expect((await demo.post(SAVE, undefined)).status).toBe(204);

      clock.advance(60_000);
      expect((await demo.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: [...playlist.ClipIds].reverse() })).status).toBe(204);
      expect((await demo.patch(`/api/v1/clips/${changed!.Id}`, { Title: 'Changed after the snapshot', Slug: 'changed-after' })).status).toBe(200);
      expect((await demo.delete(`/api/v1/clips/${deleted!.Id}`)).status).toBe(204);
      const created = await demo.post(`/api/v1/programs/${MORNING}/clips`, { Title: 'Made after the snapshot', Slug: changed!.Slug });
      expect(created.status, created.text).toBe(201);
      const newClip = ClipSchema.parse(created.body);

      const pulled = (await demo.get('/api/sync/pull?limit=5000')).body as PullResponse;
      const cursor = pulled.cursor;
      changes.length = 0;
      clock.advance(60_000);
      expect((await restore(demo)).Status).toBe('Success');

      const back = ClipSchema.parse((await demo.get(`/api/v1/clips/${changed!.Id}`)).body);
      expect(back.Title).toBe(changed!.Title);
      expect(back.Slug).toBe(changed!.Slug);
      expect(back.ModifiedAtUtc).toBe(clock.now.toISOString());
      expect(back.ModifiedById).toBe(seedId('user:demo@example.com'));
      expect((await demo.get(`/api/v1/clips/${deleted!.Id}`)).status).toBe(200);
      expect((await demo.get(`/api/v1/clips/${newClip.Id}`)).status).toBe(404);
      expect(PlaylistSchema.parse((await demo.get(`/api/v1/playlists/${playlistId}`)).body).ClipIds).toEqual(playlist.ClipIds);
      const same = ClipSchema.parse((await demo.get(`/api/v1/clips/${untouched!.Id}`)).body);
      expect(same.Version).toBe(untouched!.Version);

      // Connected clients are poked, and their next pull brings exactly the rows the restore wrote.
      expect(changes.map((c) => c.organizationId)).toEqual([ORG_DEMO]);
      const next = (await demo.get(`/api/sync/pull?limit=5000&cursor=${encodeURIComponent(cursor)}`)).body as PullResponse;
      const ids = next.rows.map((r) => r.row.Id).sort();
      expect(ids).toEqual([changed!.Id, deleted!.Id, playlistId].sort());
      expect(next.tombstones).toEqual([{ entity: 'clips', id: newClip.Id }]);

      // A second restore finds nothing to write.
      changes.length = 0;
      expect((await restore(demo)).Status).toBe('Success');
      expect(changes).toEqual([]);
    });

    it('restore gives back the slugs that two clips swapped since the snapshot', async () => {
      const demo = await as('demo@example.com');
      expect((await demo.post(SAVE, undefined)).status).toBe(204);
      const [a, b] = (await clipsOf(demo)).filter((c) => !c.Deleted && c.Slug !== null);
      for (const [clip, slug] of [[a!, 'swapping-slugs'], [b!, a!.Slug], [a!, b!.Slug]] as const) {
        const reply = await demo.patch(`/api/v1/clips/${clip.Id}`, { Slug: slug });
        expect(reply.status, reply.text).toBe(200);
      }
      expect((await restore(demo)).Status).toBe('Success');
      expect(ClipSchema.parse((await demo.get(`/api/v1/clips/${a!.Id}`)).body).Slug).toBe(a!.Slug);
      expect(ClipSchema.parse((await demo.get(`/api/v1/clips/${b!.Id}`)).body).Slug).toBe(b!.Slug);
    });

    it('a program made after the snapshot is deleted by the restore, and its intro and outro are swept as after any deletion', async () => {
      const demo = await as('demo@example.com');
      expect((await demo.post(SAVE, undefined)).status).toBe(204);
      const made = await demo.post('/api/v1/programs', { Name: `After the snapshot ${randomUUID().slice(0, 8)}` });
      expect(made.status, made.text).toBeLessThan(300);
      const programId = (made.body as { Id: string }).Id;
      const sweeps = () =>
        t.store.query<{ id: string }>(`SELECT id FROM jobs WHERE kind = $1 AND state = 'queued' AND payload->>'programId' = $2`, [INTRO_OUTRO_SWEEP_JOB, programId]);
      expect(await sweeps()).toEqual([]);
      expect((await restore(demo)).Status).toBe('Success');
      expect((await demo.get(`/api/v1/programs/${programId}`)).status).toBe(404);
      expect(await sweeps()).toHaveLength(1);
      // A second restore deletes nothing more and queues nothing more.
      expect((await restore(demo)).Status).toBe('Success');
      expect(await sweeps()).toHaveLength(1);
    });

    it('a restore still Busy after 10 minutes (its server stopped) reads as Failed, so clients stop polling', async () => {
      const demo = await as('demo@example.com');
      const id = randomUUID();
      await t.store.query(
        `INSERT INTO demo_restore_operations (id, organization_id, user_id, status, started_at_utc) VALUES ($1, $2, $3, 'Busy', $4)`,
        [id, ORG_DEMO, seedId('user:demo@example.com'), new Date(clock.now.getTime() - RESTORE_ABANDONED_MS + 1000)],
      );
      expect((await demo.get(`${RESTORES}/${id}`)).body).toEqual({ Id: id, Status: 'Busy' });
      clock.advance(2000);
      expect((await demo.get(`${RESTORES}/${id}`)).body).toEqual({ Id: id, Status: 'Failed' });
      // Polled from an organization that is not a demo organization: refused like every snapshot call there.
      expect((await (await as('demo@example.com', ORG_PODCASTS)).get(`${RESTORES}/${id}`)).status).toBe(403);
    });

    it('an admin without manage-organization-settings may save and restore', async () => {
      const admin = await as('admin@example.com');
      const demo = await as('demo@example.com');
      // Take the admin's organization-settings right away (the seed gives the admin every flag).
      const adminId = seedId('user:admin@example.com');
      const entries = [{ ObjectType: 'Organization', ObjectId: ORG_DEMO, Permissions: { HasContentAccess: true } }];
      expect((await demo.send('PUT', `/api/v1/users/${adminId}/permissions`, { json: entries })).status).toBe(200);
      expect((await admin.post(SAVE, undefined)).status).toBe(204);
      expect((await restore(admin)).Status).toBe('Success');
    });
  });
});
