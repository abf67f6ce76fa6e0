// Prometheus metrics (prom-client): what an operator graphs and alerts on. One registry per app,
// so the tests' many apps in one process do not add to each other's counters; the process's own
// figures (CPU, memory, event loop delay, handles) are registered once per process and merged in
// at each scrape.
//
// Labels stay few: a request is labelled by its route's pattern (/api/v1/clips/:clipId), never by
// its path, so ids never become series (and never reach the metrics: nothing here names a row).
// The job queue and the database's connections are read when Prometheus scrapes, not kept.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../store/store.ts';
import type { JobOutcome } from '../jobs/runner.ts';

/** Seconds: a read of a page answers in milliseconds, an upload or a report in seconds. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
/** Jobs run from milliseconds (a sweep) to many minutes (an hour-long episode's decode). */
const JOB_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];
/** Mutations in a push, rows in a pull page (a pull page holds up to 1,000 rows). */
const SIZE_BUCKETS = [0, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000];

let processRegistry: Registry | null = null;

/** The process's figures, registered on the first scrape (collectDefaultMetrics starts an event
 * loop monitor: one per process, not one per app). */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry, prefix: 'castaway_' });
  }
  return processRegistry;
}

export type Metrics = ReturnType<typeof createMetrics>;

export function createMetrics(store: Store) {
  const registry = new Registry();
  const registers = [registry];

  const requests = new Counter({ name: 'castaway_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status', labelNames: ['method', 'route', 'status'], registers });
  const requestSeconds = new Histogram({
    name: 'castaway_http_request_duration_seconds',
    help: 'Time to the response head, by method and route pattern (a stream counts until its head)',
    labelNames: ['method', 'route'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const pushMutations = new Histogram({ name: 'castaway_sync_push_mutations', help: 'Named mutations per sync push', buckets: SIZE_BUCKETS, registers });
  const pushSeconds = new Histogram({ name: 'castaway_sync_push_duration_seconds', help: 'Time to apply a sync push (conflict checks and commits)', buckets: LATENCY_BUCKETS, registers });
  const pullRows = new Histogram({ name: 'castaway_sync_pull_rows', help: 'Rows per sync pull page', buckets: SIZE_BUCKETS, registers });
  const pullSeconds = new Histogram({ name: 'castaway_sync_pull_duration_seconds', help: 'Time to read a sync pull page', buckets: LATENCY_BUCKETS, registers });
  const jobRuns = new Counter({
    name: 'castaway_job_runs_total',
    help: 'Job attempts this instance ran, by kind and outcome (done; retry: threw and will run again; failed: given up)',
    labelNames: ['kind', 'outcome'],
    registers,
  });
  const jobSeconds = new Histogram({ name: 'castaway_job_run_duration_seconds', help: 'Time of a job attempt on this instance, by kind', labelNames: ['kind'], buckets: JOB_BUCKETS, registers });
  const sse = new Gauge({ name: 'castaway_sse_connections', help: 'Server-sent event streams open on this instance (devices listening for pokes)', registers });

  new Gauge({
    name: 'castaway_jobs',
    help: 'Durable jobs in the shared queue by kind and state (queued: waiting or due; running; failed: given up). The same on every instance of one database',
    labelNames: ['kind', 'state'],
    registers,
    async collect() {
      this.reset();
      const rows = await store.query<{ kind: string; state: string; n: number }>(`SELECT kind, state, count(*)::int AS n FROM jobs GROUP BY kind, state`);
      for (const r of rows) this.set({ kind: r.kind, state: r.state }, r.n);
    },
  });
  new Gauge({
    name: 'castaway_jobs_oldest_due_seconds',
    help: 'How long the oldest job that is due has waited to start, by kind (0: none waits). A figure that grows means the runners do not keep up',
    labelNames: ['kind'],
    registers,
    async collect() {
      this.reset();
      const rows = await store.query<{ kind: string; age: number }>(
        `SELECT kind, COALESCE(EXTRACT(EPOCH FROM max(now() - run_at)), 0)::float8 AS age FROM jobs WHERE state = 'queued' AND run_at <= now() GROUP BY kind`,
      );
      for (const r of rows) this.set({ kind: r.kind }, r.age);
    },
  });
  new Gauge({
    name: 'castaway_db_connections',
    help: 'Database connections of this instance: max (the pool size), total open, idle, and waiting (callers queued for one)',
    labelNames: ['state'],
    registers,
    collect() {
      const use = store.connections();
      for (const [state, n] of Object.entries(use)) this.set({ state }, n);
    },
  });

  return {
    /** One answered request. */
    request(method: string, route: string, status: number, seconds: number): void {
      requests.inc({ method, route, status: String(status) });
      requestSeconds.observe({ method, route }, seconds);
    },
    push(mutations: number, seconds: number): void {
      pushMutations.observe(mutations);
      pushSeconds.observe(seconds);
    },
    pull(rows: number, seconds: number): void {
      pullRows.observe(rows);
      pullSeconds.observe(seconds);
    },
    /** One job attempt this instance ran. */
    jobRun(kind: string, outcome: JobOutcome, seconds: number): void {
      jobRuns.inc({ kind, outcome });
      jobSeconds.observe({ kind }, seconds);
    },
    /** A stream opened; the function it returns closes it (once). */
    sseOpened(): () => void {
      sse.inc();
      let open = true;
      return () => {
        if (open) sse.dec();
        open = false;
      };
    },
    /** The exposition text of this app's metrics and the process's. */
    async scrape(): Promise<{ text: string; contentType: string }> {
      const merged = Registry.merge([registry, processMetrics()]);
      return { text: await merged.metrics(), contentType: registry.contentType };
    },
  };
}
