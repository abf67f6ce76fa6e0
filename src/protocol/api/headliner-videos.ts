// Headliner videos (specification section 7, Clips): a clip's audiograms, made by the server.
// Rules, states and sizes: src/domain/headliner.ts; their look: the program's headliner-video
// setting (src/protocol/api/program-settings.ts). Served by sync-server/api/headliner-videos.ts.
//
//   POST /v1/clips/{clipId}/headliner-videos                          make them (202, one per aspect ratio)
//   GET  /v1/clips/{clipId}/headliner-videos                          the clip's videos and their states
//   GET  /v1/clips/{clipId}/headliner-videos/{headlinerId}/download   the MP4 (HTTP Range)
//
// The playlist calls of line 388 (…/headliner-videos/rss-automation-wizard, /project-landing) open
// an outside service's wizard: not made here.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { HEADLINER_FPS, HEADLINER_PREVIEW_SECONDS, HEADLINER_VIDEO_STATES } from '../../domain/headliner.ts';
import { HEADLINER_ASPECT_RATIOS } from '../../domain/monetization.ts';
import { BoolQuery, errors, idParams, jsonContent } from './common.ts';

export const HeadlinerVideoSchema = z
  .object({
    Id: z.string(),
    ClipId: z.string(),
    AspectRatio: z.enum(HEADLINER_ASPECT_RATIOS),
    Width: z.number().int(),
    Height: z.number().int(),
    TranscriptEnabled: z.boolean().meta({ description: 'The clip’s transcript is burned in as captions' }),
    BackgroundColor: z.string().meta({ description: 'The colours it is made with (the program’s setting when it was asked for)' }),
    ForegroundColor: z.string(),
    State: z.enum(HEADLINER_VIDEO_STATES).meta({ description: 'Queued, Rendering, Ready (the file can be downloaded) or Failed (Problem says why)' }),
    Problem: z.string().nullable(),
    Attempts: z.number().int(),
    DurationSeconds: z.number().nullable().meta({ description: `The video’s length once Ready: the episode’s first ${HEADLINER_PREVIEW_SECONDS} s at most` }),
    SizeInBytes: z.number().int().nullable(),
    DownloadUrl: z.string().nullable().meta({ description: 'The MP4 once Ready (needs the session, as the clip does)' }),
    CreatedAtUtc: z.string(),
    CreatedById: z.string().nullable(),
    ModifiedAtUtc: z.string(),
  })
  .meta({ id: 'HeadlinerVideo' });
export type HeadlinerVideo = z.infer<typeof HeadlinerVideoSchema>;

export const HeadlinerVideoListSchema = z.object({ Items: z.array(HeadlinerVideoSchema) }).meta({ id: 'HeadlinerVideoList' });
export type HeadlinerVideoList = z.infer<typeof HeadlinerVideoListSchema>;

const ClipParams = idParams('clipId');

export const createHeadlinerVideos = {
  method: 'post',
  path: '/v1/clips/{clipId}/headliner-videos',
  tags: ['Clips'],
  summary: 'Makes the clip’s headliner videos (audiograms): one per aspect ratio of the program’s headliner-video setting, each rendered by a job',
  description:
    `Each video shows the artwork (the clip’s, else the program’s), the title, an animated waveform and, with transcriptEnabled, the clip’s transcript as captions, in the program’s colours, over the episode’s first ${HEADLINER_PREVIEW_SECONDS} s (after the program’s intro) at ${HEADLINER_FPS} frames per second. ` +
    'A new video replaces the clip’s earlier one of the same aspect ratio. 400 at body: the clip has no audio yet, or its videos are still being made; at transcriptEnabled: captions asked for a clip without a transcript.',
  request: {
    params: ClipParams,
    query: z.object({
      transcriptEnabled: BoolQuery.meta({ description: 'Burn the transcript in as captions (default: the program’s headliner-video setting; made without when the clip has no transcript)' }),
    }),
  },
  responses: { 202: jsonContent(HeadlinerVideoListSchema, 'The videos asked for, Queued'), ...errors },
} as const satisfies RouteConfig;

export const listHeadlinerVideos = {
  method: 'get',
  path: '/v1/clips/{clipId}/headliner-videos',
  tags: ['Clips'],
  summary: 'The clip’s headliner videos, newest first, with their states',
  request: { params: ClipParams },
  responses: { 200: jsonContent(HeadlinerVideoListSchema, 'The videos'), ...errors },
} as const satisfies RouteConfig;

const binary = z.string().meta({ format: 'binary' });
const video = { 'video/mp4': { schema: binary } };

export const downloadHeadlinerVideo = {
  method: 'get',
  path: '/v1/clips/{clipId}/headliner-videos/{headlinerId}/download',
  tags: ['Clips'],
  summary: 'A Ready headliner video’s MP4 (HTTP Range), named after the clip’s title (Content-Disposition)',
  description: 'A video not Ready (or replaced) is a 404, as one that does not exist.',
  request: {
    params: idParams('clipId', 'headlinerId'),
    headers: z.object({ range: z.string().optional().meta({ description: 'One byte range, bytes=a-b, a- or -n (RFC 9110 §14)' }) }),
  },
  responses: {
    200: { description: 'The video, whole (Accept-Ranges: bytes)', content: video },
    206: { description: 'The byte range asked for (Content-Range)', content: video },
    416: { description: 'The range starts past the end (Content-Range: bytes */size)' },
    401: errors[401],
    404: errors[404],
  },
} as const satisfies RouteConfig;
