// Artwork (specification section 7: PUT and DELETE …/image of networks, programs, playlists and
// clips; POST /v1/chapters/images; POST /internal/images), the user's own picture (PUT and DELETE
// /internal/users/me/image) and the public image files every
// artwork URL names (section 3 "Image size variants"). Served by sync-server/api/images.ts.
//
// An image body is the file itself: JPEG or PNG, known by its first bytes (src/domain/artwork.ts
// imageTypeOf), not by Content-Type; at most IMAGE_FILE_MAX_BYTES, at most IMAGE_MAX_PIXELS.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { IMAGE_VARIANTS } from '../../domain/constants.ts';
import { IMAGE_FILE_MAX_BYTES, IMAGE_KINDS, IMAGE_MAX_PIXELS } from '../../domain/artwork.ts';
import { BadRequestBodySchema } from '../errors.ts';
import { errors, idParams, jsonContent, noContent, writeErrors } from './common.ts';

const tags = ['Images'];

/** Bytes, not JSON: described, never validated by a schema (the server reads the file's own bytes). */
const binary = z.string().meta({ format: 'binary' });

const imageBody = (required: boolean, description: string) => ({
  required,
  description,
  content: { 'image/jpeg': { schema: binary }, 'image/png': { schema: binary }, 'application/octet-stream': { schema: binary } },
});

const RULES = `JPEG or PNG (known by the file’s bytes), at most ${IMAGE_FILE_MAX_BYTES / 1024 / 1024} MB and ${IMAGE_MAX_PIXELS / 1_000_000} million pixels`;

export const ImageUploaded = z
  .object({
    Url: z.string().meta({ description: 'The image’s public URL (absolute); add ?size=thumbnail|small|medium|large' }),
    Path: z.string().meta({ description: 'The same URL, site-relative' }),
  })
  .meta({ id: 'ImageUploaded' });
export type ImageUploaded = z.infer<typeof ImageUploaded>;

const UnsupportedImage = {
  415: { description: 'The body is not a JPEG or PNG image (whatever its Content-Type said): the error names Content-Type', content: { 'application/json': { schema: BadRequestBodySchema } } },
};

const ImageUrlQuery = z.object({
  imageUrl: z
    .string()
    .optional()
    .meta({ description: 'An http(s) image to fetch instead of a body (not a private or loopback address); fetched and stored in the background' }),
});

type Owner = { kind: 'networks' | 'programs' | 'playlists' | 'clips'; param: 'networkId' | 'programId' | 'playlistId' | 'clipId'; noun: string };
const OWNERS = {
  network: { kind: 'networks', param: 'networkId', noun: 'network' },
  program: { kind: 'programs', param: 'programId', noun: 'program' },
  playlist: { kind: 'playlists', param: 'playlistId', noun: 'playlist' },
  clip: { kind: 'clips', param: 'clipId', noun: 'clip' },
} as const satisfies Record<string, Owner>;

function artworkRoutes<O extends Owner>(owner: O) {
  const path = `/v1/${owner.kind}/{${owner.param}}/image` as const;
  const put = {
    method: 'put',
    path,
    tags,
    summary: `Sets the ${owner.noun}’s artwork: the image in the body, or one fetched from imageUrl`,
    description: `${RULES}. The four size variants (thumbnail 64, small 256, medium 600, large 3000; square, cover-cropped, never upscaled) are made in the background; Urls.ImagePublicUrl is set when they are ready (a new Version: it syncs).`,
    request: { params: idParams(owner.param), query: ImageUrlQuery, body: imageBody(false, 'The image file (or none, with imageUrl)') },
    responses: { 204: noContent, ...writeErrors, ...UnsupportedImage },
  } as const satisfies RouteConfig;
  const remove = {
    method: 'delete',
    path,
    tags,
    summary: `Removes the ${owner.noun}’s artwork (Urls.ImagePublicUrl becomes null)`,
    request: { params: idParams(owner.param) },
    responses: { 204: noContent, ...errors },
  } as const satisfies RouteConfig;
  return { put, remove };
}

export const { put: putNetworkImage, remove: deleteNetworkImage } = artworkRoutes(OWNERS.network);
export const { put: putProgramImage, remove: deleteProgramImage } = artworkRoutes(OWNERS.program);
export const { put: putPlaylistImage, remove: deletePlaylistImage } = artworkRoutes(OWNERS.playlist);
export const { put: putClipImage, remove: deleteClipImage } = artworkRoutes(OWNERS.clip);

export const postChapterImage = {
  method: 'post',
  path: '/v1/chapters/images',
  tags,
  summary: 'Stores an image for a chapter; answers its URL',
  description: `${RULES}.`,
  request: { body: imageBody(true, 'The image file') },
  responses: { 200: jsonContent(ImageUploaded, 'Stored'), ...writeErrors, ...UnsupportedImage },
} as const satisfies RouteConfig;

export const postInternalImage = {
  method: 'post',
  path: '/internal/images',
  tags,
  summary: 'Stores an image (a description’s picture, say); answers its URL',
  description: `${RULES}.`,
  request: { body: imageBody(true, 'The image file') },
  responses: { 200: jsonContent(ImageUploaded, 'Stored'), ...writeErrors, ...UnsupportedImage },
} as const satisfies RouteConfig;

/** The signed-in user's own picture (section 7 "Account"): User.ImageUrl. */
export const putMyImage = {
  method: 'put',
  path: '/internal/users/me/image',
  tags: ['Session'],
  summary: 'Sets the signed-in user’s picture (User.ImageUrl)',
  description: `${RULES}. ImageUrl names the new picture as soon as this answers (its thumbnail is made first); the other size variants follow within seconds and are served from the original until then.`,
  request: { body: imageBody(true, 'The image file') },
  responses: { 204: noContent, ...writeErrors, ...UnsupportedImage },
} as const satisfies RouteConfig;

export const deleteMyImage = {
  method: 'delete',
  path: '/internal/users/me/image',
  tags: ['Session'],
  summary: 'Removes the signed-in user’s picture (User.ImageUrl becomes null)',
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const IMAGE_SIZES = Object.keys(IMAGE_VARIANTS) as Array<keyof typeof IMAGE_VARIANTS>;

/** The public image file (mounted outside /api: src/domain/public-urls.ts publicPaths.image). */
export const getImage = {
  method: 'get',
  path: '/images/{kind}/{id}/{version}',
  tags,
  summary: 'An image, in one of its size variants (public: the version in the path is an unguessable id)',
  description:
    'Square, cover-cropped variants of section 3; a source smaller than a variant gives its own size, never upscaled. The version changes with every new image, so the answer is cached for a year (immutable); ETag and If-None-Match are answered with 304.',
  request: {
    params: z.object({
      kind: z.enum(IMAGE_KINDS).meta({ param: { name: 'kind', in: 'path' } }),
      id: z.uuid().meta({ param: { name: 'id', in: 'path' } }),
      version: z
        .string()
        .regex(/^[A-Za-z0-9_-]{22}$/)
        .meta({ param: { name: 'version', in: 'path' } }),
    }),
    query: z.object({ size: z.enum(IMAGE_SIZES).optional().meta({ description: 'thumbnail (64), small (256), medium (600) or large (3000, the default)' }) }),
    headers: z.object({ 'if-none-match': z.string().optional() }),
  },
  responses: {
    200: { description: 'The image', content: { 'image/jpeg': { schema: binary }, 'image/png': { schema: binary } } },
    304: { description: 'Not modified (If-None-Match named its ETag)' },
    400: errors[400],
    404: errors[404],
  },
} as const satisfies RouteConfig;
