// Media (specification section 7, "Clips" and "Recordings and recording agents"): a clip's and a
// recording's audio and waveform files, the clip's cut and its preview render, new audio for a
// clip (a file, or audio the studio already serves), a recording agent's ingest, and the clips made
// from a recording. Served by sync-server/api/media.ts; the wire schemas are src/protocol/media.ts.
//
// A file body is declared as binary of any media type: the server types an audio file by its
// fileName's extension, never by Content-Type, and streams it to storage under the file rules of
// section 5 (no schema reads it). Every GET here also answers HEAD (the same headers, no body):
// the HEAD declarations below describe that answer.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { AudioFromUrlSchema, AudioUploadAcceptedSchema, CutEditSchema, RecordingAudioAcceptedSchema, RecordingAudioIngestSchema } from '../media.ts';
import { Clip } from './schemas.ts';
import { errors, idParams, jsonBody, jsonContent, PagedOf, PagingQuery, writeErrors } from './common.ts';

const tags = ['Media'];

export const CutEdit = CutEditSchema.meta({ id: 'CutEdit' });
export const AudioFromUrl = AudioFromUrlSchema.meta({ id: 'AudioFromUrl' });
export const AudioUploadAccepted = AudioUploadAcceptedSchema.meta({ id: 'AudioUploadAccepted' });
export const RecordingAudioAccepted = RecordingAudioAcceptedSchema.meta({ id: 'RecordingAudioAccepted' });
export const RecordingAudioIngest = RecordingAudioIngestSchema.meta({ id: 'RecordingAudioIngest' });

/** Bytes, not JSON: described, never validated (zod-openapi validates JSON and form bodies only). */
const binary = z.string().meta({ format: 'binary' });

/** The names of a media folder's waveform files (audiowaveform's .dat, and the same as JSON). */
export const WAVEFORM_FILES = ['waveform-high.dat', 'waveform-high.json', 'waveform-low.dat', 'waveform-low.json'] as const;
export type WaveformFile = (typeof WAVEFORM_FILES)[number];

const ClipParams = idParams('clipId');
const RecordingParams = idParams('recordingId');
/** A waveform file of the clip or recording (any other name names no file: 404). */
const waveformParams = (idName: 'clipId' | 'recordingId') =>
  idParams(idName).extend({ file: z.enum(WAVEFORM_FILES).meta({ param: { name: 'file', in: 'path' }, description: 'high: 256 samples per pixel, low: 4096' }) });

const RangeHeader = z.object({
  range: z.string().optional().meta({ description: 'One byte range, bytes=a-b, a- or -n (RFC 9110 §14); several, or another unit, get the whole file' }),
});

const mediaErrors = { 401: errors[401], 404: errors[404] } as const;
/** The answers of a file served with HTTP Range. */
const ranged = <C extends Record<string, { schema: z.ZodType | object }>>(content: C, what: string) =>
  ({
    200: { description: `${what}, whole (Accept-Ranges: bytes)`, content },
    206: { description: `The byte range asked for (Content-Range)`, content },
    416: { description: 'The range starts past the end (Content-Range: bytes */size)' },
    ...mediaErrors,
  }) as const;
const audioFile = { 'audio/*': { schema: binary }, 'video/*': { schema: binary } };
const waveformFile = {
  'application/octet-stream': { schema: binary },
  'application/json': { schema: { type: 'object', description: 'audiowaveform JSON: version, channels, sample_rate, samples_per_pixel, bits, length, data' } },
} as const;

/** The HEAD twin of a GET declaration: what it answers is the GET's headers, without the body. */
function headOf<R extends RouteConfig & { method: 'get' }>(route: R) {
  return { ...route, method: 'head', summary: `${route.summary} (headers only)` } as const satisfies RouteConfig;
}

const UnsupportedMediaType = { 415: { description: 'A body of a media type the route does not take' } };

/** The files of a clip's or a recording's media folder: its audio and its waveforms, GET and HEAD. */
function mediaFileRoutes<I extends 'clipId' | 'recordingId'>(kind: 'clips' | 'recordings', idName: I, noun: string) {
  const audio = {
    method: 'get',
    path: `/media/${kind}/{${idName}}/audio`,
    tags,
    summary: `The ${noun}’s audio file (HTTP Range)`,
    request: { params: idParams(idName), headers: RangeHeader },
    responses: ranged(audioFile, 'The audio'),
  } as const satisfies RouteConfig;
  const waveform = {
    method: 'get',
    path: `/media/${kind}/{${idName}}/{file}`,
    tags,
    summary: `A waveform file of the ${noun}’s audio (audiowaveform .dat, or the same as JSON)`,
    request: { params: waveformParams(idName), headers: RangeHeader },
    responses: ranged(waveformFile, 'The waveform'),
  } as const satisfies RouteConfig;
  return { audio, headAudio: headOf(audio), waveform, headWaveform: headOf(waveform) };
}

// ── Clips ────────────────────────────────────────────────────────────────────────────────────
export const putClipAudio = {
  method: 'put',
  path: '/v1/clips/{clipId}/audio',
  tags,
  summary: 'New audio for the clip: a file body (with fileName), or audio the studio already serves (audioUrl, in the query or as JSON: mutation clip.setAudioFromUrl)',
  description:
    'The clip becomes AudioUploaded and is processed in the background (Processing, then Ready, Warning or Error with DurationSeconds and the waveform Urls). audioUrl names a clip’s or recording’s /api/media/…/audio on this server that the caller may read; the file is copied, and a recording’s is remembered in RecordingMetadata.RecordingId.',
  request: {
    params: ClipParams,
    query: z.object({
      fileName: z.string().optional().meta({ description: 'The file’s name (its extension decides its type); with audioUrl, the name the copy gets' }),
      audioUrl: AudioFromUrlSchema.shape.audioUrl.optional().meta({ description: 'Audio this server serves, to copy into the clip' }),
    }),
    body: {
      required: false,
      description: 'The audio file (streamed; section 5 file rules), or the audioUrl form as JSON (what a queued mutation sends)',
      content: { 'application/json': { schema: AudioFromUrl }, '*/*': { schema: binary } },
    },
  },
  responses: { 202: jsonContent(AudioUploadAccepted, 'Stored: processing follows'), ...writeErrors, ...UnsupportedMediaType },
} as const satisfies RouteConfig;

const clipFiles = mediaFileRoutes('clips', 'clipId', 'clip');
export const { audio: getClipAudio, headAudio: headClipAudio, waveform: getClipWaveform, headWaveform: headClipWaveform } = clipFiles;

export const getClipOriginalAudio = {
  method: 'get',
  path: '/internal/clips/{clipId}/original-audio',
  tags,
  summary: 'The clip’s original upload, as uploaded (HTTP Range): what its cut is made of; its audio URL serves the published version',
  request: { params: ClipParams, headers: RangeHeader },
  responses: ranged(audioFile, 'The original audio'),
} as const satisfies RouteConfig;

export const getClipCut = {
  method: 'get',
  path: '/internal/clips/{clipId}/cut',
  tags,
  summary: 'The clip’s cut: the regions of its audio that are kept',
  request: { params: ClipParams },
  responses: { 200: jsonContent(CutEdit, 'The cut'), 204: { description: 'No cut saved (the whole audio is kept)' }, ...errors },
} as const satisfies RouteConfig;

export const putClipCut = {
  method: 'put',
  path: '/internal/clips/{clipId}/cut',
  tags,
  summary: 'Saves the clip’s cut (mutation clip.saveCut); its render follows in the background',
  request: { params: ClipParams, body: jsonBody(CutEdit) },
  responses: { 200: jsonContent(CutEdit, 'The cut as saved'), ...writeErrors, ...UnsupportedMediaType },
} as const satisfies RouteConfig;

export const previewClipCut = {
  method: 'post',
  path: '/internal/clips/{clipId}/cut/audio-preview',
  tags,
  summary: 'Renders a cut of the clip’s audio now (not saved): the kept regions with their crossfades, as a 16-bit WAV',
  request: { params: ClipParams, body: jsonBody(CutEdit) },
  responses: {
    200: { description: 'The rendered cut', content: { 'audio/wav': { schema: binary } } },
    ...writeErrors,
    ...UnsupportedMediaType,
  },
} as const satisfies RouteConfig;

// ── Recordings ───────────────────────────────────────────────────────────────────────────────
export const putRecordingAudio = {
  method: 'put',
  path: '/internal/recordings/{recordingId}/audio',
  tags,
  summary: 'A recording agent’s audio for the recording (streamed; section 5 file rules)',
  description:
    'The recording goes Processing (no duration, no links), then Finalized with DurationSeconds, AudioUrl and the waveform Urls; a file that cannot be used leaves the recording as it was (the ingest says why).',
  request: {
    params: RecordingParams,
    query: z.object({ fileName: z.string().optional().meta({ description: 'The file’s name (its extension decides its type)' }) }),
    body: { required: true, description: 'The audio file', content: { '*/*': { schema: binary } } },
  },
  responses: { 202: jsonContent(RecordingAudioAccepted, 'Stored: processing follows'), ...writeErrors },
} as const satisfies RouteConfig;

export const getRecordingIngest = {
  method: 'get',
  path: '/internal/recordings/{recordingId}/audio/ingest',
  tags,
  summary: 'The recording’s last audio ingest: Processing, Finalized or Failed (with why)',
  request: { params: RecordingParams },
  responses: { 200: jsonContent(RecordingAudioIngest, 'The last ingest'), 204: { description: 'No audio ingested yet' }, ...errors },
} as const satisfies RouteConfig;

const recordingFiles = mediaFileRoutes('recordings', 'recordingId', 'recording');
export const { audio: getRecordingAudio, headAudio: headRecordingAudio, waveform: getRecordingWaveform, headWaveform: headRecordingWaveform } = recordingFiles;

export const listRecordingClips = {
  method: 'get',
  path: '/v1/recordings/{recordingId}/clips',
  tags: ['Clips'],
  summary: 'The clips made from the recording (their RecordingMetadata.RecordingId), newest first',
  request: { params: RecordingParams, query: z.object(PagingQuery) },
  responses: { 200: jsonContent(PagedOf(Clip), 'A page of clips'), ...errors },
} as const satisfies RouteConfig;
