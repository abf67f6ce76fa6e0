// Recordings as they happen (issue 34), on PGlite and on PostgreSQL, over real HTTP: system ffmpeg
// pushes an MP3 in real time (-re) to the live ingest with a recording agent's Basic credentials,
// chunked, as an encoder does. While it runs a watcher's event stream gets the waveform in several
// appends, each starting where the last ended; when it ends the recording is Finalized by the
// ingest job with both waveforms, its audio and its duration. Refused credentials and a program the
// agent may not push to are answered with a body; a stream cut off keeps what arrived, torn. A
// watcher whose connection went asks again with Last-Event-ID and gets only what came after it.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeRecording } from '../../src/domain/recording.ts';
import { LIVE_SAMPLES_PER_PIXEL } from '../../src/media/live-peaks.ts';
import { waveformFromDat } from '../../src/media/waveform-format.ts';
import type { LivePeaksEvent } from '../../src/protocol/api/live-recordings.ts';
import type { RecordingAgentWithToken } from '../../src/protocol/api/recording-agents.ts';
import type { Recording } from '../../src/protocol/entities.ts';
import { createApp } from '../../sync-server/app.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { readLiveEvents } from '../../src/media/live-events.ts';
import { pixelsOf, watchLivePeaks } from '../helpers/live-peaks.ts';
import { AppClient } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
const WORLD = seedId('program:world');
type ErrorBody = { Errors: Array<{ Field: string; Message: string }> };

/** ffmpeg re-encoding `file` in real time to the live ingest, as an encoder would. */
function push(url: string, file: string, seconds?: number) {
  const args = ['-hide_banner', '-loglevel', 'error', '-re', '-i', fixturePath(file), ...(seconds ? ['-t', String(seconds)] : []), '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', '-method', 'PUT', '-chunked_post', '1', '-auth_type', 'basic', url];
  const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const done = new Promise<{ code: number | null; stderr: string }>((resolve) => child.on('close', (code) => resolve({ code, stderr })));
  return { child, done };
}


describe.each(storeKinds)('live recordings on %s', (kind) => {
  let test: TestStore;
  let api: AppClient;
  let app: ReturnType<typeof createApp>;
  let server: ReturnType<typeof serve>;
  let base = '';
  let blobDir = '';
  let agent: RecordingAgentWithToken;
  const session: Record<string, string> = {};

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 12 });
    blobDir = await mkdtemp(join(tmpdir(), 'castaway-live-'));
    app = createApp({ store: test.store, bus: createMemoryBus(), blobs: fsBlobStore(blobDir) });
    await app.jobs.start();
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
    Object.assign(session, { cookie: api.cookie, 'x-organization-id': ORG_DEMO });
    agent = (await api.post('/api/v1/recording-agents', { Name: 'Studio 1 encoder', ProgramIds: [MORNING] })).body as RecordingAgentWithToken;
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    server?.close();
    await app?.jobs.stop();
    await test?.drop();
    if (blobDir) await rm(blobDir, { recursive: true, force: true });
  });

  const liveUrl = (program: string, title: string, credentials = `${agent.Id}:${agent.Token}`) => `http://${credentials}@${base.slice('http://'.length)}/api/v1/programs/${program}/recordings/live?title=${encodeURIComponent(title)}`;
  const newRecordingTitled = async (title: string): Promise<string> => {
    for (;;) {
      const [row] = await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE title = $1`, [title]);
      if (row) return row.id;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  const recording = async (id: string) => (await api.get(`/api/v1/recordings/${id}`)).body as Recording;
  const finalized = async (id: string): Promise<Recording> => {
    for (;;) {
      const row = await recording(id);
      if (row.State === 'Finalized') return row;
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('refuses wrong credentials with 401 and a body, and a program the agent may not push to with 403', async () => {
    const path = `/api/v1/programs/${MORNING}/recordings/live`;
    for (const authorization of [undefined, `Basic ${btoa(`${agent.Id}:crt_wrong`)}`, `Bearer crt_wrong`, `Basic ${btoa(`${crypto.randomUUID()}:${agent.Token}`)}`]) {
      const res = await app.request(path, { method: 'PUT', headers: { 'content-type': 'audio/mpeg', ...(authorization ? { authorization } : {}) }, body: new Uint8Array(16) });
      expect(res.status, authorization).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
      const body = (await res.json()) as ErrorBody;
      expect(body.Errors[0]).toMatchObject({ Field: 'Authorization', Message: 'The recording agent’s credentials were not accepted' });
    }
    const other = await app.request(`/api/v1/programs/${WORLD}/recordings/live`, { method: 'POST', headers: { 'content-type': 'audio/mpeg', authorization: `Bearer ${agent.Token}` }, body: new Uint8Array(16) });
    expect(other.status).toBe(403);
    expect(((await other.json()) as ErrorBody).Errors[0]!.Field).toBe('programId');
    // ffmpeg is answered before it has sent its stream, and fails (no recording made). It says
    // "Broken pipe", not the status: it reads no answer until it has sent all it has.
    const refused = await push(liveUrl(MORNING, 'Refused', `${agent.Id}:crt_wrong`), 'speech-12s.mp3', 1).done;
    expect(refused.code).not.toBe(0);
    expect((await test.store.query(`SELECT 1 FROM recordings WHERE title = 'Refused'`)).length).toBe(0);
  }, 60_000);

  it('an encoder’s stream: Live, its waveform appended while it runs, then Finalized with both waveforms and its duration', async () => {
    const title = `Morning live ${kind}`;
    const pusher = push(liveUrl(MORNING, title), 'speech-12s.mp3');
    const id = await newRecordingTitled(title);
    const live = await recording(id);
    expect(live.State).toBe('Live');
    // Section 4: a Live recording has its audio link: the stream as it is captured, heard from now on.
    expect(live.Urls.AudioUrl).toBe(`/api/v1/recordings/${id}/live/audio`);
    expect(normalizeRecording(live).ok).toBe(true);
    const listening = await fetch(`${base}${live.Urls.AudioUrl}`, { headers: session });
    expect(listening.status).toBe(200);
    expect(listening.headers.get('content-type')).toBe('audio/mpeg');
    const heard = new Response(listening.body).arrayBuffer();
    const events: LivePeaksEvent[] = [];
    const end = await watchLivePeaks(base, session, id, (e) => events.push(e));
    // What was heard ends with the stream, and is MP3: frames with their sync word.
    const bytes = new Uint8Array(await heard);
    expect(bytes.length).toBeGreaterThan(10_000);
    expect(bytes.some((b, i) => b === 0xff && (bytes[i + 1]! & 0xe0) === 0xe0)).toBe(true);
    const { code, stderr } = await pusher.done;
    expect(code, stderr).toBe(0);
    // Appended in pieces as the audio arrived, each where the last one ended.
    expect(events.length).toBeGreaterThan(5);
    let next = 0;
    for (const e of events) {
      expect(e.FirstPixel).toBe(next);
      expect(e.SamplesPerPixel).toBe(LIVE_SAMPLES_PER_PIXEL);
      next += pixelsOf(e);
    }
    expect(end.HasTornAudio).toBe(false);
    const row = await finalized(id);
    expect(row.HasTornAudio).toBe(false);
    expect(Math.abs(row.DurationSeconds! - 12)).toBeLessThanOrEqual(1);
    expect(row.CaptureEndUtc).not.toBeNull();
    expect(row.Urls.AudioUrl).toBe(`/api/media/recordings/${id}/audio`);
    // No longer live: the stream's URL is not found, the whole recording is at its AudioUrl.
    expect((await fetch(`${base}/api/v1/recordings/${id}/live/audio`, { headers: session })).status).toBe(404);
    const high = await app.request(row.Urls.WaveformHighResUrl!, { headers: session });
    const w = waveformFromDat(new Uint8Array(await high.arrayBuffer()));
    // The live peaks are those of the same bytes: the finalized waveform is as long, give or take the
    // encoder's padding the file's header lets the decoder drop (under a tenth of a second).
    expect(Math.abs(w.length - next)).toBeLessThan((0.1 * w.sampleRate) / LIVE_SAMPLES_PER_PIXEL);
    expect((await app.request(row.Urls.WaveformLowResUrl!, { headers: session })).status).toBe(200);
    // Its waveforms serve it now: the live peaks rows went with the commit that Finalized it.
    expect(await test.store.query(`SELECT seq FROM live_peaks WHERE recording_id = $1`, [id])).toEqual([]);
    const last = await test.store.query<{ last_seen_at_utc: Date | null }>(`SELECT last_seen_at_utc FROM recording_agents WHERE id = $1`, [agent.Id]);
    expect(last[0]!.last_seen_at_utc).not.toBeNull();
  }, 60_000);

  it('a watcher whose connection went resumes from its Last-Event-ID: nothing sent twice, nothing missed', async () => {
    const title = `Resumed ${kind}`;
    const pusher = push(liveUrl(MORNING, title), 'speech-12s.mp3');
    const id = await newRecordingTitled(title);
    // A watcher reading the whole stream in one connection, to compare with.
    const whole: LivePeaksEvent[] = [];
    const wholeEnd = watchLivePeaks(base, session, id, (e) => whole.push(e));
    // The first connection: dropped by its reader after two seconds of waveform, as a lost line is.
    const first = new AbortController();
    const before: LivePeaksEvent[] = [];
    let lastId: string | null = null;
    const res = await fetch(`${base}/api/v1/recordings/${id}/live/peaks`, { headers: session, signal: first.signal });
    await readLiveEvents(res.body!, (e, eventId) => {
      if (first.signal.aborted) return;
      before.push(e);
      lastId = eventId;
      if (before.reduce((n, p) => n + pixelsOf(p), 0) >= 2 * (44100 / LIVE_SAMPLES_PER_PIXEL)) first.abort();
    }).catch(() => null);
    expect(lastId).toMatch(/^\d+$/);
    // Away for a second while the stream goes on, then back with the last id it had.
    await new Promise((r) => setTimeout(r, 1000));
    const after: LivePeaksEvent[] = [];
    const again = await fetch(`${base}/api/v1/recordings/${id}/live/peaks`, { headers: { ...session, 'last-event-id': lastId! } });
    expect(again.status).toBe(200);
    const end = await readLiveEvents(again.body!, (e) => after.push(e));
    expect(end).toMatchObject({ HasTornAudio: false });
    expect((await pusher.done).code).toBe(0);
    await wholeEnd;
    // The second connection starts where the first stopped, and together they are the whole waveform.
    const firstPixels = before.reduce((n, p) => n + pixelsOf(p), 0);
    expect(after[0]!.FirstPixel).toBe(firstPixels);
    let next = 0;
    for (const e of [...before, ...after]) {
      expect(e.FirstPixel).toBe(next);
      next += pixelsOf(e);
    }
    expect(next).toBe(whole.reduce((n, p) => n + pixelsOf(p), 0));
    expect(Buffer.concat([...before, ...after].map((e) => Buffer.from(e.Data, 'base64')))).toEqual(Buffer.concat(whole.map((e) => Buffer.from(e.Data, 'base64'))));
    await finalized(id);
  }, 60_000);

  it('refuses a Last-Event-ID that is not one of its ids with 400 naming it', async () => {
    const [row] = await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE organization_id = $1 AND NOT deleted LIMIT 1`, [ORG_DEMO]);
    const res = await fetch(`${base}/api/v1/recordings/${row!.id}/live/peaks`, { headers: { ...session, 'last-event-id': 'yesterday' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as ErrorBody).Errors[0]!.Field).toBe('last-event-id');
  });

  it('a stream cut off keeps what arrived: Finalized with that audio, HasTornAudio', async () => {
    const title = `Cut off ${kind}`;
    const pusher = push(liveUrl(MORNING, title), 'episode-60min-mono-64k.mp3');
    const id = await newRecordingTitled(title);
    let pixels = 0;
    const ended = watchLivePeaks(base, session, id, (e) => (pixels += pixelsOf(e)));
    while (pixels < 3 * (44100 / LIVE_SAMPLES_PER_PIXEL)) await new Promise((r) => setTimeout(r, 50));
    pusher.child.kill('SIGKILL');
    const end = await ended;
    expect(end.HasTornAudio).toBe(true);
    const row = await finalized(id);
    expect(row.HasTornAudio).toBe(true);
    expect(row.DurationSeconds).toBeGreaterThan(2);
    expect(row.DurationSeconds).toBeLessThan(60);
    expect(row.Urls.WaveformHighResUrl).not.toBeNull();
  }, 60_000);
});
