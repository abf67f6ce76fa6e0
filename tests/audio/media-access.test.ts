// Issue 28: "Every member of an organization can download any program's audio". On the demo seed
// with its real media, producer@example.com (content access on Morning Briefing and Book Club only,
// sync-server/seed.ts) gets 404 for every media route of a clip and a recording of World Tonight,
// exactly as for rows that do not exist, and cannot copy that audio into its own clip; the same
// routes on its own program's clip and recording answer 200 / 206 / 202. The media and upload routes
// are in GET /api/openapi.json, each with who may call it.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Metadata } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, seedId, seedWithMedia } from '../../sync-server/seed.ts';
import { UPLOADS_PATH } from '../../src/protocol/uploads.ts';
import { AppClient } from '../server/app-client.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';
import { fixturePath } from './fixtures.ts';

const WAVEFORMS = ['waveform-high.dat', 'waveform-low.dat', 'waveform-high.json', 'waveform-low.json'];
const CUT = { KeptRegions: [{ StartSeconds: 0.5, EndSeconds: 2 }, { StartSeconds: 3, EndSeconds: 4 }], CrossfadeMs: 10 };

describe.each(storeKinds)('media routes answer only callers who may read the clip or recording (%s)', (kind) => {
  let t: TestStore;
  let dataDir: string;
  let app: ReturnType<typeof createApp>;
  let demo: AppClient;
  let producer: AppClient;
  /** A clip with audio and a Finalized recording of World Tonight (hidden from the producer), and of Morning Briefing (its own). */
  const rows = { hidden: { clip: '', recording: seedId('recording:world:Finalized') }, own: { clip: '', recording: seedId('recording:morning:Finalized') } };
  const ENV = ['CASTAWAY_DATA_DIR', 'CASTAWAY_BLOB_DIR', 'CASTAWAY_UPLOAD_DIR'] as const;
  const saved = ENV.map((k) => [k, process.env[k]] as const);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'castaway-media-access-'));
    // The app's blob and upload folders (read when it is made) in a folder of the test's own.
    for (const k of ENV) delete process.env[k];
    process.env.CASTAWAY_DATA_DIR = dataDir;
    t = await openTestStore(kind);
    await seedWithMedia(t.store, { clips: 48, blobDir: join(dataDir, 'blobs') });
    app = createApp({ store: t.store, bus: createMemoryBus() });
    const clipWithAudio = async (program: string) => {
      const [row] = await t.store.query<{ id: string }>(
        `SELECT id FROM clips WHERE program_id = $1 AND NOT deleted AND data->'Urls'->>'AudioPrivateUrl' IS NOT NULL ORDER BY id LIMIT 1`,
        [seedId(`program:${program}`)],
      );
      return row!.id;
    };
    rows.hidden.clip = await clipWithAudio('world');
    rows.own.clip = await clipWithAudio('morning');
    demo = new AppClient(app);
    await demo.login('demo@example.com');
    producer = new AppClient(app);
    await producer.login('producer@example.com');
    demo.organizationId = producer.organizationId = ORG_DEMO;
    // Things there are to see on both: a saved cut and an ingest (made by someone who may).
    for (const r of [rows.hidden, rows.own]) {
      expect((await demo.send('PUT', `/api/internal/clips/${r.clip}/cut`, { json: CUT })).status).toBe(200);
      expect((await ingest(demo, r.recording)).status).toBe(202);
    }
    await app.jobs.drain();
  }, 180_000);

  afterAll(async () => {
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await t?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  const headers = (who: AppClient, more: Record<string, string> = {}) => ({ cookie: who.cookie, 'x-xsrf-token': who.xsrf, 'x-organization-id': ORG_DEMO, ...more });
  const request = async (who: AppClient, method: string, path: string, more: Record<string, string> = {}, body?: BodyInit) =>
    app.request(path, { method, headers: headers(who, more), ...(body === undefined ? {} : { body }) });
  function ingest(who: AppClient, recordingId: string) {
    const body = new Uint8Array(readFileSync(fixturePath('speech-12s.mp3')));
    return request(who, 'PUT', `/api/internal/recordings/${recordingId}/audio?fileName=agent.mp3`, { 'content-type': 'audio/mpeg' }, body);
  }

  /** Every media call on one clip and one recording, as `who` makes it: its status and body size. */
  async function everyCall(who: AppClient, r: { clip: string; recording: string }, copyFrom: string) {
    const json = { 'content-type': 'application/json' };
    const calls: Array<[string, () => Promise<Response>]> = [
      ['GET clip audio', () => request(who, 'GET', `/api/media/clips/${r.clip}/audio`)],
      ['GET clip audio, a range', () => request(who, 'GET', `/api/media/clips/${r.clip}/audio`, { range: 'bytes=0-99' })],
      ['HEAD clip audio', () => request(who, 'HEAD', `/api/media/clips/${r.clip}/audio`)],
      ...WAVEFORMS.map((f): [string, () => Promise<Response>] => [`GET clip ${f}`, () => request(who, 'GET', `/api/media/clips/${r.clip}/${f}`)]),
      ['GET cut', () => request(who, 'GET', `/api/internal/clips/${r.clip}/cut`)],
      ['PUT cut', () => request(who, 'PUT', `/api/internal/clips/${r.clip}/cut`, json, JSON.stringify(CUT))],
      ['POST cut preview', () => request(who, 'POST', `/api/internal/clips/${r.clip}/cut/audio-preview`, json, JSON.stringify(CUT))],
      ['PUT audio?audioUrl=', () => request(who, 'PUT', `/api/v1/clips/${r.clip}/audio?audioUrl=${encodeURIComponent(`/api/media/clips/${copyFrom}/audio`)}&fileName=copy.mp3`)],
      ['PUT audio, a file', () => request(who, 'PUT', `/api/v1/clips/${r.clip}/audio?fileName=new.mp3`, { 'content-type': 'audio/mpeg' }, new Uint8Array(readFileSync(fixturePath('speech-12s.mp3'))))],
      // No Content-Type at all (curl -T): a file all the same (application/octet-stream, RFC 9110 §8.3).
      ['PUT audio, an untyped file', () => request(who, 'PUT', `/api/v1/clips/${r.clip}/audio?fileName=new.mp3`, {}, new Uint8Array(readFileSync(fixturePath('speech-12s.mp3'))))],
      ['GET recording audio', () => request(who, 'GET', `/api/media/recordings/${r.recording}/audio`)],
      ['GET recording audio, a range', () => request(who, 'GET', `/api/media/recordings/${r.recording}/audio`, { range: 'bytes=0-99' })],
      ['HEAD recording audio', () => request(who, 'HEAD', `/api/media/recordings/${r.recording}/audio`)],
      ...WAVEFORMS.map((f): [string, () => Promise<Response>] => [`GET recording ${f}`, () => request(who, 'GET', `/api/media/recordings/${r.recording}/${f}`)]),
      ['GET ingest', () => request(who, 'GET', `/api/internal/recordings/${r.recording}/audio/ingest`)],
      ['PUT ingest', () => ingest(who, r.recording)],
      ['GET clips of the recording', () => request(who, 'GET', `/api/v1/recordings/${r.recording}/clips`)],
      ['POST an upload for the clip', () =>
        request(who, 'POST', UPLOADS_PATH, { 'tus-resumable': '1.0.0', 'upload-length': '10', 'upload-metadata': Metadata.stringify({ filename: 'a.mp3', clipId: r.clip }) })],
    ];
    const answers: Record<string, { status: number; bytes: number }> = {};
    for (const [name, call] of calls) {
      const res = await call();
      answers[name] = { status: res.status, bytes: (await res.arrayBuffer()).byteLength };
    }
    return answers;
  }

  it('the producer gets 404 with no body for every media route of a program it cannot see', async () => {
    const answers = await everyCall(producer, rows.hidden, rows.own.clip);
    for (const [name, answer] of Object.entries(answers)) expect(answer, name).toEqual({ status: 404, bytes: 0 });
    // Nothing was changed: the hidden clip keeps its cut, the recording its ingest.
    expect((await demo.get(`/api/internal/clips/${rows.hidden.clip}/cut`)).body).toEqual(CUT);
    expect((await demo.get(`/api/internal/recordings/${rows.hidden.recording}/audio/ingest`)).body).toMatchObject({ State: 'Finalized', UploadedAudioFileName: 'agent.mp3' });
  });

  it('nor can it copy audio it cannot see into its own clip: 400 naming audioUrl, as for audio that is not there', async () => {
    for (const source of [`/api/media/clips/${rows.hidden.clip}/audio`, `/api/media/recordings/${rows.hidden.recording}/audio`]) {
      const res = await request(producer, 'PUT', `/api/v1/clips/${rows.own.clip}/audio?audioUrl=${encodeURIComponent(source)}`);
      expect(res.status, source).toBe(400);
      expect(((await res.json()) as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['audioUrl']);
    }
  });

  it('its own program’s clip and recording answer every one of the same calls', async () => {
    const answers = await everyCall(producer, rows.own, rows.own.clip);
    const status = Object.fromEntries(Object.entries(answers).map(([name, a]) => [name, a.status]));
    expect(status).toEqual({
      'GET clip audio': 200,
      'GET clip audio, a range': 206,
      'HEAD clip audio': 200,
      ...Object.fromEntries(WAVEFORMS.map((f) => [`GET clip ${f}`, 200])),
      'GET cut': 200,
      'PUT cut': 200,
      'POST cut preview': 200,
      'PUT audio?audioUrl=': 202,
      'PUT audio, a file': 202,
      'PUT audio, an untyped file': 202,
      'GET recording audio': 200,
      'GET recording audio, a range': 206,
      'HEAD recording audio': 200,
      ...Object.fromEntries(WAVEFORMS.map((f) => [`GET recording ${f}`, 200])),
      'GET ingest': 200,
      'PUT ingest': 202,
      'GET clips of the recording': 200,
      'POST an upload for the clip': 201,
    });
    expect(answers['GET clip audio, a range']!.bytes).toBe(100);
    expect(answers['HEAD clip audio']!.bytes).toBe(0);
    await app.jobs.drain();
  });

  it('GET /api/openapi.json lists every media and upload route with who may call it', async () => {
    const doc = (await demo.get('/api/openapi.json')).body as { paths: Record<string, Record<string, { 'x-access'?: string }>> };
    const expected: Array<[string, string[]]> = [
      ['/api/v1/clips/{clipId}/audio', ['put']],
      ['/api/media/clips/{clipId}/audio', ['get', 'head']],
      ['/api/media/clips/{clipId}/{file}', ['get', 'head']],
      ['/api/internal/clips/{clipId}/cut', ['get', 'put']],
      ['/api/internal/clips/{clipId}/cut/audio-preview', ['post']],
      ['/api/internal/recordings/{recordingId}/audio', ['put']],
      ['/api/internal/recordings/{recordingId}/audio/ingest', ['get']],
      ['/api/media/recordings/{recordingId}/audio', ['get', 'head']],
      ['/api/media/recordings/{recordingId}/{file}', ['get', 'head']],
      ['/api/v1/recordings/{recordingId}/clips', ['get']],
      [UPLOADS_PATH, ['options', 'post']],
      [`${UPLOADS_PATH}/{id}`, ['delete', 'get', 'head', 'patch']],
    ];
    for (const [path, methods] of expected) {
      expect(Object.keys(doc.paths[path] ?? {}).sort(), path).toEqual(methods);
      for (const m of methods) expect(doc.paths[path]![m]!['x-access'], `${m} ${path}`).toMatch(/\S/);
    }
  });
});
