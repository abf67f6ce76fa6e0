// `npm run bench:server`: PATCH throughput and list latency of the sync server's REST API at
// 10,000 and 100,000 clips, on PGlite (a temporary data folder) and on PostgreSQL (its own
// database, created and dropped here, from TEST_DATABASE_URL or DATABASE_URL; without either it
// starts the local cluster with scripts/start-postgres.sh). Stores are filled with the seed's
// bulk path (seed(store, { clips })), the same as `npm run seed -- --clips N`. At the first size it
// also times password reset requests for known and unknown addresses (issue 31: the same time).
//
// Requests go through createApp(...).request, the whole Hono stack (session, XSRF, permissions,
// validation, one transaction, revisions) without sockets. Each figure is one line
// `bench: <metric> = <number> <unit>`, and each figure with a target is followed by its ratio to
// the target (above 1 is better). Figures only: nothing here passes or fails on time.
// Bounded: each phase stops at a request count or a time limit, whichever comes first.
import { cpus, loadavg } from 'node:os';
import { createApp } from '../sync-server/app.ts';
import { createMemoryBus } from '../sync-server/bus.ts';
import { DEMO_PASSWORD, ORG_DEMO, seed } from '../sync-server/seed.ts';
import { openBenchPglite, openBenchPostgres, type BenchStore } from './stores.ts';
import { line, percentile, ratio } from './report.ts';
import { sized } from './tiny.ts';

/** BENCH_SERVER_SIZES=500 runs one small size; BENCH_TINY=1 (bench/tiny.ts) runs 200 clips. */
const SIZES = (process.env.BENCH_SERVER_SIZES ?? sized('10000,100000', '200')).split(',').map(Number);
if (SIZES.some((n) => !(Number.isInteger(n) && n > 0))) throw new Error(`BENCH_SERVER_SIZES must be whole numbers (got "${process.env.BENCH_SERVER_SIZES}")`);
const PATCH_MAX_REQUESTS = sized(2000, 20);
const PATCH_MAX_MS = 2500;
const PATCH_CONCURRENCY = 8;
const LIST_REPEATS = sized(20, 2);
const LIST_MAX_MS = 2500;
const PASSWORD_RESET_SAMPLES = sized(40, 6);

/** What we aim for on the 2-core machines of this project (ENVIRONMENT.md). */
const TARGETS = {
  patchPerSecond: 200,
  listPage100P95Ms: 50,
  listDeepPageP95Ms: 150,
  listFullPageP50Ms: 1000,
} as const;

type App = ReturnType<typeof createApp>;

async function login(app: App): Promise<{ cookie: string; xsrf: string }> {
  const response = await app.request('/api/internal/session/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: 'demo@example.com', Password: DEMO_PASSWORD }),
  });
  if (response.status !== 200) throw new Error(`login answered ${response.status}`);
  const cookie = response.headers.getSetCookie()[0]!.split(';')[0]!;
  const xsrf = (await (await app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string };
  return { cookie, xsrf: xsrf.XsrfToken };
}

async function timed(fn: () => Response | Promise<Response>, expected: number): Promise<number> {
  const started = performance.now();
  const response = await fn();
  await response.arrayBuffer();
  const ms = performance.now() - started;
  if (response.status !== expected) throw new Error(`expected ${expected}, got ${response.status}`);
  return ms;
}

type Prepared = BenchStore & { kind: 'pglite' | 'postgres'; clips: number; seedMs: number };

async function prepare(kind: 'pglite' | 'postgres', clips: number, open: () => Promise<BenchStore>): Promise<Prepared> {
  const opened = await open();
  const started = performance.now();
  const summary = await seed(opened.store, { clips });
  if (summary.clips !== clips) throw new Error(`seeded ${summary.clips} clips, wanted ${clips}`);
  return { ...opened, kind, clips, seedMs: performance.now() - started };
}

async function measure({ kind, clips, store }: Prepared): Promise<void> {
  const label = `${kind}.${clips / 1000}k`;
  const app = createApp({ store, bus: createMemoryBus() });
  const { cookie, xsrf } = await login(app);
  const headers = { cookie, 'x-organization-id': ORG_DEMO };
  // Read from the store, not guessed from how the seed deals clips (a bench that guessed broke
  // when the seed changed): the demo organization's live clips, and its largest program.
  const demoClipIds = (await store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 5000`, [ORG_DEMO])).map((r) => r.id);
  const [largest] = await store.query<{ id: string; n: number }>(
    `SELECT p.id, count(c.id)::int AS n FROM programs p JOIN clips c ON c.program_id = p.id AND NOT c.deleted
      WHERE p.organization_id = $1 AND NOT p.deleted GROUP BY p.id ORDER BY n DESC, p.id LIMIT 1`,
    [ORG_DEMO],
  );
  if (demoClipIds.length === 0 || !largest) throw new Error('the seeded store has no clip of the demo organization');
  const morning = largest.id;
  const perProgram = largest.n;

  // ── PATCH, one at a time ────────────────────────────────────────────────────────────────
  const patch = (n: number) =>
    app.request(`/api/v1/clips/${demoClipIds[n % demoClipIds.length]}`, {
      method: 'PATCH',
      headers: { ...headers, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
      body: JSON.stringify({ Title: `Bench edit ${n}`, Tags: ['bench', String(n % 7)] }),
    });
  for (let i = 0; i < 20; i++) await timed(() => patch(i), 200); // warm-up
  const latencies: number[] = [];
  const sequentialStarted = performance.now();
  while (latencies.length < PATCH_MAX_REQUESTS && performance.now() - sequentialStarted < PATCH_MAX_MS) {
    latencies.push(await timed(() => patch(latencies.length * 7919), 200));
  }
  const sequentialRate = latencies.length / ((performance.now() - sequentialStarted) / 1000);
  line(`${label}.patch_sequential_throughput`, sequentialRate, 'req/s');
  ratio(`${label}.patch_sequential_throughput`, sequentialRate, TARGETS.patchPerSecond, true);
  line(`${label}.patch_latency_p50`, percentile(latencies, 50), 'ms');
  line(`${label}.patch_latency_p95`, percentile(latencies, 95), 'ms');

  // ── PATCH, PATCH_CONCURRENCY in flight (distinct clips: no row lock contention) ──────────
  let done = 0;
  const concurrentStarted = performance.now();
  await Promise.all(
    Array.from({ length: PATCH_CONCURRENCY }, async (_, worker) => {
      let n = worker;
      while (done < PATCH_MAX_REQUESTS && performance.now() - concurrentStarted < PATCH_MAX_MS) {
        await timed(() => patch(100_000 + n), 200);
        n += PATCH_CONCURRENCY;
        done++;
      }
    }),
  );
  const concurrentRate = done / ((performance.now() - concurrentStarted) / 1000);
  line(`${label}.patch_concurrent${PATCH_CONCURRENCY}_throughput`, concurrentRate, 'req/s');
  ratio(`${label}.patch_concurrent${PATCH_CONCURRENCY}_throughput`, concurrentRate, TARGETS.patchPerSecond, true);

  // ── Lists ───────────────────────────────────────────────────────────────────────────────
  const list = async (path: string, repeats: number): Promise<number[]> => {
    const samples: number[] = [];
    await timed(() => app.request(path, { headers }), 200); // warm-up
    const started = performance.now();
    while (samples.length < repeats && performance.now() - started < LIST_MAX_MS) {
      samples.push(await timed(() => app.request(path, { headers }), 200));
    }
    return samples;
  };
  const first = await list(`/api/v1/programs/${morning}/clips?page=1&pageSize=100`, LIST_REPEATS);
  line(`${label}.list_program_clips_page1_size100_p50`, percentile(first, 50), 'ms');
  line(`${label}.list_program_clips_page1_size100_p95`, percentile(first, 95), 'ms');
  ratio(`${label}.list_program_clips_page1_size100_p95`, percentile(first, 95), TARGETS.listPage100P95Ms, false);

  const lastPage = Math.max(1, Math.ceil(perProgram / 100));
  const deep = await list(`/api/v1/programs/${morning}/clips?page=${lastPage}&pageSize=100`, LIST_REPEATS);
  line(`${label}.list_program_clips_last_page_size100_p95`, percentile(deep, 95), 'ms');
  ratio(`${label}.list_program_clips_last_page_size100_p95`, percentile(deep, 95), TARGETS.listDeepPageP95Ms, false);

  const full = await list(`/api/v1/clips?page=1&pageSize=2500`, sized(5, 1));
  line(`${label}.list_clips_full_page_size2500_p50`, percentile(full, 50), 'ms');
  ratio(`${label}.list_clips_full_page_size2500_p50`, percentile(full, 50), TARGETS.listFullPageP50Ms, false);

  if (clips === SIZES[0]) await passwordResetTimes(app, store, label);
}

/**
 * Issue 31: a password reset request must not tell whether an address has an account, by its
 * answer or by its time. Known (the demo's users) and unknown addresses alternate; the throttle
 * rows are cleared between requests, outside the timing, so neither meets a 429. The figure that
 * matters is the ratio of the medians (1 = the same time).
 */
async function passwordResetTimes(app: App, store: BenchStore['store'], label: string): Promise<void> {
  const known = (await store.query<{ email: string }>(`SELECT email FROM users ORDER BY email`)).map((r) => r.email);
  const ask = (email: string) =>
    app.request('/api/internal/account/password-reset', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: email }) });
  const times = { known: [] as number[], unknown: [] as number[] };
  for (let i = 0; i < PASSWORD_RESET_SAMPLES + 4; i++) {
    for (const kind of i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const)) {
      await store.query(`DELETE FROM account_throttles`);
      const ms = await timed(() => ask(kind === 'known' ? known[i % known.length]! : `nobody.${i}@unknown.example`), 204);
      if (i >= 4) times[kind].push(ms); // the first four of each warm up
    }
  }
  const knownP50 = percentile(times.known, 50);
  const unknownP50 = percentile(times.unknown, 50);
  line(`${label}.password_reset_known_address_p50`, knownP50, 'ms');
  line(`${label}.password_reset_unknown_address_p50`, unknownP50, 'ms');
  line(`${label}.password_reset_unknown_vs_known_median_ratio`, unknownP50 / knownP50, 'x');
}

const started = performance.now();
console.log(
  `Castaway server benchmark: ${SIZES.map((n) => n.toLocaleString('en-US')).join(' and ')} clips on PGlite and PostgreSQL ` +
    `(targets: PATCH ${TARGETS.patchPerSecond} req/s; page of 100 p95 ${TARGETS.listPage100P95Ms} ms; ` +
    `last page p95 ${TARGETS.listDeepPageP95Ms} ms; page of 2500 p50 ${TARGETS.listFullPageP50Ms} ms).`,
);
// The figures depend on what else runs on the machine: say how busy it was.
line('machine_load_average_1m', loadavg()[0] ?? 0, 'runnable');
line('machine_cores', cpus().length, 'cores');
for (const clips of SIZES) {
  // Both stores of a size are filled at the same time (the PGlite seed works in this process,
  // PostgreSQL's in its server: two cores), then measured one after the other, alone.
  const stores = await Promise.all([prepare('pglite', clips, () => openBenchPglite('castaway-bench')), prepare('postgres', clips, () => openBenchPostgres('castaway_bench'))]);
  for (const prepared of stores) line(`${prepared.kind}.${clips / 1000}k.seed_bulk_both_stores_at_once`, prepared.seedMs, 'ms');
  for (const prepared of stores) {
    try {
      await measure(prepared);
    } finally {
      await prepared.dispose();
    }
  }
}
line('total_run_time', (performance.now() - started) / 1000, 's');
