// Automatic transcription through the app (issue 34), on PGlite and on PostgreSQL: espeak-ng's
// 60-second reading of a known text (reading.ts) uploaded to a clip, POST …/transcript, the job
// run by the app's own job runner with the real engine (Debian's pocketsphinx, installed by
// .ci/run); TranscriptStatus Queued, then Completed; the transcript's words held against the text
// read by word error rate. Also: a recording's ingested audio transcribed; a language the engine
// has no model for a 400 at language; no audio, or a transcription already under way, a 400 at
// body; a transcript imported while the job waits kept; and an engine that cannot run: tried per
// the job's attempts, then Failed with why.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wordErrorRate } from '../../src/domain/word-error-rate.ts';
import { ClipSchema, RecordingSchema } from '../../src/protocol/entities.ts';
import type { Transcription } from '../../src/protocol/api/transcription.ts';
import type { Transcript } from '../../src/protocol/api/transcripts.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { TRANSCRIPTION_ATTEMPTS, TRANSCRIPTION_JOB, TRANSCRIPTION_SERVER_PROBLEM, transcriptionJobs } from '../../sync-server/transcription/job.ts';
import { configuredEngine } from '../../sync-server/transcription/engine.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { jobContext } from '../../sync-server/jobs/runner.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { AppClient } from '../server/app-client.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';
import { READING_TEXT, writeReading } from './reading.ts';

/**
 * Highest word error rate accepted for the reading. Measured with this engine (pocketsphinx
 * 0.8+5prealpha, Debian's en-us model, -remove_noise no) on this reading: 0.70 through this route
 * (the clip's published version of the upload), 0.68 on the upload decoded and resampled by the
 * server (bench/audio.bench.ts), 0.76 resampled by ffmpeg, and 0.76–0.87 across espeak-ng's en-us,
 * en and en-us+m3 voices at 130–150 words a minute: espeak-ng's robotic voice is far from the read
 * speech the model was trained on. What the test must catch scores worse: audio at the wrong
 * rate (the 22.05 kHz reading given as 16 kHz) 1.00, another text read instead 0.98, nothing heard
 * 1.00. 0.85 passes the engine as measured, with room for another machine's rounding, and fails
 * all of those.
 */
const MAX_WORD_ERROR_RATE = 0.85;

type ErrorBody = { Errors: Array<{ Field: string; Message: string }> };

describe.each(storeKinds)('automatic transcription on %s', (kind) => {
  let t: TestStore;
  let app: ReturnType<typeof createApp>;
  let demo: AppClient;
  let dir: string;
  const previousBlobDir = process.env.CASTAWAY_BLOB_DIR;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'castaway-transcription-'));
    process.env.CASTAWAY_BLOB_DIR = join(dir, 'blobs');
    await writeReading(join(dir, 'reading.wav'));
    t = await openTestStore(kind);
    await seed(t.store, { clips: 6 });
    // Attempts follow each other at once, so a failing engine's three run within the test.
    app = createApp({ store: t.store, bus: createMemoryBus(), jobs: { backoffMs: () => 0 } });
    demo = new AppClient(app);
    await demo.login('demo@example.com');
  }, 120_000);
  afterAll(async () => {
    if (previousBlobDir === undefined) delete process.env.CASTAWAY_BLOB_DIR;
    else process.env.CASTAWAY_BLOB_DIR = previousBlobDir;
    await t?.drop();
    await rm(dir, { recursive: true, force: true });
  });

  const headers = (type: string) => ({ cookie: demo.cookie, 'x-xsrf-token': demo.xsrf, 'content-type': type });
  const clipOf = async (id: string) => ClipSchema.parse((await demo.get(`/api/v1/clips/${id}`)).body);

  /** The demo organization's clips, one each test. */
  const demoClip = async (index: number) =>
    (await t.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1 OFFSET $2`, [ORG_DEMO, index]))[0]!.id;

  /** A clip of the demo seed with `file` as its audio, processed (Ready). */
  async function clipWithAudio(index: number, file: string, name: string, type: string) {
    const clip = { Id: await demoClip(index) };
    const put = await app.request(`/api/v1/clips/${clip.Id}/audio?fileName=${name}`, { method: 'PUT', headers: headers(type), body: new Uint8Array(await readFile(file)) });
    expect(put.status, await put.clone().text()).toBe(202);
    await app.jobs.drain();
    expect((await clipOf(clip.Id)).State).toBe('Ready');
    return clip.Id;
  }

  it('transcribes the 60-second reading of a clip: Queued, then Completed, the words near the text', async () => {
    const clipId = await clipWithAudio(0, join(dir, 'reading.wav'), 'reading.wav', 'audio/wav');
    const start = await demo.send('POST', `/api/v1/clips/${clipId}/transcript?language=en-US&publish=true`);
    expect(start.status, start.text).toBe(204);
    expect((await clipOf(clipId)).TranscriptStatus).toBe('Queued');
    const queued = (await demo.get(`/api/internal/clips/${clipId}/transcript/transcription`)).body as Transcription;
    expect(queued).toMatchObject({ ClipId: clipId, Status: 'Queued', Language: 'en', Publish: true, Engine: 'pocketsphinx', Problem: null });
    // A second request while the first is under way is refused, not run twice.
    const again = await demo.send('POST', `/api/v1/clips/${clipId}/transcript?language=en`);
    expect(again.status).toBe(400);
    expect((again.body as ErrorBody).Errors[0]).toMatchObject({ Field: 'body', Message: 'A transcript is already being made: wait until it is done or has failed' });

    await app.jobs.drain();
    const clip = await clipOf(clipId);
    expect(clip.TranscriptStatus).toBe('Completed');
    const done = (await demo.get(`/api/internal/clips/${clipId}/transcript/transcription`)).body as Transcription;
    expect(done).toMatchObject({ Status: 'Completed', Problem: null, Attempts: 1 });
    expect(done.AudioSeconds).toBeCloseTo(60.6, 0);

    const transcript = (await demo.get(`/api/internal/clips/${clipId}/transcript`)).body as Transcript;
    expect(transcript).toMatchObject({ Language: 'en', Published: true, Edited: false });
    expect(clip.Urls?.TranscriptPublicUrl).toBe(transcript.PublicUrl);
    // Cues in time order within the audio, each a caption's length.
    let previousEnd = 0;
    for (const cue of transcript.Cues) {
      expect(cue.StartSeconds).toBeGreaterThanOrEqual(previousEnd);
      expect(cue.EndSeconds).toBeGreaterThanOrEqual(cue.StartSeconds);
      expect(cue.EndSeconds - cue.StartSeconds).toBeLessThanOrEqual(8);
      previousEnd = cue.EndSeconds;
    }
    expect(previousEnd).toBeLessThanOrEqual(61);
    const text = (await demo.get(`/api/v1/clips/${clipId}/transcript?format=text`)).text;
    const wer = wordErrorRate(READING_TEXT, text);
    console.log(`transcription (${kind}): word error rate ${wer.toFixed(3)} on ${done.AudioSeconds} s of espeak-ng speech, ${done.EngineSeconds?.toFixed(1)} s of engine time`);
    expect(wer).toBeLessThan(MAX_WORD_ERROR_RATE);
  }, 180_000);

  it('transcribes a recording’s ingested audio', async () => {
    const id = seedId('recording:morning:Live');
    const put = await app.request(`/api/internal/recordings/${id}/audio?fileName=capture.flac`, { method: 'PUT', headers: headers('audio/flac'), body: new Uint8Array(await readFile(fixturePath('speech-12s.flac'))) });
    expect(put.status).toBe(202);
    await app.jobs.drain();
    expect(RecordingSchema.parse((await demo.get(`/api/v1/recordings/${id}`)).body).State).toBe('Finalized');
    expect((await demo.send('POST', `/api/v1/recordings/${id}/transcript?language=en`)).status).toBe(204);
    expect(RecordingSchema.parse((await demo.get(`/api/v1/recordings/${id}`)).body).TranscriptStatus).toBe('Queued');
    await app.jobs.drain();
    expect(RecordingSchema.parse((await demo.get(`/api/v1/recordings/${id}`)).body).TranscriptStatus).toBe('Completed');
    const transcript = (await demo.get(`/api/internal/recordings/${id}/transcript`)).body as Transcript;
    expect(transcript.Cues.length).toBeGreaterThan(0);
    expect(transcript.Published).toBe(false);
  }, 120_000);

  it('a transcript imported while the job waits is kept: the job ends Failed saying so, the row Completed', async () => {
    const clipId = await clipWithAudio(3, fixturePath('speech-12s.flac'), 'speech.flac', 'audio/flac');
    expect((await demo.send('POST', `/api/v1/clips/${clipId}/transcript?language=en`)).status).toBe(204);
    const vtt = 'WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nTyped by hand.\n';
    const imported = await demo.send('PUT', `/api/internal/clips/${clipId}/transcript/import`, { raw: vtt, headers: { 'content-type': 'text/vtt' } });
    expect(imported.status, imported.text).toBe(200);
    await app.jobs.drain();
    expect((await clipOf(clipId)).TranscriptStatus).toBe('Completed');
    expect((await demo.get(`/api/v1/clips/${clipId}/transcript?format=text`)).text.trim()).toBe('Typed by hand.');
    const dropped = (await demo.get(`/api/internal/clips/${clipId}/transcript/transcription`)).body as Transcription;
    expect(dropped).toMatchObject({ Status: 'Failed', Problem: 'A transcript was saved while this one was being made: it was kept, and this one dropped' });
  }, 120_000);

  it('refuses a language the engine has no model for (at language), and audio there is not (at body)', async () => {
    const created = await demo.post(`/api/v1/programs/${seedId('program:morning')}/clips`, { Title: 'Not recorded yet' });
    expect(created.status, created.text).toBe(201);
    const silent = ClipSchema.parse(created.body);
    const german = await demo.send('POST', `/api/v1/clips/${silent.Id}/transcript?language=de`);
    expect(german.status).toBe(400);
    expect((german.body as ErrorBody).Errors[0]).toMatchObject({ Field: 'language', Message: 'The transcription engine has no model for “de”: it transcribes en' });
    const missing = await demo.send('POST', `/api/v1/clips/${silent.Id}/transcript`);
    expect(missing.status).toBe(400);
    expect((missing.body as ErrorBody).Errors[0]?.Field).toBe('language');
    const none = await demo.send('POST', `/api/v1/clips/${silent.Id}/transcript?language=en`);
    expect(none.status).toBe(400);
    expect((none.body as ErrorBody).Errors[0]).toMatchObject({ Field: 'body', Message: 'There is no audio to transcribe yet: upload the audio first' });
    expect((await demo.get(`/api/internal/clips/${silent.Id}/transcript/transcription`)).status).toBe(404);
  });

  it('an engine that cannot run: tried per the job’s attempts, then Failed with why', async () => {
    const previous = process.env.CASTAWAY_POCKETSPHINX;
    process.env.CASTAWAY_POCKETSPHINX = join(dir, 'no-such-pocketsphinx');
    const broken = createApp({ store: t.store, bus: createMemoryBus(), jobs: { backoffMs: () => 0 } });
    if (previous === undefined) delete process.env.CASTAWAY_POCKETSPHINX;
    else process.env.CASTAWAY_POCKETSPHINX = previous;
    const client = new AppClient(broken);
    await client.login('demo@example.com');
    const clipId = await clipWithAudio(1, fixturePath('speech-12s.flac'), 'speech.flac', 'audio/flac');
    const before = (await demo.get(`/api/internal/clips/${clipId}/transcript`)).text;
    expect((await client.send('POST', `/api/v1/clips/${clipId}/transcript?language=en`)).status).toBe(204);
    await broken.jobs.drain();
    expect((await clipOf(clipId)).TranscriptStatus).toBe('Failed');
    const failed = (await client.get(`/api/internal/clips/${clipId}/transcript/transcription`)).body as Transcription;
    expect(failed).toMatchObject({ Status: 'Failed', Attempts: TRANSCRIPTION_ATTEMPTS });
    expect(failed.Problem).toContain('no-such-pocketsphinx is not installed on the server');
    // A failure the engine does not describe (the database's, a bug) says the server could not
    // make the transcript, not the error's text: that is the server's (its log, the failed job).
    const [job] = await t.store.query<{ payload: unknown }>(`SELECT payload FROM jobs WHERE kind = $1 AND state = 'failed' AND payload->>'id' = $2`, [TRANSCRIPTION_JOB, clipId]);
    const handler = transcriptionJobs({ store: t.store, bus: createMemoryBus() }, fsBlobStore(dir), configuredEngine)[TRANSCRIPTION_JOB]!;
    const ctx = jobContext(t.store, { id: 0, kind: TRANSCRIPTION_JOB, attempt: TRANSCRIPTION_ATTEMPTS, maxAttempts: TRANSCRIPTION_ATTEMPTS });
    await handler.giveUp!(handler.payload.parse(job!.payload), new Error('connect ECONNREFUSED 10.0.0.7:5432'), ctx);
    const unexplained = (await client.get(`/api/internal/clips/${clipId}/transcript/transcription`)).body as Transcription;
    expect([unexplained.Status, unexplained.Problem]).toEqual(['Failed', 'The server could not make the transcript: support can see why']);
    expect(TRANSCRIPTION_SERVER_PROBLEM).toBe(unexplained.Problem);
    // Whatever transcript the clip had is left as it was.
    expect((await demo.get(`/api/internal/clips/${clipId}/transcript`)).text).toBe(before);
    // Failed is not under way: it may be asked again (here the working engine makes it).
    expect((await demo.send('POST', `/api/v1/clips/${clipId}/transcript?language=en`)).status).toBe(204);
    await app.jobs.drain();
    expect((await clipOf(clipId)).TranscriptStatus).toBe('Completed');
  }, 120_000);
});
