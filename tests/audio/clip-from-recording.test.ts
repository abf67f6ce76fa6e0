// A recording turned into a clip (issue 6, "keep regions"): PUT /api/v1/clips/{clipId}/audio with
// audioUrl (section 7) copies audio this server serves into the clip, which is processed like an
// upload (AudioUploaded → Ready with its duration and waveforms) and remembers the recording in
// RecordingMetadata; GET /api/v1/recordings/{recordingId}/clips lists such clips; the kept regions
// go to PUT /api/internal/clips/{clipId}/cut. The outbox sends the audioUrl in a JSON body, since
// a queued path carries no query.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AudioUploadAcceptedSchema } from '../../src/protocol/media.ts';
import { fixturePath } from './fixtures.ts';
import { startAudioServer } from './server-harness.ts';

type Server = Awaited<ReturnType<typeof startAudioServer>>;
let s: Server;
beforeAll(async () => {
  s = await startAudioServer();
}, 60_000);
afterAll(async () => { await s.close(); });

/** A recording Finalized with the fixture `file`, as a recording agent's ingest leaves it. */
async function recordingWith(file: string): Promise<string> {
  const id = await s.newRecording();
  const res = await s.app.request(`/api/internal/recordings/${id}/audio?fileName=${file}`, {
    method: 'PUT', headers: { ...s.editor.headers, 'content-type': 'application/octet-stream' }, body: new Uint8Array(readFileSync(fixturePath(file))),
  });
  expect(res.status).toBe(202);
  await s.queue.idle();
  return id;
}

function putAudio(clipId: string, init: { query?: string; json?: unknown }, headers: Record<string, string> = s.editor.headers) {
  return s.app.request(`/api/v1/clips/${clipId}/audio${init.query ?? ''}`, {
    method: 'PUT',
    headers: { ...headers, ...(init.json ? { 'content-type': 'application/json' } : {}) },
    ...(init.json ? { body: JSON.stringify(init.json) } : {}),
  });
}

async function errorsOf(res: Response) {
  return ((await res.json()) as { Errors: Array<{ Field: string; Code: string }> }).Errors.map((e) => [e.Field, e.Code]);
}

describe('a clip made from a recording', () => {
  it('the outbox form (JSON body { audioUrl }) copies the recording audio: 202, then Ready with the same bytes, duration and waveforms, RecordingMetadata set', async () => {
    const recordingId = await recordingWith('speech-12s.flac');
    const clipId = await s.newClip();
    const res = await putAudio(clipId, { json: { audioUrl: `/api/media/recordings/${recordingId}/audio` } });
    expect(res.status).toBe(202);
    expect(AudioUploadAcceptedSchema.parse(await res.json())).toEqual({ ClipId: clipId, State: 'AudioUploaded', UploadedAudioFileName: 'speech-12s.flac', SizeInBytes: 459711 });
    await s.queue.idle();
    const row = await s.clipRow(clipId);
    expect(row.state).toBe('Ready');
    expect(row.data).toMatchObject({
      DurationSeconds: 12,
      UploadedAudioFileName: 'speech-12s.flac',
      RecordingMetadata: { RecordingId: recordingId },
      // The published version's URLs carry its id (?v=): caches never mix versions.
      Urls: {
        AudioPrivateUrl: expect.stringMatching(new RegExp(`^/api/media/clips/${clipId}/audio\\?v=`)),
        WaveformHighResUrl: expect.stringMatching(new RegExp(`^/api/media/clips/${clipId}/waveform-high\\.dat\\?v=`)),
        WaveformLowResUrl: expect.stringMatching(new RegExp(`^/api/media/clips/${clipId}/waveform-low\\.dat\\?v=`)),
      },
    });
    // The recording's FLAC is copied as the clip's original, byte for byte (its audio URL serves the MP3 published from it).
    const audio = await s.app.request(`/api/internal/clips/${clipId}/original-audio`, { headers: s.editor.headers });
    expect(audio.headers.get('content-type')).toBe('audio/flac');
    expect(Buffer.from(await audio.arrayBuffer()).equals(readFileSync(fixturePath('speech-12s.flac')))).toBe(true);
  });

  it('the query form of section 7 (?audioUrl=, absolute on this server, with a fileName) works the same', async () => {
    const recordingId = await recordingWith('speech-12s.mp3');
    const clipId = await s.newClip();
    const url = encodeURIComponent(`http://localhost/api/media/recordings/${recordingId}/audio`);
    const res = await putAudio(clipId, { query: `?audioUrl=${url}&fileName=Morning%20highlights.mp3` });
    expect(res.status).toBe(202);
    await s.queue.idle();
    const row = await s.clipRow(clipId);
    expect([row.state, row.data.UploadedAudioFileName, row.data.DurationSeconds]).toEqual(['Ready', 'Morning highlights.mp3', 12]);
  });

  it('GET /api/v1/recordings/{id}/clips lists the clips made from that recording and no others', async () => {
    const recordingId = await recordingWith('speech-12s.mp3');
    const other = await recordingWith('speech-12s.mp3');
    const first = await s.newClip();
    const second = await s.newClip();
    const unrelated = await s.newClip();
    for (const clipId of [first, second]) expect((await putAudio(clipId, { json: { audioUrl: `/api/media/recordings/${recordingId}/audio` } })).status).toBe(202);
    expect((await putAudio(unrelated, { json: { audioUrl: `/api/media/recordings/${other}/audio` } })).status).toBe(202);
    await s.queue.idle();
    const res = await s.app.request(`/api/v1/recordings/${recordingId}/clips`, { headers: s.editor.headers });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { Items: Array<{ Id: string; RecordingMetadata: unknown; PlaylistIds: unknown }>; HasNext: boolean; Page: number };
    expect(new Set(body.Items.map((c) => c.Id))).toEqual(new Set([first, second]));
    expect(body.Items[0]).toMatchObject({ RecordingMetadata: { RecordingId: recordingId }, PlaylistIds: [] });
    expect([body.HasNext, body.Page]).toEqual([false, 1]);
    // Someone without content access on the program sees nothing of it.
    expect((await s.app.request(`/api/v1/recordings/${recordingId}/clips`, { headers: s.viewer.headers })).status).toBe(404);
  });

  it('the kept regions are the clip cut, and the clip keeps its audio when the recording gets new audio', async () => {
    const recordingId = await recordingWith('speech-12s.mp3');
    const clipId = await s.newClip();
    expect((await putAudio(clipId, { json: { audioUrl: `/api/media/recordings/${recordingId}/audio` } })).status).toBe(202);
    const edit = { KeptRegions: [{ StartSeconds: 1, EndSeconds: 4 }, { StartSeconds: 7.5, EndSeconds: 11 }], CrossfadeMs: 10 };
    const cut = await s.app.request(`/api/internal/clips/${clipId}/cut`, { method: 'PUT', headers: { ...s.editor.headers, 'content-type': 'application/json' }, body: JSON.stringify(edit) });
    expect(cut.status).toBe(200);
    await s.queue.idle();
    expect(await (await s.app.request(`/api/internal/clips/${clipId}/cut`, { headers: s.editor.headers })).json()).toEqual(edit);
    // A new ingest replaces the recording's audio and removes the old upload folder.
    const again = await s.app.request(`/api/internal/recordings/${recordingId}/audio?fileName=take2.flac`, {
      method: 'PUT', headers: { ...s.editor.headers, 'content-type': 'application/octet-stream' }, body: new Uint8Array(readFileSync(fixturePath('speech-12s.flac'))),
    });
    expect(again.status).toBe(202);
    await s.queue.idle();
    const audio = await s.app.request(`/api/internal/clips/${clipId}/original-audio`, { headers: s.editor.headers });
    expect(Buffer.from(await audio.arrayBuffer()).equals(readFileSync(fixturePath('speech-12s.mp3')))).toBe(true);
  });

  it('refuses, with 400 naming audioUrl, audio of another host, a recording without audio and an unknown recording', async () => {
    const clipId = await s.newClip();
    const live = await s.newRecording(); // a Live recording whose audio is an agent's external link, not ours
    const cases = [
      'https://elsewhere.example/api/media/recordings/00000000-0000-4000-8000-000000000000/audio',
      `/api/media/recordings/${live}/audio`,
      '/api/media/recordings/00000000-0000-4000-8000-000000000000/audio',
      '/api/v1/clips',
    ];
    for (const audioUrl of cases) {
      const res = await putAudio(clipId, { json: { audioUrl } });
      expect(res.status, audioUrl).toBe(400);
      expect((await errorsOf(res))[0]![0]).toBe('audioUrl');
    }
    expect(await errorsOf(await putAudio(clipId, { json: { audioUrl: 'x', extra: 1 } }))).toEqual([['extra', 'invalid']]);
    // The clip is as it was.
    expect((await s.clipRow(clipId)).state).toBe('Draft');
  });

  it('a caller without content access on the clip cannot copy audio into it (404)', async () => {
    const recordingId = await recordingWith('speech-12s.mp3');
    const clipId = await s.newClip();
    expect((await putAudio(clipId, { json: { audioUrl: `/api/media/recordings/${recordingId}/audio` } }, s.viewer.headers)).status).toBe(404);
  });
});
