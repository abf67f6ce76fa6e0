// Production memos, section 7's GET /v1/programs/{programId}/recordings/memos with startDate and
// endDate (required, section 7) and the "Production memo not found (for a date)" page (issue 34).
// The specification names memos, their date (the route parameter memoDate, passed through
// unchanged) and this read, and no call that writes one. So a memo is not a document of its own
// here: the production memo of a program for a date is that day's recordings (by CaptureStartUtc,
// UTC) in capture order with their annotations — what was recorded and what was noted while it
// was — and it is changed by changing those (section 4's recording and annotation edits, offline
// too). A date with no recording has no memo (the not-found page). Served by
// sync-server/api/production-memos.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { RecordingState } from '../entities.ts';
import { checkDates, errors, idParams, jsonContent } from './common.ts';

export const ProductionMemoRecording = z
  .object({
    RecordingId: z.uuid(),
    Title: z.string().nullable(),
    State: RecordingState,
    CaptureStartUtc: z.string(),
    CaptureEndUtc: z.string().nullable(),
    DurationSeconds: z.number().nullable(),
    BreakType: z.string().nullable(),
    HasTornAudio: z.boolean(),
    Annotations: z.array(z.object({ AnnotationId: z.uuid(), OffsetSeconds: z.number(), DurationSeconds: z.number().nullable(), Text: z.string() })),
  })
  .meta({ id: 'ProductionMemoRecording' });

export const ProductionMemo = z
  .object({
    ProgramId: z.uuid(),
    /** The UTC date, YYYY-MM-DD (a screen's memoDate). */
    MemoDate: z.string(),
    Recordings: z.array(ProductionMemoRecording),
  })
  .meta({ id: 'ProductionMemo', description: 'A program’s recordings of one day with their annotations' });
export type ProductionMemo = z.infer<typeof ProductionMemo>;

export const MemosQuery = z
  .object({
    startDate: z.string().max(40).meta({ description: 'First UTC date, YYYY-MM-DD (required)', example: '2026-11-01' }),
    endDate: z.string().max(40).meta({ description: 'Last UTC date, YYYY-MM-DD, included (required)', example: '2026-11-30' }),
  })
  .superRefine(checkDates);

export const listProductionMemos = {
  method: 'get',
  path: '/v1/programs/{programId}/recordings/memos',
  tags: ['Recordings'],
  summary: 'The program’s production memos from startDate to endDate: one per date that has recordings, oldest first',
  description: 'HasContentAccess on the program (as its recordings are read). A date without recordings has no memo',
  request: { params: idParams('programId'), query: MemosQuery },
  responses: { 200: jsonContent(z.array(ProductionMemo), 'The memos'), ...errors },
} as const satisfies RouteConfig;
