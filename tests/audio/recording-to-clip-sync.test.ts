// "Keep regions (a recording turned into a clip)" as a device does it: offline, the recording
// screen's action queues the new clip, the recording's audio and the kept regions in one local
// transaction, and the clip shows at once under the recording as waiting to sync; back online, one
// flush of the real sync engine sends them to the real server, which copies and processes the
// audio: the clip is Ready with the recording in its RecordingMetadata and the regions as its cut.
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClipFromRecording } from '../../src/db/writes.ts';
import { getClientId } from '../../src/db/sync-store.ts';
import { asRecording } from '../../src/lib/rows.ts';
import { clipsFromRecording } from '../../src/features/recordings/clips-from-recording.ts';
import { insertRow } from '../../sync-server/rows.ts';
import { addUser, api, login, makeClient, startServer, type Client, type Server } from '../sync/harness.ts';
import { fixturePath } from './fixtures.ts';

let server: Server;
let blobDir: string;
let cookie: string;
let programId: string;
let recordingId: string;
const previous = process.env.CASTAWAY_BLOB_DIR;

/** Runs the server's jobs (audio processing) and reads, until ok. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  await server.app.jobs.drain();
  let v = await read();
  for (let i = 0; i < 200 && !ok(v); i++) {
    await new Promise((r) => setTimeout(r, 25));
    await server.app.jobs.drain();
    v = await read();
  }
  return v;
}

beforeAll(async () => {
  blobDir = await mkdtemp(join(tmpdir(), 'castaway-rec-clip-'));
  process.env.CASTAWAY_BLOB_DIR = blobDir;
  server = await startServer();
  await addUser(server, 'pat@example.com');
  cookie = await login(server, 'pat@example.com');
  programId = String((await api(server, cookie, 'POST', '/v1/programs', { Name: 'Morning Show' })).json!['Id']);
  recordingId = crypto.randomUUID();
  await server.store.tx((q) => insertRow(q, 'recording', recordingId, { organizationId: server.organizationId, userId: null, now: new Date() }, {
    ProgramId: programId, Title: 'Monday capture', State: 'Processing', DurationSeconds: null, HasTornAudio: false, Reviewed: false,
    Urls: { AudioUrl: null, WaveformHighResUrl: null, WaveformLowResUrl: null },
  }));
  // A recording agent delivers the audio: the recording becomes Finalized.
  const xsrf = (await (await server.app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string };
  const put = await server.app.request(`/api/internal/recordings/${recordingId}/audio?fileName=monday.mp3`, {
    method: 'PUT',
    headers: { cookie, 'x-organization-id': server.organizationId, 'x-xsrf-token': xsrf.XsrfToken, 'content-type': 'audio/mpeg' },
    body: new Uint8Array(readFileSync(fixturePath('speech-12s.mp3'))),
  });
  expect(put.status).toBe(202);
  const rec = await until(() => api(server, cookie, 'GET', `/v1/recordings/${recordingId}`), (r) => r.json?.['State'] === 'Finalized');
  expect(rec.json?.['DurationSeconds']).toBe(12);
}, 60_000);

afterAll(async () => {
  if (previous === undefined) delete process.env.CASTAWAY_BLOB_DIR;
  else process.env.CASTAWAY_BLOB_DIR = previous;
  await server?.close();
  await rm(blobDir, { recursive: true, force: true });
});

describe('a clip made on a device from a recording\'s kept regions', () => {
  let device: Client;
  const edit = { KeptRegions: [{ StartSeconds: 1.5, EndSeconds: 4 }, { StartSeconds: 7, EndSeconds: 10.25 }], CrossfadeMs: 15 };

  it('offline: the clip, the audio from the recording and the cut are queued together, and the clip is listed under the recording at once', async () => {
    device = makeClient(server, 'phone', cookie);
    await device.engine.flush();
    const recording = asRecording((await device.db.recordings.get(recordingId))!);
    expect(recording.Urls.AudioUrl).toBe(`/api/media/recordings/${recordingId}/audio`);

    const clipId = await createClipFromRecording(recordingId, { Title: 'Monday highlights' }, edit, device.db, device.writes);
    const outbox = await device.db.outbox.orderBy('seq').toArray();
    expect(outbox.map((e) => [e.name, e.args])).toEqual([
      ['clip.create', { programId, clipId, fields: { Title: 'Monday highlights' } }],
      ['clip.setAudioFromUrl', { clipId, audioUrl: recording.Urls.AudioUrl }],
      ['clip.saveCut', { clipId, cut: edit }],
    ]);
    expect(await device.db.clips.get(clipId)).toMatchObject({ Title: 'Monday highlights', ProgramId: programId, State: 'Draft', PendingCut: edit });
    const listed = await clipsFromRecording(device.db, recording);
    expect(listed.map((c) => [c.clip.Title, c.waitingToSync])).toEqual([['Monday highlights', true]]);
  });

  it('nothing is queued for a recording the device does not have', async () => {
    const before = await device.db.outbox.count();
    await expect(createClipFromRecording(crypto.randomUUID(), { Title: 'x' }, edit, device.db, device.writes)).rejects.toThrow(/not in the local store/);
    expect(await device.db.outbox.count()).toBe(before);
  });

  it('online: one flush sends them; the server makes the clip Ready with the recording audio, and the device shows it as the server has it', async () => {
    await device.engine.flush();
    expect(await device.db.outbox.count()).toBe(0);
    expect(await device.db.needsAttention.toArray()).toEqual([]);
    const [made] = await clipsFromRecording(device.db, asRecording((await device.db.recordings.get(recordingId))!));
    const clipId = made!.clip.Id;
    const ready = await until(() => api(server, cookie, 'GET', `/v1/clips/${clipId}`), (r) => r.json?.['State'] === 'Ready');
    expect(ready.json).toMatchObject({ State: 'Ready', Title: 'Monday highlights', RecordingMetadata: { RecordingId: recordingId }, UploadedAudioFileName: 'monday.mp3' });
    // The clip's duration is its published version's: the kept regions, 2.5 s + 3.25 s.
    expect(ready.json?.['DurationSeconds']).toBeCloseTo(5.75, 0);
    expect((await api(server, cookie, 'GET', `/internal/clips/${clipId}/cut`)).json).toEqual(edit);

    await device.engine.flush();
    const local = (await device.db.clips.get(clipId))!;
    expect(local).toMatchObject({ State: 'Ready', RecordingMetadata: { RecordingId: recordingId }, Urls: { AudioPrivateUrl: expect.stringMatching(new RegExp(`^/api/media/clips/${clipId}/audio\\?v=`)) } });
    expect(local['PendingCut']).toBeUndefined();
    expect(local['audioUrl']).toBeUndefined();
    const listed = await clipsFromRecording(device.db, asRecording((await device.db.recordings.get(recordingId))!));
    expect(listed.map((c) => [c.clip.Id, c.waitingToSync])).toEqual([[clipId, false]]);

    // The audio attach (a mutation the API's router serves: State Draft → AudioUploaded) is this
    // device's own write to the three-way merge, as its create is: its later edits on a base from
    // before them are not conflicts with them. The processing that follows is nobody's.
    const own = await server.store.query<{ state: string | null }>(
      `SELECT undo->>'State' AS state FROM row_revisions WHERE entity = 'clip' AND id = $1 AND client_id = $2 ORDER BY version`,
      [clipId, await getClientId(device.db)],
    );
    expect(own.map((r) => r.state)).toEqual([null, 'Draft']);
  });
});
