// A request the server refuses changes nothing: PUT audio that breaks a file rule of section 5
// (by audioUrl or by file body) leaves the clip's audio, metadata and waveforms as they were, and
// a cut preview of audio that is not audio is a 400 naming the problem, with no temporary WAV left
// behind. On both stores (the clip rows live in the store; the files in the blob folder).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeKinds } from '../server/test-store.ts';
import { fixturePath } from './fixtures.ts';
import { startAudioServer } from './server-harness.ts';

const MP3 = new Uint8Array(readFileSync(fixturePath('speech-12s.mp3')));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe.each(storeKinds)('refused audio requests change nothing (%s)', (kind) => {
  let s: Awaited<ReturnType<typeof startAudioServer>>;
  beforeAll(async () => { s = await startAudioServer({ store: kind, maxUploadBytes: 3 * 1024 * 1024 }); });
  afterAll(async () => { await s?.close(); });

  const json = { 'content-type': 'application/json' };
  const put = (clipId: string, body: BodyInit, query: string, headers: Record<string, string> = { 'content-type': 'application/octet-stream' }) =>
    s.app.request(`/api/v1/clips/${clipId}/audio${query}`, { method: 'PUT', headers: { ...s.editor.headers, ...headers }, body, duplex: 'half' } as RequestInit);

  /** A clip Ready with speech-12s.mp3, and what a client reads of it. */
  async function readyClip() {
    const clipId = await s.newClip();
    expect((await put(clipId, MP3, '?fileName=speech-12s.mp3')).status).toBe(202);
    await s.queue.idle();
    return { clipId, before: await seen(clipId) };
  }
  async function seen(clipId: string) {
    const audio = await s.app.request(`/api/media/clips/${clipId}/audio`, { headers: s.editor.headers });
    const waveform = await s.app.request(`/api/media/clips/${clipId}/waveform-low.json`, { headers: s.editor.headers });
    const row = await s.clipRow(clipId);
    return {
      // A digest of the bytes (a failing comparison of two whole files would print megabytes).
      audio: { status: audio.status, type: audio.headers.get('content-type'), sha256: sha256(new Uint8Array(await audio.arrayBuffer())) },
      waveform: { status: waveform.status, body: await waveform.text() },
      state: row.state,
      fileName: row.data.UploadedAudioFileName,
      duration: row.data.DurationSeconds,
      urls: row.data.Urls,
    };
  }

  it('audioUrl with an extension not accepted: 400, and the clip still serves its own audio and waveforms', async () => {
    const { clipId, before } = await readyClip();
    expect(before.audio).toEqual({ status: 200, type: 'audio/mpeg', sha256: sha256(MP3) });
    // Other audio this server serves: a FLAC clip's.
    const other = await s.newClip();
    expect((await put(other, new Uint8Array(readFileSync(fixturePath('speech-12s.flac'))), '?fileName=speech-12s.flac')).status).toBe(202);
    await s.queue.idle();

    for (const res of [
      await put(clipId, JSON.stringify({ audioUrl: `/api/media/clips/${other}/audio`, fileName: 'episode.ogg' }), '', json),
      await put(clipId, '', `?audioUrl=${encodeURIComponent(`/api/media/clips/${other}/audio`)}&fileName=episode.ogg`, {}),
    ]) {
      expect(res.status).toBe(400);
      const body = (await res.json()) as { Errors: Array<{ Field: string; Code: string; Message: string }> };
      expect(body.Errors).toEqual([expect.objectContaining({ Field: 'fileName', Code: 'invalidFileExtension' })]);
      expect(body.Errors[0]!.Message).toContain('m4a, mp3, mp4, aac, wav, flac, aif, aiff');
    }
    expect(await seen(clipId)).toEqual(before);
  });

  it('a file body that turns out empty (chunked, no Content-Length): 400 "File cannot be empty", and the old audio stays', async () => {
    const { clipId, before } = await readyClip();
    const empty = new ReadableStream<Uint8Array>({ start(c) { c.close(); } });
    const res = await put(clipId, empty, '?fileName=episode.mp3');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ Errors: [{ Field: 'file', Code: 'emptyFile', Message: 'File cannot be empty', MessageKey: 'domain_file_empty' }] });
    expect(await seen(clipId)).toEqual(before);
  });

  it('a file body over the limit without a declared size: 400, and the old audio stays', async () => {
    const { clipId, before } = await readyClip();
    const big = new Uint8Array(3 * 1024 * 1024 + 1);
    const body = new ReadableStream<Uint8Array>({ start(c) { c.enqueue(big.subarray(0, 1024 * 1024)); c.enqueue(big.subarray(1024 * 1024)); c.close(); } });
    const res = await put(clipId, body, '?fileName=episode.wav');
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ Errors: [{ Field: 'file', Code: 'fileTooLarge', Message: 'File cannot be larger than 3 MB (received 3 MB)', MessageKey: 'domain_file_too_large', Params: { maxSize: 3 * 1024 * 1024, size: 3 * 1024 * 1024 + 1 } }] });
    expect(await seen(clipId)).toEqual(before);
  });

  describe('POST /api/internal/clips/{clipId}/cut/audio-preview of audio that is not audio', () => {
    const edit = { KeptRegions: [{ StartSeconds: 0, EndSeconds: 0.5 }], CrossfadeMs: 10 };
    let tmp: string;
    const savedTmp = process.env.TMPDIR;
    beforeAll(async () => {
      // The preview renders into the temporary folder (os.tmpdir(), which reads TMPDIR): a fresh one to look into.
      tmp = await mkdtemp(join(tmpdir(), 'castaway-preview-test-'));
      process.env.TMPDIR = tmp;
    });
    afterAll(async () => {
      if (savedTmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = savedTmp;
      await rm(tmp, { recursive: true, force: true });
    });
    const preview = (clipId: string) =>
      s.app.request(`/api/internal/clips/${clipId}/cut/audio-preview`, { method: 'POST', headers: { ...s.editor.headers, ...json }, body: JSON.stringify(edit) });

    it('text with an .mp3 name: 400 "The uploaded file is not audio in a format we accept"', async () => {
      const clipId = await s.newClip();
      expect((await put(clipId, new Uint8Array(readFileSync(fixturePath('not-audio.mp3'))), '?fileName=not-audio.mp3')).status).toBe(202);
      await s.queue.idle();
      const res = await preview(clipId);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({ Errors: [{ Field: '', Code: 'notAudio', Message: 'The uploaded file is not audio in a format we accept' }] });
      expect(await readdir(tmp)).toEqual([]);
    });

    it('a WAV in an encoding we do not read (µ-law): 400 naming it, and no temporary WAV is left', async () => {
      const mulaw = join(tmp, '..', `castaway-mulaw-${process.pid}.wav`);
      execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:d=1', '-c:a', 'pcm_mulaw', mulaw]);
      const clipId = await s.newClip();
      const bytes = new Uint8Array(readFileSync(mulaw));
      await rm(mulaw, { force: true });
      expect((await put(clipId, bytes, '?fileName=tone.wav')).status).toBe(202);
      await s.queue.idle();
      const res = await preview(clipId);
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        Errors: [{ Field: '', Code: 'unsupportedEncoding', Message: 'This audio encoding is not supported (WAV format tag 7)', Params: { encoding: 'WAV format tag 7' } }],
      });
      // The render had begun (the file is a WAV): its temporary file is gone.
      expect(await readdir(tmp)).toEqual([]);
      // A clip with real audio still previews.
      const { clipId: good } = await readyClip();
      const ok = await preview(good);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toBe('audio/wav');
      await ok.arrayBuffer();
    });
  });
});
