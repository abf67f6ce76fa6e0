// The download rollups (migration 0465): counted_downloads (0460, one row per download counted by
// the IAB rules) summed by UTC hour into the tables the analytics API reads, incrementally, by a
// cursor over counted_downloads.id.
//
//   counted_downloads ──id > cursor, up to BATCH_ROWS──> one statement: + hour sums into the
//   organization, program, clip and dimension tables, cursor moved ──> commit (all or nothing)
//
// Each batch and its cursor move commit together, and the cursor row is locked (SKIP LOCKED) while
// a batch runs, so a download is added once whichever instance, job or request rolls it up.
// The cursor relies on ids becoming visible in order: counted_downloads has one writer, the
// counting job, running one at a time. Who rolls up:
//   - the recurring job (ROLLUP_JOB, every minute) and the on-demand one (ROLLUP_NOW_JOB, which
//     the counting job may enqueue after it wrote: enqueueRollup), until caught up;
//   - the API itself, one batch before it answers (catchUpForQuery): cheap when there is little to
//     add, and an answer then includes every download counted so far. What is still left after
//     that batch (a backlog) is said in the answer's PendingDownloads.
import * as z from 'zod';
import type { AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { Queryable, Store } from '../store/store.ts';

export const ROLLUP_JOB = 'analytics.rollup';
export const ROLLUP_NOW_JOB = 'analytics.rollup-now';
const CURSOR = 'downloads';

/** Counted downloads per batch (one transaction): up to ~0.5 s on PGlite, whose one connection
 * every request waits for meanwhile (bench: 18,000 a second over 1 M raw events, 43,000 over 10 M,
 * where most hours exist already and are updated); ~0.3 s on PostgreSQL. */
export const BATCH_ROWS = 10_000;
/** What a query adds itself before answering: a few milliseconds. */
export const QUERY_BATCH_ROWS = 5_000;

// The hour a download belongs to, in UTC whatever the session's TimeZone.
const HOUR = `date_trunc('hour', counted_at_utc AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`;

// One statement: the batch is read once (MATERIALIZED), each table gets its hour sums (PostgreSQL
// runs every data-modifying CTE, referenced or not), the cursor moves. Rows of a batch that share a key are grouped first (ON CONFLICT may touch a row once per
// statement); a clip's program is the one its downloads name (a clip does not change program).
const ROLL_UP = `
WITH batch AS MATERIALIZED (
  SELECT organization_id, program_id, clip_id, ${HOUR} AS hour_utc, media_type, app, device, os, country, source
  FROM counted_downloads WHERE id > $1 AND id <= $2
), org AS (
  INSERT INTO download_hours_org AS t (organization_id, hour_utc, media_type, downloads)
  SELECT organization_id, hour_utc, media_type, count(*) FROM batch GROUP BY 1, 2, 3
  ON CONFLICT (organization_id, hour_utc, media_type) DO UPDATE SET downloads = t.downloads + excluded.downloads
), program AS (
  INSERT INTO download_hours_program AS t (organization_id, program_id, hour_utc, media_type, downloads)
  SELECT (array_agg(organization_id))[1], program_id, hour_utc, media_type, count(*) FROM batch GROUP BY program_id, hour_utc, media_type
  ON CONFLICT (program_id, hour_utc, media_type) DO UPDATE SET downloads = t.downloads + excluded.downloads
), clip AS (
  INSERT INTO download_hours_clip AS t (organization_id, program_id, clip_id, hour_utc, media_type, downloads)
  SELECT (array_agg(organization_id))[1], (array_agg(program_id))[1], clip_id, hour_utc, media_type, count(*) FROM batch GROUP BY clip_id, hour_utc, media_type
  ON CONFLICT (clip_id, hour_utc, media_type) DO UPDATE SET downloads = t.downloads + excluded.downloads
), dimension AS (
  INSERT INTO download_hours_dimension AS t (organization_id, program_id, hour_utc, media_type, dimension, value, downloads)
  SELECT (array_agg(b.organization_id))[1], b.program_id, b.hour_utc, b.media_type, d.dimension, d.value, count(*)
  FROM batch b CROSS JOIN LATERAL (VALUES ('apps', b.app), ('devices', b.device), ('os', b.os), ('countries', b.country), ('sources', b.source)) AS d (dimension, value)
  GROUP BY b.program_id, d.dimension, b.hour_utc, b.media_type, d.value
  ON CONFLICT (program_id, dimension, hour_utc, media_type, value) DO UPDATE SET downloads = t.downloads + excluded.downloads
)
UPDATE analytics_rollup_cursor SET last_id = $2 WHERE name = '${CURSOR}'`;

export type RollupBatch = {
  /** Counted downloads added to the rollups. */
  added: number;
  /** Whether nothing was left after it (false too when another run held the cursor). */
  caughtUp: boolean;
};

/** One batch: the next `rows` counted downloads after the cursor, in one transaction. */
export async function rollUpBatch(store: Store, rows = BATCH_ROWS): Promise<RollupBatch> {
  return store.tx(async (q) => {
    const [cursor] = await q.query<{ last_id: string }>(`SELECT last_id FROM analytics_rollup_cursor WHERE name = $1 FOR UPDATE SKIP LOCKED`, [CURSOR]);
    if (!cursor) return { added: 0, caughtUp: false }; // another run holds it
    const from = Number(cursor.last_id);
    const [range] = await q.query<{ upto: string | null; n: number }>(
      `SELECT max(id) AS upto, count(*)::int AS n FROM (SELECT id FROM counted_downloads WHERE id > $1 ORDER BY id LIMIT $2) s`,
      [from, rows],
    );
    if (!range?.upto) return { added: 0, caughtUp: true };
    await q.query(ROLL_UP, [from, range.upto]);
    return { added: range.n, caughtUp: range.n < rows };
  });
}

/** Batches until nothing is left (or another run holds the cursor); returns the downloads added. */
export async function rollUpDownloads(store: Store, rows = BATCH_ROWS, signal?: AbortSignal): Promise<number> {
  let added = 0;
  for (;;) {
    const batch = await rollUpBatch(store, rows);
    added += batch.added;
    if (batch.caughtUp || batch.added === 0 || signal?.aborted) return added;
  }
}

/** Counted downloads not yet in the rollups (counted up to `cap`, past which the exact number matters little). */
export async function pendingDownloads(q: Queryable, cap = 1_000_000): Promise<number> {
  const [cursor] = await q.query<{ last_id: string }>(`SELECT last_id FROM analytics_rollup_cursor WHERE name = $1`, [CURSOR]);
  // The cursor as a value, not a subquery: the planner then reads the id index from it (a
  // subquery's value is unknown when the plan is made, and a scan of the whole table was chosen).
  const [row] = await q.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM counted_downloads WHERE id > $1 LIMIT $2) s`, [Number(cursor?.last_id ?? 0), cap]);
  return row?.n ?? 0;
}

/**
 * Before a query answers: one small batch, so that downloads counted since the last run are in the
 * answer; returns what is still pending (0 almost always). A backlog larger than one batch (the
 * counting job just caught up on hours of traffic) is left to the job, which is asked to run now.
 */
export async function catchUpForQuery(store: Store): Promise<number> {
  // Nothing new (almost always): one read of two index ends, no transaction, no row lock (whose
  // write and commit cost a PostgreSQL answer more than the series itself).
  const [state] = await store.query<{ behind: boolean }>(
    `SELECT coalesce((SELECT max(id) FROM counted_downloads), 0) > (SELECT last_id FROM analytics_rollup_cursor WHERE name = $1) AS behind`,
    [CURSOR],
  );
  if (state?.behind !== true) return 0;
  const batch = await rollUpBatch(store, QUERY_BATCH_ROWS);
  if (batch.caughtUp) return 0;
  const pending = await pendingDownloads(store);
  if (pending > 0) await enqueueRollup(store);
  return pending;
}

/** Asks for a rollup run now (the counting job calls this in the transaction that wrote counted rows). */
export async function enqueueRollup(q: Queryable): Promise<void> {
  await enqueueJob(q, ROLLUP_NOW_JOB, {}, { singletonKey: ROLLUP_NOW_JOB, rerunIfRunning: true });
}

export function analyticsRollupJobs(deps: Pick<AppDeps, 'store'>): JobHandlers {
  const run = async (_payload: unknown, job: { signal: AbortSignal }) => void (await rollUpDownloads(deps.store, BATCH_ROWS, job.signal));
  return {
    [ROLLUP_JOB]: defineJob({ payload: z.object({}), everyMs: 60_000, run }),
    [ROLLUP_NOW_JOB]: defineJob({ payload: z.object({}), run }),
  };
}
