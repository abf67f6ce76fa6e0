// A clip's published version (sync-server/audio/versions.ts): saving a cut renders the kept regions
// of the ORIGINAL upload to an MP3 with its own waveforms, and the clip switches to it in one row
// write (DurationSeconds, PublishedDurationSeconds, PublishedAudioSizeInBytes, URLs with ?v=); new
// audio is processed beside the audio the clip serves, which stays until the new file is good; the
// files of superseded versions are swept after the grace period.
import { readFileSync, statSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyzeAudio } from '../../src/media/analyze.ts';
import { blobSource } from '../../src/media/source.ts';
import { waveformFromDat } from '../../src/media/waveform-format.ts';
import type { CutEdit } from '../../src/protocol/media.ts';
import { mediaFiles } from '../../sync-server/audio/media-paths.ts';
import { publishedAudio, readPublishedVersion } from '../../sync-server/audio/published-media.ts';
import { fixturePath } from './fixtures.ts';
import { startAudioServer } from './server-harness.ts';

const GRACE_MS = 1500;
type Server = Awaited<ReturnType<typeof startAudioServer>>;
let s: Server;
beforeAll(async () => { s = await startAudioServer({ mediaGraceMs: GRACE_MS }); }, 60_000);
afterAll(async () => { await s.close(); });

const json = { 'content-type': 'application/json' };
/** One MP3 frame at 44.1 kHz. */
const MP3_FRAME_SECONDS = 1152 / 44100;

async function putAudio(clipId: string, file: string, drain = true) {
  const res = await s.app.request(`/api/v1/clips/${clipId}/audio?fileName=${file}`, {
    method: 'PUT', headers: { ...s.editor.headers, 'content-type': 'application/octet-stream' }, body: new Uint8Array(readFileSync(fixturePath(file))),
  });
  expect(res.status).toBe(202);
  if (drain) await s.queue.idle();
}

async function saveCut(clipId: string, edit: CutEdit) {
  const res = await s.app.request(`/api/internal/clips/${clipId}/cut`, { method: 'PUT', headers: { ...s.editor.headers, ...json }, body: JSON.stringify(edit) });
  expect(res.status).toBe(200);
}

async function get(path: string) {
  const res = await s.app.request(path, { headers: s.editor.headers });
  return { status: res.status, type: res.headers.get('content-type'), bytes: new Uint8Array(await res.arrayBuffer()) };
}

type Row = { state: string; data: Record<string, unknown> & { Urls: Record<string, string | null> } };
const row = async (clipId: string) => (await s.clipRow(clipId)) as unknown as Row;

/** The kept regions' total less the crossfade that overlaps each join, in seconds. */
const keptSeconds = (edit: CutEdit) => edit.KeptRegions.reduce((sum, r) => sum + r.EndSeconds - r.StartSeconds, 0) - ((edit.KeptRegions.length - 1) * edit.CrossfadeMs) / 1000;

/** What a player gets from the served file: its decoded length. */
async function decodedSeconds(bytes: Uint8Array) {
  return (await analyzeAudio(blobSource(new Blob([bytes as Uint8Array<ArrayBuffer>])), { levels: [4096] })).durationSeconds;
}

describe('published versions', () => {
  it('a cut renders the original to an MP3 the clip switches to, and a second cut renders from the original again', async () => {
    const clipId = await s.newClip();
    await putAudio(clipId, 'speech-12s.flac');
    const original = new Uint8Array(readFileSync(fixturePath('speech-12s.flac')));
    // A lossless upload is published as MP3 (podcast apps do not take FLAC).
    const whole = await publishedAudio(s.audio.blobs, clipId);
    expect(whole).toMatchObject({ contentType: 'audio/mpeg', ext: 'mp3' });
    expect((await row(clipId)).data['DurationSeconds']).toBeCloseTo(12, 1);

    const first: CutEdit = { KeptRegions: [{ StartSeconds: 0, EndSeconds: 3 }, { StartSeconds: 6, EndSeconds: 12 }], CrossfadeMs: 10 };
    await saveCut(clipId, first);
    // Saved, not yet rendered: the clip serves what it served.
    expect(await publishedAudio(s.audio.blobs, clipId)).toEqual(whole);
    await s.queue.idle();
    const one = (await publishedAudio(s.audio.blobs, clipId))!;
    const v1 = (await readPublishedVersion(s.audio.blobs, clipId))!;
    expect(one).toMatchObject({ contentType: 'audio/mpeg', ext: 'mp3', etag: `"${v1.version}"` });
    const r1 = await row(clipId);
    expect(r1.state).toBe('Ready');
    expect(r1.data['DurationSeconds']).toBe(one.durationSeconds);
    expect(r1.data['PublishedDurationSeconds']).toBe(one.durationSeconds);
    expect(r1.data['PublishedAudioSizeInBytes']).toBe(one.size);
    expect(r1.data.Urls['AudioPrivateUrl']).toBe(`/api/media/clips/${clipId}/audio?v=${v1.version}`);
    expect(r1.data.Urls['WaveformHighResUrl']).toBe(`/api/media/clips/${clipId}/waveform-high.dat?v=${v1.version}`);
    // What the clip's URL serves is the MP3, as long as the cut to within one MP3 frame.
    const served = await get(r1.data.Urls['AudioPrivateUrl']!);
    expect([served.status, served.type, served.bytes.length]).toEqual([200, 'audio/mpeg', one.size]);
    const heard = await decodedSeconds(served.bytes);
    expect(Math.abs(heard - keptSeconds(first))).toBeLessThanOrEqual(MP3_FRAME_SECONDS);
    expect(one.durationSeconds).toBeCloseTo(heard, 3);
    // Its waveforms are the version's: 256 samples per pixel over the cut's length.
    const high = waveformFromDat((await get(r1.data.Urls['WaveformHighResUrl']!)).bytes);
    expect(high.samplesPerPixel).toBe(256);
    expect(Math.abs(high.length - Math.ceil((heard * 44100) / 256))).toBeLessThanOrEqual(1);
    // The original is kept as uploaded.
    const kept = await get(`/api/internal/clips/${clipId}/original-audio`);
    expect([kept.status, kept.type]).toEqual([200, 'audio/flac']);
    expect(kept.bytes).toEqual(original);

    // The second cut keeps audio the first cut left out: it is rendered from the original.
    const second: CutEdit = { KeptRegions: [{ StartSeconds: 3, EndSeconds: 6 }, { StartSeconds: 9, EndSeconds: 11.5 }], CrossfadeMs: 20 };
    await saveCut(clipId, second);
    await s.queue.idle();
    const two = (await publishedAudio(s.audio.blobs, clipId))!;
    const v2 = (await readPublishedVersion(s.audio.blobs, clipId))!;
    expect(v2.version).not.toBe(v1.version);
    const r2 = await row(clipId);
    expect(Math.abs((await decodedSeconds((await get(r2.data.Urls['AudioPrivateUrl']!)).bytes)) - keptSeconds(second))).toBeLessThanOrEqual(MP3_FRAME_SECONDS);
    expect([r2.data['DurationSeconds'], r2.data['PublishedAudioSizeInBytes']]).toEqual([two.durationSeconds, two.size]);
    expect((await get(`/api/internal/clips/${clipId}/original-audio`)).bytes).toEqual(original);

    // The first version is still served under its own URL during the grace period, then swept.
    expect((await get(r1.data.Urls['AudioPrivateUrl']!)).bytes.length).toBe(one.size);
    await new Promise((r) => setTimeout(r, GRACE_MS + 100));
    await s.queue.idle();
    expect(await s.audio.blobs.size(mediaFiles.audio(v1.folder))).toBeNull();
    expect((await get(r1.data.Urls['AudioPrivateUrl']!)).status).toBe(404);
    expect(await s.audio.blobs.size(mediaFiles.audio(v2.folder))).toBe(two.size);
    // Three encodes (the FLAC whole, two cuts): each a thread with FFmpeg, seconds on a busy machine.
  }, 120_000);

  it('an MP3 without a cut is published as it is', async () => {
    const clipId = await s.newClip();
    await putAudio(clipId, 'speech-12s.mp3');
    const published = await publishedAudio(s.audio.blobs, clipId);
    expect(published).toMatchObject({ contentType: 'audio/mpeg', ext: 'mp3', size: statSync(fixturePath('speech-12s.mp3')).size });
    expect(published!.durationSeconds).toBeCloseTo(12.04, 1);
    const bytes = new Uint8Array(await (await s.audio.blobs.blob(published!.key)).arrayBuffer());
    expect(bytes).toEqual(new Uint8Array(readFileSync(fixturePath('speech-12s.mp3'))));
    expect(await publishedAudio(s.audio.blobs, await s.newClip())).toBeNull();
  });

  it('a replacement keeps the clip Ready on its current audio until it has processed; a corrupt one leaves it in place with the problem', async () => {
    const clipId = await s.newClip();
    await putAudio(clipId, 'speech-12s.mp3');
    const before = await row(clipId);
    const served = await publishedAudio(s.audio.blobs, clipId);
    await putAudio(clipId, 'not-audio.mp3', false);
    // Accepted, not yet processed: nothing changed for listeners or the studio.
    const meanwhile = await row(clipId);
    expect([meanwhile.state, meanwhile.data.Urls]).toEqual(['Ready', before.data.Urls]);
    await s.queue.idle();
    const after = await row(clipId);
    expect(after.state).toBe('Ready');
    expect(after.data['AudioProcessingProblem']).toBe('The uploaded file is not audio in a format we accept');
    expect([after.data.Urls, after.data['DurationSeconds'], after.data['UploadedAudioFileName']]).toEqual([before.data.Urls, before.data['DurationSeconds'], 'speech-12s.mp3']);
    expect(await publishedAudio(s.audio.blobs, clipId)).toEqual(served);
    expect((await get(before.data.Urls['AudioPrivateUrl']!)).bytes.length).toBe(served!.size);

    // A good replacement switches in one write.
    await putAudio(clipId, 'speech-12s.m4a');
    const replaced = await row(clipId);
    expect([replaced.state, replaced.data['AudioProcessingProblem'], replaced.data['UploadedAudioFileName']]).toEqual(['Ready', null, 'speech-12s.m4a']);
    expect(await publishedAudio(s.audio.blobs, clipId)).toMatchObject({ contentType: 'audio/mp4', ext: 'm4a' });
  }, 60_000);

  it('a clip that never had good audio goes to Error', async () => {
    const clipId = await s.newClip();
    await putAudio(clipId, 'not-audio.mp3');
    const r = await row(clipId);
    expect([r.state, r.data['AudioProcessingProblem'], r.data.Urls['AudioPrivateUrl']]).toEqual(['Error', 'The uploaded file is not audio in a format we accept', null]);
    expect(await publishedAudio(s.audio.blobs, clipId)).toBeNull();
  });
});
