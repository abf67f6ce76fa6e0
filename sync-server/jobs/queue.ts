// Writing a job: enqueueJob is called with the transaction's own Queryable, so the job exists only
// if the change that caused it commits, and no runner sees it before (STYLE.md habit 5 and 13).
// The runner (runner.ts) is told right after the commit:
//   PostgreSQL: pg_notify inside the transaction, which PostgreSQL delivers only on COMMIT (and
//               never on ROLLBACK) to the runners of every instance that LISTEN (pg-wake.ts);
//   PGlite:     an in-process signal, sent as the INSERT is answered. PGlite has one connection
//               and the store runs one transaction or statement at a time (store/pglite.ts), so
//               the claim it prompts runs after this transaction has ended, and finds the job
//               only if it committed.
// Either way the runners also poll, so a lost wake-up delays a job, never loses it.
import type { Queryable } from '../store/store.ts';

export const JOBS_CHANNEL = 'castaway_jobs';

export type EnqueueOptions = {
  /** Not before this time (default: at once). */
  runAt?: Date;
  /**
   * At most one queued or running job per key. Enqueued again while one is queued: nothing
   * changes (the queued one will do the work). While one runs: see rerunIfRunning.
   */
  singletonKey?: string;
  /**
   * With singletonKey: enqueued while the job already runs, it runs once more after it ends
   * (its run may have read what the new change replaced: "process clip X" after a new upload).
   * Without it the running one counts (recurring sweeps).
   */
  rerunIfRunning?: boolean;
  /** Attempts before the give-up hook (default 5). */
  maxAttempts?: number;
};

const signals = new Set<() => void>();

/** The runners of this process listen here (runner.ts); returns the unsubscribe. */
export function onJobEnqueued(fn: () => void): () => void {
  signals.add(fn);
  return () => void signals.delete(fn);
}

/**
 * Queues a job in the caller's transaction. Returns its id, or null when a singleton of the key
 * was already queued or running (marked to run again if rerunIfRunning).
 */
export async function enqueueJob(q: Queryable, kind: string, payload: unknown, options: EnqueueOptions = {}): Promise<number | null> {
  const rows = await q.query<{ id: number; inserted: boolean }>(
    `INSERT INTO jobs (kind, payload, singleton_key, run_at, max_attempts)
     VALUES ($1, $2::jsonb, $3, COALESCE($4::timestamptz, now()), $5)
     ON CONFLICT (singleton_key) WHERE singleton_key IS NOT NULL AND state IN ('queued', 'running')
     DO UPDATE SET rerun = jobs.rerun OR (jobs.state = 'running' AND $6::boolean)
     RETURNING id, (xmax = 0) AS inserted`,
    [kind, JSON.stringify(payload), options.singletonKey ?? null, options.runAt ?? null, options.maxAttempts ?? 5, options.rerunIfRunning ?? false],
  );
  await q.query(`SELECT pg_notify($1, $2)`, [JOBS_CHANNEL, kind]);
  for (const fn of [...signals]) fn();
  const row = rows[0];
  return row?.inserted ? row.id : null;
}

