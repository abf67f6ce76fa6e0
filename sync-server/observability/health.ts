// The operator's endpoints (src/protocol/api/operations.ts): liveness, readiness and the metrics
// scrape. Readiness is what a load balancer sends traffic by: an instance whose database does not
// answer, that lacks a migration this build needs (another instance is still migrating), whose
// job runner is not taking jobs, or that was told to stop, answers 503 and is taken out of the
// rotation; its process stays up (liveness) so it is not restarted for a database outage.
import { timingSafeEqual } from 'node:crypto';
import { basename } from 'node:path';
import * as routes from '../../src/protocol/api/operations.ts';
import { unauthorized } from '../errors.ts';
import { migrationFiles } from '../store/migrate.ts';
import type { Store } from '../store/store.ts';
import type { JobRunner } from '../jobs/runner.ts';
import { guard, type Access } from '../api/guard.ts';
import { guarded, resourceApp } from '../api/route.ts';

/** How long the database may take to answer a readiness probe (probes time out at a few seconds). */
export const READINESS_DATABASE_TIMEOUT_MS = 2_000;

export type Operations = {
  /** Set when the instance was told to stop: readiness fails at once, while requests in flight end. */
  draining: boolean;
};

type Readiness = { Status: 'ready' | 'unready'; Checks: { Database: string; Migrations: string; Jobs: string; Shutdown: string } };

/** This build's migrations, read once: the files do not change while the process runs. */
let expectedMigrations: string[] | null = null;

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T | 'timed out'> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'timed out'>((resolve) => {
    timer = setTimeout(() => resolve('timed out'), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

export async function readiness(store: Store, jobs: JobRunner, ops: Operations): Promise<{ body: Readiness; problems: string[] }> {
  expectedMigrations ??= migrationFiles().map((f) => basename(f));
  const problems: string[] = [];
  let database = 'ok';
  let migrations = 'ok';
  try {
    const applied = await withTimeout(store.query<{ name: string }>(`SELECT name FROM schema_migrations`), READINESS_DATABASE_TIMEOUT_MS);
    if (applied === 'timed out') {
      database = 'timed out';
      migrations = 'unknown';
    } else {
      // More than this build knows is fine (a newer instance migrated first during a rolling update).
      const have = new Set(applied.map((r) => r.name));
      const missing = expectedMigrations.filter((name) => !have.has(name));
      if (missing.length > 0) migrations = `${missing.length} of this build's migrations not applied (first: ${missing[0]})`;
    }
  } catch (err) {
    database = 'unreachable';
    migrations = 'unknown';
    problems.push(`database: ${err instanceof Error ? err.message : String(err)}`);
  }
  const jobState = jobs.health();
  const body: Readiness = {
    Status: 'ready',
    Checks: { Database: database, Migrations: migrations, Jobs: jobState, Shutdown: ops.draining ? 'draining' : 'ok' },
  };
  if (Object.values(body.Checks).some((v) => v !== 'ok')) body.Status = 'unready';
  return { body, problems };
}

/** Whether the request carries the metrics token (compared in constant time). */
function carriesToken(header: string | undefined, token: string): boolean {
  const given = Buffer.from(header?.startsWith('Bearer ') ? header.slice(7) : '');
  const wanted = Buffer.from(token);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}

/** Like every resource module, the routes read the app's deps and metrics from the context; the
 * token decides the guard's words, so it is given here too. */
export function operationsRoutes(options: { jobs: JobRunner; ops: Operations; metricsToken?: string | undefined }) {
  const metricsAccess: Access = options.metricsToken
    ? { middleware: [], describe: 'Whoever carries the CASTAWAY_METRICS_TOKEN as a bearer token' }
    : guard.public();
  return resourceApp()
    .openapi(guarded(routes.healthz, guard.public()), (c) => {
      c.header('Cache-Control', 'no-store');
      // The reason is logged once by the store itself, when it stops (main.ts's onStopped); a probe
      // comes every few seconds and only answers.
      if (c.get('deps').store.stopped()) return c.json({ Status: 'stopped' as const }, 503);
      return c.json({ Status: 'ok' as const }, 200);
    })
    .openapi(guarded(routes.readyz, guard.public()), async (c) => {
      const { body, problems } = await readiness(c.get('deps').store, options.jobs, options.ops);
      c.header('Cache-Control', 'no-store');
      // The reason an operator needs goes to the log; the answer names no host or error text.
      if (body.Status !== 'ready') c.get('log').warn({ checks: body.Checks, problems }, 'not ready');
      return c.json(body, body.Status === 'ready' ? 200 : 503);
    })
    .openapi(guarded(routes.metrics, metricsAccess), async (c) => {
      if (options.metricsToken && !carriesToken(c.req.header('authorization'), options.metricsToken)) throw unauthorized();
      const { text, contentType } = await c.get('metrics').scrape();
      c.header('Cache-Control', 'no-store');
      return c.body(text, 200, { 'Content-Type': contentType });
    });
}
