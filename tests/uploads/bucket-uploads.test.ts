// Resumable uploads kept in an S3 bucket (blob-upload-store.ts: blobs in S3 and no upload folder
// named): two server instances over HTTP that share only the database and the bucket (s3rver on
// 127.0.0.1), as instances on different machines do. An upload begun on one is continued on the
// other, a PATCH cut off mid-body keeps what arrived, a part an instance stored but died before
// recording is sent again and replaced, and nothing is written to a local upload folder.
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { Metadata } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { s3BlobStore } from '../../sync-server/audio/s3-blob-store.ts';
import type { BlobStore } from '../../sync-server/audio/blob-store.ts';
import { uploadPartsFolder } from '../../sync-server/uploads/blob-upload-store.ts';
import { ORG_DEMO, seedId, seedWithMedia } from '../../sync-server/seed.ts';
import { startServer, type RunningServer } from '../../sync-server/server.ts';
import { UPLOADS_PATH } from '../../src/protocol/uploads.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';
import { overHttp, signIn } from '../helpers/sign-in.ts';

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('resumable uploads in an S3 bucket, across instances that share no folder', () => {
  let s3: S3Server;
  let t: TestStore;
  let dir: string;
  let blobs: BlobStore;
  let a: RunningServer;
  let b: RunningServer;
  let headers: Record<string, string>;
  const saved = { data: process.env.CASTAWAY_DATA_DIR, uploads: process.env.CASTAWAY_UPLOAD_DIR };

  const tus = (extra: Record<string, string> = {}) => ({ ...headers, 'tus-resumable': '1.0.0', ...extra });
  const partKeys = async (id: string) => {
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `studio/${uploadPartsFolder(id)}/` }));
    return (listed.Contents ?? []).map((o) => ({ key: o.Key!.slice(`studio/${uploadPartsFolder(id)}/`.length), size: o.Size }));
  };
  const offsetOn = async (on: RunningServer, location: string) => {
    const res = await fetch(`${on.url}${location}`, { method: 'HEAD', headers: tus() });
    expect(res.status).toBe(200);
    return Number(res.headers.get('upload-offset'));
  };
  const patch = (on: RunningServer, location: string, offset: number, body: Uint8Array<ArrayBuffer>) =>
    fetch(`${on.url}${location}`, { method: 'PATCH', headers: tus({ 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) }), body });

  async function newUpload(on: RunningServer, title: string, length: number) {
    const created = await fetch(`${on.url}/api/v1/programs/${seedId('program:morning')}/clips`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ Title: title }) });
    expect(created.status).toBe(201);
    const clipId = ((await created.json()) as { Id: string }).Id;
    const res = await fetch(`${on.url}${UPLOADS_PATH}`, { method: 'POST', headers: tus({ 'upload-length': String(length), 'upload-metadata': Metadata.stringify({ filename: 'speech-12s-stereo.wav', clipId }) }) });
    expect(res.status, await res.clone().text()).toBe(201);
    const location = res.headers.get('location')!;
    return { clipId, location, id: location.split('/').pop()! };
  }

  async function settled(on: RunningServer, clipId: string) {
    const until = Date.now() + 60_000;
    for (;;) {
      const row = (await (await fetch(`${on.url}/api/v1/clips/${clipId}`, { headers })).json()) as { State: string; AudioProcessingProblem: string | null };
      if (['Ready', 'Warning', 'Error'].includes(row.State) || Date.now() > until) return row;
      await sleep(100);
    }
  }
  const original = async (on: RunningServer, clipId: string) => new Uint8Array(await (await fetch(`${on.url}/api/internal/clips/${clipId}/original-audio`, { headers })).arrayBuffer());

  beforeAll(async () => {
    s3 = await startS3Server();
    dir = await mkdtemp(join(tmpdir(), 'castaway-bucket-uploads-'));
    // A data folder for each instance's defaults: no upload may land in its uploads/ folder.
    process.env.CASTAWAY_DATA_DIR = join(dir, 'data');
    delete process.env.CASTAWAY_UPLOAD_DIR;
    t = await openTestStore('pglite');
    blobs = s3BlobStore({ client: s3.client, bucket: s3.bucket, prefix: 'studio', cacheDir: join(dir, 's3-cache') });
    await seedWithMedia(t.store, { clips: 12, blobs });
    const serve = () => startServer({ store: t.store, bus: createMemoryBus(), blobs, distDir: join(dir, 'no-dist'), port: 0, jobs: { pollMs: 50 } });
    [a, b] = [await serve(), await serve()];
    headers = { ...(await signIn(overHttp(a.url))), 'x-organization-id': ORG_DEMO };
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.drop();
    await s3?.close();
    if (saved.data === undefined) delete process.env.CASTAWAY_DATA_DIR;
    else process.env.CASTAWAY_DATA_DIR = saved.data;
    if (saved.uploads !== undefined) process.env.CASTAWAY_UPLOAD_DIR = saved.uploads;
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('begun on one instance, cut off mid-PATCH, continued on the other: the clip gets the file byte for byte', async () => {
    const bytes = new Uint8Array(await readFile(fixturePath('speech-12s-stereo.wav')));
    const { clipId, location, id } = await newUpload(a, 'Uploaded to the bucket', bytes.length);

    // The first 300 KiB on A, whole.
    expect((await patch(a, location, 0, bytes.slice(0, 300 * 1024))).status).toBe(204);
    expect(await offsetOn(b, location)).toBe(300 * 1024);

    // Then a PATCH on A whose body stops after 200 KiB more and whose connection is cut, as in a
    // tunnel: what arrived is kept (a shorter part), and B says where to go on from.
    const cut = new AbortController();
    const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(bytes.slice(300 * 1024, 500 * 1024)) });
    const inFlight = fetch(`${a.url}${location}`, { method: 'PATCH', headers: tus({ 'content-type': 'application/offset+octet-stream', 'upload-offset': String(300 * 1024) }), body, duplex: 'half', signal: cut.signal } as RequestInit).catch((e: unknown) => e);
    // Nothing of it is in the bucket until the part ends: the 200 KiB are on their way into the server.
    await sleep(500);
    expect((await partKeys(id)).length).toBe(1);
    cut.abort();
    await inFlight;
    await expect.poll(() => offsetOn(b, location), { timeout: 20_000 }).toBe(500 * 1024);
    expect(await partKeys(id)).toEqual([
      { key: String(0).padStart(15, '0'), size: 300 * 1024 },
      { key: String(300 * 1024).padStart(15, '0'), size: 200 * 1024 },
    ]);

    // An instance that stored the next part and died before recording it: the part is in the
    // bucket, the offset has not moved, and the client's resend replaces it.
    await blobs.putBytes(`${uploadPartsFolder(id)}/${String(500 * 1024).padStart(15, '0')}`, new Uint8Array(1000).fill(0xee));
    expect(await offsetOn(b, location)).toBe(500 * 1024);
    // A PATCH at an offset the upload is not at is refused, and changes nothing.
    expect((await patch(b, location, 400 * 1024, bytes.slice(400 * 1024))).status).toBe(409);
    expect((await patch(b, location, 500 * 1024, bytes.slice(500 * 1024))).status).toBe(204);

    expect(await settled(b, clipId)).toMatchObject({ State: 'Ready', AudioProcessingProblem: null });
    expect(sha(await original(a, clipId))).toBe(sha(bytes));
    // Nothing went to a local upload folder on either instance.
    expect(existsSync(join(dir, 'data', 'uploads'))).toBe(false);
  }, 90_000);

  it('a deleted upload takes its parts out of the bucket', async () => {
    const bytes = new Uint8Array(await readFile(fixturePath('speech-12s-stereo.wav')));
    const { location, id } = await newUpload(b, 'Deleted from the bucket', bytes.length);
    expect((await patch(b, location, 0, bytes.slice(0, 64 * 1024))).status).toBe(204);
    expect((await partKeys(id)).length).toBe(1);
    expect((await fetch(`${a.url}${location}`, { method: 'DELETE', headers: tus() })).status).toBe(204);
    expect(await partKeys(id)).toEqual([]);
    expect((await fetch(`${b.url}${location}`, { method: 'HEAD', headers: tus() })).status).toBe(404);
  });
});
