// Reports (section 7, section 4 "Report generation"): each kind over counted downloads written here
// by hand, with the expected numbers worked out by hand below; started with 202, made by the
// report job, polled to Success with the section 4 poller; CSV; 400s at their fields; who may
// start and read what; the scheduled-publish report. On PGlite and PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pollOperation } from '../../src/domain/polling.ts';
import type { ReportOperation, ReportOperationSummary, ScheduledPublishPage } from '../../src/protocol/api/reports.ts';
import { ORG_DEMO, ORG_PODCASTS, seedId } from '../../sync-server/seed.ts';
import { PART_DAYS, REPORT_JOB, reportJobs } from '../../sync-server/reports/report-job.ts';
import { jobContext } from '../../sync-server/jobs/runner.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { AppClient, fields, seededApp, type SeededApp } from './app-client.ts';
import { openTestStore, storeKinds, type StoreKind, type TestStore } from './test-store.ts';

// The downloads (America/Los_Angeles is UTC-7 in May). A and B are Morning Briefing's, C World
// Tonight's (both of the News network), D Matchday Live's (Sport).
//   #  UTC                clip  media  listener  source   LA local
//   1  2025-05-10 02:30   A     Audio  h1        feed     05-09 19:30
//   2  2025-05-10 06:59   A     Video  h2        embed    05-09 23:59
//   3  2025-05-10 07:00   B     Audio  h1        feed     05-10 00:00
//   4  2025-05-10 11:30   C     Audio  h1        feed     05-10 04:30
//   5  2025-05-10 12:00   D     Audio  h1        page     05-10 05:00
//   6  2025-05-09 23:00   A     Audio  h4        feed     05-09 16:00
//   7  2025-05-09 11:59   B     Audio  h3        feed     05-09 04:59
//   8  2025-05-11 18:00   A     Audio  h1        feed     05-11 11:00  (outside 05-09..05-10 in LA)
// Clip durations: A 600 s, B 1800 s, C 300 s, D 3600 s.
const DOWNLOADS: Array<[string, 'A' | 'B' | 'C' | 'D', 'Audio' | 'Video', string, string]> = [
  ['2025-05-10T02:30:00Z', 'A', 'Audio', 'h1', 'feed'],
  ['2025-05-10T06:59:00Z', 'A', 'Video', 'h2', 'embed'],
  ['2025-05-10T07:00:00Z', 'B', 'Audio', 'h1', 'feed'],
  ['2025-05-10T11:30:00Z', 'C', 'Audio', 'h1', 'feed'],
  ['2025-05-10T12:00:00Z', 'D', 'Audio', 'h1', 'page'],
  ['2025-05-09T23:00:00Z', 'A', 'Audio', 'h4', 'feed'],
  ['2025-05-09T11:59:00Z', 'B', 'Audio', 'h3', 'feed'],
  ['2025-05-11T18:00:00Z', 'A', 'Audio', 'h1', 'feed'],
];
const LA_RANGE = 'startDate=2025-05-09&endDate=2025-05-10&timeZoneIanaId=America/Los_Angeles';

describe.each(storeKinds.filter((k) => k === 'pglite' || process.env.TEST_DATABASE_URL) as StoreKind[])('reports on %s', (kind) => {
  let test: TestStore;
  let seeded: SeededApp;
  let demo: AppClient;
  let analyst: AppClient;
  let producer: AppClient;
  const clip = { A: '', B: '', C: '', D: '', E: '', F: '' };
  const program = { morning: seedId('program:morning'), world: seedId('program:world'), matchday: seedId('program:matchday') };
  const network = { news: seedId('network:news'), sport: seedId('network:sport'), culture: seedId('network:culture') };

  const setClip = (id: string, data: Record<string, unknown>, visibility?: string) =>
    test.store.query(`UPDATE clips SET data = data || $2::jsonb, visibility = coalesce($3, visibility) WHERE id = $1`, [id, JSON.stringify(data), visibility ?? null]);

  beforeAll(async () => {
    test = await openTestStore(kind);
    seeded = await seededApp(test.store);
    const clipsOf = async (programId: string, n: number) =>
      (await test.store.query<{ id: string }>(`SELECT id FROM clips WHERE program_id = $1 AND NOT deleted ORDER BY id LIMIT ${n}`, [programId])).map((r) => r.id);
    [clip.A, clip.B, clip.E, clip.F] = (await clipsOf(program.morning, 4)) as [string, string, string, string];
    [clip.C] = (await clipsOf(program.world, 1)) as [string];
    [clip.D] = (await clipsOf(program.matchday, 1)) as [string];
    const programOf = { A: program.morning, B: program.morning, C: program.world, D: program.matchday };
    for (const [at, c, media, listener, source] of DOWNLOADS) {
      await test.store.query(
        `INSERT INTO counted_downloads (organization_id, program_id, clip_id, counted_at_utc, listener_hash, media_type, app, device, os, country, source)
         VALUES ($1, $2, $3, $4, $5, $6, 'Overcast', 'Mobile', 'iOS', 'US', $7)`,
        [ORG_DEMO, programOf[c], clip[c], at, listener, media, source],
      );
    }
    await setClip(clip.A, { DurationSeconds: 600, PublishedUtc: '2025-05-08T12:00:00Z', ScheduledVisibility: 'Public', VisibleAtUtc: '2030-05-10T06:30:00Z' }, 'Public');
    await setClip(clip.B, { DurationSeconds: 1800, PublishedUtc: '2025-05-10T00:00:00Z', ScheduledVisibility: null, VisibleAtUtc: null }, 'Private');
    await setClip(clip.C, { DurationSeconds: 300, ScheduledVisibility: 'Unlisted', VisibleAtUtc: '2030-05-10T08:00:00Z' });
    await setClip(clip.D, { DurationSeconds: 3600 });
    // E published a day and a half before the server's clock (2025-06-01 12:00 UTC), F never.
    await setClip(clip.E, { PublishedUtc: '2025-05-31T00:00:00Z' });
    await setClip(clip.F, { PublishedUtc: null });
    // The producer: content access on Morning Briefing and Book Club (the seed), analytics on Morning Briefing here.
    await test.store.query(
      `UPDATE memberships SET permissions = $2::jsonb WHERE organization_id = $1 AND user_id = (SELECT id FROM users WHERE email = 'producer@example.com')`,
      [
        ORG_DEMO,
        JSON.stringify([
          { ObjectType: 'Program', ObjectId: program.morning, Permissions: { HasContentAccess: true, HasAnalyticsAccess: true } },
          { ObjectType: 'Program', ObjectId: seedId('program:bookclub'), Permissions: { HasContentAccess: true } },
        ]),
      ],
    );
    const client = async (email: string) => {
      const c = new AppClient(seeded.app);
      await c.login(email);
      c.organizationId = ORG_DEMO;
      return c;
    };
    demo = await client('demo@example.com');
    analyst = await client('analyst@example.com');
    producer = await client('producer@example.com');
  }, 120_000);

  afterAll(async () => {
    await test?.drop();
  });

  /** Starts a report (202, Busy), then polls it as the screen does (section 4) while the job runs. */
  const run = async (who: AppClient, path: string, body?: unknown): Promise<ReportOperation> => {
    const started = body === undefined ? await who.send('POST', `/api/v1${path}`) : await who.post(`/api/v1${path}`, body);
    expect(started.status, started.text).toBe(202);
    const operation = started.body as ReportOperation;
    expect([operation.Status, operation.Progress, operation.Result]).toEqual(['Busy', 0, null]);
    const outcome = await pollOperation(operation, {
      fetch: async (id) => {
        const reply = await who.get(`/api/v1/reports/${operation.Kind}/${id}`);
        expect(reply.status, reply.text).toBe(200);
        return reply.body as ReportOperation;
      },
      isTransient: () => false,
      // The poller's 1500 ms wait: the job runs meanwhile.
      clock: { now: () => Date.now(), sleep: () => seeded.app.jobs.drain() },
    });
    expect(outcome.status).toBe('success');
    return (outcome as { operation: ReportOperation }).operation;
  };

  const rowsOf = (op: ReportOperation) => op.Result!.Rows;

  it('consumption summary: downloads per program, totals equal to the analytics API’s for the range; source and duration filters', async () => {
    const op = await run(demo, `/reports/consumption-summary-report?${LA_RANGE}`);
    expect(op).toMatchObject({ Status: 'Success', Progress: 100, Level: 'organization', FailureReason: null });
    expect(op.Result!.Columns.map((c) => c.Key)).toEqual(['ProgramId', 'Program', 'Network', 'Clips', 'AudioDownloads', 'VideoDownloads', 'Downloads']);
    expect(rowsOf(op)).toEqual([
      [program.morning, 'Morning Briefing', 'Castaway News', 2, 4, 1, 5],
      [program.matchday, 'Matchday Live', 'Castaway Sport', 1, 1, 0, 1],
      [program.world, 'World Tonight', 'Castaway News', 1, 1, 0, 1],
    ]);
    expect(op.Result!.Totals).toEqual(['Total', null, null, 4, 6, 1, 7]);
    const analytics = await demo.get(`/api/v1/analytics/downloads?${LA_RANGE}`);
    expect((analytics.body as { Total: number }).Total).toBe(7);

    const news = await run(demo, `/networks/${network.news}/reports/consumption-summary-report?${LA_RANGE}`);
    const newsAnalytics = await demo.get(`/api/v1/networks/${network.news}/analytics/downloads?${LA_RANGE}`);
    expect(news.Result!.Totals![6]).toBe((newsAnalytics.body as { Total: number }).Total);
    expect(news.Result!.Totals![6]).toBe(6);

    // #1, #3, #4, #6, #7 are from the feed.
    expect(rowsOf(await run(demo, `/reports/consumption-summary-report?${LA_RANGE}&source=feed`)).map((r) => [r[1], r[6]])).toEqual([
      ['Morning Briefing', 4],
      ['World Tonight', 1],
    ]);
    // Only B (1800 s) lasts 1000 to 2000 seconds: #3 and #7.
    expect(rowsOf(await run(demo, `/programs/${program.morning}/reports/consumption-summary-report?${LA_RANGE}&durationSecondsFrom=1000&durationSecondsTo=2000`))).toEqual([
      [program.morning, 'Morning Briefing', 'Castaway News', 1, 2, 0, 2],
    ]);
  });

  it('moves Progress while Busy: a 92-day range is read in parts of PART_DAYS days, Progress after each, then Success at 100', async () => {
    const started = await demo.send('POST', `/api/v1/reports/consumption-summary-report?startDate=2025-03-01&endDate=2025-05-31&timeZoneIanaId=America/Los_Angeles`);
    const id = (started.body as ReportOperation).Id;
    // The report job's own handler on the real store, watched: what it writes, and what a poll reads after each write.
    const seen: Array<[number, string, number]> = [];
    const watched: Store = Object.create(test.store, {
      query: {
        value: async <T,>(sql: string, params?: unknown[]) => {
          const rows = await test.store.query<T>(sql, params);
          if (sql.startsWith('UPDATE report_operations SET progress')) {
            const poll = (await demo.get(`/api/v1/reports/consumption-summary-report/${id}`)).body as ReportOperation;
            seen.push([params![1] as number, poll.Status, poll.Progress]);
          }
          return rows;
        },
      },
    });
    const handler = reportJobs({ store: watched })[REPORT_JOB]!;
    await handler.run(handler.payload.parse({ operationId: id }), jobContext(test.store, { id: 0, kind: REPORT_JOB, attempt: 1, maxAttempts: 1 }));
    // Part i of n done: floor(100 i / n), held below 100 until the result is stored.
    const parts = Math.ceil(92 / PART_DAYS);
    expect(seen).toEqual(Array.from({ length: parts }, (_, i) => Math.min(99, Math.floor(((i + 1) * 100) / parts))).map((n) => [n, 'Busy', n]));
    expect(parts).toBeGreaterThan(2);
    const done = (await demo.get(`/api/v1/reports/consumption-summary-report/${id}`)).body as ReportOperation;
    // All eight downloads fall in March to May.
    expect([done.Status, done.Progress, done.Result!.Totals![6]]).toEqual(['Success', 100, 8]);
    await seeded.app.jobs.drain(); // the queued job finds it made
  });

  it('answers a report whose job gave up as Failed, with its reason, and no result or CSV', async () => {
    const started = await demo.send('POST', `/api/v1/programs/${program.world}/reports/consumption-summary-report?${LA_RANGE}`);
    const id = (started.body as ReportOperation).Id;
    const handler = reportJobs({ store: test.store })[REPORT_JOB]!;
    const payload = handler.payload.parse({ operationId: id });
    await handler.giveUp!(payload, new Error('the database went away'), jobContext(test.store, { id: 0, kind: REPORT_JOB, attempt: 3, maxAttempts: 3 }));
    const failed = (await demo.get(`/api/v1/reports/consumption-summary-report/${id}`)).body as ReportOperation;
    expect([failed.Status, failed.Result, failed.FinishedAtUtc !== null]).toEqual(['Failed', null, true]);
    expect(failed.FailureReason).toBe('The report could not be made: please try again');
    expect((await demo.get(`/api/v1/reports/consumption-summary-report/${id}/csv`)).status).toBe(409);
    await seeded.app.jobs.drain(); // the queued job finds it ended and leaves it
    expect(((await demo.get(`/api/v1/reports/consumption-summary-report/${id}`)).body as ReportOperation).Status).toBe('Failed');
  });

  it('content report: a row per clip (those without downloads too), by visibility; program rows only for an analytics-only caller', async () => {
    const op = await run(demo, `/networks/${network.news}/reports/content-report?${LA_RANGE}`);
    const byClip = new Map(rowsOf(op).map((r) => [r[2], r]));
    expect(byClip.get(clip.A)).toEqual([program.morning, 'Morning Briefing', clip.A, expect.any(String), 'Public', '2025-05-08T12:00:00Z', 600, 3]);
    expect(byClip.get(clip.B)?.[7]).toBe(2);
    expect(byClip.get(clip.C)?.[7]).toBe(1);
    expect(byClip.get(clip.D)).toBeUndefined(); // Sport
    expect(byClip.get(clip.E)?.[7]).toBe(0);
    expect(op.Result!.Totals![7]).toBe(6);

    const publicOnly = await run(demo, `/reports/content-report?${LA_RANGE}&clipVisibilityFilter=Public`);
    expect(rowsOf(publicOnly).every((r) => r[4] === 'Public')).toBe(true);
    expect(rowsOf(publicOnly).some((r) => r[2] === clip.A)).toBe(true);
    expect(rowsOf(publicOnly).some((r) => r[2] === clip.B)).toBe(false);

    const programsOnly = await run(analyst, `/reports/content-report?${LA_RANGE}`);
    expect(rowsOf(programsOnly).every((r) => r[2] === null && r[3] === null)).toBe(true);
    expect(rowsOf(programsOnly).find((r) => r[0] === program.morning)?.[7]).toBe(5);
    expect(programsOnly.Result!.Totals![7]).toBe(7);
    expect(JSON.stringify(programsOnly)).not.toContain(clip.A);
  });

  it('shared listeners: one listener hash on one UTC day, against each target', async () => {
    // News in range: (h1, 05-10) from #1 #3 #4, (h2, 05-10), (h4, 05-09), (h3, 05-09): 4 listeners.
    // Sport: (h1, 05-10) from #5: shared 1. Culture: no downloads.
    const op = await run(demo, `/networks/${network.news}/reports/shared-listeners-report?${LA_RANGE}&targetNetworkIds=${network.sport},${network.culture}`);
    expect(rowsOf(op)).toEqual([
      [network.sport, 'Castaway Sport', 4, 1, 1, 25],
      [network.culture, 'Castaway Culture', 4, 0, 0, 0],
    ]);
    expect(op.Result!.Totals).toBeNull();
    // Morning: (h1, 05-10), (h2, 05-10), (h4, 05-09), (h3, 05-09); World: (h1, 05-10).
    const programs = await run(demo, `/programs/${program.morning}/reports/shared-listeners-report?${LA_RANGE}&targetProgramIds=${program.world}`);
    expect(rowsOf(programs)).toEqual([[program.world, 'World Tonight', 4, 1, 1, 25]]);
  });

  it('clip download comparison: downloads on day 1..N since each publish; no number before a day starts or for a clip never published', async () => {
    // A published 05-08 12:00: #6 (+35 h), #1 (+38.5 h), #2 (+43 h) on day 2, #8 (+78 h) on day 4.
    // B published 05-10 00:00: #7 came before it (not counted), #3 (+7 h) on day 1.
    // E published 05-31 00:00: days 1 and 2 have started by 06-01 12:00, day 3 not. F: never published.
    const op = await run(demo, `/programs/${program.morning}/reports/clip-download-comparison-report`, { clipIds: [clip.A, clip.B, clip.E, clip.F], days: 5 });
    expect(op.Result!.Columns.map((c) => c.Key)).toEqual(['Day', clip.A, clip.B, clip.E, clip.F]);
    expect(rowsOf(op)).toEqual([
      [1, 0, 1, 0, null],
      [2, 3, 0, 0, null],
      [3, 0, 0, null, null],
      [4, 1, 0, null, null],
      [5, 0, 0, null, null],
    ]);
    expect(op.Result!.Totals).toEqual(['Total', 4, 1, 0, 0]);
    expect(op.Filters).toEqual({ clipIds: [clip.A, clip.B, clip.E, clip.F], days: 5 });
  });

  it('downloads as CSV with its file name (409 while Busy), and lists the caller’s reports newest first', async () => {
    seeded.clock.advance(1000);
    const op = await run(demo, `/reports/consumption-summary-report?${LA_RANGE}`);
    const csv = await demo.get(`/api/v1/reports/consumption-summary-report/${op.Id}/csv`);
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/^text\/csv; charset=utf-8/);
    expect(csv.headers.get('content-disposition')).toBe('attachment; filename="consumption-summary-report_2025-05-09_2025-05-10.csv"');
    expect(csv.text).toBe(
      'Program id,Program,Network,Clips downloaded,Audio downloads,Video downloads,Downloads\r\n' +
        `${program.morning},Morning Briefing,Castaway News,2,4,1,5\r\n` +
        `${program.matchday},Matchday Live,Castaway Sport,1,1,0,1\r\n` +
        `${program.world},World Tonight,Castaway News,1,1,0,1\r\n` +
        'Total,,,4,6,1,7\r\n',
    );
    // Busy: no CSV yet; the list shows it first, with its filters.
    seeded.clock.advance(1000);
    const busy = await demo.send('POST', `/api/v1/reports/content-report?${LA_RANGE}&source=feed`);
    const busyId = (busy.body as ReportOperation).Id;
    expect((await demo.get(`/api/v1/reports/content-report/${busyId}/csv`)).status).toBe(409);
    const list = await demo.get('/api/internal/reports?pageSize=2');
    expect(list.status, list.text).toBe(200);
    const page = list.body as { Items: ReportOperationSummary[]; HasNext: boolean };
    expect(page.Items.map((i) => [i.Id, i.Status])).toEqual([
      [busyId, 'Busy'],
      [op.Id, 'Success'],
    ]);
    expect(page.Items[0]!.Filters).toEqual({ startDate: '2025-05-09', endDate: '2025-05-10', timeZoneIanaId: 'America/Los_Angeles', source: 'feed' });
    expect(page.HasNext).toBe(true);
    expect(page.Items[0]).not.toHaveProperty('Result');
    await seeded.app.jobs.drain();
    // The analyst's list holds its own reports only.
    const theirs = (await analyst.get('/api/internal/reports')).body as { Items: ReportOperationSummary[] };
    expect(theirs.Items.length).toBeGreaterThan(0);
    expect(theirs.Items.map((i) => i.Id)).not.toContain(op.Id);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const bad = async (path: string, body?: unknown) => {
      const reply = body === undefined ? await demo.send('POST', `/api/v1${path}`) : await demo.post(`/api/v1${path}`, body);
      expect(reply.status, `${path} ${reply.text}`).toBe(400);
      return fields(reply);
    };
    const summary = '/reports/consumption-summary-report';
    expect(await bad(summary)).toEqual([
      ['startDate', 'required'],
      ['endDate', 'required'],
    ]);
    expect(await bad(`${summary}?startDate=2025-02-30&endDate=2025-05-09`)).toEqual([['startDate', 'dateInvalid']]);
    expect(await bad(`${summary}?startDate=2025-05-10&endDate=2025-05-09`)).toEqual([['endDate', 'reversed']]);
    expect(await bad(`${summary}?${LA_RANGE.replace('America/Los_Angeles', 'Mars/Olympus')}`)).toEqual([['timeZoneIanaId', 'invalid']]);
    expect(await bad(`${summary}?${LA_RANGE}&durationSecondsFrom=100&durationSecondsTo=10`)).toEqual([['durationSecondsTo', 'reversed']]);
    expect(await bad(`${summary}?${LA_RANGE}&durationSecondsFrom=ten`)).toEqual([['durationSecondsFrom', 'invalid']]);
    expect(await bad(`${summary}?${LA_RANGE}&source=radio`)).toEqual([['source', 'invalid']]);
    expect(await bad(`/reports/content-report?${LA_RANGE}&clipVisibilityFilter=Public,Secret`)).toEqual([['clipVisibilityFilter', 'invalid']]);
    const shared = `/networks/${network.news}/reports/shared-listeners-report?${LA_RANGE}`;
    expect(await bad(shared)).toEqual([['targetNetworkIds', 'required']]);
    expect(await bad(`${shared}&targetNetworkIds=${crypto.randomUUID()}`)).toEqual([['targetNetworkIds', 'invalid']]);
    expect(await bad(`${shared}&targetNetworkIds=${seedId('network:originals')}`)).toEqual([['targetNetworkIds', 'invalid']]);
    const compare = `/programs/${program.morning}/reports/clip-download-comparison-report`;
    expect(await bad(compare, { clipIds: [clip.A, clip.C] })).toEqual([['clipIds', 'invalid']]);
    expect((await bad(compare, { clipIds: [clip.A], days: 0 }))[0]?.[0]).toBe('days');
  });

  it('lets each caller start and read only what section 6 allows', async () => {
    const q = `?${LA_RANGE}`;
    // The analyst (analytics at organization scope) may run summaries; a comparison names clips (content access).
    expect((await analyst.send('POST', `/api/v1/reports/consumption-summary-report${q}`)).status).toBe(202);
    expect((await analyst.post(`/api/v1/programs/${program.morning}/reports/clip-download-comparison-report`, { clipIds: [clip.A] })).status).toBe(403);
    // The producer: analytics on Morning Briefing only.
    expect((await producer.send('POST', `/api/v1/programs/${program.morning}/reports/consumption-summary-report${q}`)).status).toBe(202);
    expect((await producer.send('POST', `/api/v1/programs/${program.world}/reports/consumption-summary-report${q}`)).status).toBe(404);
    expect((await producer.send('POST', `/api/v1/reports/consumption-summary-report${q}`)).status).toBe(403);
    expect((await producer.send('POST', `/api/v1/networks/${network.news}/reports/content-report${q}`)).status).toBe(403);
    expect((await producer.send('POST', `/api/v1/programs/${program.morning}/reports/shared-listeners-report${q}&targetProgramIds=${program.world}`)).status).toBe(400);
    // A report is read by its starter, in its organization only.
    const op = (await demo.send('POST', `/api/v1/reports/consumption-summary-report${q}`)).body as ReportOperation;
    await seeded.app.jobs.drain();
    expect((await demo.get(`/api/v1/reports/consumption-summary-report/${op.Id}`)).status).toBe(200);
    expect((await demo.get(`/api/v1/reports/content-report/${op.Id}`)).status).toBe(404);
    expect((await analyst.get(`/api/v1/reports/consumption-summary-report/${op.Id}`)).status).toBe(404);
    expect((await analyst.get(`/api/v1/reports/consumption-summary-report/${op.Id}/csv`)).status).toBe(404);
    const elsewhere = await demo.get(`/api/v1/reports/consumption-summary-report/${op.Id}`, { 'x-organization-id': ORG_PODCASTS });
    expect(elsewhere.status).toBe(404);
  });

  it('scheduled-publish report: clips scheduled to become visible on a local date of the range, of programs whose clips the caller reads; paged', async () => {
    // A becomes Public at 2030-05-10 06:30 UTC (05-09 23:30 in LA), C Unlisted at 08:00 UTC (05-10 01:00 in LA).
    const page = async (who: AppClient, path: string, query: string) => {
      const reply = await who.get(`/api/v1${path}/reports/clip-scheduled-publish-report?${query}`);
      expect(reply.status, reply.text).toBe(200);
      return reply.body as ScheduledPublishPage;
    };
    const la = 'timeZoneIanaId=America/Los_Angeles';
    const both = await page(demo, '', `startDate=2030-05-09&endDate=2030-05-10&${la}`);
    expect(both.Items.map((i) => [i.ClipId, i.ScheduledVisibility, i.VisibleAtLocal, i.Program])).toEqual([
      [clip.A, 'Public', '2030-05-09T23:30:00-07:00', 'Morning Briefing'],
      [clip.C, 'Unlisted', '2030-05-10T01:00:00-07:00', 'World Tonight'],
    ]);
    expect(both.TimeZoneIanaId).toBe('America/Los_Angeles');
    expect((await page(demo, '', `startDate=2030-05-10&endDate=2030-05-10&${la}`)).Items.map((i) => i.ClipId)).toEqual([clip.C]);
    expect((await page(demo, '', 'startDate=2030-05-10&endDate=2030-05-10')).Items.map((i) => i.ClipId)).toEqual([clip.A, clip.C]);
    expect((await page(demo, '', `startDate=2030-05-09&endDate=2030-05-10&${la}&sortBy=-visibleAt`)).Items.map((i) => i.ClipId)).toEqual([clip.C, clip.A]);
    expect((await page(demo, '', `startDate=2030-05-09&endDate=2030-05-10&${la}&scheduledVisibilityFilter=Unlisted`)).Items.map((i) => i.ClipId)).toEqual([clip.C]);
    expect((await page(demo, '', `startDate=2030-05-09&endDate=2030-05-10&${la}&programIds=${program.world}`)).Items.map((i) => i.ClipId)).toEqual([clip.C]);
    const first = await page(demo, `/networks/${network.news}`, `startDate=2030-05-09&endDate=2030-05-10&${la}&pageSize=1`);
    expect([first.Items.map((i) => i.ClipId), first.HasNext, first.Page]).toEqual([[clip.A], true, 1]);
    expect((await page(demo, `/programs/${program.world}`, `startDate=2030-05-09&endDate=2030-05-10&${la}`)).Items.map((i) => i.ClipId)).toEqual([clip.C]);
    // The producer reads Morning Briefing's clips, not World Tonight's; the analyst no clips at all.
    expect((await page(producer, '', `startDate=2030-05-09&endDate=2030-05-10&${la}`)).Items.map((i) => i.ClipId)).toEqual([clip.A]);
    expect((await page(analyst, '', `startDate=2030-05-09&endDate=2030-05-10&${la}`)).Items).toEqual([]);
    expect(fields(await demo.get('/api/v1/reports/clip-scheduled-publish-report'))).toEqual([
      ['startDate', 'required'],
      ['endDate', 'required'],
    ]);
    expect(fields(await demo.get(`/api/v1/reports/clip-scheduled-publish-report?startDate=2030-05-09&endDate=2030-05-10&scheduledVisibilityFilter=Soon`))).toEqual([
      ['scheduledVisibilityFilter', 'invalid'],
    ]);
  });
});
