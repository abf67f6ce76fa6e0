// The durable job runner: takes the jobs that enqueueJob (queue.ts) wrote, on PGlite and on
// PostgreSQL alike, from one table claimed with FOR UPDATE SKIP LOCKED, so of several instances
// on one database exactly one takes each job.
//
//   enqueueJob ──> queued ──claim: attempts+1, lease──> running ──run resolves──> deleted
//                   ▲ ▲ ▲                               │  │ │   (rerun asked, or recurring: queued again)
//                   │ │ └── run throws: run_at = now + backoff(attempts) ┘  │ │
//                   │ │                                                      │ └ run throws on the last attempt ─┐
//                   │ └── lease expired (the instance died): any claim takes it again ┘       giveUp hook ─> failed
//                   └── PGlite: on start every lease is released (one process opens the folder)   (throws: queued, backoff)
//
// A running job's lease is renewed while it runs (heartbeat); a lease that lapses anyway is
// another instance's to take, and this run's outcome is then dropped (its completion names its
// lease). A job that took its instance down (a crash on its last attempt) is not run again: the
// next claim gives it up. So a job may run twice, and handlers are idempotent; and every job
// ends, run or given up, so nothing waits for ever (a clip in Processing goes to Error).
//
// Concurrency is per pool: audio decoding holds a file's worth of decoder state, so the 'audio'
// pool runs one job at a time per instance by default.
import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Queryable, Store } from '../store/store.ts';
import { listenForJobs, type PgWake } from './pg-wake.ts';
import { enqueueJob, onJobEnqueued } from './queue.ts';

export type JobContext = {
  id: number;
  kind: string;
  /** 1 for the first run. */
  attempt: number;
  maxAttempts: number;
  /** Aborted when this run lost its lease (another instance has the job now). */
  signal: AbortSignal;
  /**
   * For a run or a give-up that ends rows in a final state (Done, Failed): in one transaction,
   * `lock` locks the rows a request for this job writes, then `write` writes them, unless a run was
   * asked for since this attempt was claimed (enqueueJob's rerunIfRunning). The runner queues that
   * run once this attempt ends, and it would skip rows already final, so they are left to it; the
   * answer is then null. So too once the job is no longer this run's (its lease lapsed and another
   * instance runs it).
   *
   * The order is the point. A request writes those rows before it asks for the run, so under their
   * lock it has either committed (and its ask is read here) or waits for this transaction. An ask
   * read before the lock misses a request landing in between, whose run then finds its rows final.
   * The runner opens the transaction so that the ask is read on it: read on another connection it
   * could miss an uncommitted ask, and on PGlite (one connection) it would wait for ever.
   */
  unlessRerun<T, R>(lock: (q: Queryable) => Promise<T>, write: (q: Queryable, locked: T) => Promise<R>): Promise<R | null>;
};

/**
 * The context of a run of the job `id` (the runner's, or a test's calling a handler itself). With
 * `lease` (the runner's), unlessRerun also leaves the rows once the job is no longer this run's:
 * its lease lapsed and another instance runs it, which ends them itself.
 */
export function jobContext(store: Store, job: Omit<JobContext, 'unlessRerun' | 'signal'> & { signal?: AbortSignal; lease?: string }): JobContext {
  const { lease, signal, ...fields } = job;
  return {
    ...fields,
    signal: signal ?? new AbortController().signal,
    unlessRerun: (lock, write) =>
      store.tx(async (q) => {
        const locked = await lock(q);
        const [row] = await q.query<{ rerun: boolean; locked_by: string | null }>(`SELECT rerun, locked_by FROM jobs WHERE id = $1`, [job.id]);
        return row?.rerun === true || (lease !== undefined && row?.locked_by !== lease) ? null : write(q, locked);
      }),
  };
}

/** Runs `write` on what `lock` locked, in one transaction: the shape of JobContext.unlessRerun, so
 *  that one write serves a plain caller (plainTransaction) and a job's give-up (its unlessRerun). */
export type InTransaction = JobContext['unlessRerun'];
export const plainTransaction =
  (store: Store): InTransaction =>
  (lock, write) =>
    store.tx(async (q) => write(q, await lock(q)));

export type JobHandler<P> = {
  /** Reads the stored payload (a zod schema); a payload it refuses fails the job at once. */
  payload: { parse(input: unknown): P };
  run(payload: P, job: JobContext): Promise<void>;
  /** After the last attempt failed (or crashed its instance): leave the row in a final state (through
   *  job.unlessRerun where a request may ask for a run meanwhile). */
  giveUp?(payload: P, error: unknown, job: JobContext): Promise<unknown>;
  /** Concurrency pool (default 'default'). */
  pool?: string;
  /** Recurring: the runner keeps one queued (singleton key = kind); each run schedules the next. */
  everyMs?: number;
};

export type JobHandlers = Record<string, JobHandler<unknown>>;

/** A handler typed by its payload schema (so `run` reads the payload's own type). */
export function defineJob<P>(handler: JobHandler<P>): JobHandler<P> {
  return handler;
}

export const JobErrorCode = {
  /** The instance stopped (crash, kill -9) while the job's last attempt ran. */
  Interrupted: 'JobInterrupted',
  /** The stored payload is not what the handler reads. */
  BadPayload: 'JobBadPayload',
} as const;

export class JobError extends Error {
  constructor(readonly code: (typeof JobErrorCode)[keyof typeof JobErrorCode], message: string) {
    super(message);
  }
}

export type JobRunnerOptions = {
  store: Store;
  handlers: JobHandlers;
  /** Jobs at once per pool on this instance. Default { audio: 1, default: 2 }; other pools 1. */
  concurrency?: Record<string, number>;
  /** Fallback poll for due jobs (wake-ups are lost when the LISTEN connection drops). Default 1 s. */
  pollMs?: number;
  /** Lease of a running job, renewed every third of it. Default 60 s. */
  leaseMs?: number;
  /** Delay before attempt n+1 after attempt n threw. Default 2 s doubling, at most 10 min. */
  backoffMs?: (attempt: number) => number;
  /** PostgreSQL: LISTEN here for jobs committed on any instance (else only the poll finds them). */
  databaseUrl?: string | undefined;
  /** How long stop() lets running jobs finish before releasing their leases. Default 30 s. */
  stopGraceMs?: number;
  /** A job run that threw, or (job null) the runner could not claim: the database is away; said
   *  once until a claim succeeds again. Default: console.error. */
  onError?: (error: unknown, job: { id: number; kind: string; attempt: number } | null) => void;
  /** Each attempt this runner finished: done, retry (threw, runs again) or failed (given up). */
  onRun?: (kind: string, outcome: JobOutcome, seconds: number) => void;
};

export type JobOutcome = 'done' | 'retry' | 'failed';

/** What a runner's owner chooses (AppDeps.jobs); the app gives the store and its handlers. */
export type JobRunnerSettings = Omit<JobRunnerOptions, 'store' | 'handlers'>;

export type JobRunner = {
  /** Resumes work left in flight, schedules the recurring jobs, then takes jobs as they come. */
  start(): Promise<void>;
  /** Takes no more jobs; waits for the running ones (up to stopGraceMs), then releases their leases. */
  stop(): Promise<void>;
  /** Runs jobs until none is due and none runs (tests; works whether started or not). */
  drain(): Promise<void>;
  /** Whether it takes jobs (/readyz): 'ok', 'stopped' (not started, or stopping) or 'cannot claim
   * jobs' (the last claim failed: the database refuses it). A blocked event loop is not checked
   * here: the probe itself then goes unanswered. (A poll-age check misread a process answering
   * in-process requests back to back, which starve timers, as stalled.) */
  health(): 'ok' | 'stopped' | 'cannot claim jobs';
};

type Claimed = { id: number; kind: string; payload: unknown; attempts: number; max_attempts: number; singleton_key: string | null };

type Pool = { name: string; limit: number; kinds: string[]; active: number; claiming: boolean; again: boolean };

const DEFAULT_CONCURRENCY: Record<string, number> = { audio: 1, default: 2 };

const defaultBackoff = (attempt: number) => Math.min(2_000 * 2 ** (attempt - 1), 10 * 60_000);

const errorText = (err: unknown) => (err instanceof Error ? `${err.name}: ${err.message}` : String(err)).slice(0, 2000);

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { store, handlers } = options;
  const pollMs = options.pollMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const backoffMs = options.backoffMs ?? defaultBackoff;
  const stopGraceMs = options.stopGraceMs ?? 30_000;
  const onError = options.onError ?? ((err, job) => console.error(job ? `job ${job.kind} #${job.id} attempt ${job.attempt} failed:` : 'jobs: cannot claim jobs:', err));
  const instance = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  let leaseSeq = 0;

  const pools = new Map<string, Pool>();
  for (const [kind, handler] of Object.entries(handlers)) {
    const name = handler.pool ?? 'default';
    let pool = pools.get(name);
    if (!pool) {
      pool = { name, limit: Math.max(1, options.concurrency?.[name] ?? DEFAULT_CONCURRENCY[name] ?? 1), kinds: [], active: 0, claiming: false, again: false };
      pools.set(name, pool);
    }
    pool.kinds.push(kind);
  }

  let started = false;
  let draining = 0;
  let pollTimer: NodeJS.Timeout | null = null;
  const timers = new Set<NodeJS.Timeout>();
  let unsubscribe: (() => void) | null = null;
  let pgWake: PgWake | null = null;
  /** Running jobs by lease token. */
  const running = new Map<string, Promise<void>>();
  /** Claims on their way to the database: stop() waits for them. */
  const claims = new Set<Promise<void>>();
  let idleWaiters: Array<() => void> = [];
  let claimFailure: unknown = null;
  let claimFailing = false;

  const ms = (n: number) => Math.max(0, Math.round(n));

  function settle(): void {
    for (const pool of pools.values()) if (pool.active > 0 || pool.claiming) return;
    const waiters = idleWaiters;
    idleWaiters = [];
    for (const fn of waiters) fn();
  }

  function pumpAll(): void {
    for (const pool of pools.values()) pump(pool);
  }

  function pump(pool: Pool): void {
    if (!started && draining === 0) return;
    // A wake-up during a claim may be for a job that claim could not see yet: claim again after it.
    if (pool.claiming) {
      pool.again = true;
      return;
    }
    if (pool.active >= pool.limit) return; // a job that ends pumps again
    pool.claiming = true;
    pool.again = false;
    const claiming = claim(pool).then(
      (job) => {
        pool.claiming = false;
        claimFailing = false;
        if (job) {
          pool.active++;
          const token = job.token;
          const done = execute(job).finally(() => {
            running.delete(token);
            pool.active--;
            pump(pool);
            settle();
          });
          running.set(token, done);
          pump(pool);
        } else if (pool.again) {
          pump(pool);
        }
        settle();
      },
      (err: unknown) => {
        pool.claiming = false;
        claimFailure = err;
        if (!claimFailing) onError(err, null);
        claimFailing = true;
        settle();
      },
    );
    claims.add(claiming);
    void claiming.finally(() => claims.delete(claiming));
  }

  /** Jobs this runner holds and will not run, queued again; the attempt does not count. */
  async function releaseLeases(tokens: string[]): Promise<void> {
    await store.query(
      `UPDATE jobs SET state = 'queued', attempts = GREATEST(attempts - 1, 0), locked_by = NULL, locked_until = NULL WHERE locked_by = ANY($1::text[])`,
      [tokens],
    );
  }

  async function claim(pool: Pool): Promise<(Claimed & { token: string }) | null> {
    const token = `${instance}#${++leaseSeq}`;
    // A run starting now answers any "run again" asked before it (rerun cleared); a claim past the
    // last attempt goes to the give-up instead, which must still see it (JobContext.unlessRerun).
    const [job] = await store.query<Claimed>(
      `UPDATE jobs j SET state = 'running', attempts = j.attempts + 1, locked_by = $1,
              locked_until = now() + $2::float8 * interval '1 millisecond', rerun = j.rerun AND j.attempts + 1 > j.max_attempts
        WHERE j.id = (SELECT id FROM jobs
                       WHERE kind = ANY($3::text[])
                         AND ((state = 'queued' AND run_at <= now()) OR (state = 'running' AND locked_until < now()))
                       ORDER BY run_at, id LIMIT 1
                       FOR UPDATE SKIP LOCKED)
        RETURNING j.id, j.kind, j.payload, j.attempts, j.max_attempts, j.singleton_key`,
      [token, leaseMs, pool.kinds],
    );
    if (!job) return null;
    // Stopped while this claim was on its way: stop() takes no more jobs, so the job goes back as
    // it was, for whichever runner claims next. (It ran here once stopped, after stop() had
    // returned, beside the runner that was meant to have it.)
    if (!started && draining === 0) {
      await releaseLeases([token]);
      return null;
    }
    return { ...job, token };
  }

  /** Renews the lease; false once it is no longer this run's. */
  async function renew(job: Claimed & { token: string }): Promise<boolean> {
    const rows = await store.query(
      `UPDATE jobs SET locked_until = now() + $3::float8 * interval '1 millisecond' WHERE id = $1 AND locked_by = $2 AND state = 'running' RETURNING id`,
      [job.id, job.token, leaseMs],
    );
    return rows.length > 0;
  }

  /** The job's end: queued again at once (rerun asked) or after `afterMs` (recurring); else
   *  deleted (error null) or kept as failed. */
  async function finish(job: Claimed & { token: string }, afterMs: number | null, error: unknown): Promise<void> {
    await store.tx(async (q) => {
      // Locked first, and rerun read from the locked row: an UPDATE whose WHERE tested rerun would
      // skip the row when an enqueue set it after the statement's snapshot (READ COMMITTED only
      // re-checks rows that matched before), and the DELETE below would drop the rerun asked for.
      const [held] = await q.query<{ rerun: boolean }>(`SELECT rerun FROM jobs WHERE id = $1 AND locked_by = $2 FOR UPDATE`, [job.id, job.token]);
      if (!held) return; // the lease lapsed: another instance has it
      if (held.rerun || afterMs !== null) {
        await q.query(
          `UPDATE jobs SET state = 'queued', attempts = 0, rerun = false, locked_by = NULL, locked_until = NULL, last_error = $3,
                  run_at = CASE WHEN $4::boolean THEN now() ELSE now() + $2::float8 * interval '1 millisecond' END
            WHERE id = $1`,
          [job.id, afterMs ?? 0, error === null ? null : errorText(error), held.rerun],
        );
        return;
      }
      if (error === null) await q.query(`DELETE FROM jobs WHERE id = $1 AND locked_by = $2`, [job.id, job.token]);
      else
        await q.query(
          `UPDATE jobs SET state = 'failed', finished_at = now(), locked_by = NULL, locked_until = NULL, last_error = $3 WHERE id = $1 AND locked_by = $2`,
          [job.id, job.token, errorText(error)],
        );
    });
    if (afterMs !== null) wakeIn(afterMs);
  }

  /** Queued again after the backoff, keeping its attempts. */
  async function retry(job: Claimed & { token: string }, error: unknown): Promise<void> {
    const delay = ms(backoffMs(job.attempts));
    await store.query(
      `UPDATE jobs SET state = 'queued', run_at = now() + $3::float8 * interval '1 millisecond', last_error = $4, locked_by = NULL, locked_until = NULL
        WHERE id = $1 AND locked_by = $2`,
      [job.id, job.token, delay, errorText(error)],
    );
    wakeIn(delay);
  }

  function wakeIn(delay: number): void {
    const t = setTimeout(() => {
      timers.delete(t);
      pumpAll();
    }, delay + 5);
    t.unref();
    timers.add(t);
  }

  async function execute(job: Claimed & { token: string }): Promise<void> {
    const handler = handlers[job.kind];
    if (!handler) return; // claimed by kind, so never
    const abort = new AbortController();
    const beat = setInterval(() => {
      renew(job).then(
        (held) => {
          if (!held) abort.abort(new Error('lease lost'));
        },
        () => undefined, // the database is away: the next beat tries again
      );
    }, ms(leaseMs / 3));
    beat.unref();
    const ctx = jobContext(store, { id: job.id, kind: job.kind, attempt: job.attempts, maxAttempts: job.max_attempts, signal: abort.signal, lease: job.token });
    // Only the runner's own one (singleton key = kind) comes round again: a run of a recurring kind
    // queued by hand (an operator's, a test's) is a one-off, or each would recur for ever beside it.
    const recurringMs = handler.everyMs !== undefined && job.singleton_key === job.kind ? handler.everyMs : null;
    const startedAt = performance.now();
    let outcome: JobOutcome | null = null;
    try {
      let payload: unknown;
      try {
        payload = handler.payload.parse(job.payload);
      } catch (err) {
        onError(err, { id: job.id, kind: job.kind, attempt: job.attempts });
        await finish(job, recurringMs, new JobError(JobErrorCode.BadPayload, errorText(err)));
        outcome = 'failed';
        return;
      }
      let failure: unknown;
      if (job.attempts > job.max_attempts) {
        failure = new JobError(JobErrorCode.Interrupted, 'the server stopped while the last attempt ran');
      } else {
        try {
          await handler.run(payload, ctx);
          await finish(job, recurringMs, null);
          outcome = 'done';
          return;
        } catch (err) {
          onError(err, { id: job.id, kind: job.kind, attempt: job.attempts });
          if (job.attempts < job.max_attempts) {
            await retry(job, err);
            outcome = 'retry';
            return;
          }
          failure = err;
        }
      }
      try {
        if (handler.giveUp) {
          await handler.giveUp(payload, failure, ctx);
        }
      } catch (err) {
        // Tried again later, with the next claim going straight to the give-up.
        onError(err, { id: job.id, kind: job.kind, attempt: job.attempts });
        await retry(job, err);
        outcome = 'retry';
        return;
      }
      await finish(job, recurringMs, failure);
      outcome = 'failed';
    } catch (err) {
      // The database failed the bookkeeping: the lease lapses and the job is taken again.
      onError(err, { id: job.id, kind: job.kind, attempt: job.attempts });
    } finally {
      clearInterval(beat);
      // Only attempts whose end the database recorded (a failed bookkeeping is taken again).
      if (outcome) options.onRun?.(job.kind, outcome, (performance.now() - startedAt) / 1000);
    }
  }

  function untilIdle(): Promise<void> {
    return new Promise((resolve) => {
      idleWaiters.push(resolve);
      settle();
    });
  }

  return {
    async start() {
      if (started) return;
      if (store.kind === 'pglite') {
        // Only one process opens a PGlite folder: whatever ran before this start died with its process.
        await store.query(`UPDATE jobs SET state = 'queued', locked_by = NULL, locked_until = NULL WHERE state = 'running'`);
      }
      for (const [kind, handler] of Object.entries(handlers)) {
        if (handler.everyMs !== undefined) await enqueueJob(store, kind, {}, { singletonKey: kind, runAt: new Date(Date.now() + handler.everyMs) });
      }
      started = true;
      unsubscribe = onJobEnqueued(pumpAll);
      if (store.kind === 'postgres' && options.databaseUrl) {
        pgWake = listenForJobs(options.databaseUrl, pumpAll);
        await pgWake.ensure();
      }
      pollTimer = setInterval(() => {
        void pgWake?.ensure();
        pumpAll();
      }, pollMs);
      pollTimer.unref();
      pumpAll();
    },

    async stop() {
      if (!started) return;
      started = false;
      if (pollTimer) clearInterval(pollTimer);
      pollTimer = null;
      for (const t of timers) clearTimeout(t);
      timers.clear();
      unsubscribe?.();
      unsubscribe = null;
      await pgWake?.close();
      pgWake = null;
      await Promise.allSettled([...claims]);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...running.values()]),
        new Promise((resolve) => {
          grace = setTimeout(resolve, stopGraceMs);
        }),
      ]);
      clearTimeout(grace);
      // Not their fault: the attempt does not count, and another instance (or the next start) takes them now.
      if (running.size > 0) await releaseLeases([...running.keys()]);
    },

    health() {
      if (!started) return 'stopped';
      return claimFailing ? 'cannot claim jobs' : 'ok';
    },

    async drain() {
      draining++;
      claimFailure = null;
      try {
        for (;;) {
          pumpAll();
          await untilIdle();
          if (claimFailure) throw claimFailure;
          // Idle, but a job ended after its pool's last claim found nothing (another pool's job
          // enqueued it): one more round finds it, or confirms that nothing is due.
          const [due] = await store.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM jobs WHERE kind = ANY($1::text[]) AND state = 'queued' AND run_at <= now()`,
            [Object.keys(handlers)],
          );
          if ((due?.n ?? 0) === 0) return;
        }
      } finally {
        draining--;
      }
    },
  };
}
