// recording.setTranscript, as a device sends an edit made offline and as the REST PUT sends one (the
// same run, sync-server/mutations/transcripts.ts): an edit made on the transcript as it is written
// and the recording kept in step; one made on an earlier transcript refused at Cues (409, nothing
// written); a bad cue refused at its cue by push and by PUT alike; the PUT names no base and writes
// over the transcript as it is; a recording of a program without content access, or of another
// organization, is not found. On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Transcript } from '../../src/protocol/api/transcripts.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { AppClient, demoApp, type DemoApp, type PushOutcome } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';
import { CHANGED_ELSEWHERE, cue } from './transcript-edits.ts';

describe.each(storeKinds)('recording.setTranscript on %s', (kind) => {
  let test: TestStore;
  let app: DemoApp['app'];
  let api: AppClient;
  let recordingId = '';
  let worldRecording = '';
  let otherOrganization = '';

  beforeAll(async () => {
    ({ test, app, api } = await demoApp(kind, { clips: 6 }));
    const first = async (where: string, value: string) => (await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE ${where} = $1 AND NOT deleted ORDER BY id LIMIT 1`, [value]))[0]!.id;
    recordingId = await first('program_id', seedId('program:morning'));
    worldRecording = await first('program_id', seedId('program:world'));
    otherOrganization = (await test.store.query<{ id: string }>(`SELECT id FROM recordings WHERE organization_id <> $1 AND NOT deleted ORDER BY id LIMIT 1`, [ORG_DEMO]))[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const push = (client: AppClient, args: unknown): Promise<PushOutcome> => client.pushOne('recording.setTranscript', args);
  const path = (id = recordingId) => `/api/internal/recordings/${id}/transcript`;
  const held = async () => {
    const reply = await api.get(path());
    return reply.status === 200 ? (reply.body as Transcript) : null;
  };
  const status = async () => ((await api.get(`/api/v1/recordings/${recordingId}`)).body as { TranscriptStatus: string | null }).TranscriptStatus;

  it('writes a first transcript edited from none, and keeps the recording in step', async () => {
    expect(await push(api, { recordingId, Cues: [cue('Good morning.', 0, 'Ana')], BaseModifiedAtUtc: null })).toMatchObject({ status: 'applied' });
    expect(await held()).toMatchObject({ RecordingId: recordingId, Cues: [cue('Good morning.', 0, 'Ana')], PublicUrl: null, Published: false });
    expect(await status()).toBe('Completed');
  });

  it('writes an edit made on the transcript as it is; refuses one made on an earlier one at Cues, writing nothing', async () => {
    const base = (await held())!.ModifiedAtUtc;
    expect(await push(api, { recordingId, Cues: [cue('Good morning, harbour.', 0, 'Ana')], BaseModifiedAtUtc: base })).toMatchObject({ status: 'applied' });
    const stale = await push(api, { recordingId, Cues: [cue('Hello.', 0, 'Ana')], BaseModifiedAtUtc: base });
    expect(stale).toMatchObject({ status: 'rejected', httpStatus: 409 });
    expect(stale.errors!.map((e) => [e.Field, e.Message])).toEqual([['Cues', CHANGED_ELSEWHERE]]);
    expect((await held())?.Cues[0]!.Text).toBe('Good morning, harbour.');
    // Edited from none while one exists: the same refusal.
    expect(await push(api, { recordingId, Cues: [cue('Hello.')], BaseModifiedAtUtc: null })).toMatchObject({ status: 'rejected', httpStatus: 409 });
  });

  it('refuses a bad cue at that cue by push and by PUT alike, writing nothing', async () => {
    const before = (await held())!;
    const reversed = [cue('One.'), { StartSeconds: 9, EndSeconds: 3, Text: 'Two.', Speaker: null }];
    const pushed = await push(api, { recordingId, Cues: reversed, BaseModifiedAtUtc: before.ModifiedAtUtc });
    expect(pushed).toMatchObject({ status: 'rejected', httpStatus: 400 });
    const put = await api.send('PUT', path(), { json: { Cues: reversed } });
    expect(put.status).toBe(400);
    const fieldsOf = (errors: Array<{ Field: string; Message?: string }>) => errors.map((e) => [e.Field, e.Message]);
    expect(fieldsOf((put.body as { Errors: Array<{ Field: string; Message: string }> }).Errors)).toEqual(fieldsOf(pushed.errors!));
    expect(fieldsOf(pushed.errors!).map(([f]) => f)).toEqual(['Cues.1']);
    // An empty list: at Cues, both ways.
    expect((await push(api, { recordingId, Cues: [], BaseModifiedAtUtc: before.ModifiedAtUtc })).errors!.map((e) => e.Field)).toEqual(['Cues']);
    expect(((await api.send('PUT', path(), { json: { Cues: [] } })).body as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['Cues']);
    expect((await held())!.ModifiedAtUtc).toBe(before.ModifiedAtUtc);
  });

  it('the PUT writes over the transcript as it is, with its language; a recording’s is never published', async () => {
    const put = await api.send('PUT', path(), { json: { Cues: [cue('Put by a script.')], Language: 'en' } });
    expect(put.status, put.text).toBe(200);
    expect(put.body).toMatchObject({ RecordingId: recordingId, Language: 'en', Cues: [cue('Put by a script.')], Published: false, PublicUrl: null });
    // A device's edit made on the transcript before the PUT is now stale.
    const stale = await push(api, { recordingId, Cues: [cue('From the device.')], BaseModifiedAtUtc: null });
    expect(stale).toMatchObject({ status: 'rejected', httpStatus: 409 });
    const published = await api.send('PUT', path(), { json: { Cues: [cue('Public?')], Published: true } });
    expect(published.status).toBe(400);
    expect((published.body as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field)).toEqual(['Published']);
    expect((await held())!.Cues).toEqual([cue('Put by a script.')]);
  });

  it('a recording of a program the caller has no content access to is not found; one of another organization too', async () => {
    const producer = await AppClient.signedIn(app, 'producer@example.com');
    expect(await push(producer, { recordingId: worldRecording, Cues: [cue('Mine.')], BaseModifiedAtUtc: null })).toMatchObject({ status: 'rejected', httpStatus: 404 });
    expect((await producer.send('PUT', path(worldRecording), { json: { Cues: [cue('Mine.')] } })).status).toBe(404);
    expect(await push(api, { recordingId: otherOrganization, Cues: [cue('Mine.')], BaseModifiedAtUtc: null })).toMatchObject({ status: 'rejected', httpStatus: 404 });
    expect((await api.send('PUT', path(otherOrganization), { json: { Cues: [cue('Mine.')] } })).status).toBe(404);
    expect((await api.get(path(worldRecording))).status).toBe(404);
    expect((await test.store.query(`SELECT 1 FROM recording_transcripts WHERE recording_id = ANY($1::uuid[])`, [[worldRecording, otherOrganization]])).length).toBe(0);
  });
});
