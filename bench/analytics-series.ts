// The analytics series figure of `npm run bench:analytics` (issue 30): a 90-day DAILY downloads
// series at organization level, read through the app (createApp(...).request: session, guard,
// validation, the rollup catch-up, the query), over counted downloads equal to 10 million raw
// download events, on PGlite and on PostgreSQL. Target: p95 ≤ 50 ms on PostgreSQL.
//
// The counted downloads are generated in SQL (INSERT … SELECT generate_series, in chunks), not by
// the counting job: ~35% of raw events count as downloads (repeats within 24 hours, probes, bots
// and partial requests do not), so 10 M events are 3.5 M counted rows, spread over the 90 days and
// the demo organization's clips. The rollup job then sums them (its time is a figure too), and the
// series is asked for in America/New_York. A floor measured in the same run: SELECT 1 and the bare
// SUM of the organization's 90 days of rollup rows, through the store, without HTTP.
//
// Sizes may be made smaller for a quick look: BENCH_ANALYTICS_RAW_EVENTS=1000000.
import { createApp } from '../sync-server/app.ts';
import { createMemoryBus } from '../sync-server/bus.ts';
import { DEMO_PASSWORD, ORG_DEMO, seed } from '../sync-server/seed.ts';
import { rollUpDownloads } from '../sync-server/analytics/analytics-rollup.ts';
import type { Store } from '../sync-server/store/store.ts';
import { openBenchPglite, openBenchPostgres, type BenchStore } from './stores.ts';
import { line, percentile, ratio } from './report.ts';
import { sized } from './tiny.ts';

const RAW_EVENTS = Number(process.env.BENCH_ANALYTICS_RAW_EVENTS ?? sized(10_000_000, 20_000));
/** Counted downloads per raw event (IAB deduplication and the one-minute rule drop the rest). */
const COUNTED_PER_EVENT = 0.35;
const DAYS = 90;
const CHUNK_ROWS = 500_000;
const SAMPLES = sized(40, 2);
const WARMUP = sized(5, 1);
const TARGET_P95_MS = 50;
const TIME_ZONE = 'America/New_York';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** counted downloads over the 90 days before `end` (exclusive), in chunks of generate_series. */
async function fill(store: Store, rows: number, end: Date): Promise<void> {
  const start = new Date(end.getTime() - DAYS * 86_400_000);
  for (let from = 0; from < rows; from += CHUNK_ROWS) {
    const to = Math.min(rows, from + CHUNK_ROWS);
    await store.query(
      `WITH cl AS (SELECT (row_number() OVER (ORDER BY id) - 1)::int AS i, id, program_id FROM clips WHERE organization_id = $1 AND NOT deleted),
            n AS (SELECT count(*)::int AS n FROM cl)
       INSERT INTO counted_downloads (organization_id, program_id, clip_id, counted_at_utc, listener_hash, media_type, app, device, os, country, source)
       SELECT $1, cl.program_id, cl.id, $2::timestamptz + (g::float8 / $4::float8) * ($3::timestamptz - $2::timestamptz), 'listener-' || (g % 100000),
              CASE WHEN g % 10 = 0 THEN 'Video' ELSE 'Audio' END,
              (ARRAY['Apple Podcasts', 'Spotify', 'Overcast', 'Pocket Casts', 'Castro', 'Unknown'])[1 + g % 6],
              (ARRAY['Mobile', 'Desktop', 'Smart speaker', 'Tablet'])[1 + g % 4],
              (ARRAY['iOS', 'Android', 'Windows', 'macOS', 'Linux'])[1 + g % 5],
              (ARRAY['US', 'GB', 'DE', 'NZ', 'BR', 'ZZ', 'FR'])[1 + g % 7],
              (ARRAY['feed', 'embed', 'page', 'api'])[1 + g % 4]
       FROM generate_series($5::int, $6::int) g CROSS JOIN n JOIN cl ON cl.i = ((g::bigint * 7919) % n.n)::int`,
      [ORG_DEMO, start, end, rows, from, to - 1],
    );
  }
}

async function timeMs(fn: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

async function measure(label: string, opened: BenchStore): Promise<void> {
  const { store } = opened;
  const rows = Math.round(RAW_EVENTS * COUNTED_PER_EVENT);
  await seed(store, { clips: 240 });
  const end = new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate()));
  line(`analytics_fill_${label}`, await timeMs(() => fill(store, rows, end)), 'ms');
  line(`analytics_counted_downloads_${label}`, rows, 'rows');
  const rollupMs = await timeMs(() => rollUpDownloads(store));
  line(`analytics_rollup_${label}`, rollupMs, 'ms');
  line(`analytics_rollup_rate_${label}`, rows / (rollupMs / 1000), 'downloads/s');
  if (store.kind === 'postgres') await store.query(`ANALYZE`);

  const app = createApp({ store, bus: createMemoryBus() });
  const login = await app.request('/api/internal/session/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: 'demo@example.com', Password: DEMO_PASSWORD }),
  });
  const cookie = login.headers.getSetCookie().find((c) => c.startsWith('castaway_session='))!.split(';')[0]!;
  const first = day(end.getTime() - DAYS * 86_400_000);
  const last = day(end.getTime() - 86_400_000);
  const path = `/api/v1/analytics/downloads?interval=day&startDate=${first}&endDate=${last}&timeZoneIanaId=${encodeURIComponent(TIME_ZONE)}`;
  const ask = async () => {
    const res = await app.request(path, { headers: { cookie, 'x-organization-id': ORG_DEMO } });
    if (res.status !== 200) throw new Error(`series answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { Total: number; Points: unknown[] };
  };
  const answer = await ask();
  // The series in New York misses a few hours of the first UTC day and has a few of the day after the last: close to every row.
  line(`analytics_series_total_${label}`, answer.Total, 'downloads');
  line(`analytics_series_points_${label}`, answer.Points.length, 'points');
  for (let i = 0; i < WARMUP; i++) await ask();
  const samples: number[] = [];
  for (let i = 0; i < SAMPLES; i++) samples.push(await timeMs(ask));
  const p50 = percentile(samples, 50);
  const p95 = percentile(samples, 95);
  line(`analytics_series_90d_daily_p50_${label}`, p50, 'ms');
  line(`analytics_series_90d_daily_p95_${label}`, p95, 'ms');
  if (label === 'postgres') ratio('analytics_series_90d_daily_p95_postgres', p95, TARGET_P95_MS, false);

  // The floor: what any query costs here, and the bare sum the series is made of.
  const floor: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    floor.push(await timeMs(() => store.query(`SELECT 1`)));
    bare.push(
      await timeMs(() =>
        store.query(`SELECT sum(downloads) FROM download_hours_org WHERE organization_id = $1 AND hour_utc >= $2 AND hour_utc < $3`, [
          ORG_DEMO,
          new Date(end.getTime() - DAYS * 86_400_000),
          end,
        ]),
      ),
    );
  }
  line(`analytics_floor_select1_p50_${label}`, percentile(floor, 50), 'ms');
  line(`analytics_floor_rollup_sum_p50_${label}`, percentile(bare, 50), 'ms');
  line(`analytics_series_over_floor_p50_${label}`, p50 - percentile(bare, 50), 'ms');
  await app.downloads.close();
}

/** `bench: …` lines of the series figure on PGlite, then PostgreSQL. */
export async function seriesBench(): Promise<void> {
  line('analytics_raw_events', RAW_EVENTS, 'events');
  for (const [label, open] of [
    ['pglite', openBenchPglite],
    ['postgres', openBenchPostgres],
  ] as const) {
    const opened = await open('castaway_bench_analytics');
    try {
      await measure(label, opened);
    } finally {
      await opened.dispose();
    }
  }
}
