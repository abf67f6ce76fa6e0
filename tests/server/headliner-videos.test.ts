// Headliner videos (section 7, Clips: POST/GET /v1/clips/{clipId}/headliner-videos and
// …/{headlinerId}/download), on PGlite and on PostgreSQL, with the whole app and its jobs: a clip
// with real audio (the 12 s speech fixture) and a transcript gets one video per aspect ratio of its
// program's setting; the jobs render MP4s that ffprobe reads at the ratio's frame size and the
// audio's length, with the transcript burned in or not as asked; the download answers ranges and
// names the file after the clip's title; refusals name their field; a deleted clip's videos go
// with it after the media grace period.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeadlinerVideo, HeadlinerVideoList } from '../../src/protocol/api/headliner-videos.ts';
import type { createApp } from '../../sync-server/app.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { HEADLINER_ATTEMPTS, HEADLINER_PROBLEM, HEADLINER_RENDER_JOB, headlinerJobs } from '../../sync-server/headliner/job.ts';
import { jobContext } from '../../sync-server/jobs/runner.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { demoApp, fields, type AppClient } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';

const run = promisify(execFile);
const MORNING = seedId('program:morning');

type Probe = { width: number; height: number; duration: number; video: string; audio: string };
async function probe(path: string): Promise<Probe> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_entries', 'stream=codec_type,codec_name,width,height:format=duration', '-of', 'json', path]);
  const j = JSON.parse(stdout) as { streams: Array<{ codec_type: string; codec_name: string; width?: number; height?: number }>; format: { duration: string } };
  const v = j.streams.find((s) => s.codec_type === 'video')!;
  const a = j.streams.find((s) => s.codec_type === 'audio')!;
  return { width: v.width!, height: v.height!, duration: Number(j.format.duration), video: v.codec_name, audio: a.codec_name };
}

/** The mean brightness of the caption band of the frame at `seconds` (ffmpeg's signalstats). */
async function captionBandLuma(path: string, seconds: number, ratio: { width: number; height: number }): Promise<number> {
  // The captions sit in the lowest fifth of a square frame (render.ts LAYOUTS '1:1').
  const crop = `crop=${ratio.width}:${Math.round(ratio.height / 5)}:0:${ratio.height - Math.round(ratio.height / 5)}`;
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-ss', String(seconds), '-i', path, '-frames:v', '1', '-vf', `${crop},signalstats,metadata=print:key=lavfi.signalstats.YAVG`, '-f', 'null', '-']);
  const m = /lavfi\.signalstats\.YAVG=([\d.]+)/.exec(stderr);
  return Number(m![1]);
}

/** The mean brightness of a region of the frame at `seconds` (ffmpeg's signalstats). */
async function regionLuma(path: string, seconds: number, box: { x: number; y: number; width: number; height: number }): Promise<number> {
  const { stderr } = await run('ffmpeg', ['-hide_banner', '-ss', String(seconds), '-i', path, '-frames:v', '1', '-vf', `crop=${box.width}:${box.height}:${box.x}:${box.y},signalstats,metadata=print:key=lavfi.signalstats.YAVG`, '-f', 'null', '-']);
  return Number(/lavfi\.signalstats\.YAVG=([\d.]+)/.exec(stderr)![1]);
}

describe.each(storeKinds)('headliner videos on %s', (kind) => {
  let test: TestStore;
  let app: ReturnType<typeof createApp>;
  let api: AppClient;
  let dir = '';
  let clipId = '';
  let silentClipId = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'castaway-headliner-test-'));
    ({ test, app, api } = await demoApp(kind, { clips: 24, blobDir: join(dir, 'blobs') }));
    const clips = await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 2`, [MORNING]);
    clipId = clips[0]!.id;
    silentClipId = clips[1]!.id;
    // Real audio, processed as any upload is.
    const audio = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
    const put = await app.request(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, { method: 'PUT', headers: { cookie: api.cookie, 'x-xsrf-token': api.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'application/octet-stream' }, body: audio });
    expect(put.status).toBe(202);
    await app.jobs.drain();
    expect((await api.patch(`/api/v1/clips/${clipId}`, { Title: 'Morning: “Früh” / Episode 1' })).status).toBe(200);
    const cues = { Cues: [{ StartSeconds: 0.5, EndSeconds: 11.5, Text: 'WELCOME WELCOME WELCOME WELCOME' }] };
    expect((await api.send('PUT', `/api/v1/clips/${clipId}/transcript`, { json: cues })).status).toBe(200);
    // White artwork for the program: the clip has none of its own, so the videos show the program's.
    const art = join(dir, 'white.png');
    await run('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', 'color=c=white:s=800x800', '-frames:v', '1', art]);
    const image = await app.request(`/api/v1/programs/${MORNING}/image`, { method: 'PUT', headers: { cookie: api.cookie, 'x-xsrf-token': api.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'image/png' }, body: new Uint8Array(await readFile(art)) });
    expect(image.status, await image.text()).toBe(204);
    await app.jobs.drain();
  }, 180_000);

  afterAll(async () => {
    await test?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const list = async (id = clipId) => {
    const reply = await api.get(`/api/v1/clips/${id}/headliner-videos`);
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as HeadlinerVideoList).Items;
  };
  const download = async (video: HeadlinerVideo, headers: Record<string, string> = {}) =>
    app.request(`/api/v1/clips/${clipId}/headliner-videos/${video.Id}/download`, { headers: { cookie: api.cookie, 'x-organization-id': ORG_DEMO, ...headers } });
  const saved = async (video: HeadlinerVideo) => {
    const res = await download(video);
    expect(res.status).toBe(200);
    const file = join(dir, `${video.Id}.mp4`);
    await writeFile(file, new Uint8Array(await res.arrayBuffer()));
    return { file, res };
  };

  it('makes one video per aspect ratio of the program’s setting: Queued, then Ready MP4s of the ratio’s frame and the audio’s length', async () => {
    expect((await api.patch(`/api/v1/programs/${MORNING}/settings`, { HeadlinerVideos: { AspectRatios: ['9:16', '1:1'] } })).status).toBe(200);
    const made = await api.post(`/api/v1/clips/${clipId}/headliner-videos?transcriptEnabled=true`, undefined);
    expect(made.status, made.text).toBe(202);
    const items = (made.body as HeadlinerVideoList).Items;
    expect(items.map((v) => [v.AspectRatio, v.State, v.TranscriptEnabled, v.DownloadUrl])).toEqual([
      ['1:1', 'Queued', true, null],
      ['9:16', 'Queued', true, null],
    ]);
    // While they are queued another request is refused at body.
    const again = await api.post(`/api/v1/clips/${clipId}/headliner-videos`, undefined);
    expect([again.status, fields(again)]).toEqual([400, [['body', 'invalid']]]);

    await app.jobs.drain();
    const ready = await list();
    expect(ready.map((v) => [v.AspectRatio, v.State, v.Problem])).toEqual([
      ['1:1', 'Ready', null],
      ['9:16', 'Ready', null],
    ]);
    for (const video of ready) {
      const { file, res } = await saved(video);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      expect(res.headers.get('content-disposition')).toContain(`filename*=UTF-8''Morning%20%E2%80%9CFr%C3%BCh%E2%80%9D%20Episode%201%20%E2%80%93%20${video.AspectRatio.replace(':', 'x')}.mp4`);
      const p = await probe(file);
      expect([p.width, p.height, p.video, p.audio]).toEqual([video.Width, video.Height, 'h264', 'aac']);
      expect([video.Width, video.Height]).toEqual(video.AspectRatio === '1:1' ? [1080, 1080] : [1080, 1920]);
      expect(Math.abs(p.duration - 12)).toBeLessThan(0.3);
      expect(Math.abs(video.DurationSeconds! - p.duration)).toBeLessThan(0.1);
      expect(video.SizeInBytes).toBe(Number(res.headers.get('content-length')));
      // The program's white artwork in its panel (render.ts LAYOUTS), the dark background beside it.
      const panel = video.AspectRatio === '1:1' ? { x: 380, y: 110, width: 320, height: 320 } : { x: 210, y: 250, width: 660, height: 660 };
      expect(await regionLuma(file, 3, panel)).toBeGreaterThan(200);
      expect(await regionLuma(file, 3, { x: 0, y: 0, width: 60, height: 60 })).toBeLessThan(60);
    }
  }, 240_000);

  it('the download answers a byte range, and a video of another clip or none is a 404 with no body', async () => {
    const [video] = await list();
    const part = await download(video!, { range: 'bytes=0-99' });
    expect([part.status, part.headers.get('content-range'), (await part.arrayBuffer()).byteLength]).toEqual([206, `bytes 0-99/${video!.SizeInBytes}`, 100]);
    const elsewhere = await app.request(`/api/v1/clips/${silentClipId}/headliner-videos/${video!.Id}/download`, { headers: { cookie: api.cookie, 'x-organization-id': ORG_DEMO } });
    expect([elsewhere.status, await elsewhere.text()]).toEqual([404, '']);
    const none = await app.request(`/api/v1/clips/${clipId}/headliner-videos/${crypto.randomUUID()}/download`, { headers: { cookie: api.cookie, 'x-organization-id': ORG_DEMO } });
    expect([none.status, await none.text()]).toEqual([404, '']);
  });

  it('captions on and off: the transcript is burned in only when asked, and a new video replaces the earlier one of its ratio', async () => {
    expect((await api.patch(`/api/v1/programs/${MORNING}/settings`, { HeadlinerVideos: { AspectRatios: ['1:1'], TranscriptEnabled: false } })).status).toBe(200);
    const withCaptions = (await list()).find((v) => v.AspectRatio === '1:1')!;
    // transcriptEnabled left out: the program's setting (now off).
    const made = await api.post(`/api/v1/clips/${clipId}/headliner-videos`, undefined);
    expect(made.status, made.text).toBe(202);
    expect((made.body as HeadlinerVideoList).Items.map((v) => [v.AspectRatio, v.TranscriptEnabled])).toEqual([['1:1', false]]);
    await app.jobs.drain();
    const now = await list();
    expect(now.map((v) => v.AspectRatio).sort()).toEqual(['1:1', '9:16']);
    const without = now.find((v) => v.AspectRatio === '1:1')!;
    expect(without.Id).not.toBe(withCaptions.Id);
    expect(without.State).toBe('Ready');
    // The replaced one is no longer served.
    expect((await download(withCaptions)).status).toBe(404);
    // The caption band: light words (#FCA311 on #14213D) with captions, the dark background without.
    const { file } = await saved(without);
    const bandWithout = await captionBandLuma(file, 6, { width: 1080, height: 1080 });
    expect((await api.patch(`/api/v1/programs/${MORNING}/settings`, { HeadlinerVideos: { TranscriptEnabled: null } })).status).toBe(200);
    expect((await api.post(`/api/v1/clips/${clipId}/headliner-videos`, undefined)).status).toBe(202);
    await app.jobs.drain();
    const captioned = (await list()).find((v) => v.AspectRatio === '1:1')!;
    expect([captioned.State, captioned.TranscriptEnabled]).toEqual(['Ready', true]);
    const bandWith = await captionBandLuma((await saved(captioned)).file, 6, { width: 1080, height: 1080 });
    expect(bandWith - bandWithout).toBeGreaterThan(2);
  }, 240_000);

  it('refusals name their field: a clip without audio at body, captions of a clip without a transcript at transcriptEnabled, a bad transcriptEnabled', async () => {
    const noAudio = await api.post(`/api/v1/clips/${silentClipId}/headliner-videos`, undefined);
    expect([noAudio.status, fields(noAudio)]).toEqual([400, [['body', 'invalid']]]);
    expect((await api.send('DELETE', `/api/v1/clips/${clipId}/transcript`)).status).toBe(204);
    const noTranscript = await api.post(`/api/v1/clips/${clipId}/headliner-videos?transcriptEnabled=true`, undefined);
    expect([noTranscript.status, fields(noTranscript)]).toEqual([400, [['transcriptEnabled', 'invalid']]]);
    const bad = await api.post(`/api/v1/clips/${clipId}/headliner-videos?transcriptEnabled=maybe`, undefined);
    expect(bad.status).toBe(400);
    expect(fields(bad).map(([f]) => f)).toEqual(['transcriptEnabled']);
    expect(await list(silentClipId)).toEqual([]);
  });

  it('a video whose last attempt failed on the server says so, without the error: that is for the log', async () => {
    const video = (await list()).find((v) => v.AspectRatio === '9:16')!;
    await test.store.query(`UPDATE headliner_videos SET state = 'Rendering' WHERE id = $1`, [video.Id]);
    const handler = headlinerJobs({ store: test.store, bus: createMemoryBus() }, fsBlobStore(join(dir, 'blobs')))[HEADLINER_RENDER_JOB]!;
    const ctx = jobContext(test.store, { id: 0, kind: HEADLINER_RENDER_JOB, attempt: HEADLINER_ATTEMPTS, maxAttempts: HEADLINER_ATTEMPTS });
    await handler.giveUp!(handler.payload.parse({ organizationId: ORG_DEMO, clipId, videoId: video.Id }), new Error('connect ECONNREFUSED 10.0.0.7:5432'), ctx);
    const failed = (await list()).find((v) => v.Id === video.Id)!;
    expect([failed.State, failed.Problem]).toEqual(['Failed', 'The server could not make the video: support can see why']);
    expect(HEADLINER_PROBLEM).toBe(failed.Problem);
  });

  it('a deleted clip’s videos, rows and files, go after the media grace period', async () => {
    const before = await list();
    expect(before.length).toBeGreaterThan(0);
    const blobFolder = join(dir, 'blobs', 'clips', clipId, 'headliner');
    // The files of the videos, and those replaced earlier whose sweep waits for its grace period.
    expect((await run('ls', [blobFolder])).stdout.trim().split('\n').length).toBeGreaterThanOrEqual(before.length);
    expect((await api.delete(`/api/v1/clips/${clipId}`)).status).toBe(204);
    await app.jobs.drain();
    // Within the grace period they stay (a download under way finishes).
    expect(Number((await test.store.query<{ n: number | string }>(`SELECT count(*) AS n FROM headliner_videos WHERE clip_id = $1`, [clipId]))[0]!.n)).toBe(before.length);
    await test.store.query(`UPDATE jobs SET run_at = now() WHERE kind = 'headliner.sweep' AND payload->>'clipId' = $1 AND payload->'keys' IS NULL`, [clipId]);
    await app.jobs.drain();
    expect(Number((await test.store.query<{ n: number | string }>(`SELECT count(*) AS n FROM headliner_videos WHERE clip_id = $1`, [clipId]))[0]!.n)).toBe(0);
    await expect(run('ls', [blobFolder])).rejects.toThrow();
  });
});
