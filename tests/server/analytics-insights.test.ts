// The rest of section 7's analytics calls, on both stores, with numbers worked out by hand below:
// a clip's consumption curve from raw requests written here; the clips glance in two time zones;
// the reach estimate run by its durable job; how current the numbers are, before and after the
// real counting job; the custom player names, their validation, and the apps grouping they relabel.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DEMO, seedId } from '../../sync-server/seed.ts';
import { countDownloads } from '../../sync-server/analytics/counting.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type StoreKind, type TestStore } from './test-store.ts';

type Consumption = {
  Source: string | null;
  DurationSeconds: number | null;
  RequestsRead: number;
  Listeners: number;
  MedianListenedThroughSeconds: number | null;
  MedianListenedThroughShare: number | null;
  Buckets: Array<{ StartSeconds: number; EndSeconds: number; Listeners: number; Share: number }>;
};
type Glance = { Today: string; PendingDownloads: number; Clips: Array<{ ClipId: string; Downloads: number; LastSevenDays: number; FirstSevenDays: number | null; FirstSevenDaysComplete: boolean }> };
type Operation = { Id: string; Status: string; Progress: number; Estimate: Record<string, unknown> | null };
type Progress = { RawEventsPending: number; DownloadsPending: number; CountedThroughUtc: string | null; OldestPendingEventUtc: string | null; CountingRunning: boolean; AsOfUtc: string };

const LA = 'America/Los_Angeles';
const AKL = 'Pacific/Auckland';
const STATION = 'MyStationApp/2.1 (iPhone; iOS 17.0)';
const OVERCAST = 'Overcast/3.0 (+http://overcast.fm/; iOS podcast app)';
const CHROME = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36';

describe.each(storeKinds.filter((k) => k === 'pglite' || process.env.TEST_DATABASE_URL) as StoreKind[])('analytics insights on %s', (kind) => {
  let test: TestStore;
  let seeded: SeededApp;
  let demo: AppClient;
  const morning = seedId('program:morning');
  const matchday = seedId('program:matchday');
  // Morning Briefing's first four clips (A, B, C: the glance; F: the consumption curve), Matchday's two (D, E: reach).
  let A = '', B = '', C = '', F = '', D = '', E = '';

  const counted = async (clip: string, program: string, at: string, hash = 'h') =>
    test.store.query(
      `INSERT INTO counted_downloads (organization_id, program_id, clip_id, counted_at_utc, listener_hash, media_type, app, device, os, country, source)
       VALUES ($1, $2, $3, $4, $5, 'Audio', 'Overcast', 'Mobile', 'iOS', 'US', 'feed')`,
      [ORG_DEMO, program, clip, at, hash],
    );
  /** A raw request for clip F on 10 May 2025 (the recorder's columns). */
  const raw = async (e: { at: string; hash: string; ua: string; status?: number; method?: string; range?: string | null; start?: number | null; sent: number; source?: string | null; adFree?: boolean }) =>
    test.store.query(
      `INSERT INTO download_events (at_utc, clip_id, organization_id, program_id, method, status, range_header, range_start, range_end, bytes_sent, user_agent, source, ad_free, listener_hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9, $10, $11, $12, $13)`,
      [e.at, F, ORG_DEMO, morning, e.method ?? 'GET', e.status ?? 200, e.range ?? null, e.start ?? null, e.sent, e.ua, e.source === undefined ? 'feed' : e.source, e.adFree ?? false, e.hash],
    );

  beforeAll(async () => {
    test = await openTestStore(kind);
    seeded = await seededApp(test.store);
    const clips = async (programId: string, n: number) =>
      (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT ${n}`, [programId])).map((r) => r.id);
    [A, B, C, F] = (await clips(morning, 4)) as [string, string, string, string];
    [D, E] = (await clips(matchday, 2)) as [string, string];
    const setData = (id: string, data: Record<string, unknown>) => test.store.query(`UPDATE clips SET data = data || $2::jsonb WHERE id = $1`, [id, JSON.stringify(data)]);
    // F: a 100-second file of 1,000,000 bytes (10,000 a second). IAB threshold: 65,536 + 600,000 = 665,536 bytes.
    await setData(F, { PublishedAudioSizeInBytes: 1_000_000, PublishedDurationSeconds: 100 });
    await setData(A, { PublishedUtc: '2025-05-25T06:30:00.000Z' });
    await setData(B, { PublishedUtc: '2025-05-30T12:00:00.000Z', PublishedAudioSizeInBytes: null });
    await setData(C, { PublishedUtc: null });
    demo = new AppClient(seeded.app);
    await demo.login('demo@example.com');
    demo.organizationId = ORG_DEMO;
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  const json = async <T>(path: string, expected = 200, client = demo): Promise<T> => {
    const reply = await client.get(path);
    expect(reply.status, `${path}: ${reply.text}`).toBe(expected);
    return reply.body as T;
  };

  it('draws the consumption curve from the bytes delivered to each listener', async () => {
    const at = '2025-05-10T08:00:00.000Z';
    // L1: the whole file (100 s). L2: 0–499,999 then 400,000–799,999: the union is 800,000 bytes (80 s).
    // L3: 0–699,999 (70 s), from an embed. L4: 300,000 bytes, under the threshold: not on the curve.
    // Left out: a size probe, a bot, a HEAD, the ad-free file.
    await raw({ at, hash: 'L1', ua: OVERCAST, sent: 1_000_000 });
    await raw({ at, hash: 'L2', ua: STATION, status: 206, range: 'bytes=0-499999', start: 0, sent: 500_000 });
    await raw({ at: '2025-05-10T08:05:00.000Z', hash: 'L2', ua: STATION, status: 206, range: 'bytes=400000-799999', start: 400_000, sent: 400_000 });
    await raw({ at, hash: 'L3', ua: CHROME, status: 206, range: 'bytes=0-699999', start: 0, sent: 700_000, source: 'embed' });
    await raw({ at, hash: 'L4', ua: STATION, status: 206, range: 'bytes=0-299999', start: 0, sent: 300_000 });
    await raw({ at, hash: 'L5', ua: STATION, status: 206, range: 'bytes=0-1', start: 0, sent: 2 });
    await raw({ at, hash: 'L6', ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)', sent: 1_000_000 });
    await raw({ at, hash: 'L7', ua: STATION, method: 'HEAD', sent: 0 });
    await raw({ at, hash: 'L8', ua: STATION, sent: 900_000, adFree: true });

    const all = await json<Consumption>(`/api/v1/clips/${F}/analytics/consumption`);
    // GET 2xx with bytes, not ad-free: L1, L2 ×2, L3, L4, the probe, the bot.
    expect([all.RequestsRead, all.Listeners, all.DurationSeconds, all.Source]).toEqual([7, 3, 100, null]);
    // Median of 100, 80 and 70 seconds.
    expect([all.MedianListenedThroughSeconds, all.MedianListenedThroughShare]).toEqual([80, 0.8]);
    expect(all.Buckets).toHaveLength(100);
    expect(all.Buckets[0]).toEqual({ StartSeconds: 0, EndSeconds: 1, Listeners: 3, Share: 1 });
    // A bucket counts a listener whose bytes cover its middle: 0–69 all three, 70–79 L1 and L2, 80–99 L1.
    const runs = all.Buckets.map((b) => b.Listeners);
    expect([runs.slice(0, 70).every((n) => n === 3), runs.slice(70, 80).every((n) => n === 2), runs.slice(80).every((n) => n === 1)]).toEqual([true, true, true]);
    expect(all.Buckets[75]).toEqual({ StartSeconds: 75, EndSeconds: 76, Listeners: 2, Share: 0.6667 });

    const embed = await json<Consumption>(`/api/v1/clips/${F}/analytics/consumption?source=EMBED`);
    expect([embed.Source, embed.Listeners, embed.MedianListenedThroughSeconds, embed.Buckets[69]!.Listeners, embed.Buckets[70]!.Listeners]).toEqual(['embed', 1, 70, 1, 0]);
    // Not published (no size): no curve.
    const none = await json<Consumption>(`/api/v1/clips/${B}/analytics/consumption`);
    expect([none.DurationSeconds, none.Listeners, none.Buckets]).toEqual([null, 0, []]);
    expect(fields(await demo.get(`/api/v1/clips/${F}/analytics/consumption?source=radio`))).toEqual([['source', 'invalid']]);
  });

  it('says how current the numbers are, before and after the counting job', async () => {
    const before = await json<Progress>('/api/v1/analytics/progress');
    // The nine requests above are the organization's only raw events, none counted yet.
    expect(before).toEqual({
      RawEventsPending: 9,
      DownloadsPending: 0,
      CountedThroughUtc: null,
      OldestPendingEventUtc: '2025-05-10T08:00:00.000Z',
      CountingRunning: false,
      AsOfUtc: '2025-05-10T08:00:00.000Z',
    });
    // L1, L2 (at its second request) and L3 pass the threshold, and L8: the ad-free file is a
    // download too (only the curve leaves it out, its bytes being another file's).
    expect(await countDownloads(test.store)).toEqual({ events: 9, downloads: 4 });
    const after = await json<Progress>('/api/v1/analytics/progress');
    expect(after).toEqual({
      RawEventsPending: 0,
      DownloadsPending: 4,
      CountedThroughUtc: '2025-05-10T08:00:00.000Z',
      OldestPendingEventUtc: null,
      CountingRunning: false,
      AsOfUtc: seeded.clock.now.toISOString(),
    });
    const analyst = new AppClient(seeded.app);
    await analyst.login('analyst@example.com');
    expect((await analyst.get('/api/v1/analytics/progress')).status).toBe(200);
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    expect((await producer.get('/api/v1/analytics/progress')).status).toBe(403);
  });

  it('names the organization’s own players in the apps grouping, downloads counted before included', async () => {
    const apps = async (path: string) => {
      const body = await json<{ Items: Array<{ Label: string; Downloads: number }>; Total: number }>(`/api/v1${path}/analytics/downloads/apps?startDate=2025-05-10&endDate=2025-05-10`);
      return [body.Total, body.Items.map((i) => [i.Label, i.Downloads])];
    };
    // L2 and L8 (MyStationApp) are Unknown to the counting job.
    expect(await apps(`/clips/${F}`)).toEqual([4, [['Unknown', 2], ['Overcast', 1], ['Web browser', 1]]]);
    expect(await json('/api/v1/settings/analytics/custom-player-names')).toEqual({ CustomPlayerNames: [], ModifiedAtUtc: null });
    const put = (body: unknown, client = demo) => client.send('PUT', '/api/v1/settings/analytics/custom-player-names', { json: body });
    const saved = await put({ CustomPlayerNames: [{ UserAgentContains: ' mystationapp/ ', Name: 'My Station ' }, { UserAgentContains: 'NoSuchPlayer', Name: 'Nobody' }] });
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body).toEqual({
      CustomPlayerNames: [
        { UserAgentContains: 'mystationapp/', Name: 'My Station' },
        { UserAgentContains: 'NoSuchPlayer', Name: 'Nobody' },
      ],
      ModifiedAtUtc: seeded.clock.now.toISOString(),
    });
    // Their downloads move from Unknown to My Station, at the clip (counted rows) and the organization (rollups).
    expect(await apps(`/clips/${F}`)).toEqual([4, [['My Station', 2], ['Overcast', 1], ['Web browser', 1]]]);
    expect(await apps('')).toEqual([4, [['My Station', 2], ['Overcast', 1], ['Web browser', 1]]]);

    const bad = await put({
      CustomPlayerNames: [
        { UserAgentContains: ' ', Name: 'x' },
        { UserAgentContains: 'ab', Name: '' },
        { UserAgentContains: 'MyStationApp', Name: 'y'.repeat(101) },
        { UserAgentContains: 'mystationapp ', Name: 'Again' },
      ],
    });
    expect(bad.status).toBe(400);
    expect(fields(bad)).toEqual([
      ['CustomPlayerNames.0.UserAgentContains', 'required'],
      ['CustomPlayerNames.1.UserAgentContains', 'tooShort'],
      ['CustomPlayerNames.1.Name', 'required'],
      ['CustomPlayerNames.2.Name', 'tooLong'],
      ['CustomPlayerNames.3.UserAgentContains', 'invalid'],
    ]);
    expect(fields(await put({ CustomPlayerNames: [{ UserAgentContains: 'abcd' }] }))).toEqual([['CustomPlayerNames.0.Name', 'required']]);
    // Read with HasAnalyticsAccess; written with HasManageOrganizationSettingsAccess at organization scope.
    const analyst = new AppClient(seeded.app);
    await analyst.login('analyst@example.com');
    expect((await analyst.get('/api/v1/settings/analytics/custom-player-names')).status).toBe(200);
    expect((await put({ CustomPlayerNames: [] }, analyst)).status).toBe(403);
  });

  it('gives each clip its downloads in all, in the last seven days and in its first seven days, by local day', async () => {
    // The server's clock: 2025-06-01 12:00 UTC, so today is 1 June in Los Angeles (05:00) and 2 June in Auckland (00:00).
    //   #  UTC               clip  LA local      Auckland local
    //   1  2025-05-25 05:00  A     05-24 22:00   05-25 17:00
    //   2  2025-05-31 08:00  A     05-31 01:00   05-31 20:00
    //   3  2025-05-31 12:30  A     05-31 05:30   06-01 00:30
    //   4  2025-05-25 20:00  A     05-25 13:00   05-26 08:00
    //   5  2025-06-01 11:00  A     06-01 04:00   06-01 23:00
    //   6  2025-05-20 10:00  A     05-20 03:00   05-20 22:00
    //   7  2025-05-30 13:00  B     05-30 06:00   05-31 01:00
    // A was published 2025-05-25 06:30 UTC: 24 May in LA, 25 May in Auckland; B 2025-05-30 12:00 UTC: 30 May in both.
    for (const at of ['2025-05-25T05:00:00Z', '2025-05-31T08:00:00Z', '2025-05-31T12:30:00Z', '2025-05-25T20:00:00Z', '2025-06-01T11:00:00Z', '2025-05-20T10:00:00Z']) await counted(A, morning, at);
    await counted(B, morning, '2025-05-30T13:00:00Z');
    const glance = (zone: string) => json<Glance>(`/api/v1/programs/${morning}/clips/analytics/glance?clipIds=${A},${B},${C},${D}&ianaTimeZoneId=${zone}`);
    const row = (g: Glance) => Object.fromEntries(g.Clips.map((c) => [c.ClipId, [c.Downloads, c.LastSevenDays, c.FirstSevenDays, c.FirstSevenDaysComplete]]));
    const la = await glance(LA);
    expect([la.Today, la.PendingDownloads]).toEqual(['2025-06-01', 0]);
    // LA: last seven days 26 May–1 June: #2, #3, #5; A's first seven 24–30 May: #1, #4. D is Matchday's: left out.
    expect(row(la)).toEqual({ [A]: [6, 3, 2, true], [B]: [1, 1, 1, false], [C]: [0, 0, null, false] });
    // Auckland: last seven days 27 May–2 June: #2, #3, #5; A's first seven 25–31 May: #1, #2, #4.
    const akl = await glance(AKL);
    expect(akl.Today).toBe('2025-06-02');
    expect(row(akl)).toEqual({ [A]: [6, 3, 3, true], [B]: [1, 1, 1, false], [C]: [0, 0, null, false] });
    // No clipIds: the program's clips, A among them.
    expect((await json<Glance>(`/api/v1/programs/${morning}/clips/analytics/glance?ianaTimeZoneId=UTC`)).Clips.find((c) => c.ClipId === A)?.Downloads).toBe(6);

    const path = `/api/v1/programs/${morning}/clips/analytics/glance`;
    expect(fields(await demo.get(path))).toEqual([['ianaTimeZoneId', 'required']]);
    expect(fields(await demo.get(`${path}?ianaTimeZoneId=Mars/Olympus`))).toEqual([['ianaTimeZoneId', 'invalid']]);
    expect(fields(await demo.get(`${path}?ianaTimeZoneId=UTC&clipIds=nope`))).toEqual([['clipIds', 'invalid']]);
    const many = Array.from({ length: 101 }, () => crypto.randomUUID()).join(',');
    expect(fields(await demo.get(`${path}?ianaTimeZoneId=UTC&clipIds=${many}`))).toEqual([['clipIds', 'outOfRange']]);
    // Clips are content: analytics alone is not enough.
    const analyst = new AppClient(seeded.app);
    await analyst.login('analyst@example.com');
    expect((await analyst.get(`${path}?ianaTimeZoneId=UTC`)).status).toBe(403);
  });

  it('estimates reach on a durable job: daily unique listeners, their average, the peak day', async () => {
    //   listener  clip  UTC               Auckland (+13 until 6 April)
    //   h1        D     2025-04-01 10:00  04-01 23:00
    //   h1        E     2025-04-01 11:00  04-02 00:00
    //   h2        D     2025-04-01 12:00  04-02 01:00
    //   h3        D     2025-04-02 09:00  04-02 22:00
    await counted(D, matchday, '2025-04-01T10:00:00Z', 'h1');
    await counted(E, matchday, '2025-04-01T11:00:00Z', 'h1');
    await counted(D, matchday, '2025-04-01T12:00:00Z', 'h2');
    await counted(D, matchday, '2025-04-02T09:00:00Z', 'h3');
    const estimate = async (path: string, body: Record<string, string>) => {
      const started = await demo.post(`/api/v1${path}/analytics/reach-estimate`, body);
      expect(started.status, started.text).toBe(202);
      const operation = started.body as Operation;
      expect([operation.Status, operation.Progress, operation.Estimate]).toEqual(['Busy', 0, null]);
      expect(((await json<Operation>(`/api/v1/analytics/reach-estimate/${operation.Id}`)) as Operation).Status).toBe('Busy');
      await seeded.app.jobs.drain();
      const done = await json<Operation>(`/api/v1/analytics/reach-estimate/${operation.Id}`);
      expect([done.Status, done.Progress], JSON.stringify(done)).toEqual(['Success', 1]);
      return { id: operation.Id, estimate: done.Estimate! };
    };
    const utc = await estimate('', { StartDate: '2025-04-01', EndDate: '2025-04-03' });
    // UTC days: 1 April h1, h2 (3 downloads), 2 April h3; 3 April nothing. 3 listener-days over 3 days; 4 / 3 downloads each.
    expect(utc.estimate).toEqual({
      StartDate: '2025-04-01',
      EndDate: '2025-04-03',
      TimeZoneIanaId: 'UTC',
      Days: 3,
      Downloads: 4,
      ListenerDays: 3,
      AverageDailyListeners: 1,
      PeakDay: { Date: '2025-04-01', Listeners: 2, Downloads: 3 },
      DownloadsPerListenerDay: 1.33,
      DailyListeners: [
        { Date: '2025-04-01', Listeners: 2, Downloads: 3 },
        { Date: '2025-04-02', Listeners: 1, Downloads: 1 },
      ],
    });
    // Auckland days: 1 April h1; 2 April h1, h2, h3 (a listener-day each): 4 over 3 days.
    const akl = await estimate(`/programs/${matchday}`, { StartDate: '2025-04-01', EndDate: '2025-04-03', TimeZoneIanaId: AKL });
    expect([akl.estimate['ListenerDays'], akl.estimate['AverageDailyListeners'], akl.estimate['PeakDay'], akl.estimate['DownloadsPerListenerDay']]).toEqual([
      4,
      1.33,
      { Date: '2025-04-02', Listeners: 3, Downloads: 3 },
      1,
    ]);
    // One clip (D): h1, h2 on 1 April, h3 on 2 April. Over 93 days (in four parts of 31): 3 / 93 = 0.03.
    const clip = await estimate(`/clips/${D}`, { StartDate: '2025-01-01', EndDate: '2025-04-03' });
    expect([clip.estimate['Days'], clip.estimate['Downloads'], clip.estimate['ListenerDays'], clip.estimate['AverageDailyListeners']]).toEqual([93, 3, 3, 0.03]);

    // Only its asker reads an operation.
    const analyst = new AppClient(seeded.app);
    await analyst.login('analyst@example.com');
    expect((await analyst.get(`/api/v1/analytics/reach-estimate/${utc.id}`)).status).toBe(404);
    expect((await demo.get(`/api/v1/analytics/reach-estimate/${crypto.randomUUID()}`)).status).toBe(404);
    const bad = async (body: unknown) => fields(await demo.post('/api/v1/analytics/reach-estimate', body));
    expect(await bad({ StartDate: '', EndDate: '2025-04-03' })).toEqual([['StartDate', 'required']]);
    expect(await bad({ StartDate: '2025-04-03', EndDate: '2025-04-01' })).toEqual([['EndDate', 'reversed']]);
    expect(await bad({ StartDate: '2025-04-01', EndDate: '2025-04-03', TimeZoneIanaId: 'Mars/Olympus' })).toEqual([['TimeZoneIanaId', 'invalid']]);
    expect(await bad({ StartDate: '2025-04-01', EndDate: '2025-04-03', Extra: 1 })).toEqual([['Extra', 'invalid']]);
    const producer = new AppClient(seeded.app);
    await producer.login('producer@example.com');
    expect((await producer.post('/api/v1/analytics/reach-estimate', { StartDate: '2025-04-01', EndDate: '2025-04-03' })).status).toBe(403);
  });
});
