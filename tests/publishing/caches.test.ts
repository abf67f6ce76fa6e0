// The in-process caches of public answers (publishing/public-audio.ts, feeds): what they keep
// never outlives the rows it was made from. Two app instances on one store and one change bus (as
// PostgreSQL's LISTEN/NOTIFY bus joins instances) both serve a clip, one of them makes it Private,
// and neither serves its audio any more; a new published version of a clip is served with its new
// ETag. PGlite, the real app, real audio fixtures.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clipDefaults } from '../../src/domain/clip-defaults.ts';
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
    const written = await writeAudioRow(deps, { entity: 'clip', organizationId: ORG_DEMO, id }, { State: 'Ready', fields: { PublishedAudioSizeInBytes: cut.byteLength }, urls: { AudioPrivateUrl: clipUrls.audio(id, version) } }, { userId: null }, () =>
      blobs().putBytes(clipKeys.published(id), JSON.stringify(record)),
    );
    expect(written).toBe(true);
    for (const app of [a, b]) {
      const res = await app.request(`/audio/${id}.mp3`);
      expect(res.headers.get('etag')).toBe(`"${version}"`);
      expect(Buffer.from(await res.arrayBuffer()).equals(cut)).toBe(true);
    }
    // A listener holding the old ETag gets the new file, not a 304.
    expect((await head(b, id, { 'if-none-match': oldTag! })).status).toBe(200);
  });
});
