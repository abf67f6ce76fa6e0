// "Transcribe automatically" asked of a recording with no audio (issue 34 follow-up): the server
// refuses with 409 and a body naming recordingId and why, as src/domain/transcription.ts
// (recordingNoAudio) says: an agent's stream still live, audio being processed, a stream cut off
// with none of its audio kept, no audio link, 0 s. Nothing is queued (TranscriptStatus unchanged,
// no transcription to read). A recording with its audio link is not refused for this. PGlite and
// PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { liveAudioUrl } from '../../src/protocol/api/live-recordings.ts';
import type { Recording } from '../../src/protocol/entities.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { loadRow, updateRow, type WireRow } from '../../sync-server/rows.ts';
import { demoApp, type DemoApp } from './app-client.ts';
import { storeKinds } from './test-store.ts';

type ErrorBody = { Errors: Array<{ Field: string; Message: string }> };

describe.each(storeKinds)('transcribing a recording with no audio on %s', (kind) => {
  let demo: DemoApp;
  beforeAll(async () => {
    demo = await demoApp(kind, { clips: 2 });
  }, 120_000);
  afterAll(async () => {
    await demo?.test.drop();
  });

  /** The seeded recording `key` with `fields` written over it. */
  const recordingWith = async (key: string, fields: Partial<Recording>): Promise<string> => {
    const id = seedId(`recording:morning:${key}`);
    const row = (await loadRow(demo.test.store, 'recording', ORG_DEMO, id)) as WireRow;
    await updateRow(demo.test.store, 'recording', row, { organizationId: ORG_DEMO, userId: null, now: new Date() }, { ...row, ...fields });
    return id;
  };
  const ask = (id: string) => demo.api.send('POST', `/api/v1/recordings/${id}/transcript?language=en`);

  it('refuses each case with 409 naming recordingId and why, and queues nothing', async () => {
    const streamId = seedId('recording:morning:Live');
    const cases: Array<[string, string]> = [
      [await recordingWith('Live', { Urls: { AudioUrl: liveAudioUrl(streamId), WaveformHighResUrl: null, WaveformLowResUrl: null } }), 'This recording is still live: it can be transcribed once its stream has ended'],
      [seedId('recording:morning:Processing'), 'This recording’s audio is still being processed: it can be transcribed when it is ready'],
      [seedId('recording:morning:Zero'), 'This recording has no audio: there is nothing to transcribe'],
    ];
    for (const [id, message] of cases) {
      const reply = await ask(id);
      expect([reply.status, (reply.body as ErrorBody).Errors[0]], reply.text).toEqual([409, expect.objectContaining({ Field: 'recordingId', Message: message })]);
      expect(((await demo.api.get(`/api/v1/recordings/${id}`)).body as Recording).TranscriptStatus).toBeNull();
      expect((await demo.api.get(`/api/internal/recordings/${id}/transcript/transcription`)).status).toBe(404);
    }
    // Cut off with nothing kept (live-end.ts's zero-duration case): Finalized, 0 s, no audio, torn.
    const lost = await recordingWith('Zero', { HasTornAudio: true });
    expect(((await ask(lost)).body as ErrorBody).Errors[0]!.Message).toBe('This recording’s stream was cut off and none of its audio could be kept: there is nothing to transcribe');
    // An audio link to a file of 0 s.
    const empty = await recordingWith('Zero', { HasTornAudio: false, Urls: { AudioUrl: `/api/media/recordings/${seedId('recording:morning:Zero')}/audio`, WaveformHighResUrl: null, WaveformLowResUrl: null } });
    const reply = await ask(empty);
    expect([reply.status, (reply.body as ErrorBody).Errors[0]!.Message]).toEqual([409, 'This recording is 0 seconds long: there is nothing to transcribe']);
  });

  it('does not refuse a Finalized recording with its audio for this (the seed stores no file: the 400 of no stored audio)', async () => {
    const reply = await ask(seedId('recording:morning:Finalized'));
    expect([reply.status, (reply.body as ErrorBody).Errors[0]!.Field]).toEqual([400, 'body']);
  });
});
