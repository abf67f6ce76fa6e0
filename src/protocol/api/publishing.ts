// Publishing (specification sections 4 and 7): Publish and Unpublish for integrators (the named
// mutations clip.publish and clip.unpublish, src/mutations/publishing.ts), and the public audio of
// a published clip, served without a session at the paths of src/domain/public-urls.ts
// (publicPaths.audio, publicPaths.audioAdFree). Served by sync-server/api/publishing.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { Clip } from './schemas.ts';
import { errors, idParams } from './common.ts';

const tags = ['Publishing'];
const ClipParams = idParams('clipId');

const accepted = { description: 'Queued: the clip is Publishing (or Unpublishing) until the job has run; the clip as it now is', content: { 'application/json': { schema: Clip } } };

export const publishClip = {
  method: 'post',
  path: '/v1/clips/{clipId}/publish',
  tags,
  summary: 'Publishes the clip (mutation clip.publish): PublishState Publishing, then Published by a job',
  description:
    'Refused with a 400 naming the field when the clip may not be published (section 4): Visibility (a Private clip), State (no Ready or Warning audio), Slug (none, and none can be made from the Title), ScheduledVisibility / VisibleAtUtc (one without the other). The job sets PublishedUtc, Slug, Urls.AudioPublicUrl and Urls.AudioPublicAdFreeUrl (and Urls.EmbedUrl and Urls.ShowPageUrl for Public and Unlisted clips); a job that cannot publish sets the clip back to Unpublished with the reason in PublishProblem.',
  request: { params: ClipParams },
  responses: { 202: accepted, ...errors },
} as const satisfies RouteConfig;

export const unpublishClip = {
  method: 'post',
  path: '/v1/clips/{clipId}/unpublish',
  tags,
  summary: 'Unpublishes the clip (mutation clip.unpublish): PublishState Unpublishing, then Unpublished by a job',
  request: { params: ClipParams },
  responses: { 202: accepted, ...errors },
} as const satisfies RouteConfig;

// ── Public audio ─────────────────────────────────────────────────────────────────────────────
/** `<clipId>.<ext>`: the clip's published file (publicPaths.audio). */
export const PUBLIC_AUDIO_FILE = /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})\.([a-z0-9]{1,8})$/;
/** `ad-free.<ext>` (publicPaths.audioAdFree). */
export const AD_FREE_FILE = /^ad-free\.([a-z0-9]{1,8})$/;

/** Where a download comes from, as `?src=` names it (a feed's enclosure, the embed player, a show
 * page, an integrator); without it, the Referer decides. */
export const DOWNLOAD_SOURCES = ['feed', 'embed', 'page', 'api'] as const;

const binary = z.string().meta({ format: 'binary' });
const audioFile = { 'audio/*': { schema: binary }, 'video/*': { schema: binary } };

const PublicAudioHeaders = z.object({
  range: z.string().optional().meta({ description: 'One byte range, bytes=a-b, a- or -n (RFC 9110 §14); several, or another unit, get the whole file' }),
  'if-none-match': z.string().optional().meta({ description: 'The ETag held: 304 when it is still the file served' }),
  'if-range': z.string().optional().meta({ description: 'With Range: the range only if this is still the ETag, else the whole file' }),
});
const PublicAudioQuery = z.object({
  src: z.string().optional().meta({ description: `Where the download comes from: ${DOWNLOAD_SOURCES.join(', ')} (any other value is ignored)` }),
});

const publicAudioAnswers = {
  200: { description: 'The published audio, whole (Accept-Ranges: bytes, ETag, Cache-Control)', content: audioFile },
  206: { description: 'The byte range asked for (Content-Range)', content: audioFile },
  304: { description: 'If-None-Match names the file served: not sent again' },
  416: { description: 'The range starts past the end (Content-Range: bytes */size)' },
  404: { description: 'No such clip, or one that is not Published with Visibility Public or Unlisted (no body)' },
} as const;

const publicAudioRoute = <P extends z.ZodObject>(path: string, params: P, summary: string) =>
  ({
    method: 'get',
    path,
    tags,
    summary,
    description: 'Every request (GET and HEAD, any answer) is recorded as a raw download event for analytics: no address is kept, only a salted hash that changes daily.',
    request: { params, headers: PublicAudioHeaders, query: PublicAudioQuery },
    responses: publicAudioAnswers,
  }) as const satisfies RouteConfig;

export const getPublicAudio = publicAudioRoute(
  '/audio/{clipFile}',
  z.object({ clipFile: z.string().meta({ param: { name: 'clipFile', in: 'path' }, description: '{clipId}.{ext}: the clip and its published file’s extension', example: '5f0c9c1e-8e8a-4c55-a1a4-2f0f5b6f2a01.mp3' }) }),
  'A published clip’s audio (HTTP Range, ETag)',
);
export const getPublicAudioAdFree = publicAudioRoute(
  '/audio/{clipId}/{adFreeFile}',
  z.object({
    // A plain string (not a GUID check): a path naming no clip is a 404 like any other, recorded as a download event.
    clipId: z.string().meta({ param: { name: 'clipId', in: 'path' }, description: 'The clip' }),
    adFreeFile: z.string().meta({ param: { name: 'adFreeFile', in: 'path' }, description: 'ad-free.{ext}', example: 'ad-free.mp3' }),
  }),
  'A published clip’s audio without ad insertions (HTTP Range, ETag)',
);

/** The HEAD twin of a GET declaration (Hono answers HEAD through the GET route). */
const headOf = <R extends RouteConfig & { method: 'get' }>(route: R) => ({ ...route, method: 'head', summary: `${route.summary} (headers only)` }) as const satisfies RouteConfig;
export const headPublicAudio = headOf(getPublicAudio);
export const headPublicAudioAdFree = headOf(getPublicAudioAdFree);
