// The public pages listeners open without signing in (sync-server/pages): a program's show page,
// a clip's show page and the embed player for an iframe, at the paths of src/domain/public-urls.ts
// (served outside /api). They answer only for what section 4's visibility allows: anything else
// is a 404 without a body, exactly as a page that does not exist.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { SLUG_MAX_LENGTH } from '../../domain/constants.ts';
import { idParams } from './common.ts';

const tags = ['Public pages'];

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });
const notModified = { 304: { description: 'The page has not changed since the ETag given in If-None-Match' } };
const notFound = { 404: { description: 'No such page, or nothing a listener may see' } };

/** A clip's slug in a show page's address (section 5: lowercase letters, digits and dashes). A
 * value that could not be a slug names no page: 404. */
const ClipSlugParam = z
  .string()
  .max(SLUG_MAX_LENGTH)
  .regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/)
  .meta({ param: { name: 'clipSlug', in: 'path' } });

export const programPage = {
  method: 'get',
  path: '/shows/{programId}',
  tags,
  summary: 'The show page of a program: its artwork, description, public episodes and feeds (HTML)',
  request: { params: idParams('programId') },
  responses: { 200: html('The show page'), ...notModified, ...notFound },
} as const satisfies RouteConfig;

export const clipPage = {
  method: 'get',
  path: '/shows/{programId}/{clipSlug}',
  tags,
  summary: 'The show page of a Public or Unlisted published clip, with a player (HTML)',
  request: { params: z.object({ ...idParams('programId').shape, clipSlug: ClipSlugParam }) },
  responses: { 200: html('The clip’s page'), ...notModified, ...notFound },
} as const satisfies RouteConfig;

export const embedPage = {
  method: 'get',
  path: '/embed/{clipId}',
  tags,
  summary: 'The embed player of a Public or Unlisted published clip, for an iframe (HTML)',
  request: { params: idParams('clipId') },
  responses: { 200: html('The player'), ...notModified, ...notFound },
} as const satisfies RouteConfig;

export const embedScript = {
  method: 'get',
  path: '/embed/assets/player.js',
  tags,
  summary: 'The embed player’s script (at most 30 KB)',
  responses: { 200: { description: 'The script', content: { 'text/javascript': { schema: z.string() } } }, ...notModified },
} as const satisfies RouteConfig;
