// Ad markers (issue 34), on PGlite and on PostgreSQL: a clip's markers through the named mutation
// clip.setAdMarkers (each refused marker a 400 at AdMarkers.<i>.<Field>, stored sorted), a program's
// rules through program.setAdMarkerRules, the validation call (violations at the field each names,
// the rules and whose they are), the clip-level override, and the suggestions: made by the
// clip.suggest job from a tone with silences at known times (made with ffmpeg), stored by PUT.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_AD_MARKER_RULES } from '../../src/domain/ad-markers.ts';
import type { AdMarkerValidation, SuggestedAdMarkers, SuggestedChapters } from '../../src/protocol/api/ad-markers.ts';
import type { createApp } from '../../sync-server/app.ts';
import { fsBlobStore, type BlobStore } from '../../sync-server/audio/blob-store.ts';
import { clipKeys, mediaFiles } from '../../sync-server/audio/media-paths.ts';
import { publishedAudio, type PublishedVersion } from '../../sync-server/audio/published-media.ts';
import { requestSuggestions } from '../../sync-server/audio/suggestions-job.ts';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { demoApp, withAnotherApp, type AppClient } from './app-client.ts';
import { storeKinds, type TestStore } from './test-store.ts';

const MORNING = seedId('program:morning');
type Result = { status: string; errors?: Array<{ Field: string; Code: string; Message: string }> };

describe.each(storeKinds)('ad markers on %s', (kind) => {
  let test: TestStore;
  let app: ReturnType<typeof createApp>;
  let api: AppClient;
  let dir = '';
  let clipId = '';

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'castaway-ad-markers-'));
    ({ test, app, api } = await demoApp(kind, { clips: 12, blobDir: join(dir, 'blobs') }));
    clipId = (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [MORNING]))[0]!.id;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const push = async (name: string, args: unknown): Promise<Result> => (await api.pushOne(name, args)) as Result;
  const put = (path: string, json: unknown) => api.send('PUT', path, { json });
  const clip = async () => (await api.get(`/api/v1/clips/${clipId}`)).body as { AdMarkers?: unknown; AdMarkerRulesOverride?: unknown; DurationSeconds: number | null };
  const validate = async (body: unknown) => api.post(`/api/internal/programs/${MORNING}/ad-marker-rules/validation`, body);

  it('gives the clip audio: 80 s of tone with silences at 2–3.5 s, 6.5–7.3 s and 40–42 s, processed by its job', async () => {
    const wav = join(dir, 'tone.wav');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', "aevalsrc='if(between(t,2,3.5)+between(t,6.5,7.3)+between(t,40,42),0,0.5*sin(2*PI*440*t))':d=80:s=22050", '-c:a', 'pcm_s16le', wav]);
    const res = await app.request(`/api/v1/clips/${clipId}/audio?fileName=tone.wav`, {
      method: 'PUT',
      headers: { cookie: api.cookie, 'x-xsrf-token': api.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(await readFile(wav)),
    });
    expect(res.status).toBe(202);
    await app.jobs.drain();
    expect((await clip()).DurationSeconds).toBeCloseTo(80, 1);
  });

  it('clip.setAdMarkers refuses each bad marker at its field, and stores nothing', async () => {
    const r = await push('clip.setAdMarkers', {
      clipId,
      AdMarkers: [
        { Type: 'PreRoll', Seconds: null, MaxAds: 1 },
        { Type: 'PreRoll', Seconds: null, MaxAds: 1 },
        { Type: 'MidRoll', Seconds: 85, MaxAds: 2 },
        { Type: 'MidRoll', Seconds: 5, MaxAds: 0 },
      ],
    });
    expect(r.status).toBe('rejected');
    expect(r.errors?.map((e) => e.Field).sort()).toEqual(['AdMarkers.1.Type', 'AdMarkers.2.Seconds', 'AdMarkers.3.MaxAds']);
    expect(r.errors?.find((e) => e.Field === 'AdMarkers.2.Seconds')?.Message).toBe('The audio ends at 00:01:20: a mid-roll must come before that');
    expect((await clip()).AdMarkers ?? []).toEqual([]);
  });

  it('clip.setAdMarkers stores the markers sorted: pre-roll, mid-rolls by time, post-roll', async () => {
    const r = await push('clip.setAdMarkers', {
      clipId,
      AdMarkers: [
        { Type: 'PostRoll', Seconds: null, MaxAds: 1 },
        { Type: 'MidRoll', Seconds: 4, MaxAds: 3 },
        { Type: 'MidRoll', Seconds: 1, MaxAds: 2 },
      ],
    });
    expect(r.status, JSON.stringify(r)).toBe('applied');
    expect((await clip()).AdMarkers).toEqual([
      { Type: 'MidRoll', Seconds: 1, MaxAds: 2 },
      { Type: 'MidRoll', Seconds: 4, MaxAds: 3 },
      { Type: 'PostRoll', Seconds: null, MaxAds: 1 },
    ]);
  });

  it("program.setAdMarkerRules refuses a rule at its field; the validation call then names each violation at its marker", async () => {
    const bad = await push('program.setAdMarkerRules', { programId: MORNING, AdMarkerRules: { ...DEFAULT_AD_MARKER_RULES, MinMidRolls: 3, MaxMidRolls: 1 } });
    expect(bad.errors?.map((e) => e.Field)).toEqual(['AdMarkerRules.MinMidRolls']);
    const rules = { ...DEFAULT_AD_MARKER_RULES, PreRollRequired: true, NoMidRollFirstSeconds: 2, MinSpacingSeconds: 5, MaxAdsPerBreak: 2 };
    expect((await push('program.setAdMarkerRules', { programId: MORNING, AdMarkerRules: rules })).status).toBe('applied');

    const reply = await validate({ ClipId: clipId });
    expect(reply.status, reply.text).toBe(200);
    const v = reply.body as AdMarkerValidation;
    expect(v.Source).toBe('Program');
    expect(v.Rules).toEqual(rules);
    expect(v.Valid).toBe(false);
    expect(v.Violations.map((x) => [x.Field, x.Code])).toEqual([
      ['AdMarkers', 'PreRollMissing'],
      ['AdMarkers.0.Seconds', 'TooEarly'],
      ['AdMarkers.1.Seconds', 'TooClose'],
      ['AdMarkers.1.MaxAds', 'TooManyAds'],
    ]);
    expect(v.Violations[1]!.Message).toBe('The ad-marker rules keep the first 0:02 free of mid-rolls');

    // Markers given (a draft on a screen) are judged instead of the clip's; ones that can never be stored are a 400.
    const draft = (await validate({ ClipId: clipId, AdMarkers: [{ Type: 'PreRoll', Seconds: null, MaxAds: 1 }, { Type: 'MidRoll', Seconds: 3, MaxAds: 1 }] })).body as AdMarkerValidation;
    expect(draft.Violations).toEqual([]);
    expect(draft.Valid).toBe(true);
    const refused = await validate({ AdMarkers: [{ Type: 'MidRoll', Seconds: 0, MaxAds: 1 }], Rules: { ...rules, MaxAdsPerBreak: 0 } });
    expect(refused.status).toBe(400);
    expect((refused.body as { Errors: Array<{ Field: string }> }).Errors.map((e) => e.Field).sort()).toEqual(['AdMarkers.0.Seconds', 'Rules.MaxAdsPerBreak']);
    expect((await validate({})).status).toBe(400);
    expect(((await validate({ ClipId: randomUUID() })).body as { Errors: Array<{ Field: string }> }).Errors[0]!.Field).toBe('ClipId');
  });

  it("the clip's override holds it to its own rules, and null gives it back to its program's", async () => {
    const own = { ...DEFAULT_AD_MARKER_RULES, MaxMidRolls: 1 };
    const badRule = await api.post(`/api/internal/clips/${clipId}/ad-marker-rules/override`, { Rules: { ...own, NoMidRollLastSeconds: -1 } });
    expect(badRule.status).toBe(400);
    expect((badRule.body as { Errors: Array<{ Field: string }> }).Errors[0]!.Field).toBe('Rules.NoMidRollLastSeconds');
    expect((await api.post(`/api/internal/clips/${clipId}/ad-marker-rules/override`, { Rules: own })).status).toBe(204);
    expect((await clip()).AdMarkerRulesOverride).toEqual(own);
    const v = (await validate({ ClipId: clipId })).body as AdMarkerValidation;
    expect(v.Source).toBe('Clip');
    expect(v.Violations.map((x) => [x.Field, x.Code])).toEqual([['AdMarkers.1.Type', 'TooManyMidRolls']]);
    expect((await api.post(`/api/internal/clips/${clipId}/ad-marker-rules/override`, { Rules: null })).status).toBe(204);
    expect(((await validate({ ClipId: clipId })).body as AdMarkerValidation).Source).toBe('Program');
  });

  it('suggests mid-rolls in the middle of the silences the rules allow, and chapters where talk resumes, made by a job', async () => {
    await push('clip.setAdMarkers', { clipId, AdMarkers: [] });
    await push('program.setAdMarkerRules', { programId: MORNING, AdMarkerRules: null });
    const first = await api.get(`/api/internal/clips/${clipId}/suggested/ad-markers`);
    expect(first.status, first.text).toBe(200);
    expect((first.body as SuggestedAdMarkers).Status).toBe('Pending');
    await app.jobs.drain();
    const ads = (await api.get(`/api/internal/clips/${clipId}/suggested/ad-markers`)).body as SuggestedAdMarkers;
    expect(ads).toMatchObject({ Status: 'Ready', MadeBy: 'Studio' });
    expect(ads.Items.map((i) => i.Seconds)).toEqual([2.8, 6.9, 41]);
    expect(ads.Items[0]!.SilenceSeconds).toBeCloseTo(1.5, 1);
    // Chapters, made by the same job: where the tone resumes after the 2 s silence (the 1.5 s one
    // ends within 30 s of the start, the 0.8 s one is a breath).
    const chapters = (await api.get(`/api/internal/clips/${clipId}/suggested/chapters`)).body as SuggestedChapters;
    expect(chapters).toMatchObject({ Status: 'Ready', MadeBy: 'Studio', Items: [{ StartSeconds: 42, Title: null, Reason: 'Silence' }] });
  });

  it('a version that lands while the job decodes the one before is not answered with the older audio’s suggestions', async () => {
    const blobs = fsBlobStore(join(dir, 'blobs'));
    const v1 = (await publishedAudio(blobs, clipId))!;
    // The new version: 30 s of tone, silent at 10–12 s (as a cut's render or a normalization makes one).
    const wav = join(dir, 'tone-30.wav');
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', "aevalsrc='if(between(t,10,12),0,0.5*sin(2*PI*440*t))':d=30:s=22050", '-c:a', 'pcm_s16le', wav]);
    const bytes = new Uint8Array(await readFile(wav));
    const version: PublishedVersion = { version: randomUUID(), folder: clipKeys.versionFolder(clipId, 'v2'), contentType: 'audio/wav', ext: 'wav', size: bytes.byteLength, durationSeconds: 30, upload: 'original', edit: null };
    // The job runs on an app whose blob store lands that version as the job opens the older one to
    // decode it, and the studio asks for the new audio's suggestions then.
    let landed = false;
    const racing: BlobStore = {
      ...blobs,
      blob: async (key) => {
        const opened = await blobs.blob(key);
        if (key === v1.key && !landed) {
          landed = true;
          await blobs.putBytes(mediaFiles.audio(version.folder), bytes);
          await blobs.putBytes(clipKeys.published(clipId), JSON.stringify(version));
          expect(((await api.get(`/api/internal/clips/${clipId}/suggested/ad-markers`)).body as SuggestedAdMarkers).Status).toBe('Pending');
        }
        return opened;
      },
    };
    await test.store.tx((q) => requestSuggestions(q, { clipId, organizationId: ORG_DEMO }, 'ad-markers', v1.etag));
    await withAnotherApp({ store: test.store, blobs: racing }, (other) => other.jobs.drain());
    expect(landed).toBe(true);
    // The 80 s tone's suggestions (2.8, 6.9 and 41 s) are not the 30 s version's.
    const ads = (await api.get(`/api/internal/clips/${clipId}/suggested/ad-markers`)).body as SuggestedAdMarkers;
    expect(ads.Status).toBe('Ready');
    expect(ads.Items.map((i) => i.Seconds)).toEqual([11]);
  });

  it('a PUT stores suggestions, which GET reads back as the API’s; a bad one is a 400 at its field', async () => {
    expect((await put(`/api/internal/clips/${clipId}/suggested/chapters`, { Items: [{ StartSeconds: 3.5, Title: 'Part two', Reason: 'Other' }] })).status).toBe(204);
    const got = (await api.get(`/api/internal/clips/${clipId}/suggested/chapters`)).body as SuggestedChapters;
    expect(got).toMatchObject({ Status: 'Ready', MadeBy: 'Api', Items: [{ StartSeconds: 3.5, Title: 'Part two', Reason: 'Other' }] });
    const bad = await put(`/api/internal/clips/${clipId}/suggested/ad-markers`, { Items: [{ Seconds: -1 }] });
    expect(bad.status).toBe(400);
    expect((bad.body as { Errors: Array<{ Field: string }> }).Errors[0]!.Field).toBe('Items.0.Seconds');
    expect((await put(`/api/internal/clips/${clipId}/suggested/ad-markers`, { Items: [] })).status).toBe(204);
    expect(((await api.get(`/api/internal/clips/${clipId}/suggested/ad-markers`)).body as SuggestedAdMarkers).Items).toEqual([]);
  });
});
