// GET /v1/programs/{programId}/recordings/summary (issue 34; the fields and why:
// src/protocol/api/recording-summary.ts): one grouped query over the program's recordings that are
// not deleted, guarded as the program's recording list is (content access on the program).
import { RecordingState } from '../../src/protocol/entities.ts';
import * as routes from '../../src/protocol/api/recording-summary.ts';
import { getAuth } from '../auth.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

type Row = { state: string; n: number | string; seconds: number | string | null; torn: number | string; unreviewed: number | string; first: Date | null; last: Date | null };

export function recordingSummaryRoutes() {
  return resourceApp().openapi(guarded(routes.getRecordingSummary, guard.program('programId', 'HasContentAccess')), async (c) => {
    const programId = c.var.program.id;
    const rows = await c.get('deps').store.query<Row>(
      `SELECT state, count(*) AS n,
              sum(CASE WHEN state = 'Finalized' THEN (data->>'DurationSeconds')::float8 END) AS seconds,
              count(*) FILTER (WHERE (data->>'HasTornAudio')::boolean) AS torn,
              count(*) FILTER (WHERE state = 'Finalized' AND NOT COALESCE((data->>'Reviewed')::boolean, false)) AS unreviewed,
              min((data->>'CaptureStartUtc')::timestamptz) AS first, max((data->>'CaptureStartUtc')::timestamptz) AS last
         FROM recordings WHERE organization_id = $1 AND program_id = $2 AND NOT deleted GROUP BY state`,
      [getAuth(c).organizationId, programId],
    );
    const counts = Object.fromEntries(RecordingState.options.map((s) => [s, 0])) as routes.RecordingSummary['Counts'];
    let total = 0, seconds = 0, torn = 0, unreviewed = 0;
    let first: number | null = null, last: number | null = null;
    for (const r of rows) {
      const n = Number(r.n);
      if (r.state in counts) counts[r.state as keyof typeof counts] = n;
      total += n;
      seconds += Number(r.seconds ?? 0);
      torn += Number(r.torn);
      unreviewed += Number(r.unreviewed);
      if (r.first) first = Math.min(first ?? Infinity, new Date(r.first).getTime());
      if (r.last) last = Math.max(last ?? -Infinity, new Date(r.last).getTime());
    }
    return c.json(
      {
        ProgramId: programId,
        Counts: counts,
        Total: total,
        TotalDurationSeconds: Math.round(seconds * 1000) / 1000,
        TornCount: torn,
        UnreviewedCount: unreviewed,
        FirstCaptureStartUtc: first === null ? null : new Date(first).toISOString(),
        LastCaptureStartUtc: last === null ? null : new Date(last).toISOString(),
      },
      200,
    );
  });
}
