// The durable job runner (sync-server/jobs) on PGlite and PostgreSQL: a job exists only if the
// transaction that queued it commits and runs only after that commit; a job that throws is tried
// again after a growing delay and, after its last attempt, given up through its hook; singletons
// coalesce; recurring jobs keep one schedule however many runners start; and on PostgreSQL two
// runners take each job exactly once, and a job whose runner died is taken again once its lease
// lapses (while a live runner's heartbeat keeps its lease). A runner stopped while a claim is on its
// way waits for it and leaves the job it took to the next runner.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { enqueueJob } from '../../sync-server/jobs/queue.ts';
import { createJobRunner, defineJob, JobErrorCode, type JobHandlers, type JobRunner, type JobRunnerOptions } from '../../sync-server/jobs/runner.ts';
import { openStore } from '../../sync-server/store/open.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { MISSING_DATABASE_URL, openScratchPostgres, openTestStore, storeKinds, type StoreKind } from '../server/test-store.ts';

type JobsStore = { store: Store; url: string | undefined; drop: () => Promise<void> };

async function openJobsStore(kind: StoreKind): Promise<JobsStore> {
  if (kind === 'pglite') return { ...(await openTestStore('pglite')), url: undefined };
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error(MISSING_DATABASE_URL);
  return openScratchPostgres(base, 'castaway_jobs');
}

const Payload = z.object({ n: z.number() });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(ok: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(10);
  }
}

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** Runners and stores a test made, stopped and dropped after it whatever happened. */
const cleanups: Array<() => Promise<unknown>> = [];
async function cleanUp(): Promise<void> {
  for (const fn of cleanups.splice(0).reverse()) await fn().catch(() => undefined);
}
afterEach(cleanUp);

function runner(options: JobRunnerOptions): JobRunner {
  const r = createJobRunner({ onError: () => undefined, ...options });
  cleanups.push(() => r.stop());
  return r;
}

async function fresh(kind: StoreKind): Promise<JobsStore> {
  const s = await openJobsStore(kind);
  cleanups.push(s.drop);
  return s;
}

const rowsOf = (store: Store, kind: string) =>
  store.query<{ state: string; attempts: number; last_error: string | null }>(`SELECT state, attempts, last_error FROM jobs WHERE kind = $1 ORDER BY id`, [kind]);

describe.each(storeKinds)('jobs on %s', (kind) => {
  // One store for the suite (a PGlite takes seconds to open and migrate); each test's jobs are its
  // own kinds, and the table is emptied after each.
  let shared: JobsStore;
  beforeAll(async () => {
    shared = await openJobsStore(kind);
  });
  afterEach(async () => {
    await cleanUp();
    await shared.store.query('DELETE FROM jobs');
  });
  afterAll(async () => {
    await shared?.drop();
  });
  const fresh = async () => shared;

  it('a job queued in a transaction that rolls back never runs; one queued after it does', async () => {
    const { store, url } = await fresh();
    const ran: number[] = [];
    const r = runner({ store, databaseUrl: url, handlers: { count: defineJob({ payload: Payload, run: async ({ n }) => void ran.push(n) }) } });
    await r.start();
    await expect(
      store.tx(async (q) => {
        await enqueueJob(q, 'count', { n: 1 });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    await store.tx((q) => enqueueJob(q, 'count', { n: 2 }));
    await until(() => ran.length > 0);
    await r.drain();
    expect(ran).toEqual([2]);
    expect(await rowsOf(store, 'count')).toEqual([]);
  });

  it('a job runs after its transaction commits, at once (woken, not polled), and never before', async () => {
    const { store, url } = await fresh();
    const ran = deferred<number>();
    // A poll this slow would not find the job within the test: only the wake-up can.
    const r = runner({ store, databaseUrl: url, pollMs: 60_000, handlers: { count: defineJob({ payload: Payload, run: async ({ n }) => ran.resolve(n) }) } });
    await r.start();
    let committedAt = 0;
    let ranBeforeCommit = false;
    void ran.promise.then(() => {
      ranBeforeCommit = committedAt === 0;
    });
    await store.tx(async (q) => {
      await enqueueJob(q, 'count', { n: 7 });
      // Long enough for a wake-up sent at the INSERT to have claimed whatever it could see.
      await sleep(300);
      await q.query('SELECT 1');
    });
    committedAt = Date.now();
    expect(await ran.promise).toBe(7);
    expect(ranBeforeCommit).toBe(false);
    expect(Date.now() - committedAt).toBeLessThan(5_000);
  });

  it('a job that throws is retried after a growing delay and given up after its last attempt, through its hook', async () => {
    const { store, url } = await fresh();
    const attempts: Array<{ at: number; attempt: number }> = [];
    const gaveUp = deferred<{ error: unknown; n: number }>();
    const errors: unknown[] = [];
    const r = runner({
      store,
      databaseUrl: url,
      backoffMs: (attempt) => 150 * 2 ** (attempt - 1),
      onError: (err) => errors.push(err),
      handlers: {
        flaky: defineJob({
          payload: Payload,
          run: async (_p, job) => {
            attempts.push({ at: Date.now(), attempt: job.attempt });
            throw new Error(`attempt ${job.attempt} failed`);
          },
          giveUp: async ({ n }, error) => gaveUp.resolve({ error, n }),
        }),
      },
    });
    await r.start();
    await store.tx((q) => enqueueJob(q, 'flaky', { n: 3 }, { maxAttempts: 3 }));
    const given = await gaveUp.promise;
    expect(given.n).toBe(3);
    expect((given.error as Error).message).toBe('attempt 3 failed');
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // 150 ms after the first failure, 300 ms after the second (the database's clock: a few ms of slack).
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(140);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(290);
    expect(errors).toHaveLength(3);
    await until(async () => (await rowsOf(store, 'flaky'))[0]?.state === 'failed');
    expect(await rowsOf(store, 'flaky')).toEqual([{ state: 'failed', attempts: 3, last_error: 'Error: attempt 3 failed' }]);
  });

  it('a job that fails once and then succeeds is gone, without its give-up hook', async () => {
    const { store, url } = await fresh();
    let runs = 0;
    let gaveUp = false;
    const r = runner({
      store,
      databaseUrl: url,
      backoffMs: () => 50,
      handlers: {
        once: defineJob({
          payload: Payload,
          run: async () => {
            if (++runs === 1) throw new Error('first time');
          },
          giveUp: async () => void (gaveUp = true),
        }),
      },
    });
    await r.start();
    await store.tx((q) => enqueueJob(q, 'once', { n: 1 }, { maxAttempts: 2 }));
    await until(() => runs === 2);
    await until(async () => (await rowsOf(store, 'once')).length === 0);
    expect(gaveUp).toBe(false);
  });

  it('a singleton queued twice runs once; queued again while it runs, it runs once more only when asked to', async () => {
    const { store } = await fresh();
    const ran: string[] = [];
    let release = deferred();
    const started = { count: 0 };
    const handlers: JobHandlers = {
      clip: defineJob({
        payload: z.object({ label: z.string() }),
        run: async ({ label }) => {
          started.count++;
          ran.push(label);
          await release.promise;
        },
      }),
    };
    const r = runner({ store, handlers });
    expect(await store.tx((q) => enqueueJob(q, 'clip', { label: 'a' }, { singletonKey: 'clip:1' }))).not.toBeNull();
    expect(await store.tx((q) => enqueueJob(q, 'clip', { label: 'b' }, { singletonKey: 'clip:1' }))).toBeNull();
    release.resolve();
    await r.drain();
    expect(ran).toEqual(['a']);

    // While it runs: without rerunIfRunning the running one counts; with it, one more run follows.
    release = deferred();
    await store.tx((q) => enqueueJob(q, 'clip', { label: 'c' }, { singletonKey: 'clip:1' }));
    const draining = r.drain();
    await until(() => started.count === 2);
    await store.tx((q) => enqueueJob(q, 'clip', { label: 'd' }, { singletonKey: 'clip:1' }));
    await store.tx((q) => enqueueJob(q, 'clip', { label: 'e' }, { singletonKey: 'clip:1', rerunIfRunning: true }));
    release.resolve();
    await draining;
    expect(ran).toEqual(['a', 'c', 'c']);
    expect(await rowsOf(store, 'clip')).toEqual([]);
  });

  it('a give-up hook leaves its rows to a run asked for while the last attempt ran (unlessRerun), and that run follows', async () => {
    const { store } = await fresh();
    const started: string[] = [];
    const gaveUp: string[] = [];
    const release = deferred();
    const handlers: JobHandlers = {
      normalize: defineJob({
        payload: z.object({ label: z.string() }),
        run: async ({ label }) => {
          started.push(label);
          await release.promise;
          throw new Error('the disk went away');
        },
        giveUp: async (_p, _error, job) => void gaveUp.push((await job.unlessRerun(async () => undefined, async () => 'failed')) ?? 'left'),
      }),
    };
    const r = runner({ store, handlers });
    await store.tx((q) => enqueueJob(q, 'normalize', { label: 'first' }, { singletonKey: 'normalize:1', rerunIfRunning: true, maxAttempts: 1 }));
    const draining = r.drain();
    await until(() => started.length === 1);
    await store.tx((q) => enqueueJob(q, 'normalize', { label: 'again' }, { singletonKey: 'normalize:1', rerunIfRunning: true, maxAttempts: 1 }));
    release.resolve();
    await until(() => started.length === 2);
    await draining;
    await r.drain();
    // The first give-up had a run to come; the second, none.
    expect(gaveUp).toEqual(['left', 'failed']);
  });

  it('a run that ends its rows (unlessRerun) leaves them to a run asked for while it ran; the next attempt answers that ask itself', async () => {
    const { store } = await fresh();
    const outcomes: string[] = [];
    const gates = { throws: { started: deferred(), release: deferred() }, succeeds: { started: deferred(), release: deferred() } };
    /** A job whose first attempt waits at its gate, then ends its rows (unlessRerun), then throws if `throws`. */
    const job = (kind: 'throws' | 'succeeds') =>
      defineJob({
        payload: z.object({}),
        run: async (_p, ctx) => {
          if (outcomes.filter((o) => o.startsWith(kind)).length === 0) {
            gates[kind].started.resolve();
            await gates[kind].release.promise;
          }
          // The rows are locked before the ask is read: the lock's answer is what the write sees.
          const outcome = await ctx.unlessRerun(async (q) => (await q.query<{ n: number }>(`SELECT 1 AS n`))[0]!.n, async (_q, locked) => `ended ${locked}`);
          outcomes.push(`${kind} #${ctx.attempt}: ${outcome ?? 'left'}`);
          if (kind === 'throws' && ctx.attempt === 1) throw new Error('the host went away');
        },
      });
    const r = runner({ store, handlers: { throws: job('throws'), succeeds: job('succeeds') }, backoffMs: () => 10 });
    for (const kind of ['throws', 'succeeds'] as const) {
      await store.tx((q) => enqueueJob(q, kind, {}, { singletonKey: kind, rerunIfRunning: true }));
      const draining = r.drain();
      await gates[kind].started.promise;
      // Asked for again while the first attempt runs.
      await store.tx((q) => enqueueJob(q, kind, {}, { singletonKey: kind, rerunIfRunning: true }));
      gates[kind].release.resolve();
      await draining;
      // Until the job is done with (a retry comes due after its backoff).
      await until(async () => {
        await r.drain();
        return (await rowsOf(store, kind)).length === 0;
      });
    }
    expect(outcomes).toEqual([
      // The first attempt threw: the second is the run asked for (its claim answered the ask), so it ends the rows.
      'throws #1: left',
      'throws #2: ended 1',
      // The first attempt succeeded: the run asked for follows (its attempts start again) and ends them.
      'succeeds #1: left',
      'succeeds #1: ended 1',
    ]);
    expect(await store.query(`SELECT count(*)::int AS n FROM jobs`)).toEqual([{ n: 0 }]);
  });

  it('a run whose lease another instance took leaves its rows to that instance (unlessRerun)', async () => {
    const { store } = await fresh();
    const outcomes: string[] = [];
    const r = runner({
      store,
      handlers: {
        fetch: defineJob({
          payload: z.object({}),
          run: async (_p, ctx) => {
            outcomes.push((await ctx.unlessRerun(async () => 1, async () => 'ended')) ?? 'left');
            // The lease lapsed (a long pause) and another instance claimed the job.
            await store.query(`UPDATE jobs SET locked_by = 'another#1', locked_until = now() + interval '1 hour' WHERE id = $1`, [ctx.id]);
            outcomes.push((await ctx.unlessRerun(async () => 1, async () => 'ended')) ?? 'left');
          },
        }),
      },
    });
    await store.tx((q) => enqueueJob(q, 'fetch', {}));
    await r.drain();
    expect(outcomes).toEqual(['ended', 'left']);
    // Still the other instance's: this run's end changed nothing.
    expect(await store.query(`SELECT state, locked_by FROM jobs WHERE kind = 'fetch'`)).toEqual([{ state: 'running', locked_by: 'another#1' }]);
  });

  it('the last attempt interrupted by a dying server is not run again: its give-up hook runs on the next start', async () => {
    const { store, url } = await fresh();
    await store.tx((q) => enqueueJob(q, 'decode', { n: 1 }, { maxAttempts: 2 }));
    // What a server killed during the job's second (last) attempt leaves behind.
    await store.query(`UPDATE jobs SET state = 'running', attempts = 2, locked_by = 'dead#1', locked_until = now() + interval '200 milliseconds'`);
    let ran = false;
    const gaveUp = deferred<unknown>();
    const r = runner({
      store,
      databaseUrl: url,
      pollMs: 50,
      handlers: { decode: defineJob({ payload: Payload, run: async () => void (ran = true), giveUp: async (_p, error) => gaveUp.resolve(error) }) },
    });
    await r.start();
    expect(await gaveUp.promise).toMatchObject({ code: JobErrorCode.Interrupted });
    expect(ran).toBe(false);
    await until(async () => (await rowsOf(store, 'decode'))[0]?.state === 'failed');
  });

  it('a run asked for while a dying server ran the last attempt is kept: the give-up hook leaves its rows to it (unlessRerun) and that run follows', async () => {
    const { store, url } = await fresh();
    await store.tx((q) => enqueueJob(q, 'decode', { n: 1 }, { maxAttempts: 2, singletonKey: 'decode:1' }));
    // A server killed during the job's last attempt, after "run it again" was asked (enqueueJob's rerunIfRunning).
    await store.query(`UPDATE jobs SET state = 'running', attempts = 2, locked_by = 'dead#1', locked_until = now() + interval '200 milliseconds'`);
    await store.tx((q) => enqueueJob(q, 'decode', { n: 1 }, { maxAttempts: 2, singletonKey: 'decode:1', rerunIfRunning: true }));
    const gaveUp: string[] = [];
    const ran: number[] = [];
    const r = runner({
      store,
      databaseUrl: url,
      pollMs: 50,
      handlers: { decode: defineJob({ payload: Payload, run: async (_p, job) => void ran.push(job.attempt), giveUp: async (_p, _error, job) => void gaveUp.push((await job.unlessRerun(async () => undefined, async () => 'failed')) ?? 'left') }) },
    });
    await r.start();
    await until(() => ran.length === 1);
    expect(gaveUp).toEqual(['left']);
    expect(ran).toEqual([1]);
    await until(async () => (await rowsOf(store, 'decode')).length === 0);
  });

  it('recurring jobs keep one schedule through their singleton key, and each run schedules the next', async () => {
    const { store, url } = await fresh();
    let ticks = 0;
    const handlers: JobHandlers = { tick: defineJob({ payload: z.object({}), everyMs: 150, run: async () => void ticks++ }) };
    const r = runner({ store, databaseUrl: url, pollMs: 20, handlers });
    const started = Date.now();
    await r.start();
    // Another start on the same store (a restart, or a second instance on PostgreSQL) adds none.
    await r.stop();
    await r.start();
    expect(await store.query(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'tick'`)).toEqual([{ n: 1 }]);
    await until(() => ticks >= 3);
    const elapsed = Date.now() - started;
    expect(ticks).toBeLessThanOrEqual(Math.floor(elapsed / 150) + 1);
    expect(await store.query(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'tick' AND state IN ('queued', 'running')`)).toEqual([{ n: 1 }]);
  });

  it('a run of a recurring kind queued by hand runs once and is gone; the schedule stays one', async () => {
    const { store, url } = await fresh();
    let ticks = 0;
    // Long enough that the schedule's own run does not come during the test.
    const handlers: JobHandlers = { tick: defineJob({ payload: z.object({}), everyMs: 60_000, run: async () => void ticks++ }) };
    const r = runner({ store, databaseUrl: url, pollMs: 20, handlers });
    await r.start();
    for (let i = 0; i < 3; i++) await enqueueJob(store, 'tick', {});
    await until(() => ticks >= 3);
    await until(async () => (await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'tick'`))[0]!.n === 1);
    expect(await store.query(`SELECT singleton_key, state FROM jobs WHERE kind = 'tick'`)).toEqual([{ singleton_key: 'tick', state: 'queued' }]);
    expect(ticks).toBe(3);
  });

  it('a claim on its way when stop() is called: stop() waits for it, and the job it took is queued again for the next runner, not run', async () => {
    const { store } = await fresh();
    const ran: number[] = [];
    const handlers: JobHandlers = { late: defineJob({ payload: Payload, run: async ({ n }) => void ran.push(n) }) };
    await enqueueJob(store, 'late', { n: 1 });
    // The runner's store holds its first claim back until the test lets it go (a busy connection pool).
    const asked = deferred();
    const letGo = deferred();
    let held = false;
    const slow: Store = {
      ...store,
      query: async (sql, params) => {
        if (!held && sql.includes("SET state = 'running'")) {
          held = true;
          asked.resolve();
          await letGo.promise;
        }
        return store.query(sql, params);
      },
    };
    const r = runner({ store: slow, pollMs: 60_000, handlers });
    await r.start();
    await asked.promise;
    let stopped = false;
    const stopping = r.stop().then(() => void (stopped = true));
    await sleep(50);
    expect(stopped).toBe(false);
    letGo.resolve();
    await stopping;
    await sleep(100);
    expect(ran).toEqual([]);
    expect(await rowsOf(store, 'late')).toEqual([{ state: 'queued', attempts: 0, last_error: null }]);
    const next = runner({ store, pollMs: 20, handlers });
    await next.start();
    await until(() => ran.length === 1);
    expect(ran).toEqual([1]);
  });
});

describe('several runners on one PostgreSQL database', () => {
  /** A second connection pool on the same database: another server instance. */
  async function secondInstance(url: string): Promise<Store> {
    const store = await openStore({ databaseUrl: url, skipMigrations: true });
    cleanups.push(() => store.close());
    return store;
  }

  it('two runners take each of 100 jobs exactly once', async () => {
    const { store, url } = await fresh('postgres');
    const other = await secondInstance(url!);
    const taken: Array<{ by: string; n: number }> = [];
    const handlers = (by: string): JobHandlers => ({
      work: defineJob({
        payload: Payload,
        run: async ({ n }) => {
          taken.push({ by, n });
          await sleep(5);
        },
      }),
    });
    const a = runner({ store, databaseUrl: url, concurrency: { default: 4 }, handlers: handlers('a') });
    const b = runner({ store: other, databaseUrl: url, concurrency: { default: 4 }, handlers: handlers('b') });
    await Promise.all([a.start(), b.start()]);
    for (let i = 0; i < 100; i += 10) {
      await store.tx(async (q) => {
        for (let n = i; n < i + 10; n++) await enqueueJob(q, 'work', { n });
      });
    }
    await until(() => taken.length >= 100, 30_000);
    await Promise.all([a.drain(), b.drain()]);
    expect(taken.map((t) => t.n).sort((x, y) => x - y)).toEqual([...Array(100).keys()]);
    expect(new Set(taken.map((t) => t.by))).toEqual(new Set(['a', 'b']));
    expect(await rowsOf(store, 'work')).toEqual([]);
  });

  it('a rerun asked while the job ends is not lost: the enqueue holding the row makes the end wait and read it', async () => {
    const { store } = await fresh('postgres');
    const ran: string[] = [];
    const release = deferred();
    const handlers: JobHandlers = {
      render: defineJob({
        payload: z.object({ label: z.string() }),
        run: async ({ label }) => {
          ran.push(label);
          if (ran.length === 1) await release.promise;
        },
      }),
    };
    const r = runner({ store, handlers });
    await store.tx((q) => enqueueJob(q, 'render', { label: 'first' }, { singletonKey: 'render:1', rerunIfRunning: true }));
    const draining = r.drain();
    await until(() => ran.length === 1);
    // The enqueue of a change committed meanwhile: rerun set on the running row, not yet committed
    // when the job ends. It commits only once the end waits for its lock (an end that read rerun
    // from its statement's snapshot instead skipped the row, deleted it after, and lost the rerun).
    await store.tx(async (q) => {
      expect(await enqueueJob(q, 'render', { label: 'second' }, { singletonKey: 'render:1', rerunIfRunning: true })).toBeNull();
      release.resolve();
      await until(async () => {
        const [w] = await store.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
        );
        return w!.n > 0;
      });
    });
    await draining;
    await r.drain();
    expect(ran).toEqual(['first', 'first']);
    expect(await rowsOf(store, 'render')).toEqual([]);
  });

  it("a runner's lease outlives its job while its heartbeat renews it; when its instance dies, the lease lapses and another runner takes the job", async () => {
    const { store, url } = await fresh('postgres');
    const dying = await secondInstance(url!);
    const leaseMs = 400;
    const runs: Array<{ by: string; attempt: number; at: number }> = [];
    const hang = deferred();
    // A run's start by the database's clock, which the lease is on (a server on another host has its own).
    const handlers = (by: string, db: Store): JobHandlers => ({
      long: defineJob({
        payload: Payload,
        run: async (_p, job) => {
          const [at] = await db.query<{ ms: number }>(`SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms`);
          runs.push({ by, attempt: job.attempt, at: at!.ms });
          if (by === 'dying') await hang.promise;
          else await sleep(3 * leaseMs);
        },
      }),
    });
    const live = runner({ store, databaseUrl: url, leaseMs, pollMs: 50, handlers: handlers('live', store) });
    const doomed = runner({ store: dying, leaseMs, pollMs: 50, stopGraceMs: 100, handlers: handlers('dying', dying) });
    // A job three leases long on a live runner is not taken by the other one.
    await live.start();
    await store.tx((q) => enqueueJob(q, 'long', { n: 1 }));
    await until(() => runs.length === 1);
    await doomed.start();
    await live.drain();
    expect(runs.map((r) => r.by)).toEqual(['live']);
    expect(await rowsOf(store, 'long')).toEqual([]);

    // Now the job goes to the doomed runner, whose instance then loses its database for good.
    await live.stop();
    await store.tx((q) => enqueueJob(q, 'long', { n: 2 }));
    await until(() => runs.length === 2);
    expect(runs[1]!.by).toBe('dying');
    // The lease as the doomed runner last renewed it (a renewal after this read only extends it).
    // Not timed from the close: on a loaded machine the close itself can outlast the lease.
    const [held] = await store.query<{ until: number }>(`SELECT (extract(epoch FROM locked_until) * 1000)::float8 AS until FROM jobs WHERE kind = 'long'`);
    await dying.close();
    await live.start();
    await until(() => runs.length === 3, 10_000);
    expect(runs[2]).toMatchObject({ by: 'live', attempt: 2 });
    expect(runs[2]!.at).toBeGreaterThanOrEqual(held!.until);
    await live.drain();
    expect(await rowsOf(store, 'long')).toEqual([]);
    hang.resolve();
  });
});
