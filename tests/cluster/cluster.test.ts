// Several instances on one PostgreSQL (issue 35): three real server processes started by
// scripts/cluster.ts on a fresh database, one shared data folder (upload bytes) and one S3 bucket
// (s3rver: audio, waveforms, artwork), behind its load balancer, all on loopback. A session works on every instance; a write on any instance pokes the clients of all;
// a job queued once runs once; a resumable upload goes on from one instance to another; and an
// instance killed with SIGKILL in the middle of an upload or of a job loses neither.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster, type Instance } from '../../scripts/cluster.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { enqueueJob } from '../../sync-server/jobs/queue.ts';
import { MEDIA_SWEEP_JOB } from '../../sync-server/audio/versions.ts';
import { UPLOADS_PATH } from '../../src/protocol/uploads.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { startS3Server, type S3Server } from '../helpers/s3-server.ts';
import { MISSING_DATABASE_URL, openScratchPostgres, type TestStore } from '../server/test-store.ts';
import { overHttp, signIn } from '../helpers/sign-in.ts';
import { readUntil } from '../helpers/sse.ts';

const JOB_LEASE_MS = 6_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

let db: TestStore & { url: string };
let dataDir: string;
let cluster: Cluster;
let headers: Record<string, string>;
let s3: S3Server;

beforeAll(async () => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error(MISSING_DATABASE_URL);
  db = await openScratchPostgres(base, 'castaway_cluster');
  dataDir = await mkdtemp(join(tmpdir(), 'castaway-cluster-'));
  s3 = await startS3Server();
  const objectStorage = { CASTAWAY_S3_BUCKET: s3.bucket, CASTAWAY_S3_ENDPOINT: s3.endpoint, CASTAWAY_S3_ACCESS_KEY_ID: 'S3RVER', CASTAWAY_S3_SECRET_ACCESS_KEY: 'S3RVER' };
  cluster = await startCluster({
    instances: 3,
    databaseUrl: db.url,
    dataDir,
    // Partial uploads in the shared folder (CASTAWAY_UPLOAD_DIR), where the tests below watch their
    // bytes arrive; in the bucket they are tests/uploads/bucket-uploads.test.ts's.
    env: { ...objectStorage, CASTAWAY_UPLOAD_DIR: join(dataDir, 'uploads'), NODE_ENV: 'test', CASTAWAY_DEMO_CLIPS: '10', CASTAWAY_DIST_DIR: join(dataDir, 'no-dist'), CASTAWAY_JOB_LEASE_MS: String(JOB_LEASE_MS), LOG_LEVEL: 'warn' },
  });
  headers = { ...(await signIn(overHttp(cluster.url))), 'x-organization-id': ORG_DEMO };
}, 240_000);

afterAll(async () => {
  await cluster?.close();
  await db?.drop();
  await s3?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}, 60_000);

async function newClip(on: Instance | Cluster, title: string): Promise<string> {
  const res = await fetch(`${on.url}/api/v1/programs/${seedId('program:morning')}/clips`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ Title: title }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { Id: string }).Id;
}

async function clip(on: Instance | Cluster, id: string): Promise<{ State: string; AudioProcessingProblem: string | null; DurationSeconds: number | null }> {
  const res = await fetch(`${on.url}/api/v1/clips/${id}`, { headers });
  expect(res.status).toBe(200);
  return (await res.json()) as { State: string; AudioProcessingProblem: string | null; DurationSeconds: number | null };
}

async function settled(id: string, timeoutMs: number) {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const row = await clip(cluster, id);
    if (['Ready', 'Warning', 'Error'].includes(row.State) || Date.now() > until) return row;
    await sleep(250);
  }
}

/** Sum over the live instances of one series of their /metrics. */
async function metricSum(name: string, labels: Record<string, string>): Promise<number> {
  const want = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  let sum = 0;
  for (const instance of cluster.instances) {
    const text = await (await fetch(`${instance.url}/metrics`)).text();
    for (const line of text.split('\n')) {
      if (line.startsWith(`${name}{`) && want.every((w) => line.includes(w))) sum += Number(line.split(' ').pop());
    }
  }
  return sum;
}

const tus = (extra: Record<string, string> = {}) => ({ ...headers, 'tus-resumable': '1.0.0', ...extra });

async function createUpload(on: Instance, clipId: string, fileName: string, length: number): Promise<string> {
  const res = await fetch(`${on.url}${UPLOADS_PATH}`, {
    method: 'POST',
    headers: tus({ 'upload-length': String(length), 'upload-metadata': Metadata.stringify({ filename: fileName, clipId }) }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return res.headers.get('location')!;
}

async function offsetOn(on: Instance, location: string): Promise<number> {
  const res = await fetch(`${on.url}${location}`, { method: 'HEAD', headers: tus() });
  expect(res.status).toBe(200);
  return Number(res.headers.get('upload-offset'));
}

async function patch(on: Instance, location: string, offset: number, body: Uint8Array<ArrayBuffer>): Promise<Response> {
  return fetch(`${on.url}${location}`, {
    method: 'PATCH',
    headers: tus({ 'content-type': 'application/offset+octet-stream', 'upload-offset': String(offset) }),
    body,
  });
}

async function originalAudio(id: string): Promise<Uint8Array> {
  const res = await fetch(`${cluster.url}/api/internal/clips/${id}/original-audio`, { headers });
  expect(res.status).toBe(200);
  return new Uint8Array(await res.arrayBuffer());
}

describe('three instances on one PostgreSQL', () => {
  it('a session signed in through the balancer works on every instance, and every instance is in the rotation', async () => {
    for (const instance of cluster.instances) {
      const res = await fetch(`${instance.url}/api/v1/clips/${(await newClip(instance, `On ${instance.index}`))}`, { headers });
      expect(res.status).toBe(200);
    }
    expect(cluster.balancer.backends.map((b) => b.ready)).toEqual([true, true, true]);
  });

  it('a write on any instance pokes the clients connected to each of them', async () => {
    const readers = await Promise.all(
      cluster.instances.map(async (instance) => {
        const res = await fetch(`${instance.url}/api/sync/events`, { headers });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        await readUntil(reader, 'event: ready');
        return reader;
      }),
    );
    try {
      for (const writer of cluster.instances) {
        const res = await fetch(`${writer.url}/api/v1/programs`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ Name: `Poked from ${writer.index}` }) });
        expect(res.status, await res.clone().text()).toBe(201);
        const version = ((await res.json()) as { Version: number }).Version;
        await Promise.all(readers.map((reader) => readUntil(reader, `"version":${version}`)));
      }
    } finally {
      await Promise.all(readers.map((r) => r.cancel()));
    }
  });

  it('30 jobs queued once run once each, whichever instances take them', { timeout: 60_000 }, async () => {
    // A job kind that runs once and is deleted (a recurring kind queues itself again): the sweep of a
    // clip's old media files, here of a clip that has none.
    const before = await metricSum('castaway_job_runs_total', { kind: MEDIA_SWEEP_JOB, outcome: 'done' });
    for (let i = 0; i < 30; i++) await enqueueJob(db.store, MEDIA_SWEEP_JOB, { clipId: crypto.randomUUID(), keys: [] });
    const left = () => db.store.query(`SELECT id, state, attempts, locked_by, last_error FROM jobs WHERE kind = $1`, [MEDIA_SWEEP_JOB]);
    await expect.poll(async () => (await left()).length, { timeout: 30_000 }).toBe(0).catch(async (e: unknown) => {
      throw new Error(`${String(e)}\njobs left: ${JSON.stringify(await left())}\nall: ${JSON.stringify(await db.store.query(`SELECT kind, state, count(*)::int FROM jobs GROUP BY 1, 2`))}\n${cluster.instances.map((i) => i.output().slice(-3000)).join('\n----\n')}`);
    });
    expect((await metricSum('castaway_job_runs_total', { kind: MEDIA_SWEEP_JOB, outcome: 'done' })) - before).toBe(30);
    expect(await metricSum('castaway_job_runs_total', { kind: MEDIA_SWEEP_JOB, outcome: 'retry' })).toBe(0);
  });

  it('an upload created on one instance, continued on a second and finished on a third arrives whole', async () => {
    const bytes: Uint8Array<ArrayBuffer> = new Uint8Array(readFileSync(fixturePath('speech-12s-stereo.wav')));
    const id = await newClip(cluster, 'Across instances');
    const [a, b, c] = cluster.instances as [Instance, Instance, Instance];
    const location = await createUpload(a, id, 'speech-12s-stereo.wav', bytes.length);
    const half = 1024 * 1024;
    expect((await patch(a, location, 0, bytes.subarray(0, half))).status).toBe(204);
    expect(await offsetOn(b, location)).toBe(half);
    expect((await patch(b, location, half, bytes.subarray(half, half + 1000))).status).toBe(204);
    expect(await offsetOn(c, location)).toBe(half + 1000);
    expect((await patch(c, location, half + 1000, bytes.subarray(half + 1000))).status).toBe(204);
    expect(await settled(id, 60_000)).toMatchObject({ State: 'Ready', AudioProcessingProblem: null });
    expect(sha(await originalAudio(id))).toBe(sha(bytes));
    // The blobs went to the bucket, which every instance reads; none to the shared folder.
    expect(existsSync(join(dataDir, 'blobs'))).toBe(false);
  });

  it('a client resuming on another instance makes its own half-open PATCH let go; bytes the old request still gets are not written', async () => {
    const bytes: Uint8Array<ArrayBuffer> = new Uint8Array(readFileSync(fixturePath('speech-12s-stereo.wav')));
    const id = await newClip(cluster, 'Half-open PATCH');
    const [a, b] = cluster.instances as [Instance, Instance];
    const location = await createUpload(a, id, 'speech-12s-stereo.wav', bytes.length);
    const sent = 500 * 1024;
    // The old request: its client lost the link after `sent` bytes, but the server still holds it open.
    let more: (chunk: Uint8Array) => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, sent));
        more = (chunk) => {
          try {
            controller.enqueue(chunk);
          } catch {
            // the request was already ended
          }
        };
      },
    });
    const old = fetch(`${a.url}${location}`, {
      method: 'PATCH',
      headers: tus({ 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' }),
      body,
      duplex: 'half',
    } as RequestInit).then((r) => r.status, (e: unknown) => e);
    const file = join(dataDir, 'uploads', location.split('/').pop()!);
    await expect.poll(() => { try { return statSync(file).size; } catch { return 0; } }, { timeout: 20_000 }).toBe(sent);

    // The client comes back through another instance: its HEAD asks the holder on the first to let go.
    const started = Date.now();
    expect(await offsetOn(b, location)).toBe(sent);
    expect(Date.now() - started).toBeLessThan(10_000); // well before the old lock's lease would lapse
    expect(await Promise.race([old, sleep(10_000).then(() => 'still open')])).not.toBe('still open');
    // What the old request receives now must not reach the file.
    more(new Uint8Array(64 * 1024).fill(0xee));
    await sleep(300);
    expect(statSync(file).size).toBe(sent);
    expect((await patch(b, location, sent, bytes.subarray(sent))).status).toBe(204);
    expect(await settled(id, 60_000)).toMatchObject({ State: 'Ready', AudioProcessingProblem: null });
    expect(sha(await originalAudio(id))).toBe(sha(bytes));
  }, 90_000);

  it('kill -9 the instance receiving an upload: the client goes on from another instance from what reached the disk', async () => {
    const bytes: Uint8Array<ArrayBuffer> = new Uint8Array(readFileSync(fixturePath('speech-12s-stereo.wav')));
    const id = await newClip(cluster, 'Killed mid-upload');
    const victim = cluster.instances[1]!;
    const location = await createUpload(victim, id, 'speech-12s-stereo.wav', bytes.length);
    const sent = 700 * 1024;
    // A PATCH whose body stops coming after `sent` bytes, as a phone's in a tunnel does.
    let stall: () => void = () => undefined;
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.subarray(0, sent));
        stall = () => controller.error(new Error('the test ends the body'));
      },
    });
    const inFlight = fetch(`${victim.url}${location}`, {
      method: 'PATCH',
      headers: tus({ 'content-type': 'application/offset+octet-stream', 'upload-offset': '0' }),
      body,
      duplex: 'half',
    } as RequestInit).catch((e: unknown) => e);
    const file = join(dataDir, 'uploads', location.split('/').pop()!);
    await expect.poll(() => { try { return statSync(file).size; } catch { return 0; } }, { timeout: 20_000 }).toBe(sent);
    victim.child.kill('SIGKILL');
    await victim.exited;
    stall();
    await inFlight;

    // Another instance answers once the dead one's lock has lapsed; nothing that reached the disk is lost.
    const other = cluster.instances[2]!;
    const offset = await offsetOn(other, location);
    expect(offset).toBe(sent);
    expect((await patch(other, location, offset, bytes.subarray(offset))).status).toBe(204);
    expect(await settled(id, 60_000)).toMatchObject({ State: 'Ready', AudioProcessingProblem: null });
    expect(sha(await originalAudio(id))).toBe(sha(bytes));
    await cluster.restart(1);
  }, 120_000);

  it('kill -9 the instance running a job: another instance takes it up after its lease and finishes it', async () => {
    const id = await newClip(cluster, 'Killed mid-job');
    const put = await fetch(`${cluster.url}/api/v1/clips/${id}/audio?fileName=episode.mp3`, {
      method: 'PUT',
      headers: { ...headers, 'content-type': 'audio/mpeg' },
      body: new Uint8Array(readFileSync(fixturePath('episode-60min-mono-64k.mp3'))),
    });
    expect(put.status, await put.clone().text()).toBe(202);
    // The instance whose runner holds the clip's processing job (its lease names the process).
    let holder: Instance | undefined;
    for (const until = Date.now() + 60_000; !holder && Date.now() < until; await sleep(50)) {
      const [row] = await db.store.query<{ locked_by: string }>(`SELECT locked_by FROM jobs WHERE state = 'running' AND payload::text LIKE $1`, [`%${id}%`]);
      const pid = Number(row?.locked_by.split(':')[1]);
      holder = cluster.instances.find((i) => i.child.pid === pid);
    }
    expect(holder, 'no instance took the processing job').toBeDefined();
    holder!.child.kill('SIGKILL');
    await holder!.exited;
    // Killed before it finished: the job may not even have marked the clip Processing yet.
    expect(['AudioUploaded', 'Processing']).toContain((await clip(cluster, id)).State);

    const after = await settled(id, 180_000);
    expect(after).toMatchObject({ State: 'Ready', AudioProcessingProblem: null });
    expect(Math.round(after.DurationSeconds ?? 0)).toBe(3600);
    expect(await db.store.query(`SELECT state FROM jobs WHERE payload::text LIKE $1`, [`%${id}%`])).toEqual([]);
  }, 240_000);
});
