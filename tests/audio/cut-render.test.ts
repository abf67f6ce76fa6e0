// Saving a clip's cut queues its render on the durable jobs (sync-server/audio/cut-render.ts): the
// job writes the kept regions as a WAV beside the clip's media, with its waveforms, and records
// which edit and which audio it rendered. What a reader (publishing) gets is freshCutRender: the
// render of the clip's current cut and audio, or nothing, never a stale one.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waveformFromDat } from '../../src/media/waveform-format.ts';
import type { CutEdit } from '../../src/protocol/media.ts';
import { freshCutRender } from '../../sync-server/audio/cut-render.ts';
import { mediaFiles } from '../../sync-server/audio/media-paths.ts';
import { publishedAudio } from '../../sync-server/audio/published-media.ts';
import { fixturePath } from './fixtures.ts';
import { startAudioServer } from './server-harness.ts';

type Server = Awaited<ReturnType<typeof startAudioServer>>;
let s: Server;
beforeAll(async () => { s = await startAudioServer(); }, 60_000);
afterAll(async () => { await s.close(); });

const json = { 'content-type': 'application/json' };

async function putAudio(clipId: string, file: string) {
  const res = await s.app.request(`/api/v1/clips/${clipId}/audio?fileName=${file}`, {
    method: 'PUT', headers: { ...s.editor.headers, 'content-type': 'application/octet-stream' }, body: new Uint8Array(readFileSync(fixturePath(file))),
  });
  expect(res.status).toBe(202);
  await s.queue.idle();
}

async function saveCut(clipId: string, edit: CutEdit) {
  const res = await s.app.request(`/api/internal/clips/${clipId}/cut`, { method: 'PUT', headers: { ...s.editor.headers, ...json }, body: JSON.stringify(edit) });
  expect(res.status).toBe(200);
}

/** The rendered WAV's frames as its header says, and as its length says. */
async function wavFrames(folder: string) {
  const bytes = new Uint8Array(await (await s.audio.blobs.blob(mediaFiles.audio(folder))).arrayBuffer());
  const view = new DataView(bytes.buffer);
  const channels = view.getUint16(22, true);
  const sampleRate = view.getUint32(24, true);
  return { sampleRate, channels, header: view.getUint32(40, true) / 2 / channels, length: (bytes.length - 44) / 2 / channels };
}

/** The kept regions' total, less the crossfade that overlaps each join, in frames. */
const keptFrames = (edit: CutEdit, sampleRate: number) =>
  (edit.KeptRegions.reduce((sum, r) => sum + r.EndSeconds - r.StartSeconds, 0) - ((edit.KeptRegions.length - 1) * edit.CrossfadeMs) / 1000) * sampleRate;

describe('the cut render job', () => {
  it('renders a saved cut beside the clip’s media, a second save renders again, and a stale render is never handed out', async () => {
    const clipId = await s.newClip();
    await putAudio(clipId, 'speech-12s.flac');
    expect((await s.clipRow(clipId)).state).toBe('Ready');

    const first: CutEdit = { KeptRegions: [{ StartSeconds: 0, EndSeconds: 3 }, { StartSeconds: 6, EndSeconds: 12 }], CrossfadeMs: 10 };
    await saveCut(clipId, first);
    // Queued with the save, not yet run: nothing to serve.
    expect(await freshCutRender(s.audio.blobs, clipId)).toBeNull();
    await s.queue.idle();
    const one = await freshCutRender(s.audio.blobs, clipId);
    expect(one).toMatchObject({ contentType: 'audio/wav', sampleRate: 44100, channels: 1, problem: null });
    const wav = await wavFrames(one!.folder!);
    expect(wav.header).toBe(wav.length);
    expect(wav.header).toBe(one!.frames);
    expect(Math.abs(wav.header - keptFrames(first, 44100))).toBeLessThanOrEqual(1);
    expect(one!.durationSeconds).toBeCloseTo(8.99, 3);
    // Its waveforms, as the clip's own: 256 and 4096 samples per pixel over the rendered length.
    const high = waveformFromDat(new Uint8Array(await (await s.audio.blobs.blob(mediaFiles.waveform(one!.folder!, 'high', 'dat'))).arrayBuffer()));
    expect([high.samplesPerPixel, high.length]).toEqual([256, Math.ceil(wav.header / 256)]);
    expect(await s.audio.blobs.size(mediaFiles.waveform(one!.folder!, 'low', 'json'))).toBeGreaterThan(0);

    const second: CutEdit = { KeptRegions: [{ StartSeconds: 1, EndSeconds: 2.5 }, { StartSeconds: 4, EndSeconds: 5 }, { StartSeconds: 7.25, EndSeconds: 11 }], CrossfadeMs: 20 };
    await saveCut(clipId, second);
    // The first render is of an edit that is no longer the clip's.
    expect(await freshCutRender(s.audio.blobs, clipId)).toBeNull();
    await s.queue.idle();
    const two = await freshCutRender(s.audio.blobs, clipId);
    expect(two!.folder).not.toBe(one!.folder);
    expect(Math.abs((await wavFrames(two!.folder!)).header - keptFrames(second, 44100))).toBeLessThanOrEqual(1);
    expect(two!.durationSeconds).toBeCloseTo(6.21, 3);
    // The first render's files are gone.
    expect(await s.audio.blobs.size(mediaFiles.audio(one!.folder!))).toBeNull();

    // New audio: the render is of audio the clip no longer has.
    await putAudio(clipId, 'speech-12s-stereo.wav');
    expect(await freshCutRender(s.audio.blobs, clipId)).toBeNull();
    await saveCut(clipId, second);
    await s.queue.idle();
    const three = await freshCutRender(s.audio.blobs, clipId);
    expect([three!.channels, Math.abs(three!.frames - keptFrames(second, 44100)) <= 1]).toEqual([2, true]);
  });

  it('publishes the upload itself when it has no cut', async () => {
    const clipId = await s.newClip();
    await putAudio(clipId, 'speech-12s.mp3');
    const published = await publishedAudio(s.audio.blobs, clipId);
    expect(published).toMatchObject({ contentType: 'audio/mpeg', ext: 'mp3', size: statSync(fixturePath('speech-12s.mp3')).size });
    expect(published!.durationSeconds).toBeCloseTo(12.04, 1);
    expect(published!.etag).toMatch(/^".+"$/);
    const bytes = new Uint8Array(await (await s.audio.blobs.blob(published!.key)).arrayBuffer());
    expect(bytes).toEqual(new Uint8Array(readFileSync(fixturePath('speech-12s.mp3'))));
    expect(await publishedAudio(s.audio.blobs, await s.newClip())).toBeNull();
  });

  it('audio that cannot be decoded is recorded as the render’s problem, with nothing to serve', async () => {
    const clipId = await s.newClip();
    await putAudio(clipId, 'not-audio.mp3');
    await saveCut(clipId, { KeptRegions: [{ StartSeconds: 0, EndSeconds: 1 }], CrossfadeMs: 10 });
    await s.queue.idle();
    expect(await freshCutRender(s.audio.blobs, clipId)).toBeNull();
    const recorded = JSON.parse(await (await s.audio.blobs.blob(`clips/${clipId}/cut-render.json`)).text()) as { folder: string | null; problem: string };
    expect(recorded).toMatchObject({ folder: null, problem: 'The uploaded file is not audio in a format we accept' });
  });
});
