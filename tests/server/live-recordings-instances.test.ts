// A live recording watched from another instance (issues 34 and 35): two apps on one PostgreSQL
// database, each with its own store connections, its own LISTEN/NOTIFY bus and its own job runner,
// as two server instances behind a balancer are; they share only the database and the blob folder.
// System ffmpeg pushes an MP3 in real time to instance 1; a watcher of instance 2 gets the
// waveform appended in order, each pixel once, then 'end'; the pixels are those of the finalized
// waveform, and the live peaks rows are gone once the recording is Finalized. A listener of the
// live audio on instance 2 hears the segments instance 1 stores in the shared blob folder, as they
// are stored, and at the end the rest from the recording made of them: the whole stream, byte for
// byte the finalized recording's audio. While it runs, the stream's row counts the bytes its stored
// segments hold (what the listener on instance 2 starts from).
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_SAMPLES_PER_PIXEL } from '../../src/media/live-peaks.ts';
import { waveformFromDat } from '../../src/media/waveform-format.ts';
import type { LivePeaksEvent } from '../../src/protocol/api/live-recordings.ts';
import type { Recording } from '../../src/protocol/entities.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { pixelsOf, watchLivePeaks } from '../helpers/live-peaks.ts';
import { liveDatabase, liveSession, liveStreamStored, MORNING, type LiveDatabase, type LiveSession } from './live-instances.ts';
import { startPgInstance, type PgInstance } from './pg-instance.ts';

describe('a live recording on two instances of one PostgreSQL', () => {
  let live: LiveDatabase;
  const instances: PgInstance[] = [];
  let signedIn: LiveSession;

  beforeAll(async () => {
    live = await liveDatabase('castaway_live2');
    // Instance 1 uses the scratch store; instance 2 opens its own pool to the same database.
    instances.push(await startPgInstance(live.db.url, live.dir, { store: live.db.store }), await startPgInstance(live.db.url, live.dir));
    signedIn = await liveSession(instances[0]!, 'Studio 2 encoder');
  }, 120_000);

  afterAll(async () => {
    for (const i of instances) await i.close();
    await live?.drop();
  });

  it('ffmpeg pushes to instance 1; a watcher of instance 2 gets each append in order, once, then the end; the pixels are the finalized waveform’s', async () => {
    const [one, two] = instances as [PgInstance, PgInstance];
    const { api, session, agent } = signedIn;
    const db = live.db;
    const title = 'Across instances';
    const url = `http://${agent.Id}:${agent.Token}@${one.base.slice('http://'.length)}/api/v1/programs/${MORNING}/recordings/live?title=${encodeURIComponent(title)}`;
    const ffmpeg = spawn(
      'ffmpeg',
      ['-hide_banner', '-loglevel', 'error', '-re', '-i', fixturePath('speech-12s.mp3'), '-c:a', 'libmp3lame', '-b:a', '64k', '-f', 'mp3', '-method', 'PUT', '-chunked_post', '1', '-auth_type', 'basic', url],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    ffmpeg.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const pushed = new Promise<number | null>((resolve) => ffmpeg.on('close', resolve));

    let id: string | undefined;
    while (!id) {
      id = (await db.store.query<{ id: string }>(`SELECT id FROM recordings WHERE title = $1`, [title]))[0]?.id;
      if (!id) await new Promise((r) => setTimeout(r, 20));
    }
    // The live audio on another instance: the segments stored in the shared blob folder, as they are
    // stored (a heartbeat behind), ending with the stream.
    const listening = await fetch(`${two.base}/api/v1/recordings/${id}/live/audio`, { headers: session });
    expect(listening.status).toBe(200);
    expect(listening.headers.get('content-type')).toBe('audio/mpeg');
    const heard = new Response(listening.body).arrayBuffer();
    // Meanwhile, once two segments are in, the row's byte count is what those segments hold.
    const recordingId = id;
    const counting = (async () => {
      for (;;) {
        const stored = await liveStreamStored(db.store, live.dir, recordingId);
        if (!stored || stored.segments >= 2) return stored;
        await new Promise((r) => setTimeout(r, 50));
      }
    })();

    const events: LivePeaksEvent[] = [];
    const end = await watchLivePeaks(two.base, session, id, (e) => events.push(e));
    expect(await pushed, stderr).toBe(0);
    const stored = await counting;
    expect(stored, 'the stream ended before two segments were stored').not.toBeNull();
    expect(stored!.counted).toBeGreaterThan(0);
    expect(stored!.counted).toBe(stored!.stored);
    // All of the 12 s at 64 kbit/s (about 96 kB) was stored and heard, as MP3 frames; then it ended.
    const bytes = new Uint8Array(await heard);
    expect(bytes.length).toBeGreaterThan(80_000);
    expect(bytes.some((b, i) => b === 0xff && (bytes[i + 1]! & 0xe0) === 0xe0)).toBe(true);

    // Appended in many pieces while it ran, each starting where the last ended: none twice, none lost.
    expect(events.length).toBeGreaterThan(5);
    let next = 0;
    for (const e of events) {
      expect(e.FirstPixel).toBe(next);
      expect(e.SamplesPerPixel).toBe(LIVE_SAMPLES_PER_PIXEL);
      expect(e.SampleRate).toBe(44100);
      next += pixelsOf(e);
    }
    // The end came when the row left Live, after the last pixel.
    expect(end.State).not.toBe('Live');
    expect(end.HasTornAudio).toBe(false);

    let row: Recording;
    for (;;) {
      row = (await api.get(`/api/v1/recordings/${id}`)).body as Recording;
      if (row.State === 'Finalized') break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // What instance 2's listener heard is the whole stream, byte for byte the recording's audio.
    const whole = new Uint8Array(await (await two.app.request(row.Urls.AudioUrl!, { headers: session })).arrayBuffer());
    expect(bytes.length).toBe(whole.length);
    expect(Buffer.from(bytes).equals(Buffer.from(whole))).toBe(true);
    const high = await two.app.request(row.Urls.WaveformHighResUrl!, { headers: session });
    expect(high.status).toBe(200);
    const waveform = waveformFromDat(new Uint8Array(await high.arrayBuffer()));
    expect(waveform.samplesPerPixel).toBe(LIVE_SAMPLES_PER_PIXEL);
    expect(next).toBe(waveform.length);
    // Its waveforms serve it now: no live peaks rows are left.
    expect(await db.store.query(`SELECT seq FROM live_peaks WHERE recording_id = $1`, [id])).toEqual([]);
    // A watcher that comes after the end is told so at once, on either instance.
    for (const instance of instances) {
      const after = await fetch(`${instance.base}/api/v1/recordings/${id}/live/peaks`, { headers: session });
      const text = await after.text();
      expect(text).toContain('event: end');
      expect(text).not.toContain('event: peaks');
    }
  }, 90_000);
});
