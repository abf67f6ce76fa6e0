// The demo listening (sync-server/analytics/listeners.ts): a week over a PGlite store, recorded by
// the public audio endpoint's recorder and counted by the real job, with the real geo table.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { geoTable, type GeoTable } from '../../sync-server/analytics/geo.ts';
import { DEMO_LISTENERS_JOB, demoListenersJobs, planListening, publishedClips, replayListening } from '../../sync-server/analytics/listeners.ts';
import { jobContext } from '../../sync-server/jobs/runner.ts';
import { ORG_DEMO, ORG_PODCASTS, seed } from '../../sync-server/seed.ts';
import { openTestStore, type TestStore } from './test-store.ts';

const NOW = new Date('2026-03-15T12:00:00.000Z');

let geo: GeoTable;
let test: TestStore;

beforeAll(async () => {
  [geo, test] = await Promise.all([geoTable(), openTestStore('pglite')]);
  await seed(test.store, { clips: 120 });
}, 120_000);
afterAll(async () => {
  await test?.drop();
});

describe('demo listening', () => {
  it('is the same plan for the same seed, and another for another seed', async () => {
    const clips = await publishedClips(test.store, [ORG_DEMO, ORG_PODCASTS]);
    const plan = (seed: number) => JSON.stringify(planListening(clips, geo, { days: 3, perDay: 30, seed, now: NOW }));
    expect(plan(7)).toBe(plan(7));
    expect(plan(8)).not.toBe(plan(7));
  });

  it('a week counts plausibly: downloads every day, no bots, several apps and countries', async () => {
    const result = await replayListening(test.store, { organizationIds: [ORG_DEMO, ORG_PODCASTS], days: 7, perDay: 60, seed: 1, now: NOW, geo });
    expect(result.clips).toBeGreaterThan(10);
    expect(result.events).toBeGreaterThan(7 * 60);
    // Some sessions are under a minute, probes and HEADs count nothing: fewer downloads than sessions.
    expect(result.downloads).toBeGreaterThan(7 * 20);
    expect(result.downloads).toBeLessThan(result.events);
    const days = await test.store.query<{ day: string; n: number }>(
      `SELECT to_char(counted_at_utc AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS n FROM counted_downloads GROUP BY 1 ORDER BY 1`,
    );
    expect(days.map((d) => d.day)).toEqual(['2026-03-08', '2026-03-09', '2026-03-10', '2026-03-11', '2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15']);
    for (const d of days.slice(1, -1)) expect(d.n, d.day).toBeGreaterThan(10);
    const [kinds] = await test.store.query<{ apps: number; countries: number; unknown: number; total: number }>(
      `SELECT count(DISTINCT app)::int AS apps, count(DISTINCT country)::int AS countries, count(*) FILTER (WHERE country = 'ZZ')::int AS unknown, count(*)::int AS total FROM counted_downloads`,
    );
    expect(kinds!.apps).toBeGreaterThanOrEqual(6);
    expect(kinds!.countries).toBeGreaterThanOrEqual(8);
    expect(kinds!.unknown).toBe(0);
    // Bots asked for episodes (whole files) and none of their requests made a download.
    const [bots] = await test.store.query<{ requests: number; counted: number }>(
      `SELECT count(*)::int AS requests,
              count(*) FILTER (WHERE e.listener_hash IN (SELECT listener_hash FROM counted_downloads))::int AS counted
         FROM download_events e WHERE e.user_agent ~ '(Googlebot|bingbot|^Spotify/1\\.0$|^iTMS$|Podcast Sync)'`,
    );
    expect(bots!.requests).toBeGreaterThan(10);
    expect(bots!.counted).toBe(0);
    // The rollups have them: the organizations' hours add up to the counted rows.
    const [rolled] = await test.store.query<{ n: number }>(`SELECT coalesce(sum(downloads), 0)::int AS n FROM download_hours_org`);
    expect(rolled!.n).toBe(result.downloads);
  });

  it('the demo job run again (a retry after a crash) records nothing twice', async () => {
    const job = demoListenersJobs({ store: test.store })[DEMO_LISTENERS_JOB]!;
    const payload = job.payload.parse({ organizationIds: [ORG_DEMO, ORG_PODCASTS], days: 2, perDay: 20, seed: 5, until: '2026-04-01T00:00:00.000Z' });
    const context = jobContext(test.store, { id: 1, kind: DEMO_LISTENERS_JOB, attempt: 1, maxAttempts: 3 });
    const events = async () => (await test.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM download_events`))[0]!.n;
    const before = await events();
    await job.run(payload, context);
    const once = await events();
    expect(once).toBeGreaterThan(before + 40);
    await job.run(payload, { ...context, attempt: 2 });
    expect(await events()).toBe(once);
  });
});
