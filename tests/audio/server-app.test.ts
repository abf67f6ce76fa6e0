// The audio routes as mounted in the real app (createApp), on PGlite and PostgreSQL: a user signs
// in, uploads a file to a clip of the demo seed, and the clip read back through GET /v1/clips/{id}
// goes AudioUploaded → Ready with its duration and waveform URLs, polled as a client would; a
// recording agent's ingest makes a seeded Live recording Finalized the same way; and a clip made
// from a recording's kept regions on a device arrives as three queued mutations (create, audio
// from the recording's audioUrl, cut) that one sync push turns into a Ready clip with its cut.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { seed, seedId } from '../../sync-server/seed.ts';
import { ClipSchema, RecordingSchema } from '../../src/protocol/entities.ts';
import { SYNC_PROTOCOL_VERSION, type Mutation, type MutationResult } from '../../src/protocol/sync.ts';
import { waveformFromDat } from '../../src/media/waveform-format.ts';
import { AppClient } from '../server/app-client.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';
import { fixturePath } from './fixtures.ts';

describe.each(storeKinds)('clip audio through the app on %s', (kind) => {
  let t: TestStore;
  let demo: AppClient;
  let app: ReturnType<typeof createApp>;
  let blobDir: string;
  const previous = process.env.CASTAWAY_BLOB_DIR;

  beforeAll(async () => {
    blobDir = await mkdtemp(join(tmpdir(), 'castaway-app-audio-'));
    process.env.CASTAWAY_BLOB_DIR = blobDir;
    t = await openTestStore(kind);
    await seed(t.store, { clips: 6 });
    app = createApp({ store: t.store, bus: createMemoryBus() });
    demo = new AppClient(app);
    await demo.login('demo@example.com');
  });
  afterAll(async () => {
    if (previous === undefined) delete process.env.CASTAWAY_BLOB_DIR;
    else process.env.CASTAWAY_BLOB_DIR = previous;
    await t?.drop();
    await rm(blobDir, { recursive: true, force: true });
  });

  it('PUT audio → 202, then the clip becomes Ready with DurationSeconds and waveform URLs', async () => {
    const list = await demo.get(`/api/v1/programs/${seedId('program:morning')}/clips?page=1&pageSize=1`);
    const clip = ClipSchema.parse((list.body as { Items: unknown[] }).Items[0]);
    const headers: Record<string, string> = { cookie: demo.cookie, 'x-xsrf-token': demo.xsrf, 'content-type': 'audio/flac' };
    const put = await app.request(`/api/v1/clips/${clip.Id}/audio?fileName=episode.flac`, {
      method: 'PUT', headers, body: new Uint8Array(readFileSync(fixturePath('speech-12s.flac'))),
    });
    expect(put.status).toBe(202);
    let row = clip;
    for (let i = 0; i < 100 && !['Ready', 'Warning', 'Error'].includes(row.State); i++) {
      await app.jobs.drain();
      await new Promise((r) => setTimeout(r, 50));
      row = ClipSchema.parse((await demo.get(`/api/v1/clips/${clip.Id}`)).body);
    }
    expect(row.State).toBe('Ready');
    expect(row.DurationSeconds).toBe(12);
    expect(row.UploadedAudioFileName).toBe('episode.flac');
    expect(row.UploadedMediaInfo).toEqual({ MediaType: 'Audio', VideoInfo: null });
    expect(row.Urls.WaveformLowResUrl).toMatch(new RegExp(`^/api/media/clips/${clip.Id}/waveform-low\\.dat\\?v=[0-9a-f-]{36}$`));
    const dat = await demo.get(row.Urls.WaveformHighResUrl!);
    expect(dat.status).toBe(200);
    const audio = await app.request(row.Urls.AudioPrivateUrl!, { headers: { cookie: demo.cookie, range: 'bytes=0-3' } });
    expect(audio.status).toBe(206);
    // A FLAC is published as an MP3 (podcast apps take MP3/M4A); the original stays as uploaded.
    expect(new TextDecoder().decode(await audio.arrayBuffer())).toBe('ID3\u0004');
    const original = await app.request(`/api/internal/clips/${clip.Id}/original-audio`, { headers: { cookie: demo.cookie, range: 'bytes=0-3' } });
    expect([original.status, new TextDecoder().decode(await original.arrayBuffer())]).toEqual([206, 'fLaC']);
    const w = await app.request(row.Urls.WaveformHighResUrl!, { headers: { cookie: demo.cookie } });
    expect(waveformFromDat(new Uint8Array(await w.arrayBuffer())).samplesPerPixel).toBe(256);
  });

  it('PUT /internal/recordings/{id}/audio → 202, then GET /v1/recordings/{id} is Finalized with DurationSeconds, audio and waveform Urls', async () => {
    const id = seedId('recording:morning:Live');
    const headers: Record<string, string> = { cookie: demo.cookie, 'x-xsrf-token': demo.xsrf, 'content-type': 'audio/mpeg' };
    const put = await app.request(`/api/internal/recordings/${id}/audio?fileName=capture.mp3`, {
      method: 'PUT', headers, body: new Uint8Array(readFileSync(fixturePath('speech-12s.mp3'))),
    });
    expect(put.status).toBe(202);
    let row = RecordingSchema.parse((await demo.get(`/api/v1/recordings/${id}`)).body);
    for (let i = 0; i < 100 && row.State !== 'Finalized'; i++) {
      await app.jobs.drain();
      await new Promise((r) => setTimeout(r, 50));
      row = RecordingSchema.parse((await demo.get(`/api/v1/recordings/${id}`)).body);
    }
    expect(row.State).toBe('Finalized');
    expect(row.DurationSeconds).toBe(12);
    expect(row.Urls).toEqual({
      AudioUrl: `/api/media/recordings/${id}/audio`,
      WaveformHighResUrl: `/api/media/recordings/${id}/waveform-high.dat`,
      WaveformLowResUrl: `/api/media/recordings/${id}/waveform-low.dat`,
    });
    const audio = await app.request(row.Urls.AudioUrl!, { headers: { cookie: demo.cookie, range: 'bytes=0-2' } });
    expect(audio.status).toBe(206);
    expect(new TextDecoder().decode(await audio.arrayBuffer())).toBe('ID3');
    const w = await app.request(row.Urls.WaveformLowResUrl!, { headers: { cookie: demo.cookie } });
    expect(waveformFromDat(new Uint8Array(await w.arrayBuffer())).samplesPerPixel).toBe(4096);
  });

  it('a clip made offline from a recording: POST clip, PUT audio { audioUrl }, PUT cut in one push → a Ready clip with the recording audio, listed under the recording', async () => {
    const recordingId = seedId('recording:world:Finalized');
    const ingest = await app.request(`/api/internal/recordings/${recordingId}/audio?fileName=world.mp3`, {
      method: 'PUT', headers: { cookie: demo.cookie, 'x-xsrf-token': demo.xsrf, 'content-type': 'audio/mpeg' }, body: new Uint8Array(readFileSync(fixturePath('speech-12s.mp3'))),
    });
    expect(ingest.status).toBe(202);
    let recording = RecordingSchema.parse((await demo.get(`/api/v1/recordings/${recordingId}`)).body);
    for (let i = 0; i < 100 && recording.State !== 'Finalized'; i++) {
      await app.jobs.drain();
      await new Promise((r) => setTimeout(r, 50));
      recording = RecordingSchema.parse((await demo.get(`/api/v1/recordings/${recordingId}`)).body);
    }
    const clipId = crypto.randomUUID();
    const edit = { KeptRegions: [{ StartSeconds: 2, EndSeconds: 5 }, { StartSeconds: 8, EndSeconds: 12 }], CrossfadeMs: 10 };
    const m = (name: string, args: Mutation['args']): Mutation => ({ id: crypto.randomUUID(), name, args, base: null, createdAt: Date.now() });
    const mutations = [
      m('clip.create', { programId: recording.ProgramId, clipId, fields: { Title: 'World Tonight: the interview' } }),
      m('clip.setAudioFromUrl', { clipId, audioUrl: recording.Urls.AudioUrl }),
      m('clip.saveCut', { clipId, cut: edit }),
    ];
    const push = await demo.post('/api/sync/push', { protocolVersion: SYNC_PROTOCOL_VERSION, clientId: crypto.randomUUID(), mutations });
    expect(push.status, push.text).toBe(200);
    const results = (push.body as { results: MutationResult[] }).results;
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'applied']);
    let clip = ClipSchema.parse((await demo.get(`/api/v1/clips/${clipId}`)).body);
    for (let i = 0; i < 100 && clip.State !== 'Ready'; i++) {
      await app.jobs.drain();
      await new Promise((r) => setTimeout(r, 50));
      clip = ClipSchema.parse((await demo.get(`/api/v1/clips/${clipId}`)).body);
    }
    expect([clip.State, clip.Title, clip.RecordingMetadata]).toEqual(['Ready', 'World Tonight: the interview', { RecordingId: recordingId }]);
    // The clip's duration is its published version's: the cut (3 s + 4 s less one 10 ms crossfade), within one MP3 frame.
    expect(Math.abs(clip.DurationSeconds! - 6.99)).toBeLessThanOrEqual(1152 / 44100);
    expect((await demo.get(`/api/internal/clips/${clipId}/cut`)).body).toEqual(edit);
    const listed = (await demo.get(`/api/v1/recordings/${recordingId}/clips`)).body as { Items: Array<{ Id: string }> };
    expect(listed.Items.map((c) => c.Id)).toEqual([clipId]);
  });
});
