// Recordings as they happen (issue 34): an encoder pushes a live MP3 stream, and screens watch its
// waveform grow. Served by sync-server/api/live-recordings.ts (the stream's work:
// sync-server/audio/live-ingest.ts).
//
//   PUT|POST /v1/programs/{programId}/recordings/live?title=   (the agent: Basic agentId:token, or Bearer token)
//     ──401 + body (credentials refused) ──403 + body (a program the agent may not push to)
//     ──> a new recording, Live, while the body streams in ──> 201 when it ends: Processing, then
//         Finalized by the ingest job (waveforms, audio, DurationSeconds); a torn stream: HasTornAudio
//   GET /v1/recordings/{recordingId}/live/peaks   (a member with content access; text/event-stream)
//     ──> 'peaks' { FirstPixel, SamplesPerPixel, SampleRate, Data } for what is there, then each
//         append as it is decoded; 'end' { State } when the stream ends (at once for one not live)
//     Each 'peaks' event has an id (SSE `id:`); a watcher whose connection went asks again with
//     Last-Event-ID and gets only what came after it, as EventSource does.
//
// PUT and POST both: ffmpeg's HTTP output sends POST by default and PUT with -method PUT (as
// Icecast 2.4 source clients such as butt, Liquidsoap and ffmpeg's icecast protocol do), each as
// chunked transfer (-chunked_post 1), so an encoder set up for either reaches the same ingest.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { RecordingSchema } from '../entities.ts';
import { BadRequestBodySchema } from '../errors.ts';
import { errors, idParams } from './common.ts';

const tags = ['Recordings'];

export const LIVE_PEAKS_EVENT = 'peaks';
export const LIVE_END_EVENT = 'end';

/** One 'peaks' event: whole pixels appended after those already sent. */
export const LivePeaksEvent = z
  .object({
    FirstPixel: z.number().int().nonnegative(),
    SamplesPerPixel: z.number().int().positive(),
    SampleRate: z.number().int().nonnegative(),
    /** min, max per pixel, 16-bit little-endian, base64. */
    Data: z.string(),
  })
  .meta({ id: 'LivePeaksEvent' });
export type LivePeaksEvent = z.infer<typeof LivePeaksEvent>;

export const LiveEndEvent = z.object({ State: z.string(), HasTornAudio: z.boolean() }).meta({ id: 'LiveEndEvent' });
export type LiveEndEvent = z.infer<typeof LiveEndEvent>;

export const LiveIngestResult = z
  .object({
    Recording: RecordingSchema,
    /** Bytes received and the audio decoded from them while live. */
    SizeInBytes: z.number().int().nonnegative(),
    DecodedSeconds: z.number().nonnegative(),
  })
  .meta({ id: 'LiveIngestResult' });

const AgentRefused = { description: 'The agent’s credentials were not accepted: a body naming Authorization', content: { 'application/json': { schema: BadRequestBodySchema } } };
const ProgramRefused = { description: 'The agent may not push to this program: a body naming programId', content: { 'application/json': { schema: BadRequestBodySchema } } };

const liveIngest = (method: 'put' | 'post') =>
  ({
    method,
    path: '/v1/programs/{programId}/recordings/live',
    tags,
    summary: 'A recording agent’s live MP3 stream: a new recording, Live while the body streams in, then processed into its waveforms and duration',
    description:
      'Authorization: Basic with the agent’s Id and token (ffmpeg: http://<Id>:<Token>@host/…, -auth_type basic), or Bearer <Token>. The body is audio/mpeg, sent as it is encoded (chunked). A stream cut off keeps what arrived, with HasTornAudio.',
    request: {
      params: idParams('programId'),
      query: z.object({ title: z.string().max(200).optional().meta({ description: 'The recording’s title (else “Live” and the time it started)' }) }),
      body: { content: { 'audio/mpeg': { schema: z.string().meta({ format: 'binary' }) } }, required: true },
    },
    responses: { 201: { description: 'The stream ended: the recording, Processing until its job finalizes it', content: { 'application/json': { schema: LiveIngestResult } } }, 400: errors[400], 401: AgentRefused, 403: ProgramRefused, 404: errors[404] },
  }) as const satisfies RouteConfig;

export const putLiveRecording = liveIngest('put');
export const postLiveRecording = liveIngest('post');

export const liveRecordingPeaks = {
  method: 'get',
  path: '/v1/recordings/{recordingId}/live/peaks',
  tags,
  summary: `Server-sent events of a live recording's waveform: '${LIVE_PEAKS_EVENT}' with what is there and then each append, '${LIVE_END_EVENT}' when the stream ends`,
  request: {
    params: idParams('recordingId'),
    headers: z.object({
      'last-event-id': z
        .string()
        .regex(/^\d{1,15}$/)
        .optional()
        .meta({ description: 'The id of the last peaks event already received (a watcher reconnecting): only the appends after it are sent' }),
    }),
  },
  responses: { 200: { description: 'An event stream, open while the recording is live', content: { 'text/event-stream': { schema: z.string() } } }, ...errors },
} as const satisfies RouteConfig;

export const liveRecordingAudio = {
  method: 'get',
  path: '/v1/recordings/{recordingId}/live/audio',
  tags,
  summary: "A live recording's audio as it is captured (the Live row's AudioUrl): MP3 from the moment of the request, as a radio stream is heard, ending with the stream",
  description:
    'Read with the recording’s read access. On an instance other than the one receiving the stream, the audio stored so far in the shared blob store, from its newest segment on (up to a heartbeat, 5 s, behind). No Range and no length: it grows until the stream ends. A recording with no stream coming in (ended) is a 404: once it ends, its AudioUrl names the whole recording.',
  request: { params: idParams('recordingId') },
  responses: { 200: { description: 'The stream’s audio, open while the recording is live', content: { 'audio/mpeg': { schema: z.string() } } }, ...errors },
} as const satisfies RouteConfig;

/** The Live row's AudioUrl while an agent's stream comes in (what the server gives it). */
export const liveAudioUrl = (recordingId: string) => `/api${liveRecordingAudio.path.replace('{recordingId}', recordingId)}`;
/** Whether a recording's AudioUrl is its live stream (not a whole file to decode). */
export const isLiveAudioUrl = (url: string | null) => url !== null && /\/api\/v1\/recordings\/[^/]+\/live\/audio$/.test(url);
