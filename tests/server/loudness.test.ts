// Loudness normalization (issue 34), on PGlite and on PostgreSQL, with the whole app and its jobs:
// a clip uploaded while the organization's preset is Podcast (−16 LUFS, −1 dBTP) is measured,
// normalized into its published version (the original upload kept byte for byte), and that file
// measures −16 ± 0.5 LUFS integrated and at most −1 dBTP with system ffmpeg's ebur128 filter. A
// preset changed later leaves the clip as it is (a new cut of the same upload keeps the clip's
// preset) until "normalize again" (the named mutation
// clip.normalizeLoudness, as the outbox sends it) is pushed; without a preset it is refused at
// clipId; another organization's clip is a 404. A normalization that switches the published
// version while the processing makes the clip's audio again leaves its folder in a media sweep.
import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClipLoudness } from '../../src/protocol/api/loudness.ts';
import type { createApp } from '../../sync-server/app.ts';
import { fsBlobStore, type BlobStore } from '../../sync-server/audio/blob-store.ts';
import { clipKeys } from '../../sync-server/audio/media-paths.ts';
import { clipLoudnessJobs } from '../../sync-server/audio/loudness-job.ts';
import { CLIP_NORMALIZE_JOB, noteVersionLoudness } from '../../sync-server/audio/loudness-record.ts';
import { readPublishedVersion } from '../../sync-server/audio/published-media.ts';
import { DEFAULT_MEDIA_GRACE_MS, MEDIA_SWEEP_JOB, processClipAudio } from '../../sync-server/audio/versions.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { enqueueJob } from '../../sync-server/jobs/queue.ts';
import { jobContext } from '../../sync-server/jobs/runner.ts';
import { jobOnLastAttempt } from '../helpers/last-attempt.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { ffmpegEbur128 } from '../audio/ebur128.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { demoApp, withAnotherApp, type AppClient } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');

describe.each(storeKinds)('loudness normalization on %s', (kind) => {
  let test: TestStore;
  let app: ReturnType<typeof createApp>;
  let api: AppClient;
  let dir = '';
  let clipId = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'castaway-loudness-'));
    ({ test, app, api } = await demoApp(kind, { clips: 24, blobDir: join(dir, 'blobs') }));
    clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const headers = () => ({ cookie: api.cookie, 'x-xsrf-token': api.xsrf, 'x-organization-id': ORG_DEMO });
  const loudness = async (id = clipId) => {
    const reply = await api.get(`/api/internal/clips/${id}/loudness`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as ClipLoudness;
  };
  /** The published file as a listener downloads it, measured by ffmpeg. */
  const publishedByFfmpeg = async () => {
    const res = await app.request(`/api/media/clips/${clipId}/audio`, { headers: headers() });
    expect(res.status).toBe(200);
    const file = join(dir, `${randomUUID()}.mp3`);
    await writeFile(file, new Uint8Array(await res.arrayBuffer()));
    return ffmpegEbur128(file);
  };


  it('a clip processed under the Podcast preset is measured, then normalized into its published version: ffmpeg reads −16 ± 0.5 LUFS and at most −1 dBTP', async () => {
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: 'podcast' })).status).toBe(200);
    expect((await api.delete(`/api/v1/programs/${MORNING}/settings/normalization`)).status).toBeLessThan(300);
    const original = new Uint8Array(await readFile(fixturePath('speech-12s.mp3')));
    const put = await app.request(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, { method: 'PUT', headers: { ...headers(), 'content-type': 'application/octet-stream' }, body: original });
    expect(put.status).toBe(202);
    await app.jobs.drain();

    const l = await loudness();
    expect(l).toMatchObject({ ClipId: clipId, State: 'Done', PresetId: 'podcast', EffectivePresetId: 'podcast', EffectiveSource: 'Organization', Problem: null });
    // Before: the upload as ffmpeg measures it (−19.8 LUFS, −2.6 dBTP).
    const source = await ffmpegEbur128(fixturePath('speech-12s.mp3'));
    expect(Math.abs(l.Before!.IntegratedLoudness! - source.integratedLufs)).toBeLessThanOrEqual(0.2);
    expect(Math.abs(l.After!.IntegratedLoudness! + 16)).toBeLessThanOrEqual(0.5);
    expect(l.After!.TruePeak!).toBeLessThanOrEqual(-1);

    const published = await publishedByFfmpeg();
    expect(Math.abs(published.integratedLufs + 16)).toBeLessThanOrEqual(0.5);
    expect(published.truePeakDbtp).toBeLessThanOrEqual(-1);
    // The original upload is kept as it came.
    const kept = await app.request(`/api/internal/clips/${clipId}/original-audio`, { headers: headers() });
    expect(new Uint8Array(await kept.arrayBuffer())).toEqual(original);
  }, 120_000);

  it('a preset changed later reprocesses nothing until "normalize again" is pushed through the outbox', async () => {
    const before = await loudness();
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: 'broadcast-ebu-r128' })).status).toBe(200);
    await app.jobs.drain();
    expect(await loudness()).toMatchObject({ State: 'Done', PresetId: 'podcast', EffectivePresetId: 'broadcast-ebu-r128', After: before.After });
    // A new cut of the same upload is made again, and normalized to the clip's preset, not the new one.
    const cut = await api.send('PUT', `/api/internal/clips/${clipId}/cut`, { json: { KeptRegions: [{ StartSeconds: 0, EndSeconds: 10 }], CrossfadeMs: 10 } });
    expect(cut.status, cut.text).toBe(200);
    await app.jobs.drain();
    expect(await loudness()).toMatchObject({ State: 'Done', PresetId: 'podcast' });
    expect(Math.abs((await publishedByFfmpeg()).integratedLufs + 16)).toBeLessThanOrEqual(0.5);

    expect((await api.pushOne('clip.normalizeLoudness', { clipId })).status).toBe('applied');
    expect((await loudness()).State).toBe('Waiting');
    await app.jobs.drain();
    const again = await loudness();
    expect(again).toMatchObject({ State: 'Done', PresetId: 'broadcast-ebu-r128' });
    const published = await publishedByFfmpeg();
    expect(Math.abs(published.integratedLufs + 23)).toBeLessThanOrEqual(0.5);
    expect(published.truePeakDbtp).toBeLessThanOrEqual(-1);
  }, 120_000);

  it('"normalize again" to another preset while a normalization runs is not lost: the clip ends normalized to the newer preset', async () => {
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: 'podcast' })).status).toBe(200);
    expect((await api.pushOne('clip.normalizeLoudness', { clipId })).status).toBe('applied');
    let drained = false;
    const draining = app.jobs.drain().then(() => void (drained = true));
    const state = async () => (await test.store.query<{ state: string }>(`SELECT state FROM clip_loudness WHERE clip_id = $1`, [clipId]))[0]!.state;
    await expect.poll(state, { timeout: 30_000, interval: 10 }).toBe('Running');
    // Mid-run (its render, encoding and measuring take seconds): the preset changes and the
    // producer asks again.
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: 'broadcast-ebu-r128' })).status).toBe(200);
    expect((await api.pushOne('clip.normalizeLoudness', { clipId })).status).toBe('applied');
    expect(drained, 'the first run ended before the second request: this test needs it running').toBe(false);
    await draining;
    const l = await loudness();
    expect(l).toMatchObject({ State: 'Done', PresetId: 'broadcast-ebu-r128' });
    expect(Math.abs(l.After!.IntegratedLoudness! + 23)).toBeLessThanOrEqual(0.5);
    expect(Math.abs((await publishedByFfmpeg()).integratedLufs + 23)).toBeLessThanOrEqual(0.5);
  }, 120_000);

  it('a normalization that switches the published version while the clip’s audio is made again leaves no version folder unswept', async () => {
    const blobs = fsBlobStore(join(dir, 'blobs'));
    const deps = { store: test.store, bus: createMemoryBus() };
    // The processing (the staff tool's "regenerate audio") reads what is published, then makes its
    // version while a normalization of the version the clip serves runs to its switch; the
    // processing's write comes after that switch. Each job's blob store holds it at the moment
    // it writes its new version's record.
    let processRead = () => {};
    const processHasRead = new Promise<void>((resolve) => (processRead = resolve));
    let letProcessWrite = () => {};
    const normalizationSwitched = new Promise<void>((resolve) => (letProcessWrite = resolve));
    const holdAtVersionRecord = (hold: () => Promise<void>): BlobStore => {
      let held = false;
      return {
        ...blobs,
        putBytes: async (key, bytes) => {
          await blobs.putBytes(key, bytes);
          if (key.endsWith('/version.json') && !held) {
            held = true;
            await hold();
          }
        },
      };
    };
    let processing: Promise<void> | null = null;
    const forProcessing = holdAtVersionRecord(async () => {
      processRead();
      await normalizationSwitched;
    });
    const forNormalization = holdAtVersionRecord(async () => {
      processing = processClipAudio(deps, forProcessing, { organizationId: ORG_DEMO, clipId, userId: null, force: true }, DEFAULT_MEDIA_GRACE_MS);
      await processHasRead;
    });
    expect((await api.pushOne('clip.normalizeLoudness', { clipId })).status).toBe('applied');
    await withAnotherApp({ store: test.store, blobs: forNormalization }, (other) => other.jobs.drain());
    expect(await loudness()).toMatchObject({ State: 'Done' });
    expect(processing).not.toBeNull();
    letProcessWrite();
    await processing;
    // Every version folder is the published one (the processing's) or waits in a media sweep.
    const published = (await readPublishedVersion(blobs, clipId))!;
    const sweeps = await test.store.query<{ payload: { keys: string[] } }>(`SELECT payload FROM jobs WHERE kind = $1 AND state = 'queued'`, [MEDIA_SWEEP_JOB]);
    const swept = new Set(sweeps.flatMap((j) => j.payload.keys));
    const versions = (await readdir(join(dir, 'blobs', clipKeys.dir(clipId), 'versions'))).map((v) => clipKeys.versionFolder(clipId, v));
    expect(versions).toContain(published.folder);
    expect(versions.filter((f) => f !== published.folder && !swept.has(f))).toEqual([]);
  }, 120_000);

  it('a "normalize again" landing while the last attempt gives up is kept: the give-up reads the ask after locking the row, so it leaves it Waiting for the run asked for', async () => {
    const payload = { organizationId: ORG_DEMO, clipId, userId: null };
    await test.store.query(`UPDATE clip_loudness SET state = 'Running', problem = NULL WHERE clip_id = $1`, [clipId]);
    // The job as its last attempt leaves it, still this runner's (in place of the one the last
    // test's processing queued).
    const { id: jobId, ctx } = await jobOnLastAttempt(test.store, CLIP_NORMALIZE_JOB, payload, `${CLIP_NORMALIZE_JOB}:${clipId}`);
    const handler = clipLoudnessJobs({ store: test.store, bus: createMemoryBus() }, fsBlobStore(join(dir, 'blobs')), DEFAULT_MEDIA_GRACE_MS)[CLIP_NORMALIZE_JOB]!;
    let givingUp: Promise<unknown> | null = null;
    // "Normalize again" as its mutation writes it (the row, then the ask for a run), with the
    // give-up starting between the two.
    await test.store.tx(async (q) => {
      await q.query(`UPDATE clip_loudness SET state = 'Waiting', modified_at_utc = now() WHERE clip_id = $1`, [clipId]);
      givingUp = handler.giveUp!(handler.payload.parse(payload), new Error('the encoder crashed'), ctx);
      // PostgreSQL: until the give-up waits on a lock (the row's, or, reading the ask first, it
      // would have read "none" and wait at its write). PGlite's one connection queues it whole.
      if (kind === 'postgres') await expect.poll(async () => (await test.store.query(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`)).length, { timeout: 10_000 }).toBe(1);
      await enqueueJob(q, CLIP_NORMALIZE_JOB, payload, { singletonKey: `${CLIP_NORMALIZE_JOB}:${clipId}`, rerunIfRunning: true });
    });
    await givingUp;
    expect((await test.store.query<{ state: string }>(`SELECT state FROM clip_loudness WHERE clip_id = $1`, [clipId]))[0]!.state).toBe('Waiting');
    expect((await test.store.query<{ rerun: boolean }>(`SELECT rerun FROM jobs WHERE id = $1`, [jobId]))[0]!.rerun).toBe(true);
    await test.store.query(`DELETE FROM jobs WHERE id = $1`, [jobId]);
  });

  it('a new version that could not be measured leaves the clip NotMeasured: no earlier version\'s figures, no state a run would never end, and the preset chosen kept', async () => {
    await test.store.query(`UPDATE clip_loudness SET state = 'Running' WHERE clip_id = $1`, [clipId]);
    const before = await loudness();
    expect(before.Before).not.toBeNull();
    const upload = (await test.store.query<{ upload: string }>(`SELECT upload FROM clip_loudness WHERE clip_id = $1`, [clipId]))[0]!.upload;
    // A version of the same upload (a new cut) that could not be measured.
    await test.store.tx((q) => noteVersionLoudness(q, { organizationId: ORG_DEMO, clipId, userId: null }, null, upload));
    expect(await loudness()).toMatchObject({ State: 'NotMeasured', Before: null, After: null, GainDb: null, PresetId: before.PresetId });
    expect(await test.store.query(`SELECT id FROM jobs WHERE singleton_key = $1 AND state IN ('queued', 'running')`, [`${CLIP_NORMALIZE_JOB}:${clipId}`])).toEqual([]);
    // "Normalize again" is refused at clipId, saying why, until a version is measured.
    const refused = await api.pushOne('clip.normalizeLoudness', { clipId });
    expect([refused.status, refused.errors?.map((e) => [e.Field, e.MessageKey])]).toEqual(['rejected', [['clipId', 'domain_loudness_not_measured']]]);
    // A give-up of the normalization that was running leaves it so: NotMeasured is not the job's to fail.
    const [job] = await test.store.query<{ id: number }>(`INSERT INTO jobs (kind, payload, state, attempts, max_attempts) VALUES ($1, '{}'::jsonb, 'running', 3, 3) RETURNING id`, [CLIP_NORMALIZE_JOB]);
    const handler = clipLoudnessJobs({ store: test.store, bus: createMemoryBus() }, fsBlobStore(join(dir, 'blobs')), DEFAULT_MEDIA_GRACE_MS)[CLIP_NORMALIZE_JOB]!;
    const payload = handler.payload.parse({ organizationId: ORG_DEMO, clipId, userId: null });
    await handler.giveUp!(payload, new Error('the encoder crashed'), jobContext(test.store, { id: job!.id, kind: CLIP_NORMALIZE_JOB, attempt: 3, maxAttempts: 3 }));
    expect((await loudness()).State).toBe('NotMeasured');
    await test.store.query(`DELETE FROM jobs WHERE id = $1`, [job!.id]);
  });

  it('without a preset in effect "normalize again" is refused at clipId; another organization\'s clip is not found', async () => {
    expect((await api.patch('/api/v1/settings/normalization', { PresetId: null })).status).toBe(200);
    const refused = await api.pushOne('clip.normalizeLoudness', { clipId });
    expect([refused.status, refused.errors?.map((e) => [e.Field, e.MessageKey])]).toEqual(['rejected', [['clipId', 'domain_loudness_no_preset']]]);
    const [other] = await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted LIMIT 1`, [ORG_PODCASTS]);
    expect((await api.get(`/api/internal/clips/${other!.id}/loudness`)).status).toBe(404);
    // A clip never processed since is NotMeasured.
    const [fresh] = await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND id <> $2 AND NOT deleted LIMIT 1`, [MORNING, clipId]);
    expect(await loudness(fresh!.id)).toMatchObject({ State: 'NotMeasured', Before: null, After: null, EffectivePresetId: null });
  });
});
