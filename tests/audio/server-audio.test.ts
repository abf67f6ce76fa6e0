import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waveformFromDat, waveformFromJson } from '../../src/media/waveform-format.ts';
import { fixturePath, reference } from './fixtures.ts';
import { startAudioServer } from './server-harness.ts';

type Server = Awaited<ReturnType<typeof startAudioServer>>;
let s: Server;
beforeAll(async () => { s = await startAudioServer({ maxUploadBytes: 3 * 1024 * 1024 }); });
afterAll(async () => { await s.close(); });

async function upload(clipId: string, file: string | Uint8Array, fileName: string | null, headers = s.editor.headers) {
  const body = new Uint8Array(typeof file === 'string' ? readFileSync(fixturePath(file)) : file) as Uint8Array<ArrayBuffer>;
  const qs = fileName === null ? '' : `?fileName=${encodeURIComponent(fileName)}`;
  return s.app.request(`/api/v1/clips/${clipId}/audio${qs}`, { method: 'PUT', headers: { ...headers, 'content-type': 'application/octet-stream' }, body });
}

async function uploadAndProcess(file: string, fileName = file) {
  const clipId = await s.newClip();
  const res = await upload(clipId, file, fileName);
  expect(res.status).toBe(202);
  await s.queue.idle();
  return { clipId, row: await s.clipRow(clipId), accepted: await res.json() };
}

describe('PUT /api/v1/clips/{clipId}/audio → processing', () => {
  it('an MP3 is accepted with 202 and ends Ready with duration and both waveform URLs', async () => {
    const { clipId, row, accepted } = await uploadAndProcess('speech-12s.mp3');
    expect(accepted).toEqual({ ClipId: clipId, State: 'AudioUploaded', UploadedAudioFileName: 'speech-12s.mp3', SizeInBytes: 96592 });
    expect(row.state).toBe('Ready');
    expect(row.data.DurationSeconds).toBe(12);
    expect(row.data.UploadedAudioFileName).toBe('speech-12s.mp3');
    expect(row.data.UploadedMediaInfo).toEqual({ MediaType: 'Audio', VideoInfo: null });
    expect(row.data.AudioProcessingProblem).toBeNull();
    // The published version's URLs: ?v= names it, so caches never mix two versions.
    const v = /\?v=([0-9a-f-]{36})$/.exec(String((row.data.Urls as Record<string, string>).AudioPrivateUrl))?.[1];
    expect(row.data.Urls).toMatchObject({
      AudioPrivateUrl: `/api/media/clips/${clipId}/audio?v=${v}`,
      WaveformHighResUrl: `/api/media/clips/${clipId}/waveform-high.dat?v=${v}`,
      WaveformLowResUrl: `/api/media/clips/${clipId}/waveform-low.dat?v=${v}`,
      VideoPrivateUrl: null,
    });
    // AudioUploaded, Processing and the result: three writes, each published after commit.
    expect(s.changes.filter((c) => c.organizationId === s.orgId).length).toBeGreaterThanOrEqual(3);

    const high = await s.app.request((row.data.Urls as Record<string, string>).WaveformHighResUrl!, { headers: s.editor.headers });
    expect(high.status).toBe(200);
    const w = waveformFromDat(new Uint8Array(await high.arrayBuffer()));
    expect([w.samplesPerPixel, w.sampleRate, w.length]).toEqual([256, 44100, Math.ceil(529200 / 256)]);
    const json = await s.app.request(`/api/media/clips/${clipId}/waveform-high.json`, { headers: s.editor.headers });
    expect(waveformFromJson(await json.json())).toEqual(w);
    const low = await s.app.request(`/api/media/clips/${clipId}/waveform-low.dat`, { headers: s.editor.headers });
    const lw = waveformFromDat(new Uint8Array(await low.arrayBuffer()));
    expect(lw.samplesPerPixel).toBe(4096);
    // The server's peaks are the worker's: same as ffmpeg's reference at 1024 → consistent at 4096.
    const ref = reference('speech-12s.mp3');
    expect(lw.length).toBe(Math.ceil(ref.ffmpegDecodedFrames / 4096));
  });

  for (const [file, duration] of [['speech-12s.flac', 12], ['speech-12s.aiff', 12], ['speech-12s.aif', 12], ['speech-12s-stereo.wav', 12]] as const) {
    it(`${file} ends Ready with DurationSeconds ${duration}`, async () => {
      const { row } = await uploadAndProcess(file);
      expect(row.state).toBe('Ready');
      expect(row.data.DurationSeconds).toBe(duration);
    });
  }

  it('video-12s.mp4 gives MediaType AudioAndVideo with VideoInfo Width 320 and Height 180, and its audio a waveform', async () => {
    const { clipId, row } = await uploadAndProcess('video-12s.mp4');
    expect(row.state).toBe('Ready');
    expect(row.data.UploadedMediaInfo).toEqual({ MediaType: 'AudioAndVideo', VideoInfo: { Height: 180, Width: 320 } });
    expect(row.data.DurationSeconds).toBe(12);
    expect(row.data.AudioProcessingProblem).toBeNull();
    const urls = row.data.Urls as Record<string, string>;
    expect(urls.VideoPrivateUrl).toBe(urls.AudioPrivateUrl);
    expect([urls.AudioPrivateUrl, urls.WaveformHighResUrl]).toEqual([expect.stringMatching(new RegExp(`^/api/media/clips/${clipId}/audio\\?v=`)), expect.stringMatching(new RegExp(`^/api/media/clips/${clipId}/waveform-high\\.dat\\?v=`))]);
  });

  // AAC decodes in Node (sync-server/media/node-decoder.ts): what a client sees after PUT audio is the
  // clip Ready, DurationSeconds within one AAC frame of ffprobe's (ffmpeg's decoded length for raw
  // ADTS, whose ffprobe duration is a bitrate estimate), and waveform files that match ffmpeg's
  // decode (tolerance as in decode.test.ts: 99 % within 3 steps, all within 0.25 % of full scale).
  for (const file of ['speech-12s.m4a', 'speech-12s-audio-only.mp4', 'speech-12s.aac']) {
    it(`${file} ends Ready with DurationSeconds within one AAC frame and waveforms like ffmpeg's`, async () => {
      const { clipId, row } = await uploadAndProcess(file);
      const ref = reference(file);
      expect(row.state).toBe('Ready');
      expect(row.data.AudioProcessingProblem).toBeNull();
      expect(row.data.UploadedMediaInfo).toEqual({ MediaType: 'Audio', VideoInfo: null });
      const truth = file.endsWith('.aac') ? ref.ffmpegDecodedFrames / ref.sampleRate : ref.ffprobeDurationSeconds;
      expect(Math.abs((row.data.DurationSeconds as number) - truth)).toBeLessThanOrEqual(1024 / ref.sampleRate);
      // The upload's own waveform (the editor's): an ADTS .aac is published as an MP3 encode, whose
      // peaks are the encode's, so the pipeline is checked on the original.
      const upload = JSON.parse(await (await s.audio.blobs.blob(`clips/${clipId}/audio.json`)).text()) as { media: string };
      const high = waveformFromJson(JSON.parse(await (await s.audio.blobs.blob(`${upload.media}/waveform-high.json`)).text()));
      expect([high.samplesPerPixel, high.sampleRate]).toEqual([256, 44100]);
      // Four 256-sample pixels make one 1024-sample pixel of the reference.
      let close = 0;
      let worst = 0;
      for (let px = 0; px < ref.peaks.length / 2; px++) {
        const lo = Math.min(...Array.from({ length: 4 }, (_, k) => high.data[2 * (4 * px + k)] ?? Infinity));
        const hi = Math.max(...Array.from({ length: 4 }, (_, k) => high.data[2 * (4 * px + k) + 1] ?? -Infinity));
        for (const d of [Math.abs(lo - ref.peaks[2 * px]!), Math.abs(hi - ref.peaks[2 * px + 1]!)]) {
          worst = Math.max(worst, d);
          if (d <= 3) close++;
        }
      }
      expect(close / ref.peaks.length).toBeGreaterThanOrEqual(0.99);
      expect(worst).toBeLessThanOrEqual(82);
      const low = await s.app.request(`/api/media/clips/${clipId}/waveform-low.dat`, { headers: s.editor.headers });
      expect(waveformFromDat(new Uint8Array(await low.arrayBuffer())).length).toBe(Math.ceil((row.data.DurationSeconds as number) * 44100 / 4096));
    });
  }

  it('not-audio.mp3 ends in Error with a problem, and the server keeps serving', async () => {
    const { row } = await uploadAndProcess('not-audio.mp3');
    expect(row.state).toBe('Error');
    expect(row.data.AudioProcessingProblem).toBe('The uploaded file is not audio in a format we accept');
    const again = await uploadAndProcess('speech-12s.flac');
    expect(again.row.state).toBe('Ready');
  });

  it('truncated.mp3 ends in Warning: the audio that is there is kept', async () => {
    const { row } = await uploadAndProcess('truncated.mp3');
    expect(row.state).toBe('Warning');
    expect(row.data.AudioProcessingProblem).toBe("The file ends before the end its header announces; the audio that is there was kept");
    expect(row.data.DurationSeconds).toBeCloseTo(0.55, 2);
  });
});

describe('file rules of section 5 → 400 with a body', () => {
  it('an empty file', async () => {
    const res = await upload(await s.newClip(), 'empty.mp3', 'empty.mp3');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ Errors: [{ Field: 'file', Code: 'emptyFile', Message: 'File cannot be empty', MessageKey: 'domain_file_empty' }] });
  });

  it('an empty file name', async () => {
    const res = await upload(await s.newClip(), 'speech-12s.mp3', '  ');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ Errors: [{ Field: 'fileName', Code: 'emptyFileName', Message: 'File name cannot be empty', MessageKey: 'domain_file_name_empty' }] });
    expect((await upload(await s.newClip(), 'speech-12s.mp3', null)).status).toBe(400);
  });

  it('a file larger than the limit names both sizes', async () => {
    const res = await upload(await s.newClip(), new Uint8Array(3 * 1024 * 1024 + 1), 'big.wav');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ Errors: [{ Field: 'file', Code: 'fileTooLarge', Message: 'File cannot be larger than 3 MB (received 3 MB)', MessageKey: 'domain_file_too_large', Params: { maxSize: 3 * 1024 * 1024, size: 3 * 1024 * 1024 + 1 } }] });
  });

  it('an extension not accepted lists the accepted formats', async () => {
    const res = await upload(await s.newClip(), 'speech-12s.mp3', 'episode.ogg');
    expect(res.status).toBe(400);
    const body = (await res.json()) as { Errors: { Field: string; Code: string; Message: string }[] };
    expect(body.Errors).toEqual([expect.objectContaining({ Field: 'fileName', Code: 'invalidFileExtension' })]);
    expect(body.Errors[0]!.Message).toContain('m4a, mp3, mp4, aac, wav, flac, aif, aiff');
  });

  it('without content access → 404; unknown clip → 404; no session → 401', async () => {
    const clipId = await s.newClip();
    expect((await upload(clipId, 'speech-12s.mp3', 'a.mp3', s.viewer.headers)).status).toBe(404);
    expect((await upload('6f1c8c1e-0000-4000-8000-000000000000', 'speech-12s.mp3', 'a.mp3')).status).toBe(404);
    expect((await upload(clipId, 'speech-12s.mp3', 'a.mp3', {} as typeof s.editor.headers)).status).toBe(401);
  });
});

describe('audio is served with HTTP Range', () => {
  it('206 for a byte range, 200 for the whole, 416 past the end', async () => {
    const { clipId } = await uploadAndProcess('speech-12s.mp3');
    const url = `/api/media/clips/${clipId}/audio`;
    const whole = await s.app.request(url, { headers: s.editor.headers });
    expect(whole.status).toBe(200);
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('content-type')).toBe('audio/mpeg');
    expect((await whole.arrayBuffer()).byteLength).toBe(96592);
    const part = await s.app.request(url, { headers: { ...s.editor.headers, range: 'bytes=100-199' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe('bytes 100-199/96592');
    const bytes = new Uint8Array(await part.arrayBuffer());
    expect(bytes).toEqual(new Uint8Array(readFileSync(fixturePath('speech-12s.mp3')).subarray(100, 200)));
    const suffix = await s.app.request(url, { headers: { ...s.editor.headers, range: 'bytes=-10' } });
    expect(suffix.headers.get('content-range')).toBe('bytes 96582-96591/96592');
    const past = await s.app.request(url, { headers: { ...s.editor.headers, range: 'bytes=999999-' } });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */96592');
  });
});

describe('cut edit and audio preview', () => {
  it('PUT /api/internal/clips/{clipId}/cut stores the edit list (200) and GET returns it (204 before any)', async () => {
    const { clipId } = await uploadAndProcess('speech-12s.flac');
    expect((await s.app.request(`/api/internal/clips/${clipId}/cut`, { headers: s.editor.headers })).status).toBe(204);
    const edit = { KeptRegions: [{ StartSeconds: 0, EndSeconds: 3 }, { StartSeconds: 6, EndSeconds: 12 }], CrossfadeMs: 10 };
    const put = await s.app.request(`/api/internal/clips/${clipId}/cut`, { method: 'PUT', headers: { ...s.editor.headers, 'content-type': 'application/json' }, body: JSON.stringify(edit) });
    expect(put.status).toBe(200);
    const got = await s.app.request(`/api/internal/clips/${clipId}/cut`, { headers: s.editor.headers });
    expect(await got.json()).toEqual(edit);
    const bad = await s.app.request(`/api/internal/clips/${clipId}/cut`, { method: 'PUT', headers: { ...s.editor.headers, 'content-type': 'application/json' }, body: JSON.stringify({ KeptRegions: [], CrossfadeMs: 50 }) });
    expect(bad.status).toBe(400);
    const preview = await s.app.request(`/api/internal/clips/${clipId}/cut/audio-preview`, { method: 'POST', headers: { ...s.editor.headers, 'content-type': 'application/json' }, body: JSON.stringify(edit) });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-type')).toBe('audio/wav');
    const wav = new Uint8Array(await preview.arrayBuffer());
    const frames = new DataView(wav.buffer).getUint32(40, true) / 2;
    // 3 s + 6 s kept, less one 10 ms crossfade.
    expect(frames).toBe(9 * 44100 - 441);
    expect(wav.length).toBe(44 + frames * 2);
  });
});
