// Reach estimates (POST …/analytics/reach-estimate, polled at GET /v1/analytics/reach-estimate/{id}):
// an operation row (analytics_reach_estimates, 0466) worked out by a durable job, never in the
// request.
//
//   POST ──row Busy + job, one transaction──> 202 {Id, Status: Busy, Progress: 0}
//   job: the range in parts of PART_DAYS days ──each: unique listeners per local day, Progress──>
//        summary (reachSummary) ──> Success with the estimate;  last attempt failed ──> Failed
//
// What it estimates, and why so: listener hashes rotate at midnight UTC and keep no address, so
// one listener cannot be followed across days, and "unique listeners over a month" cannot be
// known. What can be said honestly is each day's unique listeners (distinct hashes of the counted
// downloads that day), their average over the range's days and the peak day, and downloads per
// listener-day. A local day that spans midnight UTC holds two salts' hashes, so a listener active
// either side of it counts twice on that day (in UTC there is no such day).
import { logOf } from '../observability/log.ts';
import * as z from 'zod';
import { randomUUID } from 'node:crypto';
import type { AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { Queryable, Store } from '../store/store.ts';
import { reachSummary, type ReachDay } from '../../src/domain/analytics.ts';
import type { ReachEstimate, ReachEstimateOperation } from '../../src/protocol/api/analytics-insights.ts';
import type { AnalyticsScope, LocalRange } from './analytics-api-queries.ts';
import { reachDays } from './analytics-insights-queries.ts';

export const REACH_JOB = 'analytics.reach-estimate';

/** Days read per statement (Progress moves after each). */
const PART_DAYS = 31;
/** Operations are kept this long, then deleted when a new one is made. */
const KEEP_MS = 7 * 24 * 60 * 60 * 1000;

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

type ScopeJson = { kind: 'organization' } | { kind: 'programs'; programIds: string[] } | { kind: 'clips'; clipIds: string[] };

/** Makes the operation and its job (in the caller's transaction); returns the operation, Busy. */
export async function startReachEstimate(
  q: Queryable,
  input: { organizationId: string; userId: string; scope: AnalyticsScope; range: LocalRange; at: Date },
): Promise<ReachEstimateOperation> {
  const id = randomUUID();
  const { organizationId: _o, ...scope } = input.scope;
  await q.query(`DELETE FROM analytics_reach_estimates WHERE created_at_utc < $1`, [new Date(input.at.getTime() - KEEP_MS).toISOString()]);
  await q.query(
    `INSERT INTO analytics_reach_estimates (id, organization_id, user_id, scope, start_date, end_date, time_zone, status, created_at_utc)
     VALUES ($1, $2, $3, $4::jsonb, $5, $6, $7, 'Busy', $8)`,
    [id, input.organizationId, input.userId, JSON.stringify(scope satisfies ScopeJson), input.range.startDate, input.range.endDate, input.range.timeZone, input.at.toISOString()],
  );
  await enqueueJob(q, REACH_JOB, { operationId: id });
  return { Id: id, Status: 'Busy', Progress: 0, Estimate: null };
}

type Row = {
  id: string;
  organization_id: string;
  scope: ScopeJson;
  start_date: string;
  end_date: string;
  time_zone: string;
  status: 'Busy' | 'Failed' | 'Success';
  progress: number;
  result: ReachEstimate | null;
};

const SELECT = `SELECT id, organization_id, scope, to_char(start_date, 'YYYY-MM-DD') AS start_date, to_char(end_date, 'YYYY-MM-DD') AS end_date, time_zone, status, progress::float8 AS progress, result
                  FROM analytics_reach_estimates`;

/** The operation as its asker sees it (null: none of theirs in this organization). */
export async function readReachEstimate(q: Queryable, organizationId: string, userId: string, id: string): Promise<ReachEstimateOperation | null> {
  const [row] = await q.query<Row>(`${SELECT} WHERE id = $1 AND organization_id = $2 AND user_id = $3`, [id, organizationId, userId]);
  if (!row) return null;
  return { Id: row.id, Status: row.status, Progress: row.status === 'Success' ? 1 : Number(row.progress), Estimate: row.status === 'Success' ? row.result : null };
}

/** The estimate itself: each part of the range, then the summary; Success with it. */
async function runEstimate(store: Store, id: string, signal: AbortSignal): Promise<void> {
  const [row] = await store.query<Row>(`${SELECT} WHERE id = $1`, [id]);
  if (!row || row.status !== 'Busy') return; // deleted, or a run before this one finished it
  const scope: AnalyticsScope = { organizationId: row.organization_id, ...row.scope };
  const first = dayNumber(row.start_date);
  const last = dayNumber(row.end_date);
  const days: ReachDay[] = [];
  for (let from = first; from <= last; from += PART_DAYS) {
    if (signal.aborted) return;
    const to = Math.min(last, from + PART_DAYS - 1);
    days.push(...(await reachDays(store, scope, { startDate: dateOf(from), endDate: dateOf(to), timeZone: row.time_zone })));
    await store.query(`UPDATE analytics_reach_estimates SET progress = $2 WHERE id = $1 AND status = 'Busy'`, [id, (to - first + 1) / (last - first + 1)]);
  }
  const summary = reachSummary(days, last - first + 1);
  const estimate: ReachEstimate = {
    StartDate: row.start_date,
    EndDate: row.end_date,
    TimeZoneIanaId: row.time_zone,
    Days: summary.days,
    Downloads: summary.downloads,
    ListenerDays: summary.listenerDays,
    AverageDailyListeners: summary.averageDailyListeners,
    PeakDay: summary.peak && { Date: summary.peak.date, Listeners: summary.peak.listeners, Downloads: summary.peak.downloads },
    DownloadsPerListenerDay: summary.downloadsPerListenerDay,
    DailyListeners: days.map((d) => ({ Date: d.date, Listeners: d.listeners, Downloads: d.downloads })),
  };
  await store.query(`UPDATE analytics_reach_estimates SET status = 'Success', progress = 1, result = $2::jsonb, finished_at_utc = now() WHERE id = $1 AND status = 'Busy'`, [
    id,
    JSON.stringify(estimate),
  ]);
}

/** The job (registered in createApp). */
export function reachEstimateJobs(deps: Pick<AppDeps, 'store' | 'log'>): JobHandlers {
  return {
    [REACH_JOB]: defineJob({
      payload: z.object({ operationId: z.uuid() }),
      run: (payload, job) => runEstimate(deps.store, payload.operationId, job.signal),
      giveUp: async (payload, error) => {
        logOf(deps).error({ err: error, operationId: payload.operationId }, 'reach estimate failed');
        await deps.store.query(`UPDATE analytics_reach_estimates SET status = 'Failed', finished_at_utc = now() WHERE id = $1 AND status = 'Busy'`, [payload.operationId]);
      },
    }),
  };
}
