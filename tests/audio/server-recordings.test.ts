// Recordings get the same waveforms (issue #6): a recording agent's audio goes through
// PUT /api/internal/recordings/{recordingId}/audio and the clips' pipeline; what a client then sees
// is the recording Finalized (section 4: audio link, both waveform links and a duration), the
// audio served with Range and the waveform files, or the recording as it was when the file is bad.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeRecording, type RecordingFields } from '../../src/domain/recording.ts';
import { preloadNodeAacDecoder } from '../../sync-server/media/node-decoder.ts';
import { waveformFromDat, waveformFromJson } from '../../src/media/waveform-format.ts';
import { RecordingAudioAcceptedSchema, RecordingAudioIngestSchema } from '../../src/protocol/media.ts';
import { fixturePath, reference } from './fixtures.ts';
import { startAudioServer } from './server-harness.ts';
import { readJsonBlob } from '../../sync-server/audio/blob-store.ts';
import { recordingKeys, type CurrentAudio } from '../../sync-server/audio/media-paths.ts';

type Server = Awaited<ReturnType<typeof startAudioServer>>;
let s: Server;
beforeAll(async () => {
  s = await startAudioServer({ maxUploadBytes: 3 * 1024 * 1024 });
  await preloadNodeAacDecoder();
}, 120_000);
afterAll(async () => { await s.close(); });

async function ingest(recordingId: string, file: string | Uint8Array, fileName: string | null, headers = s.editor.headers) {
  const body = new Uint8Array(typeof file === 'string' ? readFileSync(fixturePath(file)) : file) as Uint8Array<ArrayBuffer>;
  const qs = fileName === null ? '' : `?fileName=${encodeURIComponent(fileName)}`;
  return s.app.request(`/api/internal/recordings/${recordingId}/audio${qs}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream' }, body });
}

const fields = (row: { state: string; data: Record<string, unknown> }): RecordingFields => ({
  State: row.state,
  DurationSeconds: row.data.DurationSeconds as number | null,
  Urls: row.data.Urls as RecordingFields['Urls'],
});

/** A new recording Finalized with speech-12s.flac (its first ingest, processed). */
async function finalizedRecording() {
  const id = await s.newRecording();
  await ingest(id, 'speech-12s.flac', 'first.flac');
  await s.queue.idle();
  const row = fields(await s.recordingRow(id));
  expect(row.State).toBe('Finalized');
  return { id, row };
}

describe('PUT /api/internal/recordings/{recordingId}/audio', () => {
  it('an MP3 is accepted with 202, the recording is Processing without links, then Finalized with duration, audio and waveforms', async () => {
    const id = await s.newRecording();
    const res = await ingest(id, 'speech-12s.mp3', 'capture.mp3');
    expect(res.status).toBe(202);
    expect(RecordingAudioAcceptedSchema.parse(await res.json())).toEqual({ RecordingId: id, State: 'Processing', UploadedAudioFileName: 'capture.mp3', SizeInBytes: 96592 });
    // Section 4: Processing has no duration and no audio or waveform links.
    const processing = await s.recordingRow(id);
    expect(fields(processing)).toEqual({ State: 'Processing', DurationSeconds: null, Urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null } });

    await s.queue.idle();
    const row = fields(await s.recordingRow(id));
    expect(row).toEqual({
      State: 'Finalized',
      DurationSeconds: 12,
      Urls: {
        AudioUrl: `/api/media/recordings/${id}/audio`,
        WaveformHighResUrl: `/api/media/recordings/${id}/waveform-high.dat`,
        WaveformLowResUrl: `/api/media/recordings/${id}/waveform-low.dat`,
      },
    });
    const normalised = normalizeRecording(row);
    expect(normalised.ok && normalised.value.Phase).toBe('finalized');

    const status = await s.app.request(`/api/internal/recordings/${id}/audio/ingest`, { headers: s.editor.headers });
    expect(RecordingAudioIngestSchema.parse(await status.json())).toEqual({ RecordingId: id, State: 'Finalized', UploadedAudioFileName: 'capture.mp3', SizeInBytes: 96592, AudioProcessingProblem: null });

    // The waveforms are the clips' (the worker's peaks code): 256 and 4096 samples per pixel, .dat = .json.
    const high = await s.app.request(row.Urls.WaveformHighResUrl!, { headers: s.editor.headers });
    expect(high.status).toBe(200);
    const w = waveformFromDat(new Uint8Array(await high.arrayBuffer()));
    expect([w.samplesPerPixel, w.sampleRate, w.length]).toEqual([256, 44100, Math.ceil(529200 / 256)]);
    const json = await s.app.request(`/api/media/recordings/${id}/waveform-high.json`, { headers: s.editor.headers });
    expect(waveformFromJson(await json.json())).toEqual(w);
    const low = waveformFromDat(new Uint8Array(await (await s.app.request(row.Urls.WaveformLowResUrl!, { headers: s.editor.headers })).arrayBuffer()));
    expect([low.samplesPerPixel, low.length]).toEqual([4096, Math.ceil(reference('speech-12s.mp3').ffmpegDecodedFrames / 4096)]);

    // Audio with HTTP Range.
    const part = await s.app.request(row.Urls.AudioUrl!, { headers: { ...s.editor.headers, range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-type')).toBe('audio/mpeg');
    expect(part.headers.get('content-range')).toBe('bytes 100-199/96592');
    expect(new Uint8Array(await part.arrayBuffer())).toEqual(new Uint8Array(readFileSync(fixturePath('speech-12s.mp3')).subarray(100, 200)));
    const past = await s.app.request(row.Urls.AudioUrl!, { headers: { ...s.editor.headers, range: 'bytes=999999-' } });
    expect(past.status).toBe(416);
  });

  it('AAC from an agent (m4a) decodes in Node too: Finalized within one AAC frame of ffprobe', async () => {
    const id = await s.newRecording();
    expect((await ingest(id, 'speech-12s.m4a', 'capture.m4a')).status).toBe(202);
    await s.queue.idle();
    const row = fields(await s.recordingRow(id));
    expect(row.State).toBe('Finalized');
    expect(Math.abs(row.DurationSeconds! - reference('speech-12s.m4a').ffprobeDurationSeconds)).toBeLessThanOrEqual(1024 / 44100);
    const audio = await s.app.request(row.Urls.AudioUrl!, { method: 'HEAD', headers: s.editor.headers });
    expect([audio.status, audio.headers.get('content-type'), audio.headers.get('accept-ranges')]).toEqual([200, 'audio/mp4', 'bytes']);
  });

  it('a second ingest replaces the audio; one that is not audio leaves the recording as it was, and says why', async () => {
    const { id, row: first } = await finalizedRecording();

    const bad = await ingest(id, 'not-audio.mp3', 'second.mp3');
    expect(bad.status).toBe(202);
    await s.queue.idle();
    expect(fields(await s.recordingRow(id))).toEqual(first);
    const status = await s.app.request(`/api/internal/recordings/${id}/audio/ingest`, { headers: s.editor.headers });
    expect(await status.json()).toEqual({ RecordingId: id, State: 'Failed', UploadedAudioFileName: 'second.mp3', SizeInBytes: 25, AudioProcessingProblem: 'The uploaded file is not audio in a format we accept' });
    // Still the first file.
    const head = await s.app.request(first.Urls.AudioUrl!, { headers: { ...s.editor.headers, range: 'bytes=0-3' } });
    expect(new TextDecoder().decode(await head.arrayBuffer())).toBe('fLaC');

    await ingest(id, 'speech-12s-stereo.wav', 'third.wav');
    await s.queue.idle();
    const third = await s.app.request(first.Urls.AudioUrl!, { headers: { ...s.editor.headers, range: 'bytes=0-3' } });
    expect(third.headers.get('content-type')).toBe('audio/wav');
    expect(new TextDecoder().decode(await third.arrayBuffer())).toBe('RIFF');
  });

  it('an older ingest that finishes after a newer one (its retry after a backoff) leaves the newer audio current', async () => {
    const id = await s.newRecording();
    await ingest(id, 'speech-12s.flac', 'older.flac');
    // The older ingest's job put off, as a failed attempt's backoff puts it off.
    const [older] = await s.deps.store.query<{ id: string }>(`SELECT id::text AS id FROM jobs WHERE kind = 'recording.processIngest' AND state = 'queued' AND payload::text LIKE $1`, [`%${id}%`]);
    await s.deps.store.query(`UPDATE jobs SET run_at = now() + interval '1 hour' WHERE id = $1`, [older!.id]);
    await ingest(id, 'speech-12s-stereo.wav', 'newer.wav');
    await s.queue.idle();
    const newer = fields(await s.recordingRow(id));
    expect(newer.State).toBe('Finalized');
    // Its retry comes due and finishes.
    await s.deps.store.query(`UPDATE jobs SET run_at = now() WHERE id = $1`, [older!.id]);
    await s.queue.idle();
    expect(fields(await s.recordingRow(id))).toEqual(newer);
    const served = await s.app.request(newer.Urls.AudioUrl!, { headers: { ...s.editor.headers, range: 'bytes=0-3' } });
    expect(served.status).toBe(206);
    expect(new TextDecoder().decode(await served.arrayBuffer())).toBe('RIFF');
    const status = await s.app.request(`/api/internal/recordings/${id}/audio/ingest`, { headers: s.editor.headers });
    expect(await status.json()).toMatchObject({ State: 'Finalized', UploadedAudioFileName: 'newer.wav' });
  });

  it('a recording deleted while its ingest waits to be processed keeps no file of that ingest', async () => {
    const { id } = await finalizedRecording();
    expect((await ingest(id, 'speech-12s-stereo.wav', 'second.wav')).status).toBe(202);
    const [pending] = await s.deps.store.query<{ upload: string }>(`SELECT payload->'ingest'->>'uploadId' AS upload FROM jobs WHERE kind = 'recording.processIngest' AND state = 'queued' AND payload->>'recordingId' = $1`, [id]);
    const second = recordingKeys.audio(id, pending!.upload);
    expect(await s.audio.blobs.size(second)).toBeGreaterThan(0);
    await s.deps.store.query(`UPDATE recordings SET deleted = true, modified_at_utc = now(), version = next_row_version() WHERE id = $1`, [id]);
    await s.queue.idle();
    expect(await s.audio.blobs.size(second)).toBeNull();
    // The audio it served before is the deleted recording's own, kept with it.
    const current = (await readJsonBlob<CurrentAudio>(s.audio.blobs, recordingKeys.current(id)))!;
    expect(await s.audio.blobs.size(recordingKeys.audio(id, current.uploadId))).toBeGreaterThan(0);
  });

  it('a Live recording whose first ingest fails keeps its Live fields and external audio link', async () => {
    const id = await s.newRecording();
    const before = fields(await s.recordingRow(id));
    await ingest(id, 'not-audio.mp3', 'x.mp3');
    await s.queue.idle();
    expect(fields(await s.recordingRow(id))).toEqual(before);
    expect((await s.app.request(`/api/media/recordings/${id}/audio`, { headers: s.editor.headers })).status).toBe(404);
  });

  it('a truncated file is still Finalized with the audio that is there; the ingest carries the warning', async () => {
    const id = await s.newRecording();
    await ingest(id, 'truncated.mp3', 'cut.mp3');
    await s.queue.idle();
    const row = fields(await s.recordingRow(id));
    expect(row.State).toBe('Finalized');
    expect(row.DurationSeconds).toBeCloseTo(0.55, 2);
    const status = await (await s.app.request(`/api/internal/recordings/${id}/audio/ingest`, { headers: s.editor.headers })).json();
    expect(status).toMatchObject({ State: 'Finalized', AudioProcessingProblem: 'The file ends before the end its header announces; the audio that is there was kept' });
  });
});

describe('the file rules of section 5 → 400 with the same bodies as clip audio', () => {
  it('empty file, empty name, too large, extension not accepted', async () => {
    const id = await s.newRecording();
    const before = fields(await s.recordingRow(id));
    const empty = await ingest(id, 'empty.mp3', 'empty.mp3');
    expect([empty.status, await empty.json()]).toEqual([400, { Errors: [{ Field: 'file', Code: 'emptyFile', Message: 'File cannot be empty', MessageKey: 'domain_file_empty' }] }]);
    const noName = await ingest(id, 'speech-12s.mp3', ' ');
    expect([noName.status, await noName.json()]).toEqual([400, { Errors: [{ Field: 'fileName', Code: 'emptyFileName', Message: 'File name cannot be empty', MessageKey: 'domain_file_name_empty' }] }]);
    const big = await ingest(id, new Uint8Array(3 * 1024 * 1024 + 1), 'big.wav');
    expect([big.status, await big.json()]).toEqual([400, { Errors: [{ Field: 'file', Code: 'fileTooLarge', Message: 'File cannot be larger than 3 MB (received 3 MB)', MessageKey: 'domain_file_too_large', Params: { maxSize: 3 * 1024 * 1024, size: 3 * 1024 * 1024 + 1 } }] }]);
    const ogg = await ingest(id, 'speech-12s.mp3', 'capture.ogg');
    expect(ogg.status).toBe(400);
    const body = (await ogg.json()) as { Errors: Array<{ Field: string; Code: string; Message: string }> };
    expect(body.Errors).toEqual([expect.objectContaining({ Field: 'fileName', Code: 'invalidFileExtension' })]);
    expect(body.Errors[0]!.Message).toContain('m4a, mp3, mp4, aac, wav, flac, aif, aiff');
    // None of them touched the recording.
    expect(fields(await s.recordingRow(id))).toEqual(before);
  });

  it('without content access → 404; unknown recording → 404; no session → 401; no ingest yet → 204', async () => {
    const id = await s.newRecording();
    expect((await ingest(id, 'speech-12s.mp3', 'a.mp3', s.viewer.headers)).status).toBe(404);
    expect((await ingest('6f1c8c1e-0000-4000-8000-000000000000', 'speech-12s.mp3', 'a.mp3')).status).toBe(404);
    expect((await ingest(id, 'speech-12s.mp3', 'a.mp3', {} as typeof s.editor.headers)).status).toBe(401);
    expect((await s.app.request(`/api/internal/recordings/${id}/audio/ingest`, { headers: s.editor.headers })).status).toBe(204);
    expect((await s.app.request(`/api/media/recordings/${id}/waveform-low.dat`, { headers: s.editor.headers })).status).toBe(404);
  });
});
