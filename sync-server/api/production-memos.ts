// GET /v1/programs/{programId}/recordings/memos (issue 34; what a memo is and why:
// src/protocol/api/production-memos.ts): the program's recordings captured from startDate to
// endDate (UTC, both included) that are not deleted, with their annotations that are not, grouped
// by date. Guarded as the program's recording list is (content access on the program).
import * as routes from '../../src/protocol/api/production-memos.ts';
import type { ProductionMemo } from '../../src/protocol/api/production-memos.ts';
import { getAuth } from '../auth.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

type Row = { id: string; title: string | null; state: string; data: Record<string, unknown>; annotations: Array<{ id: string; data: Record<string, unknown> }> | null };

/** The day after `date` (YYYY-MM-DD), as the end of a half-open range. */
const dayAfter = (date: string) => new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();

export function productionMemoRoutes() {
  return resourceApp().openapi(guarded(routes.listProductionMemos, guard.program('programId', 'HasContentAccess')), async (c) => {
    const { startDate, endDate } = c.req.valid('query');
    const rows = await c.get('deps').store.query<Row>(
      `SELECT r.id, r.title, r.state, r.data,
              (SELECT json_agg(json_build_object('id', a.id, 'data', a.data) ORDER BY (a.data->>'OffsetSeconds')::float8, a.id)
                 FROM annotations a WHERE a.recording_id = r.id AND NOT a.deleted) AS annotations
         FROM recordings r
        WHERE r.organization_id = $1 AND r.program_id = $2 AND NOT r.deleted
          AND (r.data->>'CaptureStartUtc')::timestamptz >= $3::timestamptz AND (r.data->>'CaptureStartUtc')::timestamptz < $4::timestamptz
        ORDER BY (r.data->>'CaptureStartUtc')::timestamptz, r.id`,
      [getAuth(c).organizationId, c.var.program.id, `${startDate}T00:00:00Z`, dayAfter(endDate)],
    );
    const memos = new Map<string, ProductionMemo>();
    for (const r of rows) {
      const start = new Date(String(r.data['CaptureStartUtc'])).toISOString();
      const date = start.slice(0, 10);
      const memo = memos.get(date) ?? { ProgramId: c.var.program.id, MemoDate: date, Recordings: [] };
      memos.set(date, memo);
      memo.Recordings.push({
        RecordingId: r.id,
        Title: r.title,
        State: r.state as ProductionMemo['Recordings'][number]['State'],
        CaptureStartUtc: start,
        CaptureEndUtc: (r.data['CaptureEndUtc'] as string | null) ?? null,
        DurationSeconds: (r.data['DurationSeconds'] as number | null) ?? null,
        BreakType: (r.data['BreakType'] as string | null) ?? null,
        HasTornAudio: r.data['HasTornAudio'] === true,
        Annotations: (r.annotations ?? []).map((a) => ({
          AnnotationId: a.id,
          OffsetSeconds: Number(a.data['OffsetSeconds']),
          DurationSeconds: (a.data['DurationSeconds'] as number | null) ?? null,
          Text: String(a.data['Text'] ?? ''),
        })),
      });
    }
    return c.json([...memos.values()], 200);
  });
}
