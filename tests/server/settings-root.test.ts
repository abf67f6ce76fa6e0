// The organization's settings root (issue 33; section 7 GET and PATCH /v1/settings, GET
// /v1/settings/validate-url-prefix), on PGlite and on PostgreSQL: its measurement URL prefixes
// read and written (each refused at its own field, by src/domain/measurement.ts), If-Match on the
// organization's row, the change queued offline as organization.setMeasurementPrefixes; the
// prefix check answering why not and what an enclosure becomes (a missing prefixUrl a 400 at
// prefixUrl); and the public feed: a prefix set on the organization is in front of its enclosures
// (built from rows and from stored items) and gone once cleared, its links and images untouched,
// a member's private feed never measured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publicPaths } from '../../src/domain/public-urls.ts';
import type { OrganizationSettings, UrlPrefixCheck } from '../../src/protocol/api/settings.ts';
import { refreshFeedItems } from '../../sync-server/feeds/feed-items.ts';
import { ORG_DEMO, ORG_PODCASTS } from '../../sync-server/seed.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const ORIGIN = 'http://localhost';
const OP3 = 'https://op3.dev/e/';
const PODTRAC = 'https://dts.podtrac.com/redirect.mp3/';

describe.each(storeKinds)('the organization’s settings root on %s', (kind) => {
  let test: TestStore;
  let seeded: SeededApp;
  let api: AppClient;

  beforeAll(async () => {
    test = await openTestStore(kind);
    seeded = await seededApp(test.store);
    api = new AppClient(seeded.app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
  }, 180_000);

  afterAll(async () => {
    await test?.drop();
  });

  const settings = async (): Promise<OrganizationSettings> => {
    const reply = await api.get('/api/v1/settings');
    expect(reply.status, reply.text).toBe(200);
    return reply.body as OrganizationSettings;
  };
  const check = (prefixUrl: string) => api.get(`/api/v1/settings/validate-url-prefix?prefixUrl=${encodeURIComponent(prefixUrl)}`);

  it('reads the organization’s settings: no prefixes until set, its name and normalization; the ETag names its row', async () => {
    const reply = await api.get('/api/v1/settings');
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body as OrganizationSettings;
    expect(body).toMatchObject({ OrganizationId: ORG_DEMO, MeasurementPrefixes: [], Normalization: { PresetId: null } });
    expect(body.Name).not.toBe('');
    expect(reply.headers.get('etag')).toBe(`"${body.ModifiedAtUtc}"`);
  });

  it('sets, chains and clears the measurement prefixes; the organization row (synced to devices) holds them', async () => {
    const set = await api.patch('/api/v1/settings', { MeasurementPrefixes: [OP3] });
    expect(set.status, set.text).toBe(200);
    expect((set.body as OrganizationSettings).MeasurementPrefixes).toEqual([OP3]);
    expect(set.headers.get('etag')).toBe(`"${(set.body as OrganizationSettings).ModifiedAtUtc}"`);
    expect((await settings()).MeasurementPrefixes).toEqual([OP3]);
    const row = await api.get(`/api/internal/users/me/organizations/${ORG_DEMO}`);
    expect(row.status, row.text).toBe(200);
    expect((row.body as { MeasurementPrefixes?: unknown }).MeasurementPrefixes).toEqual([OP3]);

    expect((await api.patch('/api/v1/settings', { MeasurementPrefixes: [OP3, PODTRAC] })).status).toBe(200);
    expect((await settings()).MeasurementPrefixes).toEqual([OP3, PODTRAC]);
    // A body without the field changes nothing.
    const nothing = await api.patch('/api/v1/settings', {});
    expect(nothing.status, nothing.text).toBe(200);
    expect((nothing.body as OrganizationSettings).MeasurementPrefixes).toEqual([OP3, PODTRAC]);

    expect((await api.patch('/api/v1/settings', { MeasurementPrefixes: [] })).status).toBe(200);
    expect((await settings()).MeasurementPrefixes).toEqual([]);
  });

  it('refuses a prefix at its own field with the domain’s words; too many or one twice at the list; an unknown field at its name', async () => {
    const bad = await api.patch('/api/v1/settings', { MeasurementPrefixes: [OP3, 'http://dts.podtrac.com/redirect.mp3/', 'https://chrt.fm/track/X'] });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual([
      ['MeasurementPrefixes.1', 'urlInvalid'],
      ['MeasurementPrefixes.2', 'urlInvalid'],
    ]);
    const messages = (bad.body as { Errors: Array<{ Message: string; MessageKey: string }> }).Errors;
    expect(messages[0]).toMatchObject({ Message: 'A measurement prefix must start with https://', MessageKey: 'domain_measurement_prefix_https' });
    expect(messages[1]!.MessageKey).toBe('domain_measurement_prefix_slash');

    const many = await api.patch('/api/v1/settings', { MeasurementPrefixes: ['https://a.example/1/', 'https://a.example/2/', 'https://a.example/3/', 'https://a.example/4/'] });
    expect(fields(many)).toEqual([['MeasurementPrefixes', 'invalid']]);
    const twice = await api.patch('/api/v1/settings', { MeasurementPrefixes: [OP3, OP3] });
    expect(fields(twice)).toEqual([['MeasurementPrefixes', 'invalid']]);
    const notList = await api.patch('/api/v1/settings', { MeasurementPrefixes: OP3 });
    expect(notList.status).toBe(400);
    expect(fields(notList).map(([f]) => f)).toEqual(['MeasurementPrefixes']);
    const unknown = await api.patch('/api/v1/settings', { Name: 'Renamed' });
    expect(unknown.status).toBe(400);
    expect(fields(unknown)).toEqual([['Name', 'invalid']]);
    expect((await settings()).MeasurementPrefixes).toEqual([]);
  });

  it('a stale If-Match is a 412 with the settings as they now are', async () => {
    const before = await api.get('/api/v1/settings');
    const etag = before.headers.get('etag')!;
    expect((await api.patch('/api/v1/settings', { MeasurementPrefixes: [OP3] }, { 'if-match': etag })).status).toBe(200);
    const stale = await api.patch('/api/v1/settings', { MeasurementPrefixes: [PODTRAC] }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(stale.body).toMatchObject({ OrganizationId: ORG_DEMO, MeasurementPrefixes: [OP3] });
    expect(stale.headers.get('etag')).toBe(`"${(stale.body as OrganizationSettings).ModifiedAtUtc}"`);
    expect((await settings()).MeasurementPrefixes).toEqual([OP3]);
    expect((await api.patch('/api/v1/settings', { MeasurementPrefixes: [] })).status).toBe(200);
  });

  it('offline: a queued organization.setMeasurementPrefixes merges over another change of the row; a refused one says why at its field', async () => {
    const base = (await settings()).ModifiedAtUtc;
    // Meanwhile the organization's normalization changes: a field the offline edit did not touch.
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: 'podcast' })).status).toBe(200);
    const merged = await api.pushOne('organization.setMeasurementPrefixes', { organizationId: ORG_DEMO, MeasurementPrefixes: [OP3] }, base);
    expect(merged.status).toBe('merged');
    expect(await settings()).toMatchObject({ MeasurementPrefixes: [OP3], Normalization: { PresetId: 'podcast' } });

    const result = await api.pushOne('organization.setMeasurementPrefixes', { organizationId: ORG_DEMO, MeasurementPrefixes: ['op3.dev/e/'] });
    expect(result).toMatchObject({ status: 'rejected', httpStatus: 400 });
    expect(result.errors).toEqual([expect.objectContaining({ Field: 'MeasurementPrefixes.0', MessageKey: 'domain_measurement_prefix_https' })]);
    // Another organization's row is not one a push can reach.
    const elsewhere = await api.pushOne('organization.setMeasurementPrefixes', { organizationId: ORG_PODCASTS, MeasurementPrefixes: [OP3] });
    expect(elsewhere).toMatchObject({ status: 'rejected', httpStatus: 404 });
    expect((await api.patch('/api/v1/settings', { MeasurementPrefixes: [] })).status).toBe(200);
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: null })).status).toBe(200);
  });

  it('audit access reads the settings and checks a prefix but does not change them', async () => {
    const support = new AppClient(seeded.app);
    await support.login('support@example.com');
    support.organizationId = ORG_DEMO;
    expect((await support.get('/api/v1/settings')).status).toBe(200);
    expect((await support.get(`/api/v1/settings/validate-url-prefix?prefixUrl=${encodeURIComponent(OP3)}`)).status).toBe(200);
    const refused = await support.patch('/api/v1/settings', { MeasurementPrefixes: [OP3] });
    expect(refused.status).toBe(403);
    expect(refused.text).toBe('');
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    producer.organizationId = ORG_DEMO;
    expect((await producer.get('/api/v1/settings')).status).toBe(403);
  });

  it('validate-url-prefix: valid or why not, and what an enclosure of this studio becomes; nothing fetched', async () => {
    const ok = await check(OP3);
    expect(ok.status, ok.text).toBe(200);
    const example = `${ORIGIN}/audio/00000000-0000-4000-8000-000000000000.mp3`;
    expect(ok.body).toEqual({ PrefixUrl: OP3, Valid: true, Error: null, ExampleEnclosureUrl: example, ExampleUrl: 'https://op3.dev/e/localhost/audio/00000000-0000-4000-8000-000000000000.mp3' } satisfies UrlPrefixCheck);
    const bad = await check('https://op3.dev/e');
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({
      Valid: false,
      ExampleUrl: null,
      Error: { Field: 'prefixUrl', Code: 'urlInvalid', MessageKey: 'domain_measurement_prefix_slash', Message: 'A measurement prefix ends with / so that the episode’s address can follow it, as in https://op3.dev/e/' },
    });
    expect(((await check('')).body as UrlPrefixCheck).Error).toMatchObject({ Code: 'required' });
    // Section 6 "Required query parameters": prefixUrl.
    const missing = await api.get('/api/v1/settings/validate-url-prefix');
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual([['prefixUrl', 'required']]);
  });

  it('every route of the settings root is in the OpenAPI document', async () => {
    const doc = (await api.get('/api/openapi.json')).body as { paths: Record<string, Record<string, { description?: string }>> };
    expect(Object.keys(doc.paths['/api/v1/settings'] ?? {}).sort()).toEqual(['get', 'patch']);
    expect(Object.keys(doc.paths['/api/v1/settings/validate-url-prefix'] ?? {})).toEqual(['get']);
    expect(doc.paths['/api/v1/settings/validate-url-prefix']!['get']!.description).toContain('not fetched');
  });

  // ── The public feed ─────────────────────────────────────────────────────────────────────────

  it('puts the organization’s prefix in front of its public feed’s enclosures (from rows and from stored items), and takes it away once cleared', async () => {
    const program = await api.post('/api/v1/programs', { Name: 'Measured show', Description: 'Counted by OP3' });
    expect(program.status, program.text).toBe(201);
    const programId = (program.body as { Id: string }).Id;
    const playlist = await api.post(`/api/v1/programs/${programId}/playlists`, { Title: 'Main feed', Visibility: 'Public', Description: 'Every episode' });
    const playlistId = (playlist.body as { Id: string }).Id;
    const clip = await api.post(`/api/v1/programs/${programId}/clips`, { Title: 'Measured episode' });
    const clipId = (clip.body as { Id: string }).Id;
    const urls = { AudioPublicUrl: publicPaths.audio(clipId, 'mp3'), ShowPageUrl: publicPaths.clipPage(programId, 'measured'), ImagePublicUrl: publicPaths.image('clip', clipId, 'v1') };
    // What publishing leaves on a clip, written as the publishing job writes rows.
    await test.store.query(
      `UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Public', slug = 'measured',
         data = data || $2::jsonb || jsonb_build_object('Urls', coalesce(data->'Urls', '{}'::jsonb) || $3::jsonb),
         version = next_row_version(), modified_at_utc = modified_at_utc + interval '1 millisecond' WHERE id = $1`,
      [clipId, JSON.stringify({ PublishedUtc: '2025-05-01T08:00:00.000Z', PublishedAudioSizeInBytes: 1234, PublishedDurationSeconds: 60 }), JSON.stringify(urls)],
    );
    expect((await api.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: [clipId] })).status).toBe(204);
    const feed = async () => {
      const res = await seeded.app.request(`${ORIGIN}${publicPaths.feed(playlistId)}`);
      expect(res.status).toBe(200);
      return { text: await res.text(), etag: res.headers.get('etag') };
    };
    const enclosure = (text: string) => /<enclosure url="([^"]+)"/.exec(text)?.[1];
    const plain = `${ORIGIN}/audio/${clipId}.mp3`;

    const before = await feed();
    expect(enclosure(before.text)).toBe(plain);

    expect((await api.patch('/api/v1/settings', { MeasurementPrefixes: [OP3] })).status).toBe(200);
    const measured = await feed();
    expect(measured.etag).not.toBe(before.etag);
    expect(enclosure(measured.text)).toBe(`https://op3.dev/e/localhost/audio/${clipId}.mp3`);
    // Only the enclosure: the item's link and image and the channel's link are the studio's own.
    expect(measured.text).toContain(`<link>${ORIGIN}/shows/${programId}/measured</link>`);
    expect(measured.text).toContain(`<itunes:image href="${ORIGIN}/images/clip/${clipId}/v1"/>`);
    expect(measured.text.match(/op3\.dev/g)).toHaveLength(1);

    // Stored items (rendered by the job after the change) carry it too, on whatever origin a build answers.
    expect(await refreshFeedItems(test.store, ORG_DEMO)).toBeGreaterThan(0);
    const [stored] = await test.store.query<{ xml: string }>(`SELECT xml FROM feed_items WHERE clip_id = $1`, [clipId]);
    expect(stored!.xml).toContain(`url="https://op3.dev/e/castaway-origin.invalid/audio/${clipId}.mp3"`);
    const other = await seeded.app.request(`https://listen.example${publicPaths.feed(playlistId)}`);
    expect(enclosure(await other.text())).toBe(`https://op3.dev/e/listen.example/audio/${clipId}.mp3`);

    // A member's private feed: its signed links are the studio's own, never sent through a third party.
    const member = await api.post(`/api/v1/programs/${programId}/members`, { Name: 'Fay', Email: 'fay@example.com' });
    expect(member.status, member.text).toBe(201);
    const memberUrl = ((await api.get(`/api/internal/playlists/${playlistId}/members/${(member.body as { Id: string }).Id}/url`)).body as { Url: string }).Url;
    const memberFeed = await seeded.app.request(memberUrl);
    expect(memberFeed.status).toBe(200);
    expect(enclosure(await memberFeed.text())).toMatch(new RegExp(`^${ORIGIN}/`));

    // Chained: the first in the list is the first the listener reaches.
    expect((await api.patch('/api/v1/settings', { MeasurementPrefixes: [OP3, PODTRAC] })).status).toBe(200);
    expect(enclosure((await feed()).text)).toBe(`https://op3.dev/e/dts.podtrac.com/redirect.mp3/localhost/audio/${clipId}.mp3`);

    expect((await api.patch('/api/v1/settings', { MeasurementPrefixes: [] })).status).toBe(200);
    const cleared = await feed();
    expect(enclosure(cleared.text)).toBe(plain);
    expect(cleared.text).not.toContain('op3.dev');
    expect(cleared.text).not.toContain('podtrac');
    await refreshFeedItems(test.store, ORG_DEMO);
    expect(enclosure(await (await seeded.app.request(`https://listen.example${publicPaths.feed(playlistId)}`)).text())).toBe(`https://listen.example/audio/${clipId}.mp3`);
  });
});
