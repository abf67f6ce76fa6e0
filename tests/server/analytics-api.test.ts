// The analytics API (section 7: …/analytics/downloads, /media-types, /downloads/{grouping}) over
// counted downloads inserted here by hand (the counting job is tested on its own): the same eight
// downloads read in two time zones either side of midnight UTC give the day totals worked out
// below by hand, at every level; intervals hour (DST days of 23 and 25 hours), day, week, month;
// groupings; the rollup job; who may ask.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { enqueueRollup, pendingDownloads } from '../../sync-server/analytics/analytics-rollup.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type StoreKind, type TestStore } from './test-store.ts';

type Series = { Total: number; Points: Array<{ Start: string; Downloads: number }>; PendingDownloads: number };
type MediaTypes = { Total: number; MediaTypes: Array<{ MediaType: string; Total: number; Points: Array<{ Start: string; Downloads: number }> }> };
type Grouping = { Total: number; Items: Array<{ Key: string; Label: string; Downloads: number }> };

// The eight downloads, with where each falls (America/Los_Angeles is UTC-7 in May, Pacific/Auckland UTC+12):
//   #  UTC                clip  media  app             country   LA local       Auckland local
//   1  2025-05-10 02:30   A     Audio  Apple Podcasts  US        05-09 19:30    05-10 14:30
//   2  2025-05-10 06:59   A     Video  Spotify         NZ        05-09 23:59    05-10 18:59
//   3  2025-05-10 07:00   B     Audio  Overcast        US        05-10 00:00    05-10 19:00
//   4  2025-05-10 11:30   C     Audio  Apple Podcasts  US        05-10 04:30    05-10 23:30
//   5  2025-05-10 12:00   D     Audio  Spotify         ZZ        05-10 05:00    05-11 00:00
//   6  2025-05-09 23:00   A     Audio  Apple Podcasts  US        05-09 16:00    05-10 11:00
//   7  2025-05-09 11:59   B     Audio  Overcast        US        05-09 04:59    05-09 23:59
//   8  2025-05-11 18:00   A     Audio  Apple Podcasts  US        05-11 11:00    05-12 06:00
// A and B are Morning Briefing's, C World Tonight's (both of the News network), D Matchday Live's
// (Sport); the playlist holds A only.
const DOWNLOADS: Array<[string, 'A' | 'B' | 'C' | 'D', 'Audio' | 'Video', string, string]> = [
  ['2025-05-10T02:30:00Z', 'A', 'Audio', 'Apple Podcasts', 'US'],
  ['2025-05-10T06:59:00Z', 'A', 'Video', 'Spotify', 'NZ'],
  ['2025-05-10T07:00:00Z', 'B', 'Audio', 'Overcast', 'US'],
  ['2025-05-10T11:30:00Z', 'C', 'Audio', 'Apple Podcasts', 'US'],
  ['2025-05-10T12:00:00Z', 'D', 'Audio', 'Spotify', 'ZZ'],
  ['2025-05-09T23:00:00Z', 'A', 'Audio', 'Apple Podcasts', 'US'],
  ['2025-05-09T11:59:00Z', 'B', 'Audio', 'Overcast', 'US'],
  ['2025-05-11T18:00:00Z', 'A', 'Audio', 'Apple Podcasts', 'US'],
];

const LA = 'America/Los_Angeles';
const AKL = 'Pacific/Auckland';
const RANGE = 'startDate=2025-05-09&endDate=2025-05-12';

describe.each(storeKinds.filter((k) => k === 'pglite' || process.env.TEST_DATABASE_URL) as StoreKind[])('analytics API on %s', (kind) => {
  let test: TestStore;
  let seeded: SeededApp;
  let demo: AppClient;
  const clip: Record<'A' | 'B' | 'C' | 'D', string> = { A: '', B: '', C: '', D: '' };
  const program = { A: seedId('program:morning'), B: seedId('program:morning'), C: seedId('program:world'), D: seedId('program:matchday') };
  let playlistId = '';

  const insert = async (rows: typeof DOWNLOADS) => {
    for (const [at, c, media, app, country] of rows) {
      await test.store.query(
        `INSERT INTO counted_downloads (organization_id, program_id, clip_id, counted_at_utc, listener_hash, media_type, app, device, os, country, source)
         VALUES ($1, $2, $3, $4, 'h', $5, $6, 'Mobile', 'iOS', $7, 'feed')`,
        [ORG_DEMO, program[c], clip[c], at, media, app, country],
      );
    }
  };

  beforeAll(async () => {
    test = await openTestStore(kind);
    seeded = await seededApp(test.store);
    const first = async (programId: string) => (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 2`, [programId])).map((r) => r.id);
    [clip.A, clip.B] = (await first(program.A)) as [string, string];
    [clip.C] = (await first(program.C)) as [string];
    [clip.D] = (await first(program.D)) as [string];
    const [playlist] = await test.store.query<{ id: string }>(`SELECT id FROM playlists WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [program.A]);
    playlistId = playlist!.id;
    await test.store.query(`UPDATE playlists SET clip_ids = $1::jsonb WHERE id = $2`, [JSON.stringify([clip.A]), playlistId]);
    await insert(DOWNLOADS);
    demo = new AppClient(seeded.app);
    await demo.login('demo@example.com');
    demo.organizationId = ORG_DEMO;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const days = (s: Series) => Object.fromEntries(s.Points.map((p) => [p.Start, p.Downloads]));
  const series = async (path: string, query: string) => {
    const reply = await demo.get(`/api/v1${path}/analytics/downloads?${query}`);
    expect(reply.status, reply.text).toBe(200);
    return reply.body as Series;
  };

  it('gives each local day its downloads in two time zones either side of midnight UTC, at every level', async () => {
    const levels: Array<[string, string, Record<string, number>, Record<string, number>]> = [
      // level path, label, LA days 9–12, Auckland days 9–12
      ['', 'organization', { '09': 4, '10': 3, '11': 1, '12': 0 }, { '09': 1, '10': 5, '11': 1, '12': 1 }],
      [`/networks/${seedId('network:news')}`, 'network', { '09': 4, '10': 2, '11': 1, '12': 0 }, { '09': 1, '10': 5, '11': 0, '12': 1 }],
      [`/programs/${program.A}`, 'program', { '09': 4, '10': 1, '11': 1, '12': 0 }, { '09': 1, '10': 4, '11': 0, '12': 1 }],
      [`/playlists/${playlistId}`, 'playlist', { '09': 3, '10': 0, '11': 1, '12': 0 }, { '09': 0, '10': 3, '11': 0, '12': 1 }],
      [`/clips/${clip.B}`, 'clip', { '09': 1, '10': 1, '11': 0, '12': 0 }, { '09': 1, '10': 1, '11': 0, '12': 0 }],
    ];
    for (const [path, label, la, akl] of levels) {
      const inLa = await series(path, `${RANGE}&timeZoneIanaId=${LA}`);
      expect(days(inLa), label).toEqual(Object.fromEntries(Object.entries(la).map(([d, n]) => [`2025-05-${d}T00:00:00-07:00`, n])));
      expect(inLa.PendingDownloads).toBe(0);
      const inAkl = await series(path, `${RANGE}&timeZoneIanaId=${AKL}&interval=day`);
      expect(days(inAkl), label).toEqual(Object.fromEntries(Object.entries(akl).map(([d, n]) => [`2025-05-${d}T00:00:00+12:00`, n])));
      expect(inAkl.Total).toBe(Object.values(akl).reduce((a, b) => a + b, 0));
    }
    // No time zone: UTC days.
    expect(days(await series('', RANGE))).toEqual({ '2025-05-09T00:00:00+00:00': 2, '2025-05-10T00:00:00+00:00': 5, '2025-05-11T00:00:00+00:00': 1, '2025-05-12T00:00:00+00:00': 0 });
  });

  it('splits by media type', async () => {
    const reply = await demo.get(`/api/v1/analytics/media-types?${RANGE}&timeZoneIanaId=${LA}`);
    expect(reply.status, reply.text).toBe(200);
    const body = reply.body as MediaTypes;
    expect(body.Total).toBe(8);
    expect(body.MediaTypes.map((m) => [m.MediaType, m.Total, m.Points.map((p) => p.Downloads)])).toEqual([
      ['Audio', 7, [3, 3, 1, 0]],
      ['Video', 1, [1, 0, 0, 0]],
    ]);
  });

  it('buckets by hour, week and month in local time', async () => {
    const hours = await series('', `startDate=2025-05-10&endDate=2025-05-10&timeZoneIanaId=${LA}&interval=hour`);
    expect(hours.Points).toHaveLength(24);
    expect(hours.Points[0]!.Start).toBe('2025-05-10T00:00:00-07:00');
    expect(Object.fromEntries(hours.Points.filter((p) => p.Downloads > 0).map((p) => [p.Start, p.Downloads]))).toEqual({
      '2025-05-10T00:00:00-07:00': 1,
      '2025-05-10T04:00:00-07:00': 1,
      '2025-05-10T05:00:00-07:00': 1,
    });
    // 9 May 2025 is a Friday: its week began on Monday the 5th; the 12th is the next Monday.
    expect(days(await series('', `${RANGE}&timeZoneIanaId=${LA}&interval=week`))).toEqual({ '2025-05-05T00:00:00-07:00': 8, '2025-05-12T00:00:00-07:00': 0 });
    expect(days(await series('', `${RANGE}&timeZoneIanaId=${AKL}&interval=MONTH`))).toEqual({ '2025-05-01T00:00:00+12:00': 8 });
  });

  it('gives a DST day 23 or 25 hours, and rolls up downloads counted after the last answer', async () => {
    await insert([['2025-03-09T10:30:00Z', 'A', 'Audio', 'Overcast', 'US']]);
    const spring = await series('', `startDate=2025-03-09&endDate=2025-03-09&timeZoneIanaId=${LA}&interval=hour`);
    expect(spring.Points).toHaveLength(23);
    expect(spring.Points.map((p) => p.Start).slice(1, 3)).toEqual(['2025-03-09T01:00:00-08:00', '2025-03-09T03:00:00-07:00']);
    expect(spring.Points.find((p) => p.Downloads > 0)).toEqual({ Start: '2025-03-09T03:00:00-07:00', Downloads: 1 });
    const fall = await series('', `startDate=2025-11-02&endDate=2025-11-02&timeZoneIanaId=${LA}&interval=hour`);
    expect(fall.Points).toHaveLength(25);
    expect(fall.Points.map((p) => p.Start).slice(1, 3)).toEqual(['2025-11-02T01:00:00-07:00', '2025-11-02T01:00:00-08:00']);
    const march = await series('', `startDate=2025-03-08&endDate=2025-03-09&timeZoneIanaId=${LA}`);
    expect(days(march)).toEqual({ '2025-03-08T00:00:00-08:00': 0, '2025-03-09T00:00:00-08:00': 1 });
  });

  it('groups by program, clip, app and country, most first, with maxItems, filter and downloadMediaType', async () => {
    const grouping = async (path: string, query: string) => {
      const reply = await demo.get(`/api/v1${path}/analytics/downloads/${query}`);
      expect(reply.status, reply.text).toBe(200);
      return reply.body as Grouping;
    };
    const q = `${RANGE}&timeZoneIanaId=${LA}`;
    const programs = await grouping('', `programs?${q}`);
    expect(programs.Total).toBe(8);
    expect(programs.Items.map((i) => [i.Key, i.Label, i.Downloads])).toEqual([
      [program.A, 'Morning Briefing', 6],
      [program.D, 'Matchday Live', 1],
      [program.C, 'World Tonight', 1],
    ]);
    expect((await grouping('', `apps?${q}`)).Items.map((i) => [i.Label, i.Downloads])).toEqual([
      ['Apple Podcasts', 4],
      ['Overcast', 2],
      ['Spotify', 2],
    ]);
    expect((await grouping('', `countries?${q}`)).Items.map((i) => [i.Key, i.Label, i.Downloads])).toEqual([
      ['US', 'United States of America', 6],
      ['NZ', 'New Zealand', 1],
      ['ZZ', 'Unknown', 1],
    ]);
    const top = await grouping('', `apps?${q}&maxItems=1`);
    expect([top.Total, top.Items.map((i) => i.Label)]).toEqual([8, ['Apple Podcasts']]);
    expect((await grouping('', `apps?${q}&filter=SPOT`)).Items.map((i) => i.Label)).toEqual(['Spotify']);
    const video = await grouping('', `apps?${q}&downloadMediaType=video`);
    expect([video.Total, video.Items.map((i) => [i.Label, i.Downloads])]).toEqual([1, [['Spotify', 1]]]);
    expect((await grouping(`/programs/${program.A}`, `clips?${q}`)).Items.map((i) => [i.Key, i.Downloads])).toEqual([
      [clip.A, 4],
      [clip.B, 2],
    ]);
    // A clip's own dimensions (read from its counted downloads), and a network's programs.
    expect((await grouping(`/clips/${clip.A}`, `apps?${q}`)).Items.map((i) => [i.Label, i.Downloads])).toEqual([
      ['Apple Podcasts', 3],
      ['Spotify', 1],
    ]);
    expect((await grouping(`/networks/${seedId('network:news')}`, `programs?${q}`)).Items.map((i) => i.Downloads)).toEqual([6, 1]);
    expect((await grouping(`/playlists/${playlistId}`, `countries?${q}`)).Items.map((i) => [i.Key, i.Downloads])).toEqual([
      ['US', 3],
      ['NZ', 1],
    ]);
  });

  it('refuses bad parameters with a 400 naming the field', async () => {
    const bad = async (query: string, path = '/api/v1/analytics/downloads') => {
      const reply = await demo.get(`${path}?${query}`);
      expect(reply.status, query).toBe(400);
      return fields(reply);
    };
    expect(await bad('')).toEqual([
      ['startDate', 'required'],
      ['endDate', 'required'],
    ]);
    expect(await bad('startDate=2025-05-09')).toEqual([['endDate', 'required']]);
    expect(await bad('startDate=2025-05-10&endDate=2025-05-09')).toEqual([['endDate', 'reversed']]);
    expect(await bad('startDate=2025-02-30&endDate=2025-05-09')).toEqual([['startDate', 'dateInvalid']]);
    expect(await bad(`${RANGE}&timeZoneIanaId=Mars/Olympus`)).toEqual([['timeZoneIanaId', 'invalid']]);
    expect(await bad(`${RANGE}&interval=fortnight`)).toEqual([['interval', 'invalid']]);
    expect(await bad('startDate=2025-01-01&endDate=2025-03-01&interval=hour')).toEqual([['endDate', 'outOfRange']]);
    expect(await bad(`${RANGE}&maxItems=0`, '/api/v1/analytics/downloads/apps')).toEqual([['maxItems', 'outOfRange']]);
    expect(await bad(`${RANGE}&downloadMediaType=Vinyl`, '/api/v1/analytics/downloads/apps')).toEqual([['downloadMediaType', 'invalid']]);
    expect((await demo.get(`/api/v1/analytics/downloads/planets?${RANGE}`)).status).toBe(404);
  });

  it('answers HasAnalyticsAccess at the level, and another organization’s rows as none', async () => {
    const analyst = new AppClient(seeded.app);
    await analyst.login('analyst@example.com');
    expect((await analyst.get(`/api/v1/analytics/downloads?${RANGE}`)).status).toBe(200);
    expect((await analyst.get(`/api/v1/programs/${program.A}/analytics/downloads?${RANGE}`)).status).toBe(200);
    // Analytics only: programs, not their clips (no content access), nor a clip's own numbers.
    const clips = (await analyst.get(`/api/v1/analytics/downloads/clips?${RANGE}`)).body as Grouping;
    expect([clips.Total, clips.Items]).toEqual([8, []]);
    expect((await analyst.get(`/api/v1/clips/${clip.A}/analytics/downloads?${RANGE}`)).status).toBe(404);
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    expect((await producer.get(`/api/v1/analytics/downloads?${RANGE}`)).status).toBe(403);
    expect((await producer.get(`/api/v1/programs/${program.A}/analytics/downloads?${RANGE}`)).status).toBe(403);
    expect((await producer.get(`/api/v1/clips/${clip.A}/analytics/media-types?${RANGE}`)).status).toBe(403);
    expect((await producer.get(`/api/v1/programs/${program.D}/analytics/downloads?${RANGE}`)).status).toBe(404);
    // The demo user, acting in the demo organization, asking about a program of the other one.
    expect((await demo.get(`/api/v1/programs/${seedId('program:deepdive')}/analytics/downloads?${RANGE}`)).status).toBe(404);
    expect((await demo.get(`/api/v1/networks/${seedId('network:originals')}/analytics/downloads/apps?${RANGE}`)).status).toBe(404);
    const other = new AppClient(seeded.app);
    await other.login('demo@example.com');
    other.organizationId = ORG_PODCASTS;
    // Castaway Podcasts' plan (Starter) has no playlist-download-analytics: refused for the plan,
    // not for the flags (tests/server/plans.test.ts has the rest of it).
    const unplanned = await other.get(`/api/v1/analytics/downloads?${RANGE}`);
    expect([unplanned.status, (unplanned.body as { Errors: Array<{ Code: string }> }).Errors[0]!.Code]).toEqual([403, 'featureNotInPlan']);
  });

  it('says how many downloads a backlog leaves out, and the rollup job adds them', async () => {
    await insert([['2025-05-12T20:00:00Z', 'D', 'Audio', 'Spotify', 'US']]);
    // A backlog larger than the batch an answer rolls up itself (5,000): counted on 1 January 2024.
    await test.store.query(
      `INSERT INTO counted_downloads (organization_id, program_id, clip_id, counted_at_utc, listener_hash, media_type, app, device, os, country, source)
       SELECT $1, $2, $3, '2024-01-01T12:00:00Z', 'h' || g, 'Audio', 'Overcast', 'Mobile', 'iOS', 'US', 'feed' FROM generate_series(1, 6000) g`,
      [ORG_DEMO, program.A, clip.A],
    );
    const lagging = await series('', `startDate=2024-01-01&endDate=2024-01-01`);
    expect([lagging.Total, lagging.PendingDownloads]).toEqual([4999, 1001]);
    await seeded.app.jobs.drain();
    expect(await pendingDownloads(test.store)).toBe(0);
    const complete = await series('', `startDate=2024-01-01&endDate=2024-01-01`);
    expect([complete.Total, complete.PendingDownloads]).toEqual([6000, 0]);
    expect(days(await series('', `${RANGE}&timeZoneIanaId=${LA}`))['2025-05-12T00:00:00-07:00']).toBe(1);
    // Asked for directly (the counting job's enqueueRollup), with nothing left: nothing changes.
    await test.store.tx((q) => enqueueRollup(q));
    await seeded.app.jobs.drain();
    expect(await pendingDownloads(test.store)).toBe(0);
  });
});
