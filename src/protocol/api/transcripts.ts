// Clip transcripts (specification section 7; issue 34): a clip's cues kept by the server, sent and
// read as JSON, imported from a file, exported in the Podcasting 2.0 <podcast:transcript> types,
// and published at a public URL the clip's feed items point at. Served by
// sync-server/api/transcripts.ts; the formats are src/domain/transcripts.ts.
//
//   PUT    /v1/clips/{clipId}/transcript                 the cues as JSON (200: the transcript)
//   PUT    /internal/clips/{clipId}/transcript/import    a file: text/vtt, application/x-subrip or
//                                                        Podcasting 2.0 JSON, by Content-Type
//   GET    /v1/clips/{clipId}/transcript                 as text: format vtt | srt | json | text
//   GET    /internal/clips/{clipId}/transcript           the transcript as the editor holds it
//   PUT    /internal/clips/{clipId}/transcript/reset     back to the cues as first imported
//   DELETE /v1/clips/{clipId}/transcript                 (204)
//   GET    /feeds/transcripts/{clipId}.{vtt|srt|json}    published: anyone (no session)
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import {
  TRANSCRIPT_CONTENT_TYPES,
  TRANSCRIPT_CUE_MAX_LENGTH,
  TRANSCRIPT_FORMATS,
  TRANSCRIPT_MAX_CUES,
  TRANSCRIPT_MAX_SECONDS,
  TRANSCRIPT_SPEAKER_MAX_LENGTH,
  type TranscriptCue,
} from '../../domain/transcripts.ts';
import { BoolQuery, errors, idParams, jsonBody, jsonContent, noContent, writeErrors } from './common.ts';

const tags = ['Clips'];
const ClipParams = idParams('clipId');

export const TranscriptCueSchema = z
  .object({
    StartSeconds: z.number().min(0).max(TRANSCRIPT_MAX_SECONDS),
    EndSeconds: z.number().min(0).max(TRANSCRIPT_MAX_SECONDS),
    Text: z.string().max(TRANSCRIPT_CUE_MAX_LENGTH),
    Speaker: z.string().max(TRANSCRIPT_SPEAKER_MAX_LENGTH).nullable().optional(),
  })
  .strict()
  .meta({ id: 'TranscriptCue' });
export type TranscriptCueWire = z.infer<typeof TranscriptCueSchema>;

/** A language tag ("en", "en-US"): what the transcript is in. */
export const Language = z
  .string()
  .regex(/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/)
  .max(35);

export const TranscriptPutSchema = z
  .object({
    Cues: z.array(TranscriptCueSchema).max(TRANSCRIPT_MAX_CUES),
    /** Kept as it was when absent. */
    Language: Language.nullable().optional(),
    /** Published at the clip's public transcript URL and in its feed items; kept when absent. */
    Published: z.boolean().optional(),
  })
  .strict()
  .meta({ id: 'TranscriptPut' });

/** A recording's: as a clip's without Published (a recording's transcript is never public). */
export const RecordingTranscriptPutSchema = TranscriptPutSchema.omit({ Published: true }).strict().meta({ id: 'RecordingTranscriptPut' });

export const TranscriptSchema = z
  .object({
    /** Whose transcript: a clip's or a recording's. */
    ClipId: z.string().optional(),
    RecordingId: z.string().optional(),
    Language: z.string().nullable(),
    Published: z.boolean(),
    /** A clip's, when published: site-relative public URL (WebVTT); the same path ends .srt and .json too. Recordings: none. */
    PublicUrl: z.string().nullable(),
    Cues: z.array(TranscriptCueSchema),
    /** Whether the cues differ from those first imported (what reset goes back to). */
    Edited: z.boolean(),
    ModifiedAtUtc: z.string(),
    ModifiedById: z.string().nullable(),
  })
  .meta({ id: 'Transcript' });
export type Transcript = z.infer<typeof TranscriptSchema>;

export const cueFromWire = (c: TranscriptCueWire): TranscriptCue => ({ start: c.StartSeconds, end: c.EndSeconds, text: c.Text, speaker: c.Speaker ?? null });
export const cueToWire = (c: TranscriptCue): TranscriptCueWire => ({ StartSeconds: c.start, EndSeconds: c.end, Text: c.text, Speaker: c.speaker ?? null });

const transcriptAnswer = jsonContent(TranscriptSchema, 'The clip’s transcript');

export const putClipTranscript = {
  method: 'put',
  path: '/v1/clips/{clipId}/transcript',
  tags,
  summary: 'Sets a clip’s transcript from JSON cues (TranscriptStatus Completed); a cue that is not valid is a 400 naming it (Cues.<n>.<field>)',
  request: { params: ClipParams, body: jsonBody(TranscriptPutSchema) },
  responses: { 200: transcriptAnswer, ...writeErrors },
} as const satisfies RouteConfig;

const ImportQuery = z.object({
  language: Language.optional().meta({ description: 'The language the transcript is in' }),
  publish: BoolQuery.meta({ description: 'Publish it (absent: kept as it was)' }),
});

/** A transcript file. Plain OpenAPI schemas, not zod ones: the file is read by its own parser
 * (src/domain/transcripts.ts), which says at which line it breaks; a zod JSON validator would
 * refuse it first without one. */
const importBody = {
  content: {
    [TRANSCRIPT_CONTENT_TYPES.vtt]: { schema: { type: 'string', description: 'WebVTT' } },
    [TRANSCRIPT_CONTENT_TYPES.srt]: { schema: { type: 'string', description: 'SubRip' } },
    'application/json': {
      schema: { type: 'object', description: 'Podcasting 2.0 transcript JSON: {"version":"1.0.0","segments":[{"speaker","startTime","endTime","body"}]}' },
    },
  },
} as const;
const IMPORT_SUMMARY =
  'transcript from a file: WebVTT (text/vtt), SRT (application/x-subrip) or Podcasting 2.0 transcript JSON (application/json), by Content-Type. A file that cannot be read is a 400 naming body, with the line';

export const importClipTranscript = {
  method: 'put',
  path: '/internal/clips/{clipId}/transcript/import',
  tags,
  summary: `Sets a clip’s ${IMPORT_SUMMARY}`,
  request: { params: ClipParams, query: ImportQuery, body: importBody },
  responses: { 200: transcriptAnswer, ...writeErrors },
} as const satisfies RouteConfig;

export const TranscriptFormat = z.enum(TRANSCRIPT_FORMATS);

const textContent = (description: string) => ({
  description,
  content: Object.fromEntries([...new Set(Object.values(TRANSCRIPT_CONTENT_TYPES))].map((type) => [type, { schema: z.string() }])),
});

export const exportClipTranscript = {
  method: 'get',
  path: '/v1/clips/{clipId}/transcript',
  tags,
  summary: 'A clip’s transcript as text: WebVTT, SRT, Podcasting 2.0 JSON or plain text',
  request: {
    params: ClipParams,
    query: z.object({
      format: TranscriptFormat.optional().meta({ description: 'vtt (the default), srt, json or text' }),
      offsetIntro: z.coerce.number().min(0).max(3600).optional().meta({ description: 'Seconds to move every cue later: the length of an intro played before the clip' }),
      speakers: BoolQuery.meta({ description: 'Name the speakers (the default); false leaves them out' }),
    }),
  },
  responses: { 200: textContent('The transcript in the asked format, with its content type'), ...errors },
} as const satisfies RouteConfig;

export const getClipTranscript = {
  method: 'get',
  path: '/internal/clips/{clipId}/transcript',
  tags,
  summary: 'A clip’s transcript as the editor holds it (404 when it has none)',
  request: { params: ClipParams },
  responses: { 200: transcriptAnswer, ...errors },
} as const satisfies RouteConfig;

export const resetClipTranscript = {
  method: 'put',
  path: '/internal/clips/{clipId}/transcript/reset',
  tags,
  summary: 'Discards the edits of a clip’s transcript: back to the cues as first imported (404 when it has none)',
  request: { params: ClipParams },
  responses: { 200: transcriptAnswer, ...errors },
} as const satisfies RouteConfig;

export const deleteClipTranscript = {
  method: 'delete',
  path: '/v1/clips/{clipId}/transcript',
  tags,
  summary: 'Deletes a clip’s transcript (TranscriptStatus back to none; unpublished, gone from search)',
  request: { params: ClipParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const PUBLIC_FORMATS = ['vtt', 'srt', 'json'] as const;

export const getPublicTranscript = {
  method: 'get',
  path: '/feeds/transcripts/{transcriptFile}',
  tags: ['Feeds'],
  summary: 'A published clip transcript (podcast:transcript of its feed items), for anyone: .vtt, .srt or .json (Podcasting 2.0)',
  request: {
    params: z.object({
      transcriptFile: z
        .string()
        .regex(new RegExp(`^${UUID}\\.(${PUBLIC_FORMATS.join('|')})$`))
        .transform((file) => ({ clipId: file.slice(0, 36).toLowerCase(), format: file.slice(37) as (typeof PUBLIC_FORMATS)[number] }))
        .meta({ param: { name: 'transcriptFile', in: 'path' }, description: 'The clip’s id followed by .vtt, .srt or .json', example: '0b7c3c9e-8a57-4a0b-a6a4-5d3c2b1a0f9e.vtt' }),
    }),
    headers: z.object({
      'if-none-match': z.string().max(2000).optional(),
      'if-modified-since': z.string().max(100).optional(),
    }),
  },
  responses: {
    200: textContent('The transcript'),
    304: { description: 'Not modified (no body)' },
    404: { description: 'No such clip, none a listener can reach, or no published transcript; no body' },
  },
} as const satisfies RouteConfig;

// ── Recordings (section 7: PUT and reset under /internal, the text and DELETE under /v1) ─────────
const recordingTags = ['Recordings'];
const RecordingParams = idParams('recordingId');

export const putRecordingTranscript = {
  method: 'put',
  path: '/internal/recordings/{recordingId}/transcript',
  tags: recordingTags,
  summary: 'Sets a recording’s transcript from JSON cues (TranscriptStatus Completed), judged as the named mutation recording.setTranscript; a cue that is not valid is a 400 naming it (Cues.<n>.<field>); never published',
  request: { params: RecordingParams, body: jsonBody(RecordingTranscriptPutSchema) },
  responses: { 200: transcriptAnswer, ...writeErrors },
} as const satisfies RouteConfig;

export const importRecordingTranscript = {
  method: 'put',
  path: '/internal/recordings/{recordingId}/transcript/import',
  tags: recordingTags,
  summary: `Sets a recording’s ${IMPORT_SUMMARY}`,
  request: { params: RecordingParams, query: ImportQuery, body: importBody },
  responses: { 200: transcriptAnswer, ...writeErrors },
} as const satisfies RouteConfig;

export const exportRecordingTranscript = {
  method: 'get',
  path: '/v1/recordings/{recordingId}/transcript',
  tags: recordingTags,
  summary: 'A recording’s transcript as text: WebVTT, SRT, Podcasting 2.0 JSON or plain text',
  request: {
    params: RecordingParams,
    query: z.object({
      format: TranscriptFormat.optional().meta({ description: 'vtt (the default), srt, json or text' }),
      speakers: BoolQuery.meta({ description: 'Name the speakers (the default); false leaves them out' }),
    }),
  },
  responses: { 200: textContent('The transcript in the asked format, with its content type'), ...errors },
} as const satisfies RouteConfig;

export const getRecordingTranscript = {
  method: 'get',
  path: '/internal/recordings/{recordingId}/transcript',
  tags: recordingTags,
  summary: 'A recording’s transcript as the editor holds it (404 when it has none)',
  request: { params: RecordingParams },
  responses: { 200: transcriptAnswer, ...errors },
} as const satisfies RouteConfig;

export const resetRecordingTranscript = {
  method: 'put',
  path: '/internal/recordings/{recordingId}/transcript/reset',
  tags: recordingTags,
  summary: 'Discards the edits of a recording’s transcript: back to the cues as first imported (404 when it has none)',
  request: { params: RecordingParams },
  responses: { 200: transcriptAnswer, ...errors },
} as const satisfies RouteConfig;

export const deleteRecordingTranscript = {
  method: 'delete',
  path: '/v1/recordings/{recordingId}/transcript',
  tags: recordingTags,
  summary: 'Deletes a recording’s transcript (TranscriptStatus back to none; gone from search)',
  request: { params: RecordingParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;
