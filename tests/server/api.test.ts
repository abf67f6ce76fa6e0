// The API of specification section 7 through app.request, on PGlite and PostgreSQL, against a
// small deterministic demo seed (48 clips; tests/server/demo-seed.test.ts checks the full one).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey } from '../../sync-server/auth.ts';
import type { Change } from '../../sync-server/bus.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import type { WireRow } from '../../sync-server/rows.ts';
import { revisionRows } from '../../sync-server/sync/revisions.ts';
import { BadRequestBodySchema } from '../../src/protocol/errors.ts';
import { ClipSchema, NetworkSchema, PlaylistSchema, ProgramSchema, RecordingSchema, SessionSchema, AnnotationSchema } from '../../src/protocol/entities.ts';
import { AppClient, fields, seededApp, type Reply, type SeededApp, type TestClock } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');
const DEEPDIVE = seedId('program:deepdive');
const NEWS = seedId('network:news');

type Paged = { Items: Array<Record<string, unknown>>; HasNext: boolean; Page: number };

describe.each(storeKinds)('API on %s', (kind) => {
  let t: TestStore;
  let app: SeededApp['app'];
  let clock: TestClock;
  let changes: Change[];
  let demo: AppClient;

  beforeAll(async () => {
    t = await openTestStore(kind);
    ({ app, changes, clock } = await seededApp(t.store));
    demo = new AppClient(app);
    await demo.login('demo@example.com');
  });
  afterAll(async () => {
    await t?.drop();
  });

  async function firstClip(programId = MORNING) {
    const list = await demo.get(`/api/v1/programs/${programId}/clips?page=1&pageSize=1`);
    return ClipSchema.parse((list.body as Paged).Items[0]);
  }

  describe('session, XSRF and organization context', () => {
    it('reports loggedOut, then activated with the user after login; unactivated for a new user', async () => {
      const anon = new AppClient(app);
      expect((await anon.get('/api/internal/session')).body).toEqual({ Type: 'loggedOut', User: null, UserBelongsToMultipleOrganizations: false });
      const session = SessionSchema.parse((await demo.get('/api/internal/session')).body);
      expect(session.Type).toBe('activated');
      expect(session.User?.Email).toBe('demo@example.com');
      expect(session.UserBelongsToMultipleOrganizations).toBe(true);
      const newbie = new AppClient(app);
      await newbie.login('newbie@example.com');
      expect(((await newbie.get('/api/internal/session')).body as { Type: string }).Type).toBe('unactivated');
    });

    it('sets an HttpOnly SameSite=Lax session cookie, Secure only over https', async () => {
      const plain = await app.request('/api/internal/session/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Email: 'analyst@example.com', Password: 'castaway-demo' }),
      });
      const cookie = plain.headers.get('set-cookie')!;
      expect(cookie).toMatch(/^castaway_session=/);
      expect(cookie).toContain('HttpOnly');
      expect(cookie).toContain('SameSite=Lax');
      expect(cookie).not.toContain('Secure');
      const secure = await app.request('https://studio.example/api/internal/session/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ Email: 'analyst@example.com', Password: 'castaway-demo' }),
      });
      expect(secure.headers.get('set-cookie')).toContain('Secure');
    });

    it('refuses a write without the x-xsrf-token header, or with a wrong one, with 403', async () => {
      const clip = await firstClip();
      const missing = await demo.send('PATCH', `/api/v1/clips/${clip.Id}`, { json: { Title: 'No token' }, xsrf: false });
      expect(missing.status).toBe(403);
      expect(missing.text).toBe('');
      const wrong = await demo.send('PATCH', `/api/v1/clips/${clip.Id}`, { json: { Title: 'Wrong token' }, headers: { 'x-xsrf-token': 'forged' } });
      expect(wrong.status).toBe(403);
      const after = ClipSchema.parse((await demo.get(`/api/v1/clips/${clip.Id}`)).body);
      expect(after.Title).toBe(clip.Title);
    });

    it('answers 401 without a session and 400 naming Email and Password for an empty login', async () => {
      const anon = new AppClient(app);
      expect((await anon.get('/api/v1/programs')).status).toBe(401);
      const empty = await anon.post('/api/internal/session/login', { Email: '', Password: '' });
      expect(empty.status).toBe(400);
      expect(BadRequestBodySchema.parse(empty.body).Errors.map((e) => [e.Field, e.Message])).toEqual([
        ['Email', 'Please enter an email address'],
        ['Password', 'Please enter your password'],
      ]);
      const wrong = await anon.post('/api/internal/session/login', { Email: 'demo@example.com', Password: 'not-the-password' });
      expect(wrong.status).toBe(401);
    });

    it('throttles repeated failed logins with 429, even for the right password afterwards', async () => {
      const anon = new AppClient(app);
      for (let i = 0; i < 5; i++) {
        expect((await anon.post('/api/internal/session/login', { Email: 'support@example.com', Password: `wrong-${i}` })).status).toBe(401);
      }
      const locked = await anon.post('/api/internal/session/login', { Email: 'support@example.com', Password: 'castaway-demo' });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      clock.advance(16 * 60 * 1000);
      await anon.login('support@example.com');
    });

    it('ends the session with POST /internal/session/logout and POST /logout?redirectUrl=', async () => {
      const c = new AppClient(app);
      await c.login('analyst@example.com');
      expect((await c.send('POST', '/api/internal/session/logout', { xsrf: false })).status).toBe(403);
      expect((await c.send('POST', '/api/internal/session/logout')).status).toBe(204);
      expect(((await c.get('/api/internal/session')).body as { Type: string }).Type).toBe('loggedOut');
      const d = new AppClient(app);
      await d.login('analyst@example.com');
      const saved = d.cookie;
      const out = await d.send('POST', '/api/logout?redirectUrl=/login');
      expect(out.status).toBe(302);
      expect(out.headers.get('location')).toBe('/login');
      d.cookie = saved;
      expect((await d.get('/api/v1/programs')).status).toBe(401);
    });

    it('POST /logout never redirects to another site', async () => {
      for (const away of ['https://evil.example/', '//evil.example', '/\\evil.example', '/\t/evil.example', '/..//evil.example', '/x/../..//evil.example', 'javascript:alert(1)']) {
        const c = new AppClient(app);
        await c.login('analyst@example.com');
        const out = await c.send('POST', `/api/logout?redirectUrl=${encodeURIComponent(away)}`);
        expect(out.status, away).toBe(204);
        expect(out.headers.get('location'), away).toBeNull();
      }
    });

    it('lists the user organizations with their permission entries and picks one with x-organization-id', async () => {
      const orgs = (await demo.get('/api/internal/users/me/organizations')).body as Array<{ Id: string; Name: string; IsDemoOrganization: boolean; Provider: string }>;
      expect(orgs.map((o) => [o.Name, o.IsDemoOrganization, o.Provider])).toEqual([
        ['Castaway Demo Radio', true, 'Broadcaster'],
        ['Castaway Podcasts', false, 'Podcaster'],
      ]);
      expect((await demo.get(`/api/internal/users/me/organizations/${ORG_PODCASTS}`)).status).toBe(200);
      const podcasts = await demo.get('/api/v1/programs', { 'x-organization-id': ORG_PODCASTS });
      expect((podcasts.body as Paged).Items.map((p) => p.Name)).toEqual(['After Hours', 'Deep Dive', 'Tinkerers']);
      const perms = (await demo.get('/api/internal/users/me/organizations/permissions', { 'x-organization-id': ORG_DEMO })).body as {
        Permissions: Array<{ ObjectType: string }>;
      };
      expect(perms.Permissions[0]!.ObjectType).toBe('Organization');
    });

    it('answers 404 (no body) for an organization the user does not belong to, and for its rows', async () => {
      const producer = new AppClient(app);
      await producer.login('producer@example.com');
      const other = await producer.get('/api/v1/programs', { 'x-organization-id': ORG_PODCASTS });
      expect(other.status).toBe(404);
      expect(other.text).toBe('');
      expect((await producer.get(`/api/internal/users/me/organizations/${ORG_PODCASTS}`)).status).toBe(404);
      expect((await producer.get(`/api/v1/programs/${DEEPDIVE}`)).status).toBe(404);
      const podcastClip = (await demo.get(`/api/v1/programs/${DEEPDIVE}/clips?pageSize=1`, { 'x-organization-id': ORG_PODCASTS })).body as Paged;
      expect((await demo.get(`/api/v1/clips/${podcastClip.Items[0]!.Id}`)).status).toBe(404);
    });

    it('accepts an Authorization: Bearer API key (no XSRF needed) and rejects an unknown one with 401', async () => {
      const { key } = await createApiKey(t.store, { organizationId: ORG_DEMO, userId: seedId('user:demo@example.com'), name: 'test', now: clock.now });
      const clip = await firstClip();
      const response = await app.request(`/api/v1/clips/${clip.Id}`, {
        method: 'PATCH',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ Description: 'Set with an API key' }),
      });
      expect(response.status).toBe(200);
      expect(((await response.json()) as { Description: string }).Description).toBe('Set with an API key');
      const bad = await app.request('/api/v1/programs', { headers: { authorization: 'Bearer cak_nope' } });
      expect(bad.status).toBe(401);
      const otherOrg = await app.request('/api/v1/programs', { headers: { authorization: `Bearer ${key}`, 'x-organization-id': ORG_PODCASTS } });
      expect(otherOrg.status).toBe(404);
    });
  });

  describe('clips', () => {
    it('GET carries ModifiedAtUtc as ETag; PATCH writes, bumps Version and ModifiedAtUtc, and publishes after commit', async () => {
      const clip = await firstClip();
      const got = await demo.get(`/api/v1/clips/${clip.Id}`);
      expect(got.headers.get('etag')).toBe(`"${clip.ModifiedAtUtc}"`);
      changes.length = 0;
      const patched = await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: 'Edited title' }, { 'if-match': `"${clip.ModifiedAtUtc}"` });
      expect(patched.status, patched.text).toBe(200);
      const row = ClipSchema.parse(patched.body);
      expect(row.Title).toBe('Edited title');
      expect(row.Version).toBeGreaterThan(clip.Version);
      expect(Date.parse(row.ModifiedAtUtc)).toBeGreaterThan(Date.parse(clip.ModifiedAtUtc));
      expect(row.ModifiedAtUtc).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
      expect(changes).toEqual([{ organizationId: ORG_DEMO, version: row.Version }]);
      const back = ClipSchema.parse((await demo.get(`/api/v1/clips/${clip.Id}`)).body);
      expect(back.Title).toBe('Edited title');
      expect(back.ModifiedAtUtc).toBe(row.ModifiedAtUtc);
    });

    it('keeps ModifiedAtUtc strictly increasing when the clock has not moved (+1 ms)', async () => {
      const clip = await firstClip();
      const a = ClipSchema.parse((await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: 'One' })).body);
      const b = ClipSchema.parse((await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: 'Two' })).body);
      const c = ClipSchema.parse((await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: 'Three' })).body);
      expect(Date.parse(b.ModifiedAtUtc) - Date.parse(a.ModifiedAtUtc)).toBe(1);
      expect(Date.parse(c.ModifiedAtUtc) - Date.parse(b.ModifiedAtUtc)).toBe(1);
      expect(b.Version).toBeGreaterThan(a.Version);
    });

    it('answers a stale If-Match with 412 and the current row, and writes nothing', async () => {
      const clip = await firstClip();
      const fresh = ClipSchema.parse((await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: 'Fresh' })).body);
      const stale = await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: 'Stale' }, { 'if-match': `"${clip.ModifiedAtUtc}"` });
      expect(stale.status).toBe(412);
      expect(ClipSchema.parse(stale.body)).toEqual(fresh);
      expect(stale.headers.get('etag')).toBe(`"${fresh.ModifiedAtUtc}"`);
      const staleDelete = await demo.delete(`/api/v1/clips/${clip.Id}`, { 'if-match': `"${clip.ModifiedAtUtc}"` });
      expect(staleDelete.status).toBe(412);
      expect(ClipSchema.parse((await demo.get(`/api/v1/clips/${clip.Id}`)).body).Title).toBe('Fresh');
    });

    it('creates a clip with a client-supplied UUID, lists it, soft-deletes it and shows it with includeDeleted', async () => {
      const id = randomUUID();
      const created = await demo.post(`/api/v1/programs/${WORLD}/clips`, { Id: id, Title: 'Made offline', Season: 2, Episode: 5 });
      expect(created.status, created.text).toBe(201);
      const clip = ClipSchema.parse(created.body);
      expect(clip).toMatchObject({ Id: id, ProgramId: WORLD, State: 'Draft', Visibility: 'Private', OrganizationId: ORG_DEMO, Deleted: false });
      expect((await demo.post(`/api/v1/programs/${WORLD}/clips`, { Id: id, Title: 'Again' })).status).toBe(409);
      const byIds = (await demo.get(`/api/v1/clips?clipIds=${id},${id}`)).body as Paged;
      expect(byIds.Items.map((c) => c.Id)).toEqual([id]);
      expect((await demo.delete(`/api/v1/clips/${id}`)).status).toBe(204);
      expect((await demo.get(`/api/v1/clips/${id}`)).status).toBe(404);
      expect((await demo.patch(`/api/v1/clips/${id}`, { Title: 'x' })).status).toBe(404);
      expect(((await demo.get(`/api/v1/clips?clipIds=${id}`)).body as Paged).Items).toEqual([]);
      const withDeleted = (await demo.get(`/api/v1/clips?clipIds=${id}&includeDeleted=true`)).body as Paged;
      expect(withDeleted.Items[0]).toMatchObject({ Id: id, Deleted: true });
    });

    it('turns a whitespace title into null and names every invalid field with its code and message', async () => {
      const clip = await firstClip();
      const blank = ClipSchema.parse((await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: '   ' })).body);
      expect(blank.Title).toBeNull();
      const bad = await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: 'x'.repeat(256), Episode: -1, Season: 1.5 });
      expect(bad.status).toBe(400);
      expect(fields(bad)).toEqual([
        ['Title', 'tooLong'],
        ['Episode', 'outOfRange'],
        ['Season', 'invalid'],
      ]);
      expect(BadRequestBodySchema.parse(bad.body).Errors[0]!.Message).toBe('Title must be 255 characters or shorter');
      const types = await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: 42, Visibility: 'Everyone', Nope: true });
      expect(types.status).toBe(400);
      expect(fields(types).map(([f]) => f).sort()).toEqual(['Nope', 'Title', 'Visibility']);
    });

    it('enforces slugs: format, reserved (SlugReservationFailed), unique per program (SlugExists)', async () => {
      const [a, b] = ((await demo.get(`/api/v1/programs/${WORLD}/clips?pageSize=2`)).body as Paged).Items.map((c) => ClipSchema.parse(c));
      expect((await demo.patch(`/api/v1/clips/${a!.Id}`, { Slug: 'shared-slug' })).status).toBe(200);
      const taken = await demo.patch(`/api/v1/clips/${b!.Id}`, { Slug: 'shared-slug' });
      expect(taken.status).toBe(400);
      expect(BadRequestBodySchema.parse(taken.body).Errors).toEqual([
        { Field: 'Slug', Code: 'SlugExists', Message: 'This slug is already in use in this program', MessageKey: 'domain_slug_exists_in_program' },
      ]);
      const reserved = await demo.patch(`/api/v1/clips/${b!.Id}`, { Slug: 'admin' });
      expect(BadRequestBodySchema.parse(reserved.body).Errors).toEqual([
        { Field: 'Slug', Code: 'SlugReservationFailed', Message: 'This slug is reserved for use by the product', MessageKey: 'domain_slug_reserved' },
      ]);
      const malformed = await demo.patch(`/api/v1/clips/${b!.Id}`, { Slug: 'Not A Slug' });
      expect(fields(malformed)).toEqual([['Slug', 'invalid']]);
      // Another program may use the same slug.
      const other = await firstClip(MORNING);
      expect((await demo.patch(`/api/v1/clips/${other.Id}`, { Slug: 'shared-slug' })).status).toBe(200);
    });

    it('makes a clip Public only with a Slug, then sets PublishedUtc and the embed and show-page URLs', async () => {
      const clip = ClipSchema.parse((await demo.post(`/api/v1/programs/${WORLD}/clips`, { Title: 'To publish' })).body);
      const noSlug = await demo.patch(`/api/v1/clips/${clip.Id}`, { Visibility: 'Public' });
      expect(BadRequestBodySchema.parse(noSlug.body).Errors).toEqual([{ Field: 'Slug', Code: 'required', Message: 'You must enter a slug', MessageKey: 'domain_slug_required' }]);
      const pub = ClipSchema.parse((await demo.patch(`/api/v1/clips/${clip.Id}`, { Visibility: 'Public', Slug: 'to-publish' })).body);
      expect(pub.PublishedUtc).not.toBeNull();
      expect(pub.Urls.EmbedUrl).toContain(clip.Id);
      // Site-relative public paths (src/domain/public-urls.ts): a program by its id, the clip by its slug.
      expect(pub.Urls.EmbedUrl).toBe(`/embed/${clip.Id}`);
      expect(pub.Urls.ShowPageUrl).toBe(`/shows/${WORLD}/to-publish`);
      const restricted = ClipSchema.parse((await demo.patch(`/api/v1/clips/${clip.Id}`, { Visibility: 'Restricted' })).body);
      expect(restricted.Urls.EmbedUrl).toBeNull();
      expect(restricted.Urls.ShowPageUrl).toBeNull();
      const half = await demo.patch(`/api/v1/clips/${clip.Id}`, { ScheduledVisibility: 'Public' });
      expect(fields(half)).toEqual([['VisibleAtUtc', 'required']]);
      const scheduled = ClipSchema.parse(
        (await demo.patch(`/api/v1/clips/${clip.Id}`, { ScheduledVisibility: 'Public', VisibleAtUtc: '2031-01-01T08:00:00+01:00' })).body,
      );
      expect(scheduled.VisibleAtUtc).toBe('2031-01-01T07:00:00.000Z');
    });

    it('pages program clips: page from 1, pageSize 1..2500, past the end is empty', async () => {
      const all = (await demo.get(`/api/v1/programs/${MORNING}/clips`)).body as Paged;
      expect(all.Page).toBe(1);
      expect(all.HasNext).toBe(false);
      const n = all.Items.length;
      expect(n).toBeGreaterThanOrEqual(4);
      const p1 = (await demo.get(`/api/v1/programs/${MORNING}/clips?page=1&pageSize=2`)).body as Paged;
      const p2 = (await demo.get(`/api/v1/programs/${MORNING}/clips?page=2&pageSize=2`)).body as Paged;
      expect(p1.HasNext).toBe(true);
      expect([...p1.Items, ...p2.Items].map((c) => c.Id)).toEqual(all.Items.slice(0, 4).map((c) => c.Id));
      const past = (await demo.get(`/api/v1/programs/${MORNING}/clips?page=99&pageSize=2500`)).body as Paged;
      expect(past).toEqual({ Items: [], HasNext: false, Page: 99 });
      for (const [query, field] of [
        ['pageSize=0', 'pageSize'],
        ['pageSize=2501', 'pageSize'],
        ['pageSize=ten', 'pageSize'],
        ['page=0', 'page'],
      ] as const) {
        const reply = await demo.get(`/api/v1/programs/${MORNING}/clips?${query}`);
        expect(reply.status, query).toBe(400);
        expect(fields(reply).map(([f]) => f)).toEqual([field]);
      }
      const outOfRange = await demo.get(`/api/v1/programs/${MORNING}/clips?pageSize=2501`);
      expect(BadRequestBodySchema.parse(outOfRange.body).Errors[0]).toMatchObject({ Code: 'outOfRange', Message: 'Enter a number between 1 and 2500' });
    });

    it('filters by visibilityFilter (comma-joined) and rejects unknown values and bad ids', async () => {
      const list = (await demo.get(`/api/v1/programs/${MORNING}/clips?visibilityFilter=Public,Unlisted`)).body as Paged;
      expect(list.Items.every((c) => c.Visibility === 'Public' || c.Visibility === 'Unlisted')).toBe(true);
      expect(fields(await demo.get(`/api/v1/programs/${MORNING}/clips?visibilityFilter=Everyone`))).toEqual([['visibilityFilter', 'invalid']]);
      const badIds = await demo.get('/api/v1/clips?clipIds=not-a-guid');
      expect(BadRequestBodySchema.parse(badIds.body).Errors[0]).toMatchObject({ Field: 'clipIds', Message: 'Not a valid GUID' });
      expect((await demo.get('/api/v1/clips/not-a-guid')).status).toBe(404);
    });

    it('answers malformed JSON with 400 and a body, and an oversized body with 413 and a body', async () => {
      const clip = await firstClip();
      const malformed = await demo.send('PATCH', `/api/v1/clips/${clip.Id}`, { raw: '{"Title": ' });
      expect(malformed.status).toBe(400);
      expect(fields(malformed)).toEqual([['body', 'malformedJson']]);
      const array = await demo.send('PATCH', `/api/v1/clips/${clip.Id}`, { raw: '[1,2]' });
      expect(array.status).toBe(400);
      const huge = await demo.send('PATCH', `/api/v1/clips/${clip.Id}`, { raw: JSON.stringify({ Description: 'x'.repeat(1_100_000) }) });
      expect(huge.status).toBe(413);
      expect(fields(huge)).toEqual([['', 'payloadTooLarge']]);
      // In English with the catalogue key and the limit, so a client says it in its user's language.
      expect((huge.body as { Errors: unknown[] }).Errors).toEqual([
        { Field: '', Code: 'payloadTooLarge', Message: 'The request body is larger than 1 MB', MessageKey: 'domain_body_too_large', Params: { maxSize: 1048576 } },
      ]);
    });
  });

  describe('permissions of section 6', () => {
    it('gives the producer content access to two programs only (404 for the rows of the others: they cannot see them)', async () => {
      const producer = new AppClient(app);
      await producer.login('producer@example.com');
      const programs = (await producer.get('/api/v1/programs')).body as Paged;
      expect(programs.Items.map((p) => p.Name)).toEqual(['Book Club', 'Morning Briefing']);
      expect((await producer.get(`/api/v1/programs/${MORNING}/clips`)).status).toBe(200);
      const worldClip = await firstClip(WORLD);
      expect((await producer.get(`/api/v1/clips/${worldClip.Id}`)).status).toBe(404);
      expect((await producer.patch(`/api/v1/clips/${worldClip.Id}`, { Title: 'Not mine' })).status).toBe(404);
      expect((await producer.get(`/api/v1/programs/${WORLD}/clips`)).status).toBe(404);
      const mine = await firstClip(MORNING);
      expect((await producer.patch(`/api/v1/clips/${mine.Id}`, { Title: 'Producer edit' })).status).toBe(200);
      expect((await producer.post('/api/v1/networks', { Name: 'Nope' })).status).toBe(403);
      expect((await producer.post('/api/v1/programs', { Name: 'Nope' })).status).toBe(403);
      expect((await producer.get('/api/v1/users')).status).toBe(403);
      const clips = (await producer.get('/api/v1/clips')).body as Paged;
      expect(new Set(clips.Items.map((c) => c.ProgramId))).toEqual(new Set([MORNING, seedId('program:bookclub')]));
    });

    it('lets the analytics-only analyst see programs but no clips, playlists or recordings', async () => {
      const analyst = new AppClient(app);
      await analyst.login('analyst@example.com');
      expect(((await analyst.get('/api/v1/programs')).body as Paged).Items.length).toBe(9);
      expect((await analyst.get(`/api/v1/programs/${MORNING}/clips`)).status).toBe(403);
      expect(((await analyst.get('/api/v1/clips')).body as Paged).Items).toEqual([]);
      expect(((await analyst.get('/api/v1/playlists')).body as Paged).Items).toEqual([]);
      expect(((await analyst.get('/api/v1/recordings')).body as Paged).Items).toEqual([]);
    });

    it('lists the organization users with their permission entries for a user manager only', async () => {
      const users = (await demo.get('/api/v1/users')).body as Paged;
      expect(users.Items.map((u) => u.Email)).toContain('producer@example.com');
      expect(users.Items.find((u) => u.Email === 'reseller@example.com')).toBeUndefined();
      const producerId = seedId('user:producer@example.com');
      const one = (await demo.get(`/api/v1/users/${producerId}`)).body as { Permissions: Array<{ ObjectType: string }> };
      expect(one.Permissions.map((p) => p.ObjectType)).toEqual(['Program', 'Program']);
      expect((await demo.get(`/api/v1/users/${seedId('user:reseller@example.com')}`)).status).toBe(404);
    });
    it('sets a user permission entries with PUT /v1/users/{userId}/permissions, rejecting duplicates and mixed types', async () => {
      const analystId = seedId('user:analyst@example.com');
      const dup = await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, {
        json: [
          { ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } },
          { ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasAuditAccess: true } },
        ],
      });
      expect(BadRequestBodySchema.parse(dup.body).Errors[0]).toMatchObject({ Code: 'duplicateObjectId', Message: `Permissions are given twice for "${MORNING}"` });
      const mixed = await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, {
        json: [
          { ObjectType: 'Program', ObjectId: MORNING, Permissions: { HasContentAccess: true } },
          { ObjectType: 'Network', ObjectId: NEWS, Permissions: { HasContentAccess: true } },
        ],
      });
      expect(fields(mixed)).toEqual([['body', 'mixedObjectTypes']]);
      const foreign = await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, {
        json: [{ ObjectType: 'Program', ObjectId: DEEPDIVE, Permissions: { HasContentAccess: true } }],
      });
      expect(fields(foreign)).toEqual([['0.ObjectId', 'invalid']]);
      const ok = await demo.send('PUT', `/api/v1/users/${analystId}/permissions`, {
        json: [{ ObjectType: 'Network', ObjectId: NEWS, Permissions: { HasContentAccess: true } }],
      });
      expect(ok.status).toBe(200);
      const analyst = new AppClient(app);
      await analyst.login('analyst@example.com');
      const programs = (await analyst.get('/api/v1/programs')).body as Paged;
      expect(programs.Items.map((p) => p.Name)).toEqual(['Business Hour', 'Morning Briefing', 'World Tonight']);
      expect((await analyst.get(`/api/v1/programs/${MORNING}/clips`)).status).toBe(200);
      expect((await analyst.send('PUT', `/api/v1/users/${analystId}/permissions`, { json: [] })).status).toBe(403);
      expect((await demo.send('PUT', `/api/v1/users/${seedId('user:reseller@example.com')}/permissions`, { json: [] })).status).toBe(404);
    });

    it('lists who has access to a network or a program, and user profiles by id', async () => {
      const morningUsers = (await demo.get(`/api/v1/programs/${MORNING}/users`)).body as Paged;
      const emails = morningUsers.Items.map((u) => u.Email);
      expect(emails).toContain('producer@example.com');
      expect(emails).not.toContain('reseller@example.com');
      const filtered = (await demo.get(`/api/v1/programs/${MORNING}/users?filter=PRODUCER`)).body as Paged;
      expect(filtered.Items.map((u) => u.Email)).toEqual(['producer@example.com']);
      const bookclubNetwork = (await demo.get(`/api/v1/networks/${seedId('network:sport')}/users`)).body as Paged;
      expect(bookclubNetwork.Items.map((u) => u.Email)).not.toContain('producer@example.com');
      const producer = new AppClient(app);
      await producer.login('producer@example.com');
      expect((await producer.get(`/api/v1/programs/${MORNING}/users`)).status).toBe(403);
      const ids = [seedId('user:producer@example.com'), seedId('user:reseller@example.com')];
      const profiles = (await producer.get(`/api/v1/user-profiles?userIds=${ids.join(',')}`)).body as { Items: Array<{ Name: string }> };
      expect(profiles.Items.map((p) => p.Name)).toEqual(['Pat Producer']);
    });

    it('lets a user change their own InterfaceLanguage with PATCH /internal/users/me', async () => {
      const c = new AppClient(app);
      await c.login('reseller@example.com');
      const changed = await c.patch('/api/internal/users/me', { InterfaceLanguage: 'de-DE' });
      expect(changed.status).toBe(200);
      expect(((await c.get('/api/internal/session')).body as { User: { InterfaceLanguage: string } }).User.InterfaceLanguage).toBe('de-DE');
      expect(fields(await c.patch('/api/internal/users/me', { InterfaceLanguage: 'xx-XX' }))).toEqual([['InterfaceLanguage', 'invalid']]);
    });
  });

  describe('networks, programs and playlists', () => {
    it('creates, renames and deletes a network; validates its name', async () => {
      const empty = await demo.post('/api/v1/networks', { Name: ' ' });
      expect(BadRequestBodySchema.parse(empty.body).Errors).toEqual([{ Field: 'Name', Code: 'required', Message: 'You must enter a name', MessageKey: 'domain_name_required' }]);
      const net = NetworkSchema.parse((await demo.post('/api/v1/networks', { Name: 'Castaway Weather' })).body);
      const renamed = NetworkSchema.parse((await demo.patch(`/api/v1/networks/${net.Id}`, { Name: 'Castaway Weather & Travel' }, { 'if-match': `"${net.ModifiedAtUtc}"` })).body);
      expect(renamed.Name).toBe('Castaway Weather & Travel');
      expect(((await demo.get('/api/v1/networks')).body as Paged).Items.map((n) => n.Name)).toContain('Castaway Weather & Travel');
      expect((await demo.delete(`/api/v1/networks/${net.Id}`)).status).toBe(204);
      expect((await demo.get(`/api/v1/networks/${net.Id}`)).status).toBe(404);
      const deleted = (await demo.get('/api/v1/networks?includeDeleted=true')).body as Paged;
      expect(deleted.Items.find((n) => n.Id === net.Id)).toMatchObject({ Deleted: true });
    });

    it('creates a program in a network, lists it under the network, and rejects a taken program slug', async () => {
      const program = ProgramSchema.parse((await demo.post('/api/v1/programs', { Name: 'Night Desk', NetworkId: NEWS, Slug: 'night-desk' })).body);
      const under = (await demo.get(`/api/v1/networks/${NEWS}/programs`)).body as Paged;
      expect(under.Items.map((p) => p.Id)).toContain(program.Id);
      const again = await demo.post('/api/v1/programs', { Name: 'Night Desk 2', Slug: 'night-desk' });
      expect(BadRequestBodySchema.parse(again.body).Errors).toEqual([{ Field: 'Slug', Code: 'SlugExists', Message: 'This slug is already in use', MessageKey: 'domain_slug_exists' }]);
      const badNetwork = await demo.post('/api/v1/programs', { Name: 'Lost', NetworkId: randomUUID() });
      expect(fields(badNetwork)).toEqual([['NetworkId', 'invalid']]);
      const renamed = ProgramSchema.parse((await demo.patch(`/api/v1/programs/${program.Id}`, { Name: 'Night Desk Live' })).body);
      expect(renamed.Name).toBe('Night Desk Live');
    });

    it('moves programs into a network with PATCH /v1/networks/{id}/programs: all of them or none', async () => {
      const net = NetworkSchema.parse((await demo.post('/api/v1/networks', { Name: 'Castaway Evenings' })).body);
      const a = ProgramSchema.parse((await demo.post('/api/v1/programs', { Name: 'Evening One' })).body);
      const b = ProgramSchema.parse((await demo.post('/api/v1/programs', { Name: 'Evening Two', NetworkId: NEWS })).body);
      const under = async () => ((await demo.get(`/api/v1/networks/${net.Id}/programs`)).body as Paged).Items.map((p) => p.Id).sort();
      // One program the caller cannot name: nothing moves, and the answer names the field.
      expect(fields(await demo.patch(`/api/v1/networks/${net.Id}/programs`, { ProgramIds: [a.Id, randomUUID()] }))).toEqual([['ProgramIds', 'invalid']]);
      expect(await under()).toEqual([]);
      expect(fields(await demo.patch(`/api/v1/networks/${net.Id}/programs`, { ProgramIds: [a.Id, a.Id] }))).toEqual([['ProgramIds', 'invalid']]);
      expect(fields(await demo.patch(`/api/v1/networks/${net.Id}/programs`, { ProgramIds: [] }))).toEqual([['ProgramIds', 'invalid']]);
      const moved = await demo.patch(`/api/v1/networks/${net.Id}/programs`, { ProgramIds: [a.Id, b.Id] });
      expect(moved.status, moved.text).toBe(204);
      expect(await under()).toEqual([a.Id, b.Id].sort());
      expect(ProgramSchema.parse((await demo.get(`/api/v1/programs/${b.Id}`)).body).NetworkId).toBe(net.Id);
      expect((await demo.patch(`/api/v1/networks/${randomUUID()}/programs`, { ProgramIds: [a.Id] })).status).toBe(404);
    });

    it('sets a playlist membership and order with PATCH /v1/playlists/{id}/clips and lists the clips in that order', async () => {
      const playlist = PlaylistSchema.parse((await demo.post(`/api/v1/programs/${MORNING}/playlists`, { Title: 'Best of', Slug: 'morning-best-of' })).body);
      const clips = ((await demo.get(`/api/v1/programs/${MORNING}/clips`)).body as Paged).Items.map((c) => c.Id as string);
      const order = [clips[2]!, clips[0]!, clips[1]!];
      expect((await demo.patch(`/api/v1/playlists/${playlist.Id}/clips`, { ClipIds: order })).status).toBe(204);
      const listed = (await demo.get(`/api/v1/playlists/${playlist.Id}/clips`)).body as Paged;
      expect(listed.Items.map((c) => c.Id)).toEqual(order);
      const one = ClipSchema.parse((await demo.get(`/api/v1/clips/${order[0]}`)).body);
      expect(one.PlaylistIds).toContain(playlist.Id);
      // Deep pages carry PlaylistIds too (the page is chosen first, then its clips' playlists joined).
      const second = (await demo.get(`/api/v1/playlists/${playlist.Id}/clips?page=2&pageSize=1`)).body as Paged;
      expect(second.Items.map((c) => c.Id)).toEqual([order[1]]);
      expect(ClipSchema.parse(second.Items[0]).PlaylistIds).toContain(playlist.Id);
      const third = (await demo.get(`/api/v1/programs/${MORNING}/clips?page=3&pageSize=1`)).body as Paged;
      expect(third.Items.map((c) => c.Id)).toEqual([clips[2]]);
      expect(ClipSchema.parse(third.Items[0]).PlaylistIds).toContain(playlist.Id);
      const row = PlaylistSchema.parse((await demo.get(`/api/v1/playlists/${playlist.Id}`)).body);
      expect(row.ClipIds).toEqual(order);
      const foreign = await firstClip(WORLD);
      expect(fields(await demo.patch(`/api/v1/playlists/${playlist.Id}/clips`, { ClipIds: [foreign.Id] }))).toEqual([['ClipIds', 'invalid']]);
      const dupSlug = await demo.post(`/api/v1/programs/${WORLD}/playlists`, { Title: 'Copy', Slug: 'morning-best-of' });
      expect(fields(dupSlug)).toEqual([['Slug', 'SlugExists']]);
      const noTitle = await demo.post(`/api/v1/programs/${WORLD}/playlists`, { Title: '' });
      expect(BadRequestBodySchema.parse(noTitle.body).Errors[0]!.Message).toBe('You must enter a title');
    });
  });

  describe('recordings and annotations', () => {
    it('lists recordings by status, patches one and adds and deletes an annotation', async () => {
      const finalized = (await demo.get(`/api/v1/programs/${MORNING}/recordings?status=Finalized`)).body as Paged;
      expect(finalized.Items.length).toBe(2);
      expect(finalized.Items.every((r) => r.State === 'Finalized')).toBe(true);
      expect(finalized.Items.some((r) => r.DurationSeconds === 0)).toBe(true);
      const both = (await demo.get(`/api/v1/programs/${MORNING}/recordings?status=Processing,Live`)).body as Paged;
      expect(both.Items.map((r) => r.State).sort()).toEqual(['Live', 'Processing']);
      expect(fields(await demo.get(`/api/v1/programs/${MORNING}/recordings?status=Done`))).toEqual([['status', 'invalid']]);
      const rec = RecordingSchema.parse(finalized.Items.find((r) => r.DurationSeconds !== 0));
      const patched = RecordingSchema.parse((await demo.patch(`/api/v1/recordings/${rec.Id}`, { Title: 'Renamed', Reviewed: false }, { 'if-match': `"${rec.ModifiedAtUtc}"` })).body);
      expect(patched).toMatchObject({ Title: 'Renamed', Reviewed: false });
      const stale = await demo.patch(`/api/v1/recordings/${rec.Id}`, { Title: 'x' }, { 'if-match': `"${rec.ModifiedAtUtc}"` });
      expect(stale.status).toBe(412);
      expect(RecordingSchema.parse(stale.body).Title).toBe('Renamed');
      const note = AnnotationSchema.parse((await demo.post(`/api/v1/recordings/${rec.Id}/annotations`, { OffsetSeconds: 42, Text: 'Jingle' })).body);
      const notes = (await demo.get(`/api/v1/recordings/${rec.Id}/annotations`)).body as Paged;
      expect(notes.Items.map((n) => n.Text)).toContain('Jingle');
      expect(fields(await demo.post(`/api/v1/recordings/${rec.Id}/annotations`, { OffsetSeconds: 1, Text: '' }))).toEqual([['Text', 'required']]);
      expect((await demo.delete(`/api/v1/recordings/${rec.Id}/annotations/${note.Id}`)).status).toBe(204);
      expect((await demo.delete(`/api/v1/recordings/${rec.Id}/annotations/${note.Id}`)).status).toBe(404);
      expect((await demo.delete(`/api/v1/recordings/${rec.Id}`)).status).toBe(204);
      expect((await demo.get(`/api/v1/recordings/${rec.Id}`)).status).toBe(404);
    });
  });

  describe('contact enquiry and revisions', () => {
    it('stores a contact enquiry (204) and names missing fields with the contact form messages', async () => {
      const ok = await demo.post('/api/internal/custom-support', {
        ContactName: 'Dana',
        ContactEmail: 'demo@example.com',
        ContactEnquiry: 'Help with feeds',
        AdditionalInfo: 'y'.repeat(3000),
        BrowserLocale: 'en-US',
        SourceUrl: 'http://localhost/programs',
      });
      expect(ok.status).toBe(204);
      const [stored] = await t.store.query<{ enquiry: { AdditionalInfo: string } }>(`SELECT enquiry FROM support_enquiries`);
      expect(stored!.enquiry.AdditionalInfo.length).toBe(2048);
      const bad = await demo.post('/api/internal/custom-support', { ContactName: '', ContactEmail: 'nope', ContactEnquiry: ' ' });
      expect(BadRequestBodySchema.parse(bad.body).Errors.map((e) => e.Message)).toEqual([
        'Name required',
        'You must enter a valid email address',
        'Enquiry cannot be blank',
      ]);
    });

    it('records every write as a revision with its Version, from which each row it answered is rebuilt', async () => {
      const clip = await firstClip(seedId('program:business'));
      const written: Reply[] = [];
      for (const title of ['r1', 'r2']) written.push(await demo.patch(`/api/v1/clips/${clip.Id}`, { Title: title }));
      const rows = written.map((w) => ClipSchema.parse(w.body));
      const revs = await revisionRows(t.store, 'clip', written[1]!.body as WireRow);
      expect(revs.map((r) => r.row['Title']).slice(-2)).toEqual(['r1', 'r2']);
      expect(revs.slice(-2).map((r) => r.version)).toEqual(rows.map((r) => r.Version));
      // Each revision stores only what its write changed; the whole rows come back exactly.
      expect(revs.slice(-2).map((r) => r.row)).toEqual(written.map((w) => w.body));
      const [stored] = await t.store.query<{ undo: Record<string, unknown> }>(`SELECT undo FROM row_revisions WHERE entity = 'clip' AND id = $1 AND version = $2`, [clip.Id, rows[1]!.Version]);
      expect(stored!.undo).toEqual({ Title: 'r1' });
    });
  });
});
