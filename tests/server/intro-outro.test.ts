// A program's intro and outro (issue 33; section 7 PUT/DELETE /v1/programs/{programId}/settings/audio/{type},
// GET /v1/programs/settings/audio/{operationId}), on PGlite and on PostgreSQL with the whole app and
// its jobs and the shared fixtures: a stereo WAV as intro and a FLAC as outro are stored, decoded by
// their operations (Busy, then Success with their length) and shown on the program's row; a clip
// processed after them publishes intro + episode + outro, which system ffprobe measures, with its
// chapters later by the intro's length in the MP3's ID3 frames and in its public chapters JSON and
// transcript, while its original upload is kept.
// A clip processed before keeps its audio until "apply" is asked for; under a loudness preset the
// normalized version keeps them. Bad uploads: a wrong type, an
// empty body, a non-audio extension (400 at the field), a JSON body (415), bytes that are not audio
// (the operation Failed, NotAudio). Removing takes it off the row; the next processing drops it.
// A deleted program's intro and outro files are removed after the media grace period.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramAudioOperation } from '../../src/protocol/api/program-audio.ts';
import type { Program } from '../../src/protocol/entities.ts';
import { createApp } from '../../sync-server/app.ts';
import { fsBlobStore, type BlobStore } from '../../sync-server/audio/blob-store.ts';
import { INTRO_OUTRO_SWEEP_JOB } from '../../sync-server/audio/intro-outro.ts';
import { introOutroKeys } from '../../sync-server/audio/intro-outro-render.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../sync-server/seed.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { AppClient, fields } from './app-client.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const run = promisify(execFile);

describe.each(storeKinds)('program intro and outro on %s', (kind) => {
  let test: TestStore;
  let app: ReturnType<typeof createApp>;
  let api: AppClient;
  let dir = '';
  let programId = '';
  let blobs: BlobStore;

  beforeAll(async () => {
    test = await openTestStore(kind);
    await seed(test.store, { clips: 8 });
    dir = await mkdtemp(join(tmpdir(), 'castaway-intro-outro-'));
    blobs = fsBlobStore(join(dir, 'blobs'));
    app = createApp({ store: test.store, bus: createMemoryBus(), blobs });
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
    // Loudness normalization off: the lengths measured are the files' own.
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: null })).status).toBe(200);
    const made = await api.post('/api/v1/programs', { Name: `Bumpers ${randomUUID().slice(0, 8)}` });
    expect(made.status, made.text).toBeLessThan(300);
    programId = (made.body as { Id: string }).Id;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const headers = (type = 'application/octet-stream') => ({ cookie: api.cookie, 'x-xsrf-token': api.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': type });
  const putFile = async (path: string, body: Uint8Array | string, type?: string) => {
    const res = await app.request(path, { method: 'PUT', headers: headers(type), body: body as BodyInit });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const upload = async (type: string, fixture: string, program = programId) =>
    putFile(`/api/v1/programs/${program}/settings/audio/${type}?fileName=${fixture}`, new Uint8Array(await readFile(fixturePath(fixture))));
  const operation = async (id: string) => {
    const reply = await api.get(`/api/v1/programs/settings/audio/${id}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as ProgramAudioOperation;
  };
  const program = async () => (await api.get(`/api/v1/programs/${programId}`)).body as Program;
  const newClip = async (title: string) => {
    const made = await api.post(`/api/v1/programs/${programId}/clips`, { Title: title });
    expect(made.status, made.text).toBeLessThan(300);
    const clipId = (made.body as { Id: string }).Id;
    const put = await putFile(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, new Uint8Array(await readFile(fixturePath('speech-12s.mp3'))));
    expect(put.status, put.text).toBe(202);
    return clipId;
  };
  /** The clip's published file as a listener gets it, read by ffprobe: its length and chapters. */
  const published = async (clipId: string) => {
    const clip = (await api.get(`/api/v1/clips/${clipId}`)).body as { DurationSeconds: number; Urls: { AudioPrivateUrl: string } };
    const res = await app.request(clip.Urls.AudioPrivateUrl, { headers: headers() });
    expect(res.status).toBe(200);
    const file = join(dir, `${randomUUID()}.mp3`);
    await writeFile(file, new Uint8Array(await res.arrayBuffer()));
    const { stdout } = await run('ffprobe', ['-v', 'error', '-show_chapters', '-show_format', '-of', 'json', file]);
    const probed = JSON.parse(stdout) as { format: { duration: string }; chapters: Array<{ start_time: string; tags?: { title?: string } }> };
    return { clip, seconds: Number(probed.format.duration), chapters: probed.chapters.map((c) => [Number(c.start_time), c.tags?.title]) };
  };

  let before = '';
  let introSeconds = 0;
  let outroSeconds = 0;

  it('an intro and an outro are stored, decoded by their operations (Busy, then Success) and shown on the program', async () => {
    // An episode processed before the program has an intro: it keeps its audio until applied.
    before = await newClip('Before the intro');
    await app.jobs.drain();

    const intro = await upload('intro', 'speech-12s-stereo.wav');
    expect(intro.status, intro.text).toBe(202);
    const started = intro.body as ProgramAudioOperation;
    expect(started).toMatchObject({ Status: 'Busy', ProgramId: programId, Type: 'intro', FileName: 'speech-12s-stereo.wav', DurationSeconds: null, FailureReason: null });
    expect(await operation(started.Id)).toMatchObject({ Status: 'Busy' });
    const outro = await upload('outro', 'speech-12s.flac');
    expect(outro.status, outro.text).toBe(202);
    await app.jobs.drain();

    const introDone = await operation(started.Id);
    const outroDone = await operation((outro.body as ProgramAudioOperation).Id);
    expect(introDone).toMatchObject({ Status: 'Success', FailureReason: null });
    expect(outroDone).toMatchObject({ Status: 'Success', Type: 'outro' });
    introSeconds = introDone.DurationSeconds!;
    outroSeconds = outroDone.DurationSeconds!;
    expect(Math.abs(introSeconds - 12)).toBeLessThan(0.05);
    expect(Math.abs(outroSeconds - 12)).toBeLessThan(0.05);

    const row = await program();
    expect(row.IntroOutro?.Intro).toMatchObject({ FileName: 'speech-12s-stereo.wav', DurationSeconds: introSeconds });
    expect(row.IntroOutro?.Outro).toMatchObject({ FileName: 'speech-12s.flac', DurationSeconds: outroSeconds });
    // The intro plays from its URL, as stored.
    const file = await app.request(row.IntroOutro!.Intro!.AudioUrl, { headers: headers() });
    expect(file.status).toBe(200);
    expect(new Uint8Array(await file.arrayBuffer())).toEqual(new Uint8Array(await readFile(fixturePath('speech-12s-stereo.wav'))));
  }, 120_000);

  it('a clip processed now publishes intro + episode + outro (ffprobe), its chapters later by the intro, its upload kept', async () => {
    const clipId = await newClip('With bumpers');
    expect((await api.patch(`/api/v1/clips/${clipId}`, { Chapters: [{ StartSeconds: 0, Title: 'Cold open' }, { StartSeconds: 5, Title: 'Second' }] })).status).toBe(200);
    await app.jobs.drain();
    const episode = 12.042;
    const got = await published(clipId);
    // The MP3 encoder adds a frame or two of padding: within 0.2 s.
    expect(Math.abs(got.seconds - (introSeconds + episode + outroSeconds))).toBeLessThan(0.2);
    expect(Math.abs(got.clip.DurationSeconds - got.seconds)).toBeLessThan(0.2);
    expect(got.chapters.map(([start, title]) => [Math.round(Number(start) * 100) / 100, title])).toEqual([
      [Math.round(introSeconds * 100) / 100, 'Cold open'],
      [Math.round((introSeconds + 5) * 100) / 100, 'Second'],
    ]);
    const original = await app.request(`/api/internal/clips/${clipId}/original-audio`, { headers: headers() });
    expect(new Uint8Array(await original.arrayBuffer())).toEqual(new Uint8Array(await readFile(fixturePath('speech-12s.mp3'))));

    // Published, its chapters JSON and its transcript, which podcast apps play against this audio, are later by the intro too.
    const cues = [{ StartSeconds: 0.5, EndSeconds: 3, Text: 'Good morning.', Speaker: 'Ana' }];
    expect((await api.send('PUT', `/api/v1/clips/${clipId}/transcript`, { json: { Cues: cues, Published: true } })).status).toBe(200);
    await test.store.query(`UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Public', version = next_row_version() WHERE id = $1`, [clipId]);
    const json = (await (await app.request(`/feeds/chapters/${clipId}.json`)).json()) as { chapters: Array<{ startTime: number; title: string }> };
    expect(json.chapters.map((c) => [c.startTime, c.title])).toEqual([[introSeconds, 'Cold open'], [introSeconds + 5, 'Second']]);
    const transcript = (await (await app.request(`/feeds/transcripts/${clipId}.json`)).json()) as { segments: Array<{ startTime: number; endTime: number }> };
    expect(transcript.segments.map((c) => [c.startTime, c.endTime])).toEqual([[introSeconds + 0.5, introSeconds + 3]]);
  }, 120_000);

  it('an episode processed before keeps its audio until "apply to existing episodes"', async () => {
    expect(Math.abs((await published(before)).seconds - 12.04)).toBeLessThan(0.2);
    const applied = await api.post(`/api/internal/programs/${programId}/settings/audio/apply`, {});
    expect(applied.status, applied.text).toBe(202);
    expect(applied.body).toEqual({ Clips: 2 });
    await app.jobs.drain();
    expect(Math.abs((await published(before)).seconds - (introSeconds + 12.042 + outroSeconds))).toBeLessThan(0.2);
  }, 180_000);

  it('refuses a wrong type, an empty body and a non-audio name at the field (400), a JSON body (415); bytes that are not audio fail the operation', async () => {
    const wav = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
    const wrongType = await putFile(`/api/v1/programs/${programId}/settings/audio/middle?fileName=a.mp3`, wav);
    expect(wrongType.status).toBe(400);
    expect(fields({ ...wrongType, headers: new Headers() })).toEqual([['type', 'invalid']]);
    const empty = await putFile(`/api/v1/programs/${programId}/settings/audio/intro?fileName=empty.mp3`, new Uint8Array(0));
    expect(empty.status).toBe(400);
    expect(fields({ ...empty, headers: new Headers() })).toContainEqual(['file', 'emptyFile']);
    const text = await putFile(`/api/v1/programs/${programId}/settings/audio/intro?fileName=notes.txt`, 'hello');
    expect(text.status).toBe(400);
    expect(fields({ ...text, headers: new Headers() })).toEqual([['fileName', 'invalidFileExtension']]);
    const json = await putFile(`/api/v1/programs/${programId}/settings/audio/intro?fileName=a.mp3`, '{"a":1}', 'application/json');
    expect(json.status).toBe(415);
    expect(fields({ ...json, headers: new Headers() })).toEqual([['Content-Type', 'invalid']]);

    const bad = await upload('intro', 'not-audio.mp3');
    expect(bad.status, bad.text).toBe(202);
    await app.jobs.drain();
    const failed = await operation((bad.body as ProgramAudioOperation).Id);
    expect(failed.Status).toBe('Failed');
    expect(failed.FailureReason?.Code).toBe('NotAudio');
    expect(failed.FailureReason?.Message.length).toBeGreaterThan(0);
    // The intro in effect is still the good one.
    expect((await program()).IntroOutro?.Intro?.FileName).toBe('speech-12s-stereo.wav');
  }, 120_000);

  it('an operation of no program, or of another organization’s, is not found; without manage-settings access writing is refused', async () => {
    expect((await api.get(`/api/v1/programs/settings/audio/${randomUUID()}`)).status).toBe(404);
    const [other] = await test.store.query<{ id: string }>(`SELECT id FROM programs WHERE organization_id = $1 AND NOT deleted LIMIT 1`, [ORG_PODCASTS]);
    expect((await upload('intro', 'speech-12s.mp3', other!.id)).status).toBe(404);
    const [op] = await test.store.query<{ id: string }>(`SELECT id FROM program_audio_operations WHERE program_id = $1 LIMIT 1`, [programId]);
    const producer = new AppClient(app);
    await producer.login('producer@example.com');
    producer.organizationId = ORG_DEMO;
    // The producer does not see the new program at all.
    expect((await producer.get(`/api/v1/programs/settings/audio/${op!.id}`)).status).toBe(404);
    const morning = seedId('program:morning');
    const refused = await producer.send('DELETE', `/api/v1/programs/${morning}/settings/audio/intro`);
    expect(refused.status).toBe(403);
  });

  it('under a loudness preset the normalized version keeps the intro and outro: Done, and the published length is still intro + episode + outro', async () => {
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: 'podcast' })).status).toBe(200);
    try {
      const clipId = await newClip('Normalized with bumpers');
      await app.jobs.drain();
      const loudness = (await api.get(`/api/internal/clips/${clipId}/loudness`)).body as { State: string; After: { IntegratedLoudness: number } | null };
      expect(loudness.State).toBe('Done');
      expect(Math.abs(loudness.After!.IntegratedLoudness + 16)).toBeLessThanOrEqual(0.5);
      expect(Math.abs((await published(clipId)).seconds - (introSeconds + 12.042 + outroSeconds))).toBeLessThan(0.2);
    } finally {
      expect((await api.patch('/api/v1/settings/normalization', { PresetId: null })).status).toBe(200);
    }
  }, 180_000);

  it('removing the intro takes it off the program; the next processing publishes episode + outro', async () => {
    expect((await api.delete(`/api/v1/programs/${programId}/settings/audio/intro`)).status).toBe(204);
    const row = await program();
    expect(row.IntroOutro?.Intro ?? null).toBeNull();
    expect(row.IntroOutro?.Outro?.FileName).toBe('speech-12s.flac');
    expect((await api.get(`/api/media/programs/${programId}/audio/intro`)).status).toBe(404);
    const clipId = await newClip('Outro only');
    await app.jobs.drain();
    expect(Math.abs((await published(clipId)).seconds - (12.042 + outroSeconds))).toBeLessThan(0.2);
  }, 120_000);

  it('a deleted program’s intro and outro files are removed once the media grace period is over', async () => {
    const made = await api.post('/api/v1/programs', { Name: `Short-lived ${randomUUID().slice(0, 8)}` });
    expect(made.status, made.text).toBeLessThan(300);
    const doomed = (made.body as { Id: string }).Id;
    expect((await upload('intro', 'speech-12s-stereo.wav', doomed)).status).toBe(202);
    expect((await upload('outro', 'speech-12s.flac', doomed)).status).toBe(202);
    await app.jobs.drain();
    const stored = await test.store.query<{ type: string; upload_id: string }>(`SELECT type, upload_id FROM program_intro_outro WHERE program_id = $1 ORDER BY type`, [doomed]);
    expect(stored.map((r) => r.type)).toEqual(['intro', 'outro']);
    const files = stored.map((r) => introOutroKeys.audio(doomed, r.upload_id));
    const sizes = () => Promise.all(files.map((key) => blobs.size(key)));
    expect((await sizes()).every((n) => n !== null && n > 0)).toBe(true);

    expect((await api.delete(`/api/v1/programs/${doomed}`)).status).toBe(204);
    // Within the grace period they stay (a render under way finishes with them).
    await app.jobs.drain();
    expect((await sizes()).every((n) => n !== null)).toBe(true);
    // The grace period over: the rows that named them, then the files, are gone.
    await test.store.query(`UPDATE jobs SET run_at = now() WHERE kind = $1 AND state = 'queued'`, [INTRO_OUTRO_SWEEP_JOB]);
    await app.jobs.drain();
    expect(await sizes()).toEqual([null, null]);
    expect(await test.store.query(`SELECT 1 FROM program_intro_outro WHERE program_id = $1`, [doomed])).toEqual([]);
    // This program's own intro and outro were not touched.
    expect((await program()).IntroOutro?.Outro?.FileName).toBe('speech-12s.flac');
    expect((await api.get(`/api/media/programs/${programId}/audio/outro`)).status).toBe(200);
  }, 120_000);
});
