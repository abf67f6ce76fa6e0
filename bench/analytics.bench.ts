// `npm run bench:analytics`: issue 30's analytics figures.
//
// `npm run bench:analytics -- --only counting` (or `--only series`, `--only geo`) runs one part.
//
// Counting (this file's first section): raw download events per second through the counting job
// (sync-server/analytics/counting.ts: read in batches, bots and probes dropped, windows loaded and
// stored, downloads written, the cursor moved) over BENCH_ANALYTICS_COUNT_EVENTS (default
// 1,000,000) generated raw events, on PGlite (a temporary data folder) and on PostgreSQL when one is
// found (bench/postgres.ts). Target: ≥ 50,000 events/s.
//
// The events are generated in SQL (generate_series), not by the recorder: the figure is the job's.
// They look like traffic: listening sessions of four requests seconds apart — a bytes=0-1 probe,
// two 300 KB ranges (the second passes one minute of a 64 kbit/s file plus the header), then
// another range, a HEAD, or the same from a bot — over 30 days, 200,000 listeners (hashes that
// change daily, with the previous day's hash as the recorder writes it), 40 clips, 10 user agents.
//
// The floor, measured in the same run on the same store: reading the same events in the same
// batches with the job's own query (what any counting must read), without counting them.
import { randomUUID } from 'node:crypto';
import { countDownloads, readEvents } from '../sync-server/analytics/counting.ts';
import type { Store } from '../sync-server/store/store.ts';
import { NO_POSTGRES, postgresUrl } from './postgres.ts';
import { openBenchPglite, openBenchPostgres, type BenchStore } from './stores.ts';
import { line, ratio } from './report.ts';
import { sized, unavailable } from './tiny.ts';
import { seriesBench } from './analytics-series.ts';
import { loadGeoTable } from '../sync-server/analytics/geo.ts';

const EVENTS = Number(process.env.BENCH_ANALYTICS_COUNT_EVENTS ?? sized(1_000_000, 5_000));
const TARGET_EVENTS_PER_S = 50_000;
const CHUNK = sized(250_000, 2_500);
const LISTENERS = sized(200_000, 1_000);
const CLIPS = 40;
const DAYS = 30;

const USER_AGENTS = [
  'AppleCoreMedia/1.0.0.20E252 (iPhone; U; CPU OS 16_4_1 like Mac OS X; en_us)',
  'Podcasts/1650.20 CFNetwork/1404.0.5 Darwin/22.3.0',
  'Spotify/8.8.12 Android/33 (SM-G991B)',
  'Overcast/3.0 (+http://overcast.fm/; iOS podcast app)',
  'PodcastAddict/v5 (+https://podcastaddict.com/; Android podcast app)',
  'Pocket Casts/7.40 (Android 14; Pixel 8)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  'Mozilla/5.0 (Linux; Android 13; Pixel 7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
  'AlexaMediaPlayer/2.1.4676.0 (Linux;Android 5.1.1) ExoPlayerLib/1.5.9',
  'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
];

/** PostgreSQL when one is found (bench/postgres.ts), else said and skipped. */
async function openPostgres(): Promise<BenchStore | null> {
  if (postgresUrl() === null) {
    unavailable('counting on PostgreSQL', new Error(NO_POSTGRES));
    return null;
  }
  return openBenchPostgres('castaway_bench_counting');
}

/** An organization, its 40 one-hour clips at 64 kbit/s, and EVENTS raw events over DAYS days. */
async function generate(store: Store): Promise<{ org: string }> {
  const org = randomUUID();
  const program = randomUUID();
  const stamp = '2026-01-01T00:00:00Z';
  await store.query(`INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version) VALUES ($1, $1, 'Bench', 'Podcaster', $2, $2, 1)`, [org, stamp]);
  const clips = Array.from({ length: CLIPS }, () => randomUUID());
  await store.query(
    `INSERT INTO clips (id, organization_id, program_id, state, publish_state, visibility, data, created_at_utc, modified_at_utc, version)
     SELECT id, $2, $3, 'Ready', 'Published', 'Public', '{"PublishedAudioSizeInBytes": 28800000, "PublishedDurationSeconds": 3600, "MediaType": "Audio"}'::jsonb, $4, $4, 1
       FROM unnest($1::uuid[]) AS id`,
    [clips, org, program, stamp],
  );
  const start = Date.parse('2026-02-01T00:00:00Z');
  const stepMs = (DAYS * 86_400_000) / EVENTS;
  for (let from = 0; from < EVENTS; from += CHUNK) {
    const to = Math.min(EVENTS, from + CHUNK) - 1;
    // Session s = i / 4; its listener and clip are spread by multiplicative hashing; k = i % 4 is
    // the request within the session.
    await store.query(
      `INSERT INTO download_events (at_utc, clip_id, organization_id, program_id, method, status, range_header, range_start, range_end, bytes_sent, user_agent, source, ad_free, listener_hash, listener_hash_previous)
       SELECT at, ($5::uuid[])[1 + (s * 31 + l) % ${CLIPS}], $6, $7,
              CASE WHEN k = 3 AND s % 10 = 0 THEN 'HEAD' ELSE 'GET' END, 206,
              CASE k WHEN 0 THEN 'bytes=0-1' WHEN 1 THEN 'bytes=0-299999' WHEN 2 THEN 'bytes=300000-599999' ELSE 'bytes=600000-1599999' END,
              CASE k WHEN 0 THEN 0 WHEN 1 THEN 0 WHEN 2 THEN 300000 ELSE 600000 END,
              CASE k WHEN 0 THEN 1 WHEN 1 THEN 299999 WHEN 2 THEN 599999 ELSE 1599999 END,
              CASE WHEN k = 0 THEN 2 WHEN k = 3 AND s % 10 = 0 THEN 0 WHEN k = 3 THEN 1000000 ELSE 300000 END,
              ($8::text[])[1 + l % ${USER_AGENTS.length}],
              (ARRAY['feed', 'embed', 'page', 'api', NULL])[1 + s % 5], false,
              md5(l::text || ':' || d::text), md5(l::text || ':' || (d - 1)::text)
         FROM (SELECT i, i / 4 AS s, i % 4 AS k, (i / 4 * 2654435761::bigint) % ${LISTENERS} AS l,
                      to_timestamp(($3::float8 + (i / 4) * 4 * $4::float8 + (i % 4) * 2000) / 1000) AS at,
                      floor(($3::float8 + (i / 4) * 4 * $4::float8) / 86400000)::int AS d
                 FROM generate_series($1::bigint, $2::bigint) AS i) x`,
      [from, to, start, stepMs, clips, org, program, USER_AGENTS],
    );
  }
  return { org };
}

/** The floor: the job's own read of every event, in its batches, without counting. */
async function readFloor(store: Store): Promise<number> {
  const [row] = await store.query<{ max: number }>(`SELECT max(id)::float8 AS max FROM download_events`);
  const max = row?.max ?? 0;
  const t0 = performance.now();
  for (let from = 0; from < max; from += 20_000) await store.tx((q) => readEvents(q, store.kind, from, from + 20_000));
  return performance.now() - t0;
}

async function countingBench(label: string, opened: BenchStore): Promise<void> {
  const { store } = opened;
  const g0 = performance.now();
  await generate(store);
  line(`${label}_counting_generate_ms`, performance.now() - g0, 'ms');
  const floorMs = await readFloor(store);
  const t0 = performance.now();
  const result = await countDownloads(store);
  const ms = performance.now() - t0;
  const perSecond = (result.events / ms) * 1000;
  const floorPerSecond = (EVENTS / floorMs) * 1000;
  line(`${label}_counting_events`, result.events, 'events');
  line(`${label}_counting_downloads`, result.downloads, 'downloads');
  line(`${label}_counting_events_per_s`, perSecond, 'events/s');
  ratio(`${label}_counting_events_per_s`, perSecond, TARGET_EVENTS_PER_S, true);
  line(`${label}_counting_read_floor_events_per_s`, floorPerSecond, 'events/s');
  line(`${label}_counting_events_per_s_vs_floor`, perSecond / floorPerSecond, 'x');
  // A second run with nothing new: the cost of the job's minute tick.
  const i0 = performance.now();
  await countDownloads(store);
  line(`${label}_counting_idle_run_ms`, performance.now() - i0, 'ms');
}

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
if (only !== null && only !== 'counting' && only !== 'series' && only !== 'geo') throw new Error(`--only takes 'counting', 'series' or 'geo', not ${only}`);

async function main(): Promise<void> {
  if (only === null || only === 'counting') await counting();
  // ── Series (p50/p95 of a 90-day daily series at organization level over 10 M raw events) ──
  // bench/analytics-series.ts: counted downloads equal to 10 M raw events, rolled up, then the
  // series through the app, on PGlite and PostgreSQL.
  if (only !== 'counting' && only !== 'geo') await seriesBench();
  if (only === null || only === 'geo') await geoBench();
}

/** The recorder's country lookup (sync-server/analytics/geo.ts): load, memory, cost per address. */
async function geoBench(): Promise<void> {
  const c0 = performance.now();
  const geo = await loadGeoTable({ cacheDir: null });
  line('geo_parse_ms', performance.now() - c0, 'ms');
  const w0 = performance.now();
  await loadGeoTable();
  line('geo_cached_load_ms', performance.now() - w0, 'ms');
  line('geo_table_mb', geo.bytes / 1e6, 'MB');
  const addresses = [...geo.addressesIn('US', 500, (n) => Math.floor(Math.random() * n)), ...geo.addressesIn('DE', 500, (n) => Math.floor(Math.random() * n)), '2a00:1450:4001:82a::200e', '2001:200::1'];
  const n = 1_000_000;
  const l0 = performance.now();
  for (let i = 0; i < n; i++) geo.country(addresses[i % addresses.length]!);
  line('geo_lookup_ns', ((performance.now() - l0) * 1e6) / n, 'ns');
}

async function counting(): Promise<void> {
  line('counting_raw_events', EVENTS, 'events');
  const pglite = await openBenchPglite('castaway-bench-counting');
  try {
    await countingBench('pglite', pglite);
  } finally {
    await pglite.dispose();
  }
  const pg = await openPostgres();
  if (pg) {
    try {
      await countingBench('pg', pg);
    } finally {
      await pg.dispose();
    }
  }
}

await main();
