// The clip's row carries the intro its published audio starts with (PublishedIntroSeconds, written by
// sync-server/audio/versions.ts with the version's Urls), on PGlite and PostgreSQL with the whole app
// and its jobs: the editors on the device and the public chapters JSON read that one field. After a
// program's intro is decoded, a clip processed carries its length and its chapters JSON is later by
// it; once the intro is removed and "apply to existing episodes" runs, the clip carries none and its
// chapters are where the producer put them; an intro added again and applied again is carried again.
// A chapter or mid-roll past the episode's end (inside the longer published audio) is refused.
// The outro it ends with is carried the same way (PublishedOutroSeconds): behind an intro and before
// an outro the episode is the published length less both, so a start inside the outro is refused too,
// and the public chapters are moved by the intro only. A row from before the field is given its
// version's outro by the job migration 0630 queues.
import { readFile } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgramAudioOperation } from '../../src/protocol/api/program-audio.ts';
import type { Clip } from '../../src/protocol/entities.ts';
import { PUBLISHED_OUTRO_JOB } from '../../sync-server/audio/versions.ts';
import { enqueueJob } from '../../sync-server/jobs/queue.ts';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { fixturePath } from '../audio/fixtures.ts';
import { demoApp, fields, type DemoApp } from './app-client.ts';
import { storeKinds } from './test-store.ts';

describe.each(storeKinds)('the intro of a clip’s published audio on its row, on %s', (kind) => {
  let demo: DemoApp;
  let programId = '';
  let clipId = '';

  beforeAll(async () => {
    demo = await demoApp(kind, { clips: 2 });
    // Loudness normalization off: one version per processing, the files' own lengths.
    expect((await demo.api.patch('/api/v1/settings/normalization', { PresetId: null })).status).toBe(200);
    const made = await demo.api.post('/api/v1/programs', { Name: `Intro row ${randomUUID().slice(0, 8)}` });
    expect(made.status, made.text).toBeLessThan(300);
    programId = (made.body as { Id: string }).Id;
  }, 120_000);

  afterAll(async () => {
    await demo?.test.drop();
  });

  const putFile = async (path: string, fixture: string) => {
    const res = await demo.app.request(path, {
      method: 'PUT',
      headers: { cookie: demo.api.cookie, 'x-xsrf-token': demo.api.xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'application/octet-stream' },
      body: new Uint8Array(await readFile(fixturePath(fixture))),
    });
    return { status: res.status, text: await res.text() };
  };
  const clip = async () => (await demo.api.get(`/api/v1/clips/${clipId}`)).body as Clip;
  const chaptersJson = async () => {
    const res = await demo.app.request(`/feeds/chapters/${clipId}.json`);
    expect(res.status).toBe(200);
    return ((await res.json()) as { chapters: Array<{ startTime: number; title: string }> }).chapters.map((c) => [c.startTime, c.title]);
  };
  const apply = async () => {
    const applied = await demo.api.post(`/api/internal/programs/${programId}/settings/audio/apply`, {});
    expect(applied.status, applied.text).toBe(202);
    await demo.app.jobs.drain();
  };
  const addBumper = async (type: 'intro' | 'outro', fixture: string) => {
    const put = await putFile(`/api/v1/programs/${programId}/settings/audio/${type}?fileName=${fixture}`, fixture);
    expect(put.status, put.text).toBe(202);
    await demo.app.jobs.drain();
    const op = JSON.parse(put.text) as ProgramAudioOperation;
    const done = (await demo.api.get(`/api/v1/programs/settings/audio/${op.Id}`)).body as ProgramAudioOperation;
    expect(done.Status).toBe('Success');
    return done.DurationSeconds!;
  };
  const addIntro = () => addBumper('intro', 'speech-12s-stereo.wav');

  let introSeconds = 0;

  it('a clip processed behind the program’s intro carries its length, and its public chapters are later by it', async () => {
    introSeconds = await addIntro();
    expect(Math.abs(introSeconds - 12)).toBeLessThan(0.05);
    const made = await demo.api.post(`/api/v1/programs/${programId}/clips`, { Title: 'Behind the intro' });
    expect(made.status, made.text).toBeLessThan(300);
    clipId = (made.body as { Id: string }).Id;
    expect((await demo.api.patch(`/api/v1/clips/${clipId}`, { Chapters: [{ StartSeconds: 0, Title: 'Open' }, { StartSeconds: 4, Title: 'News' }] })).status).toBe(200);
    // Before any audio, the row says nothing of an intro.
    expect((await clip()).PublishedIntroSeconds ?? null).toBeNull();
    const put = await putFile(`/api/v1/clips/${clipId}/audio?fileName=speech-12s.mp3`, 'speech-12s.mp3');
    expect(put.status, put.text).toBe(202);
    await demo.app.jobs.drain();

    const row = await clip();
    expect(row.Urls.AudioPrivateUrl).toBeTruthy();
    expect(row.PublishedIntroSeconds).toBe(introSeconds);
    await demo.test.store.query(`UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Public', version = next_row_version() WHERE id = $1`, [clipId]);
    expect(await chaptersJson()).toEqual([[introSeconds, 'Open'], [introSeconds + 4, 'News']]);

    // Chapters and ad markers are checked against the episode, not the longer published audio: a start
    // at 0:13 is inside the published 0:24 but past the episode's 0:12, where listeners hear nothing of it.
    expect(row.DurationSeconds!).toBeGreaterThan(20);
    const late = await demo.api.patch(`/api/v1/clips/${clipId}`, { Chapters: [{ StartSeconds: 13, Title: 'Late' }] });
    expect(late.status, late.text).toBe(400);
    expect(fields(late).map(([f]) => f)).toEqual(['Chapters.0.StartSeconds']);
    const pushed = await demo.api.pushOne('clip.setAdMarkers', { clipId, AdMarkers: [{ Type: 'MidRoll', Seconds: 13, MaxAds: 1 }] });
    expect(pushed.status).toBe('rejected');
    expect(pushed.errors?.map((e) => e.Field)).toEqual(['AdMarkers.0.Seconds']);
    const judged = await demo.api.post(`/api/internal/programs/${programId}/ad-marker-rules/validation`, { ClipId: clipId, AdMarkers: [{ Type: 'MidRoll', Seconds: 13, MaxAds: 1 }] });
    expect(judged.status, judged.text).toBe(400);
    expect(fields(judged).map(([f]) => f)).toEqual(['AdMarkers.0.Seconds']);
    // Inside the episode both are taken.
    expect((await demo.api.pushOne('clip.setAdMarkers', { clipId, AdMarkers: [{ Type: 'MidRoll', Seconds: 6, MaxAds: 1 }] })).status).toBe('applied');
  }, 180_000);

  it('removed and applied again: the clip carries no intro and its chapters are the episode’s own; an intro added again is carried again', async () => {
    expect((await demo.api.delete(`/api/v1/programs/${programId}/settings/audio/intro`)).status).toBe(204);
    await apply();
    const without = await clip();
    expect(without.PublishedIntroSeconds ?? 0).toBe(0);
    expect(without.Urls.AudioPrivateUrl).toBeTruthy();
    expect(without.DurationSeconds!).toBeLessThan(13);
    expect(await chaptersJson()).toEqual([[0, 'Open'], [4, 'News']]);

    const again = await addIntro();
    await apply();
    expect((await clip()).PublishedIntroSeconds).toBe(again);
    expect(await chaptersJson()).toEqual([[again, 'Open'], [again + 4, 'News']]);
  }, 240_000);

  it('an outro added and applied: the clip carries its length as well, and a start inside the outro is refused while the episode’s are taken', async () => {
    const intro = (await clip()).PublishedIntroSeconds!;
    const outroSeconds = await addBumper('outro', 'speech-12s.flac');
    expect(Math.abs(outroSeconds - 12)).toBeLessThan(0.05);
    await apply();
    const row = await clip();
    expect(row.PublishedIntroSeconds).toBe(intro);
    expect(row.PublishedOutroSeconds).toBe(outroSeconds);
    // intro + episode + outro: about 36 s published, of which the episode is the 12 s between.
    expect(row.DurationSeconds!).toBeGreaterThan(intro + outroSeconds + 11);
    // 0:20 is inside intro + episode + outro less the intro (the published audio less the intro, all
    // that was subtracted before the outro was on the row), but in the outro: refused, by PATCH and push.
    const late = await demo.api.patch(`/api/v1/clips/${clipId}`, { Chapters: [{ StartSeconds: 20, Title: 'Late' }] });
    expect(late.status, late.text).toBe(400);
    expect(fields(late).map(([f]) => f)).toEqual(['Chapters.0.StartSeconds']);
    const pushed = await demo.api.pushOne('clip.setAdMarkers', { clipId, AdMarkers: [{ Type: 'MidRoll', Seconds: 20, MaxAds: 1 }] });
    expect(pushed.status).toBe('rejected');
    expect(pushed.errors?.map((e) => e.Field)).toEqual(['AdMarkers.0.Seconds']);
    // Inside the episode both are taken, and the public chapters are moved by the intro alone.
    expect((await demo.api.patch(`/api/v1/clips/${clipId}`, { Chapters: [{ StartSeconds: 0, Title: 'Open' }, { StartSeconds: 11, Title: 'Close' }] })).status).toBe(200);
    expect((await demo.api.pushOne('clip.setAdMarkers', { clipId, AdMarkers: [{ Type: 'MidRoll', Seconds: 11, MaxAds: 1 }] })).status).toBe('applied');
    expect(await chaptersJson()).toEqual([[intro, 'Open'], [intro + 11, 'Close']]);

    expect((await demo.api.delete(`/api/v1/programs/${programId}/settings/audio/outro`)).status).toBe(204);
    await apply();
    expect((await clip()).PublishedOutroSeconds ?? 0).toBe(0);
    expect((await clip()).PublishedIntroSeconds).toBe(intro);
  }, 240_000);

  it('a clip whose row does not carry its version’s outro (published before the field) is given it by the job migration 0630 queues, once', async () => {
    await addBumper('outro', 'speech-12s.flac');
    await apply();
    const outroSeconds = (await clip()).PublishedOutroSeconds!;
    expect(outroSeconds).toBeGreaterThan(11);
    // The row as a version made before this release left it: the outro only in the version's record.
    await demo.test.store.query(`UPDATE clips SET data = data - 'PublishedOutroSeconds' WHERE id = $1`, [clipId]);
    const before = await clip();
    expect(before.PublishedOutroSeconds).toBeUndefined();
    const others = await demo.test.store.query<{ id: string; version: string }>(`SELECT id, version::text AS version FROM clips WHERE id <> $1 ORDER BY id`, [clipId]);

    await enqueueJob(demo.test.store, PUBLISHED_OUTRO_JOB, {});
    await demo.app.jobs.drain();
    const after = await clip();
    expect(after.PublishedOutroSeconds).toBe(outroSeconds);
    expect(after.Version).toBeGreaterThan(before.Version);
    expect(after.Urls.AudioPrivateUrl).toBe(before.Urls.AudioPrivateUrl);
    // The seed's clips have no version made with an outro: left as they were.
    expect(await demo.test.store.query(`SELECT id, version::text AS version FROM clips WHERE id <> $1 ORDER BY id`, [clipId])).toEqual(others);
    // Run again, it finds nothing to write.
    await enqueueJob(demo.test.store, PUBLISHED_OUTRO_JOB, {});
    await demo.app.jobs.drain();
    expect((await clip()).Version).toBe(after.Version);
  }, 240_000);
});
