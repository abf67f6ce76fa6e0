// Expired sessions are refused at sign-in time (auth.ts loadCaller compares expires_at_utc with the
// clock) but their rows stayed for ever; this recurring job deletes them, hourly, on one instance.
import * as z from 'zod';
import { now, type AppDeps } from '../app.ts';
import { defineJob, type JobHandlers } from './runner.ts';

export const SESSION_SWEEP_JOB = 'sessions.sweep';

/** Deletes the sessions that expired before `at`; returns how many. */
export async function sweepExpiredSessions(deps: AppDeps, at = now(deps)): Promise<number> {
  const [row] = await deps.store.query<{ n: number }>(`WITH gone AS (DELETE FROM sessions WHERE expires_at_utc <= $1 RETURNING 1) SELECT count(*)::int AS n FROM gone`, [at]);
  return row?.n ?? 0;
}

export function sessionSweepJobs(deps: AppDeps): JobHandlers {
  return {
    [SESSION_SWEEP_JOB]: defineJob({ payload: z.object({}), everyMs: 60 * 60 * 1000, run: async () => void (await sweepExpiredSessions(deps)) }),
  };
}
