// The studio on object storage: the app and the demo seed given the S3 blob store (what
// CASTAWAY_S3_BUCKET configures), against s3rver on 127.0.0.1. An upload is processed from the
// bucket, its waveform and audio are served from it, and nothing lands in a local blob folder.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { s3BlobStore } from '../../sync-server/audio/s3-blob-store.ts';
import { configuredBlobStore } from '../../sync-server/audio/service.ts';
import { ORG_DEMO, seedId, seedWithMedia } from '../../sync-server/seed.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { openTestStore, type TestStore } from './test-store.ts';
import { signIn } from '../helpers/sign-in.ts';

describe('the studio with its blobs in an S3-compatible bucket', () => {
  let s3: S3Server;
  let t: TestStore;
  let dir: string;
  let app: ReturnType<typeof createApp>;
  let headers: Record<string, string>;

  const keys = async (prefix = '') => {
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `studio/${prefix}` }));
    return (listed.Contents ?? []).map((o) => o.Key!);
  };

  beforeAll(async () => {
    s3 = await startS3Server();
    dir = await mkdtemp(join(tmpdir(), 'castaway-s3-app-'));
    t = await openTestStore('pglite');
    const blobs = s3BlobStore({ client: s3.client, bucket: s3.bucket, prefix: 'studio', cacheDir: join(dir, 's3-cache') });
    await seedWithMedia(t.store, { clips: 12, blobs });
    app = createApp({ store: t.store, bus: createMemoryBus(), blobs, jobs: { pollMs: 50 } });
    headers = { ...(await signIn(app.request)), 'x-organization-id': ORG_DEMO };
  });
  afterAll(async () => {
    await app?.jobs.stop();
    await t?.drop();
    await s3?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('the demo seed puts its media in the bucket', async () => {
    expect((await keys()).length).toBeGreaterThan(0);
  });

  it('an upload is stored, processed and served from the bucket, byte for byte', async () => {
    const created = await app.request(`/api/v1/programs/${seedId('program:morning')}/clips`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ Title: 'On S3' }) });
    expect(created.status).toBe(201);
    const clipId = ((await created.json()) as { Id: string }).Id;
    const bytes = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
    const put = await app.request(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, { method: 'PUT', headers: { ...headers, 'content-type': 'audio/mpeg' }, body: bytes });
    expect(put.status, await put.clone().text()).toBe(202);
    await app.jobs.drain();

    const row = (await (await app.request(`/api/v1/clips/${clipId}`, { headers })).json()) as { State: string; DurationSeconds: number };
    expect(row.State).toBe('Ready');
    expect(Math.round(row.DurationSeconds)).toBe(12);
    const original = await app.request(`/api/internal/clips/${clipId}/original-audio`, { headers });
    expect(original.status).toBe(200);
    expect(Buffer.from(await original.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    // A range of it, as a player asks.
    const ranged = await app.request(`/api/internal/clips/${clipId}/original-audio`, { headers: { ...headers, range: 'bytes=100-199' } });
    expect(ranged.status).toBe(206);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(Buffer.from(bytes.subarray(100, 200)))).toBe(true);
    const waveform = await app.request(`/api/media/clips/${clipId}/waveform-low.json`, { headers });
    expect(waveform.status).toBe(200);
    expect(((await waveform.json()) as { data: number[] }).data.length).toBeGreaterThan(0);

    const clipKeys = (await keys()).filter((k) => k.includes(clipId));
    expect(clipKeys.some((k) => k.endsWith('/audio'))).toBe(true);
    expect(clipKeys.some((k) => k.includes('waveform'))).toBe(true);
    // Nothing went to a local blob folder.
    expect(existsSync(join(dir, 'blobs'))).toBe(false);
  });

  it('CASTAWAY_S3_BUCKET chooses the bucket; without it the local folder', async () => {
    const env = { CASTAWAY_S3_BUCKET: s3.bucket, CASTAWAY_S3_ENDPOINT: s3.endpoint, CASTAWAY_S3_ACCESS_KEY_ID: 'S3RVER', CASTAWAY_S3_SECRET_ACCESS_KEY: 'S3RVER', CASTAWAY_S3_PREFIX: 'env', CASTAWAY_S3_CACHE_DIR: join(dir, 'env-cache') };
    const fromEnv = configuredBlobStore(env);
    await fromEnv.putBytes('probe/x.txt', 'hello');
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: 'env/' }));
    expect((listed.Contents ?? []).map((o) => o.Key)).toEqual(['env/probe/x.txt']);
    expect(await (await fromEnv.blob('probe/x.txt')).text()).toBe('hello');
    const local = configuredBlobStore({ CASTAWAY_DATA_DIR: dir });
    await local.putBytes('probe/y.txt', 'local');
    expect(await readFile(join(dir, 'blobs', 'probe', 'y.txt'), 'utf8')).toBe('local');
    await rm(join(dir, 'blobs'), { recursive: true });
  });
});
