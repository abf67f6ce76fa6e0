// The in-process caches of public answers (publishing/public-audio.ts, feeds): what they keep
// never outlives the rows it was made from. Two app instances on one store and one change bus (as
// PostgreSQL's LISTEN/NOTIFY bus joins instances) both serve a clip, one of them makes it Private,
// and neither serves its audio any more; a new published version of a clip is served with its new
// ETag; a feed both instances have built (and kept: rows, items, the compressed document) shows a
// changed title under a new ETag and drops a clip made Private, the same on both. PGlite, the real
// app, real audio fixtures.
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { createApp } from '../../sync-server/app.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { writeAudioRow } from '../../sync-server/audio/clip-rows.ts';
import { clipKeys, clipUrls, mediaFiles } from '../../sync-server/audio/media-paths.ts';
import { SHARED_FIXTURES_DIR } from '../../sync-server/audio/shared-fixtures.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { AppClient } from '../server/app-client.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';

const FIXTURE = readFileSync(join(SHARED_FIXTURES_DIR, 'speech-12s.mp3'));
const PROGRAM = seedId('program:morning');
const clock = { now: new Date('2025-06-01T12:00:00.000Z') };

let t: TestStore;
let blobDir: string;
/** Two instances of the server on one store and one bus. */
let a: ReturnType<typeof createApp>;
let b: ReturnType<typeof createApp>;
let api: AppClient;
const bus = createMemoryBus();
const blobs = () => fsBlobStore(blobDir);

beforeAll(async () => {
  t = await openTestStore('pglite');
  blobDir = await mkdtemp(join(tmpdir(), 'castaway-caches-'));
  process.env.CASTAWAY_BLOB_DIR = blobDir;
  await seed(t.store, { clips: 8 });
  a = createApp({ store: t.store, bus, clock: () => clock.now });
  b = createApp({ store: t.store, bus, clock: () => clock.now });
  api = new AppClient(a);
  await api.login('demo@example.com');
  api.organizationId = ORG_DEMO;
}, 120_000);

afterAll(async () => {
  await a?.downloads.close();
  await b?.downloads.close();
  await t?.drop();
  if (blobDir) await rm(blobDir, { recursive: true, force: true });
});

/** A Published, Public clip with its upload stored, as publishing leaves one. */
async function publishedClip(): Promise<string> {
  const id = randomUUID();
  const { Title: _t, Slug: _s, State: _st, PublishState: _p, Visibility: _v, ...data } = clipDefaults();
  const urls = { ...(data['Urls'] as Record<string, unknown>), AudioPrivateUrl: clipUrls.audio(id), AudioPublicUrl: `/audio/${id}.mp3` };
  await t.store.query(
    `INSERT INTO clips (id, organization_id, program_id, title, slug, state, publish_state, visibility, data, created_at_utc, modified_at_utc, deleted, version)
     VALUES ($1, $2, $3, 'Cached', $4, 'Ready', 'Published', 'Public', $5::jsonb, $6, $6, false, next_row_version())`,
    [id, ORG_DEMO, PROGRAM, `cached-${id.slice(0, 8)}`, JSON.stringify({ ...data, DurationSeconds: 12.04, PublishedUtc: clock.now.toISOString(), Urls: urls }), clock.now],
  );
  await blobs().putBytes(clipKeys.audio(id), FIXTURE);
  await blobs().putBytes(clipKeys.meta(id), JSON.stringify({ fileName: 'speech-12s.mp3', contentType: 'audio/mpeg', size: FIXTURE.byteLength, uploadId: randomUUID() }));
  return id;
}

const head = async (app: ReturnType<typeof createApp>, id: string, headers: Record<string, string> = {}) => {
  const res = await app.request(`/audio/${id}.mp3`, { headers });
  await res.arrayBuffer();
  return res;
};

describe('public audio kept between requests', () => {
  it('a clip made Private on one instance is served by neither from the next request', async () => {
    const id = await publishedClip();
    // Both instances have read (and kept) the row and the file.
    for (const app of [a, b, a, b]) expect((await head(app, id, { range: 'bytes=0-99' })).status).toBe(206);
    const current = (await api.get(`/api/v1/clips/${id}`)).body as { ModifiedAtUtc: string };
    const reply = await api.patch(`/api/v1/clips/${id}`, { Visibility: 'Private' }, { 'if-match': `"${current.ModifiedAtUtc}"` });
    expect(reply.status, reply.text).toBe(200);
    expect((await head(a, id)).status).toBe(404);
    expect((await head(b, id)).status).toBe(404);
    expect((await head(b, id, { range: 'bytes=0-99' })).status).toBe(404);
  });

  it('a new published version is served with its own ETag and bytes, by both instances', async () => {
    const id = await publishedClip();
    const before = await head(a, id);
    expect(before.status).toBe(200);
    const oldTag = before.headers.get('etag');
    expect((await head(b, id)).headers.get('etag')).toBe(oldTag);
    // What the processing job does (audio/versions.ts): a version folder, then ONE row write in
    // whose transaction published.json is switched to it.
    const version = randomUUID();
    const folder = clipKeys.versionFolder(id, version);
    const cut = FIXTURE.subarray(0, 5000);
    await blobs().putBytes(mediaFiles.audio(folder), cut);
    const record = { version, folder, contentType: 'audio/mpeg', ext: 'mp3', size: cut.byteLength, durationSeconds: 1, upload: 'x', edit: null };
    const deps = { store: t.store, bus };
    const written = await writeAudioRow(deps, { entity: 'clip', organizationId: ORG_DEMO, id }, { State: 'Ready', fields: { PublishedAudioSizeInBytes: cut.byteLength }, urls: { AudioPrivateUrl: clipUrls.audio(id, version) } }, { userId: null }, {
      alsoInTransaction: () => blobs().putBytes(clipKeys.published(id), JSON.stringify(record)),
    });
    expect(written).toBe('written');
    for (const app of [a, b]) {
      const res = await app.request(`/audio/${id}.mp3`);
      expect(res.headers.get('etag')).toBe(`"${version}"`);
      expect(Buffer.from(await res.arrayBuffer()).equals(cut)).toBe(true);
    }
    // A listener holding the old ETag gets the new file, not a 304.
    expect((await head(b, id, { 'if-none-match': oldTag! })).status).toBe(200);
  });
});

describe('feeds kept between requests', () => {
  let playlistId: string;
  const clipIds: string[] = [];

  /** The feed as a podcast app gets it (gzip), from one instance. */
  async function feed(app: ReturnType<typeof createApp>, headers: Record<string, string> = {}) {
    const res = await app.request(`http://localhost${publicPaths.feed(playlistId)}`, { headers: { 'accept-encoding': 'gzip', ...headers } });
    const raw = Buffer.from(await res.arrayBuffer());
    return { status: res.status, etag: res.headers.get('etag'), text: res.status === 200 ? gunzipSync(raw).toString('utf8') : '' };
  }

  beforeAll(async () => {
    const program = await api.post('/api/v1/programs', { Name: `Kept show ${randomUUID().slice(0, 8)}`, Description: 'Feeds kept' });
    expect(program.status, program.text).toBe(201);
    const programId = (program.body as { Id: string }).Id;
    const playlist = await api.post(`/api/v1/programs/${programId}/playlists`, { Title: 'Kept feed', Visibility: 'Public', Description: 'All' });
    expect(playlist.status, playlist.text).toBe(201);
    playlistId = (playlist.body as { Id: string }).Id;
    for (let i = 1; i <= 3; i++) {
      const made = await api.post(`/api/v1/programs/${programId}/clips`, { Title: `Kept episode ${i}`, DescriptionHtml: `<p>Notes ${i}</p>` });
      expect(made.status, made.text).toBe(201);
      const id = (made.body as { Id: string }).Id;
      // What publishing leaves on a clip, as the publishing job writes it (tests/server/feeds.test.ts).
      await t.store.query(
        `UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Public', slug = $2,
           data = data || jsonb_build_object('PublishedUtc', $3::text, 'PublishedAudioSizeInBytes', 1000 + $4::int, 'PublishedDurationSeconds', 60,
             'Urls', (data->'Urls') || jsonb_build_object('AudioPublicUrl', $5::text, 'AudioPrivateUrl', $6::text)),
           version = next_row_version() WHERE id = $1`,
        [id, `kept-${i}`, new Date(Date.UTC(2025, 4, i)).toISOString(), i, publicPaths.audio(id, 'mp3'), clipUrls.audio(id)],
      );
      clipIds.push(id);
    }
    const set = await api.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: [...clipIds].reverse() });
    expect(set.status, set.text).toBe(204);
  });

  const patchClip = async (id: string, body: Record<string, unknown>) => {
    const current = (await api.get(`/api/v1/clips/${id}`)).body as { ModifiedAtUtc: string };
    const reply = await api.patch(`/api/v1/clips/${id}`, body, { 'if-match': `"${current.ModifiedAtUtc}"` });
    expect(reply.status, reply.text).toBe(200);
  };

  it('a changed title: a new ETag and body on both instances; a clip made Private leaves the feed of both', async () => {
    const first = await feed(a);
    expect(first.status).toBe(200);
    expect(first.text.split('<item>').length - 1).toBe(3);
    // Kept: the same answer again, and the same from the other instance.
    expect(await feed(a)).toEqual(first);
    expect(await feed(b)).toEqual(first);
    expect((await feed(b, { 'if-none-match': first.etag! })).status).toBe(304);

    await patchClip(clipIds[1]!, { Title: 'Kept episode 2, renamed' });
    const renamed = await feed(b);
    expect(renamed.etag).not.toBe(first.etag);
    expect(renamed.text).toContain('<title>Kept episode 2, renamed</title>');
    expect(renamed.text).not.toContain('<title>Kept episode 2</title>');
    expect(await feed(a)).toEqual(renamed);
    // The other items are the same text.
    const itemOf = (text: string, id: string) => text.split('<item>').find((i) => i.includes(`<guid isPermaLink="false">${id}</guid>`));
    for (const id of [clipIds[0]!, clipIds[2]!]) expect(itemOf(renamed.text, id)).toBe(itemOf(first.text, id));
    expect((await feed(a, { 'if-none-match': first.etag! })).status).toBe(200);

    await patchClip(clipIds[0]!, { Visibility: 'Private' });
    for (const app of [a, b]) {
      const closed = await feed(app);
      expect(closed.etag).not.toBe(renamed.etag);
      expect(closed.text.split('<item>').length - 1).toBe(2);
      expect(closed.text).not.toContain(clipIds[0]!);
    }
    expect((await feed(a)).text).toBe((await feed(b)).text);
  });
});
