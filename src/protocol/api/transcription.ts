// Automatic transcription (specification section 7; issue 34): POST …/transcript asks the server's
// speech-to-text engine for a clip's or recording's transcript, in `language` (required), and
// (clips) whether to publish it. A durable job does the work (sync-server/transcription/job.ts);
// TranscriptStatus on the clip or recording says where it is (src/domain/transcription.ts), and
// GET …/transcript/transcription says the same with why when it failed.
//
//   POST /v1/clips/{clipId}/transcript?language=en&publish=true           204: queued
//   POST /v1/recordings/{recordingId}/transcript?language=en              204: queued
//   GET  /internal/clips/{clipId}/transcript/transcription                the last request's state
//   GET  /internal/recordings/{recordingId}/transcript/transcription
import { BadRequestBodySchema } from '../errors.ts';
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { TranscriptStatus } from '../../domain/transcription.ts';
import { BoolQuery, errors, idParams, jsonContent, noContent } from './common.ts';
import { Language as TranscriptLanguage } from './transcripts.ts';

const Language = TranscriptLanguage.meta({ description: 'The language spoken: an ISO 639-1 code (as the reference languages), optionally with a region ("en-US"). One the engine has no model for is a 400 at language', example: 'en' });

const StartQuery = z.object({ language: Language, publish: BoolQuery.meta({ description: 'Publish the transcript with the clip once made (absent: as it was)' }) });
const RecordingStartQuery = z.object({ language: Language, publish: BoolQuery.meta({ description: 'Accepted for the specification’s sake: a recording’s transcript is never public' }) });

export const TranscriptionSchema = z
  .object({
    ClipId: z.string().optional(),
    RecordingId: z.string().optional(),
    /** Queued, InProgress, Completed or Failed (src/domain/transcription.ts). */
    Status: z.enum(Object.values(TranscriptStatus) as [TranscriptStatus, ...TranscriptStatus[]]),
    Language: z.string(),
    Publish: z.boolean().nullable(),
    /** The engine that makes it (pocketsphinx). */
    Engine: z.string(),
    /** Why the last attempt failed (kept while it is tried again), else null. */
    Problem: z.string().nullable(),
    Attempts: z.number().int(),
    /** Length of the audio heard and the engine's time on it, once done. */
    AudioSeconds: z.number().nullable(),
    EngineSeconds: z.number().nullable(),
    RequestedAtUtc: z.string(),
    RequestedById: z.string().nullable(),
    FinishedAtUtc: z.string().nullable(),
  })
  .meta({ id: 'Transcription' });
export type Transcription = z.infer<typeof TranscriptionSchema>;

const START_SUMMARY =
  'transcribed by the server’s speech-to-text engine (a job; TranscriptStatus Queued, then InProgress, then Completed or Failed). 400 at language for a language the engine has no model for, at body when there is no audio yet or a transcription is already under way';

export const startClipTranscription = {
  method: 'post',
  path: '/v1/clips/{clipId}/transcript',
  tags: ['Clips'],
  summary: `Has a clip’s audio ${START_SUMMARY}`,
  request: { params: idParams('clipId'), query: StartQuery },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const startRecordingTranscription = {
  method: 'post',
  path: '/v1/recordings/{recordingId}/transcript',
  tags: ['Recordings'],
  summary: `Has a recording’s audio ${START_SUMMARY}`,
  request: { params: idParams('recordingId'), query: RecordingStartQuery },
  responses: {
    204: noContent,
    ...errors,
    409: { description: 'The recording has no audio to transcribe: a body naming recordingId and why (still live, being processed, cut off with nothing kept, 0 s, no audio)', content: { 'application/json': { schema: BadRequestBodySchema } } },
  },
} as const satisfies RouteConfig;

const answer = jsonContent(TranscriptionSchema, 'The last transcription asked for');

export const getClipTranscription = {
  method: 'get',
  path: '/internal/clips/{clipId}/transcript/transcription',
  tags: ['Clips'],
  summary: 'Where the last automatic transcription of a clip is, and why it failed if it did (404 when none was asked for)',
  request: { params: idParams('clipId') },
  responses: { 200: answer, ...errors },
} as const satisfies RouteConfig;

export const getRecordingTranscription = {
  method: 'get',
  path: '/internal/recordings/{recordingId}/transcript/transcription',
  tags: ['Recordings'],
  summary: 'Where the last automatic transcription of a recording is, and why it failed if it did (404 when none was asked for)',
  request: { params: idParams('recordingId') },
  responses: { 200: answer, ...errors },
} as const satisfies RouteConfig;
