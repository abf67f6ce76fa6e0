// Feed drops (section 7, "Clips": /v1/clips/{clipId}/feed-drops): a clip published into a
// playlist's feed of another program of its organization, with its own optional title and
// description for that feed and an optional time from which it is listed. Plain API calls (the
// server decides where a clip may be dropped; nothing edits drops offline). Served by
// sync-server/api/feed-drops.ts; the feed lists them (sync-server/feeds/feed-data.ts).
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { RowMeta, Uuid, UtcTimestamp } from '../entities.ts';
import { BoolQuery, createErrors, errors, idParams, IfMatchHeader, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Feed drops'];

export const FeedDropSchema = z
  .object({
    ...RowMeta,
    /** The clip dropped. */
    ClipId: Uuid,
    /** The playlist whose feed lists it, and that playlist's program. */
    PlaylistId: Uuid,
    ProgramId: Uuid,
    /** The title and description the target feed shows; null: the clip's own. */
    Title: z.string().nullable(),
    Description: z.string().nullable(),
    /** Listed from this time on (and dated so in the feed); null: at once, dated when dropped. */
    DropAtUtc: UtcTimestamp.nullable(),
  })
  .meta({ id: 'FeedDrop' });
export type FeedDrop = z.infer<typeof FeedDropSchema>;

const DropFields = {
  Title: z.string().nullable().optional(),
  Description: z.string().nullable().optional(),
  DropAtUtc: z.iso.datetime({ offset: true }).nullable().optional(),
};
export const FeedDropCreateSchema = z.object({ Id: Uuid.optional(), PlaylistId: Uuid, ...DropFields }).strict().meta({ id: 'FeedDropCreate' });
export const FeedDropPatchSchema = z.object(DropFields).strict().meta({ id: 'FeedDropPatch' });

const ClipParams = idParams('clipId');
const DropParams = idParams('clipId', 'feedDropId');

export const listFeedDrops = {
  method: 'get',
  path: '/v1/clips/{clipId}/feed-drops',
  tags,
  summary: 'The clip’s drops into playlists the caller has content access to, oldest first (filter: in the drop’s title)',
  request: { params: ClipParams, query: z.object({ ...PagingQuery, filter: z.string().max(200).optional(), includeDeleted: BoolQuery }) },
  responses: { 200: jsonContent(PagedOf(FeedDropSchema), 'A page of feed drops'), ...errors },
} as const satisfies RouteConfig;

export const getFeedDrop = {
  method: 'get',
  path: '/v1/clips/{clipId}/feed-drops/{feedDropId}',
  tags,
  summary: 'One feed drop of the clip (its ETag is its ModifiedAtUtc)',
  request: { params: DropParams },
  responses: { 200: jsonContent(FeedDropSchema, 'The feed drop'), ...errors },
} as const satisfies RouteConfig;

export const createFeedDrop = {
  method: 'post',
  path: '/v1/clips/{clipId}/feed-drops',
  tags,
  summary: 'Drops the clip into a playlist of another program of the organization (content access on both programs)',
  request: { params: ClipParams, body: jsonBody(FeedDropCreateSchema) },
  responses: { 201: jsonContent(FeedDropSchema, 'The new feed drop'), ...createErrors },
} as const satisfies RouteConfig;

export const updateFeedDrop = {
  method: 'patch',
  path: '/v1/clips/{clipId}/feed-drops/{feedDropId}',
  tags,
  summary: 'Changes a feed drop’s title, description or time',
  request: { params: DropParams, headers: IfMatchHeader, body: jsonBody(FeedDropPatchSchema) },
  responses: { 200: jsonContent(FeedDropSchema, 'The feed drop after the change'), ...writeErrors, ...preconditionFailed(FeedDropSchema) },
} as const satisfies RouteConfig;

export const deleteFeedDrop = {
  method: 'delete',
  path: '/v1/clips/{clipId}/feed-drops/{feedDropId}',
  tags,
  summary: 'Takes the clip out of that feed (the drop is kept, deleted)',
  request: { params: DropParams, headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(FeedDropSchema) },
} as const satisfies RouteConfig;
