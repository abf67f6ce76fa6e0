// A live stream whose receiving instance dies (issue 34): two instances on one PostgreSQL database.
// Instance 1 is a server process of its own (`npm start`'s main.ts) that system ffmpeg pushes a
// long MP3 to in real time; instance 2 runs in this process, with its own store connections, its
// LISTEN/NOTIFY bus and its job runner. Instance 1 is killed with SIGKILL mid-stream. Nothing ends
// the stream there, so instance 2's sweep (LIVE_SWEEP_JOB) must: after the lost time (shortened
// here through CASTAWAY_LIVE_STREAM_LOST_MS and AppDeps.live, the same on both) the recording leaves
// Live, the watcher on instance 2 gets 'end', and the row says what happened:
//   - a blob folder the instances share: the audio stored until the kill is the recording,
//     Finalized with its waveforms and duration, HasTornAudio (cut off); while it ran, the stream's
//     row counted the bytes its stored segments hold;
//   - a folder of instance 1's own: its audio is lost with it, and the recording is Finalized with
//     duration 0 and no audio link (section 4's zero-duration case), HasTornAudio, not a whole one.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeRecording } from '../../src/domain/recording.ts';
import { LIVE_SAMPLES_PER_PIXEL } from '../../src/media/live-peaks.ts';
import { waveformFromDat } from '../../src/media/waveform-format.ts';
import type { Recording } from '../../src/protocol/entities.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { pixelsOf, watchLivePeaks } from '../helpers/live-peaks.ts';
import { startServerProcess } from '../helpers/server-process.ts';
import { liveDatabase, liveSession, liveStreamStored, MORNING, type LiveDatabase, type LiveSession } from './live-instances.ts';
import { startPgInstance, type PgInstance } from './pg-instance.ts';

/** The lost time on both instances: a heartbeat every 500 ms, a sweep every 1.5 s. */
const LOST_MS = 6_000;
const START_MS = 180_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until<T>(what: string, probe: () => T | undefined | null | false | Promise<T | undefined | null | false>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

describe('a live stream whose instance is killed', () => {
  let live: LiveDatabase;
  let sharedBlobs = '';
  const running = new Set<ChildProcess>();
  let two: PgInstance;
  let signedIn: LiveSession;

  beforeAll(async () => {
    live = await liveDatabase('castaway_live_lost');
    sharedBlobs = join(live.dir, 'blobs');
    await mkdir(sharedBlobs, { recursive: true });
    two = await startPgInstance(live.db.url, sharedBlobs, { deps: { live: { lostMs: LOST_MS }, jobs: { leaseMs: 3_000 } } });
    signedIn = await liveSession(two, 'Studio 3 encoder');
  }, START_MS);

  afterAll(async () => {
    for (const child of running) child.kill('SIGKILL');
    await two?.close();
    await live?.drop();
  }, 60_000);

  /** Instance 1: main.ts on the same database, its blobs in `blobDir`. */
  function startInstanceOne(blobDir: string) {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: live.db.url,
      NODE_ENV: 'test',
      CASTAWAY_BLOB_DIR: blobDir,
      CASTAWAY_DATA_DIR: live.dir,
      CASTAWAY_DIST_DIR: join(live.dir, 'no-dist'),
      CASTAWAY_DEMO_LISTENER_DAYS: '0',
      // A job it held when killed (the sweep itself, say) is taken up by instance 2 soon.
      CASTAWAY_JOB_LEASE_MS: '3000',
      CASTAWAY_LIVE_STREAM_LOST_MS: String(LOST_MS),
      LOG_LEVEL: 'warn',
      PORT: '0',
    };
    for (const name of ['CASTAWAY_UPLOAD_DIR', 'CASTAWAY_S3_BUCKET']) delete env[name];
    return startServerProcess(env, running, START_MS);
  }

  /** Pushes the hour-long fixture to instance 1 in real time, kills instance 1 once `ready` says so
   * and returns the recording's id, the watcher's end, the pixels it got and the row once settled. */
  async function pushAndKill(title: string, blobDir: string, ready: (id: string, pixels: number) => Promise<boolean>) {
    const { api, session, agent } = signedIn;
    const db = live.db;
    const one = await startInstanceOne(blobDir);
    const url = `http://${agent.Id}:${agent.Token}@${one.base.slice('http://'.length)}/api/v1/programs/${MORNING}/recordings/live?title=${encodeURIComponent(title)}`;
    const ffmpeg = spawn(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-re', '-i', fixturePath('episode-60min-mono-64k.mp3'), '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', '-method', 'PUT', '-chunked_post', '1', '-auth_type', 'basic', url],
      { stdio: ['ignore', 'ignore', 'ignore'] },
    );
    running.add(ffmpeg);
    ffmpeg.once('exit', () => running.delete(ffmpeg));
    const id = await until('the live recording', async () => (await db.store.query<{ id: string }>(`SELECT id FROM recordings WHERE title = $1`, [title]))[0]?.id, 30_000);
    let pixels = 0;
    const ended = watchLivePeaks(two.base, session, id, (e) => (pixels += pixelsOf(e)));
    await until('the stream to be under way', () => ready(id, pixels), 60_000);
    one.child.kill('SIGKILL');
    await one.exited;
    ffmpeg.kill('SIGKILL');
    const killedPixels = pixels;
    // Nothing on instance 1 ends it now: the end comes from instance 2's sweep.
    const end = await ended;
    const row = await until(
      'the recording to settle',
      async () => {
        const r = (await api.get(`/api/v1/recordings/${id}`)).body as Recording;
        return r.State === 'Finalized' && r;
      },
      60_000,
    );
    return { id, end, row, killedPixels };
  }

  it('with a shared blob folder: the audio stored until the kill is the recording, Finalized, cut off', async () => {
    // What the row counted and its segments held when last looked at, before the kill.
    let stored = null as Awaited<ReturnType<typeof liveStreamStored>>;
    const { id, end, row, killedPixels } = await pushAndKill('Lost instance, shared folder', sharedBlobs, async (recordingId, pixels) => {
      stored = await liveStreamStored(live.db.store, sharedBlobs, recordingId);
      // A few seconds of audio drawn and stored as segments.
      return (stored?.segments ?? 0) >= 4 && pixels >= 3 * (44100 / LIVE_SAMPLES_PER_PIXEL);
    });
    // The row counted, with its segments, the bytes they hold.
    expect(stored!.counted).toBeGreaterThan(0);
    expect(stored!.counted).toBe(stored!.stored);
    expect(end.State).not.toBe('Live');
    expect(end.HasTornAudio).toBe(true);

    expect(row.HasTornAudio).toBe(true);
    expect(normalizeRecording(row).ok).toBe(true);
    expect(row.CaptureEndUtc).not.toBeNull();
    // What was drawn live, give or take the last heartbeat's audio and what was still in flight.
    const drawnSeconds = (killedPixels * LIVE_SAMPLES_PER_PIXEL) / 44100;
    expect(row.DurationSeconds).toBeGreaterThan(2);
    expect(row.DurationSeconds!).toBeLessThan(drawnSeconds + 5);
    expect(row.Urls.AudioUrl).toBe(`/api/media/recordings/${id}/audio`);
    const audio = await two.app.request(row.Urls.AudioUrl!, { headers: signedIn.session });
    expect(audio.status).toBe(200);
    expect((await audio.arrayBuffer()).byteLength).toBeGreaterThan(2 * 8_000);
    const high = await two.app.request(row.Urls.WaveformHighResUrl!, { headers: signedIn.session });
    expect(high.status).toBe(200);
    const waveform = waveformFromDat(new Uint8Array(await high.arrayBuffer()));
    expect((waveform.length * waveform.samplesPerPixel) / 44100).toBeCloseTo(row.DurationSeconds!, 0);
    // The stream's rows are gone; a later watcher is told it ended.
    expect(await live.db.store.query(`SELECT 1 FROM live_streams WHERE recording_id = $1`, [id])).toEqual([]);
    expect(await live.db.store.query(`SELECT 1 FROM live_peaks WHERE recording_id = $1`, [id])).toEqual([]);
    const after = await (await fetch(`${two.base}/api/v1/recordings/${id}/live/peaks`, { headers: signedIn.session })).text();
    expect(after).toContain('event: end');
  }, 240_000);

  it('with a blob folder of its own: the audio is lost with it, and the recording says so (0 s, no audio, cut off)', async () => {
    const ownBlobs = join(live.dir, 'instance-one-blobs');
    const { id, end, row } = await pushAndKill('Lost instance, own folder', ownBlobs, async (recordingId, pixels) => {
      const [s] = await live.db.store.query<{ segments: number }>(`SELECT segments FROM live_streams WHERE recording_id = $1`, [recordingId]);
      return (s?.segments ?? 0) >= 2 && pixels > 0;
    });
    expect(end.State).toBe('Finalized');
    expect(end.HasTornAudio).toBe(true);
    expect(row.HasTornAudio).toBe(true);
    expect(row.DurationSeconds).toBe(0);
    expect(row.Urls).toEqual({ AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null });
    expect(normalizeRecording(row).ok).toBe(true);
    expect(await live.db.store.query(`SELECT 1 FROM live_streams WHERE recording_id = $1`, [id])).toEqual([]);
    expect(await live.db.store.query(`SELECT 1 FROM live_peaks WHERE recording_id = $1`, [id])).toEqual([]);
  }, 240_000);
});
