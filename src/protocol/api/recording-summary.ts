// A program's recordings in figures, section 7's GET /v1/programs/{programId}/recordings/summary
// (issue 34). The specification names the call and not its fields; what it answers is what a
// producer asks of a program's recordings at a glance, from the Recording's own fields (section
// 3): how many in each State, how long the finalized ones last in all, how many were cut off
// (HasTornAudio) and how many are still to be reviewed (Reviewed), and the span of their capture.
// Deleted recordings are not counted. Served by sync-server/api/recording-summary.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { RecordingState } from '../entities.ts';
import { errors, idParams, jsonContent } from './common.ts';

export const RecordingSummary = z
  .object({
    ProgramId: z.uuid(),
    /** Recordings in each State (every state named, 0 when none). */
    Counts: z.object(Object.fromEntries(RecordingState.options.map((s) => [s, z.number().int().nonnegative()])) as Record<z.infer<typeof RecordingState>, z.ZodNumber>),
    Total: z.number().int().nonnegative(),
    /** The Finalized recordings' DurationSeconds added up. */
    TotalDurationSeconds: z.number().nonnegative(),
    /** Recordings whose audio was cut off (HasTornAudio). */
    TornCount: z.number().int().nonnegative(),
    /** Finalized recordings not yet Reviewed. */
    UnreviewedCount: z.number().int().nonnegative(),
    FirstCaptureStartUtc: z.string().nullable(),
    LastCaptureStartUtc: z.string().nullable(),
  })
  .meta({ id: 'RecordingSummary' });
export type RecordingSummary = z.infer<typeof RecordingSummary>;

export const getRecordingSummary = {
  method: 'get',
  path: '/v1/programs/{programId}/recordings/summary',
  tags: ['Recordings'],
  summary: 'The program’s recordings in figures: counts by state, the finalized ones’ total duration, torn and unreviewed counts, the span of capture',
  description: 'HasContentAccess on the program (as its recordings are read)',
  request: { params: idParams('programId') },
  responses: { 200: jsonContent(RecordingSummary, 'The figures'), ...errors },
} as const satisfies RouteConfig;
