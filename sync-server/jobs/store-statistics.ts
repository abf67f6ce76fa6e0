// PGlite has no autovacuum, so nothing refreshes the planner's statistics as a store grows through
// the studio's own writes: a store that began small keeps planning for a few rows (a program's first
// page of 100 clips read and sorted all 19,000 of them: 131 ms where the index answers in 0.8).
// Nor is the visibility map kept, without which the list pages' index-only scans (migration 0495)
// read every row anyway, nor are dead rows reclaimed. This recurring job runs VACUUM ANALYZE on
// PGlite every 30 minutes; on PostgreSQL autovacuum does it.
import * as z from 'zod';
import type { AppDeps } from '../app.ts';
import { defineJob, type JobHandlers } from './runner.ts';

export const STORE_ANALYZE_JOB = 'store.analyze';

export function storeStatisticsJobs(deps: Pick<AppDeps, 'store'>): JobHandlers {
  if (deps.store.kind !== 'pglite') return {};
  return {
    [STORE_ANALYZE_JOB]: defineJob({ payload: z.object({}), everyMs: 30 * 60 * 1000, run: () => deps.store.exec('VACUUM ANALYZE') }),
  };
}
