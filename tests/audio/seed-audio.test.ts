// `npm start` seeds the demo with real audio (sync-server/audio/demo-media.ts): every Ready and
// Warning clip and every Live and Finalized recording plays from this server, at the URL shapes of
// processed uploads, with the DurationSeconds of its real audio; a few demo files are shared by all
// of them; on a machine without the audio fixtures the demo plays a WAV made in code. PGlite and
// PostgreSQL.
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeClip } from '../../src/domain/clip.ts';
import { normalizeRecording } from '../../src/domain/recording.ts';
import { analyzeAudio } from '../../src/media/analyze.ts';
import { blobSource } from '../../src/media/source.ts';
import { waveformFromDat } from '../../src/media/waveform-format.ts';
import { ClipSchema, RecordingSchema, type Clip, type Recording } from '../../src/protocol/entities.ts';
import { createApp } from '../../sync-server/app.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { prepareDemoMedia } from '../../sync-server/audio/demo-media.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_PODCASTS, seedIfEmpty } from '../../sync-server/seed.ts';
import { AppClient } from '../server/app-client.ts';
import { openTestStore, storeKinds, type StoreKind, type TestStore } from '../server/test-store.ts';

/** Every file below `dir` named `name`, as paths relative to it. */
async function filesNamed(dir: string, name: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && e.name === name).map((e) => join(e.parentPath, e.name).slice(dir.length + 1));
}

type Seeded = { app: ReturnType<typeof createApp>; demo: AppClient; clips: Clip[]; recordings: Recording[]; blobDir: string };

/**
 * Seeds a fresh store of `kind` (60 clips) with a fresh blob folder for the enclosing describe, as
 * `npm start` does (without the fixtures when `fixtures` is false); the function returned gives
 * what the demo user then reads through the API.
 */
function seededDemo(kind: StoreKind, fixtures: boolean): () => Seeded {
  let t: TestStore | undefined;
  let seeded: Seeded | undefined;
  const previous = process.env.CASTAWAY_BLOB_DIR;
  beforeAll(async () => {
    const blobDir = await mkdtemp(join(tmpdir(), 'castaway-seed-audio-'));
    process.env.CASTAWAY_BLOB_DIR = blobDir;
    t = await openTestStore(kind);
    await seedIfEmpty(t.store, { clips: 60, blobDir, ...(fixtures ? {} : { fixturesDir: join(blobDir, 'no-fixtures-here') }) });
    const app = createApp({ store: t.store, bus: createMemoryBus() });
    const demo = new AppClient(app);
    await demo.login('demo@example.com');
    const clips: Clip[] = [];
    const recordings: Recording[] = [];
    for (const org of [undefined, ORG_PODCASTS]) {
      const headers = org ? { 'x-organization-id': org } : undefined;
      clips.push(...((await demo.get('/api/v1/clips?pageSize=2500', headers)).body as { Items: unknown[] }).Items.map((c) => ClipSchema.parse(c)));
      recordings.push(...((await demo.get('/api/v1/recordings', headers)).body as { Items: unknown[] }).Items.map((r) => RecordingSchema.parse(r)));
    }
    seeded = { app, demo, clips, recordings, blobDir };
  }, 60_000);
  afterAll(async () => {
    if (previous === undefined) delete process.env.CASTAWAY_BLOB_DIR;
    else process.env.CASTAWAY_BLOB_DIR = previous;
    await t?.drop();
    if (seeded) await rm(seeded.blobDir, { recursive: true, force: true });
  });
  return () => seeded!;
}

async function served(s: Seeded, url: string, organizationId: string, range?: string): Promise<Response> {
  return s.app.request(url, { headers: { cookie: s.demo.cookie, 'x-organization-id': organizationId, ...(range ? { range } : {}) } });
}

describe.each(storeKinds)('the demo seed with real audio on %s', (kind) => {
  const seeded = seededDemo(kind, true);
  let s: Seeded;
  beforeAll(() => {
    s = seeded();
  });

  it('every Ready and Warning clip plays from this server: audio, both waveforms, DurationSeconds of the real audio', async () => {
    const ready = s.clips.filter((c) => c.State === 'Ready' || c.State === 'Warning');
    expect(ready.length).toBeGreaterThanOrEqual(15);
    const types = new Set<string>();
    for (const clip of ready) {
      expect(normalizeClip({ ...clip, ...clip.Urls }).ok, clip.Id).toBe(true);
      expect(clip.Urls.AudioPrivateUrl).toBe(`/api/media/clips/${clip.Id}/audio`);
      expect(clip.Urls.WaveformHighResUrl).toBe(`/api/media/clips/${clip.Id}/waveform-high.dat`);
      expect(clip.Urls.WaveformLowResUrl).toBe(`/api/media/clips/${clip.Id}/waveform-low.dat`);
      // The fixtures are 12 s long.
      expect(clip.DurationSeconds).toBe(12);
      const head = await served(s, clip.Urls.AudioPrivateUrl!, clip.OrganizationId, 'bytes=0-3');
      expect(head.status, clip.Id).toBe(206);
      types.add(head.headers.get('content-type')!);
      const low = waveformFromDat(new Uint8Array(await (await served(s, clip.Urls.WaveformLowResUrl!, clip.OrganizationId)).arrayBuffer()));
      expect(low.samplesPerPixel).toBe(4096);
      expect((low.length * low.samplesPerPixel) / low.sampleRate).toBeCloseTo(12, 0);
      expect((await served(s, clip.Urls.WaveformHighResUrl!, clip.OrganizationId)).status).toBe(200);
    }
    // MP3, FLAC and WAV demo files, and the video file for video clips.
    expect([...types].sort()).toEqual(['audio/flac', 'audio/mpeg', 'audio/wav', 'video/mp4']);
    const video = ready.filter((c) => c.MediaType === 'AudioAndVideo');
    expect(video.length).toBeGreaterThan(0);
    for (const clip of video) {
      expect(clip.UploadedMediaInfo).toEqual({ MediaType: 'AudioAndVideo', VideoInfo: { Width: 320, Height: 180 } });
      expect(clip.Urls.VideoPrivateUrl).toBe(clip.Urls.AudioPrivateUrl);
    }
  });

  it('the served audio decodes to the duration the clip row states', async () => {
    const clip = s.clips.find((c) => c.State === 'Ready' && c.MediaType === 'Audio')!;
    const res = await served(s, clip.Urls.AudioPrivateUrl!, clip.OrganizationId);
    const a = await analyzeAudio(blobSource(new Blob([await res.arrayBuffer()])));
    expect(a.durationSeconds).toBe(clip.DurationSeconds);
  });

  it('Finalized recordings have audio, waveforms and a duration; Live ones audio only (section 4)', async () => {
    const phases = new Map<string, number>();
    for (const rec of s.recordings) {
      const n = normalizeRecording(rec);
      expect(n.ok, rec.Title ?? rec.Id).toBe(true);
      if (!n.ok) continue;
      phases.set(n.value.Phase, (phases.get(n.value.Phase) ?? 0) + 1);
      if (rec.State === 'Processing' || !rec.Urls.AudioUrl) continue;
      expect(rec.Urls.AudioUrl).toBe(`/api/media/recordings/${rec.Id}/audio`);
      expect((await served(s, rec.Urls.AudioUrl, rec.OrganizationId, 'bytes=0-3')).status).toBe(206);
      if (rec.State === 'Finalized') {
        expect(rec.DurationSeconds).toBe(12);
        const w = waveformFromDat(new Uint8Array(await (await served(s, rec.Urls.WaveformHighResUrl!, rec.OrganizationId)).arrayBuffer()));
        expect(w.samplesPerPixel).toBe(256);
      } else {
        expect(rec.Urls.WaveformHighResUrl).toBeNull();
      }
    }
    expect(phases.get('finalized')).toBe(12);
    expect(phases.get('live')).toBe(12);
  });

  it('fetches no media from outside this server (no placeholder media host in any row)', async () => {
    const text = JSON.stringify([s.clips, s.recordings]);
    expect(text.includes('media.castaway.example')).toBe(false);
    const external = [...text.matchAll(/"((?:Audio|Waveform|Video|Image)[A-Za-z]*Url)":"(https?:[^"]*)"/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(external).toEqual([]);
  });

  it('shares a few processed demo files instead of copying one per clip', async () => {
    // Four demo files (MP3, FLAC, WAV, video) hold every clip's and recording's audio.
    expect((await filesNamed(s.blobDir, 'audio')).sort().every((p) => p.startsWith('demo/'))).toBe(true);
    expect(await filesNamed(s.blobDir, 'audio')).toHaveLength(4);
    // Seeding again over the same blob folder processes nothing: the prepared files are reused.
    const info = (await filesNamed(s.blobDir, 'info.json')).map((p) => join(s.blobDir, p));
    const before = await Promise.all(info.map(async (p) => (await stat(p)).mtimeMs));
    const again = await prepareDemoMedia(fsBlobStore(s.blobDir));
    expect(again.audio).toHaveLength(3);
    expect(await Promise.all(info.map(async (p) => (await stat(p)).mtimeMs))).toEqual(before);
  });
});

describe('the demo seed on a machine without the audio fixtures', () => {
  const seeded = seededDemo('pglite', false);
  let s: Seeded;
  beforeAll(() => {
    s = seeded();
  });

  it('plays a WAV made in code: 24 s, with a waveform of speech-like shape, and no video clips', async () => {
    const ready = s.clips.filter((c) => c.State === 'Ready' || c.State === 'Warning');
    expect(ready.length).toBeGreaterThan(0);
    for (const clip of ready) {
      expect(clip.DurationSeconds).toBe(24);
      expect(clip.MediaType).toBe('Audio');
      expect(normalizeClip({ ...clip, ...clip.Urls }).ok).toBe(true);
    }
    const clip = ready[0]!;
    const res = await served(s, clip.Urls.AudioPrivateUrl!, clip.OrganizationId);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const a = await analyzeAudio(blobSource(new Blob([await res.arrayBuffer()])));
    expect(a.durationSeconds).toBe(24);
    // Loud parts and pauses: peaks of the 4096-sample level vary from near silence to loud.
    const w = waveformFromDat(new Uint8Array(await (await served(s, clip.Urls.WaveformLowResUrl!, clip.OrganizationId)).arrayBuffer()));
    const heights = Array.from({ length: w.length }, (_, i) => w.data[i * 2 + 1]! - w.data[i * 2]!);
    const max = Math.max(...heights);
    expect(max).toBeGreaterThan(0.3 * 65535);
    expect(heights.filter((h) => h < 0.05 * max).length).toBeGreaterThan(w.length * 0.1);
    const finalized = s.recordings.find((r) => r.State === 'Finalized' && r.DurationSeconds)!;
    expect(finalized.DurationSeconds).toBe(24);
    expect((await served(s, finalized.Urls.AudioUrl!, finalized.OrganizationId, 'bytes=0-3')).status).toBe(206);
  });
});
