// Imports from another podcast host (specification section 7 "Billing, subscription, imports,
// config, demo, reference"): the URL of another host's RSS feed, or the feed's XML itself, becomes
// a program, its playlist and a clip per episode, with the episodes' audio fetched by durable jobs
// and processed as any upload. Importing the same feed again updates what the earlier import made
// (the same feed URL; per episode the same guid, kept as the clip's ImportedId). An import is an
// operation of section 3 (Status Busy, Failed, Success), polled through the lists below.
// Served by sync-server/api/imports.ts; the work is sync-server/imports.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { IMPORT_EPISODE_STATES, IMPORT_STAGES } from '../../domain/imports.ts';
import { Uuid, UtcTimestamp } from '../entities.ts';
import { errors, idParams, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, writeErrors } from './common.ts';

const tags = ['Imports'];

/** Longest feed URL taken (the URL rules of section 5 give no number; browsers keep 2,000). */
export const FEED_URL_MAX_LENGTH = 2000;

export const ImportRequestSchema = z
  .object({
    FeedUrl: z.string().max(FEED_URL_MAX_LENGTH).optional().meta({ description: 'The http(s) URL of the RSS feed to import (not a private, loopback or link-local address)' }),
    FeedXml: z.string().optional().meta({ description: 'The feed’s XML itself, instead of FeedUrl (at most the JSON body limit)' }),
  })
  .strict()
  .meta({ id: 'ImportRequest' });
export type ImportRequest = z.infer<typeof ImportRequestSchema>;

export const ImportRetrySchema = z.object({ ImportId: Uuid }).strict().meta({ id: 'ImportRetry' });

export const ImportEpisodeSchema = z
  .object({
    Guid: z.string().meta({ description: 'The episode’s guid in the feed: its clip’s ImportedId' }),
    Title: z.string().nullable(),
    ClipId: Uuid.nullable(),
    State: z.enum(IMPORT_EPISODE_STATES),
    ErrorCode: z.string().nullable(),
    Reason: z.string().nullable().meta({ description: 'Why it failed, in words (English)' }),
    AudioUrl: z.string().nullable(),
    ArtworkUrl: z.string().nullable().meta({ description: 'The episode’s artwork in the feed (kept for the images work to fetch)' }),
    Created: z.boolean().meta({ description: 'A new clip (false: the clip of an earlier import, updated)' }),
  })
  .meta({ id: 'ImportEpisode' });
export type ImportEpisode = z.infer<typeof ImportEpisodeSchema>;

export const ImportCountsSchema = z.object({
  Episodes: z.number().int(),
  Queued: z.number().int(),
  Fetching: z.number().int(),
  Processing: z.number().int(),
  Done: z.number().int(),
  Failed: z.number().int(),
  Created: z.number().int(),
  Updated: z.number().int(),
});

export const ImportSchema = z
  .object({
    Id: Uuid,
    OrganizationId: Uuid,
    CreatedAtUtc: UtcTimestamp,
    ModifiedAtUtc: UtcTimestamp,
    CreatedById: Uuid.nullable(),
    CreatedByName: z.string().nullable(),
    Source: z.enum(['Url', 'Xml']),
    FeedUrl: z.string().nullable(),
    Title: z.string().nullable().meta({ description: 'The feed’s title, once read' }),
    ProgramId: Uuid.nullable(),
    PlaylistId: Uuid.nullable(),
    Status: z.enum(['Busy', 'Failed', 'Success']).meta({ description: 'Section 3 operation progress: from the feed’s stage and every episode' }),
    Stage: z.enum(IMPORT_STAGES),
    ErrorCode: z.string().nullable(),
    Reason: z.string().nullable(),
    ArtworkUrl: z.string().nullable(),
    Counts: ImportCountsSchema,
    Episodes: z.array(ImportEpisodeSchema),
  })
  .meta({ id: 'Import' });
export type Import = z.infer<typeof ImportSchema>;

const ImportList = PagedOf(ImportSchema);
const ListQuery = z.object({ ...PagingQuery });
const PlaylistParams = idParams('playlistId');

export const listImports = {
  method: 'get',
  path: '/internal/imports',
  tags,
  summary: 'The organization’s imports, newest first, each with its episodes’ progress',
  request: { query: ListQuery },
  responses: { 200: jsonContent(ImportList, 'A page of imports'), ...errors },
} as const satisfies RouteConfig;

export const startImport = {
  method: 'post',
  path: '/internal/imports',
  tags,
  summary: 'Imports a feed (FeedUrl or FeedXml): a new program and playlist, or the ones an earlier import of the same feed made',
  description:
    'Answers at once with the import, Busy; durable jobs fetch and read the feed, write the program, playlist and clips, and fetch each episode’s audio into the clip’s upload pipeline. Poll GET /internal/imports.',
  request: { body: jsonBody(ImportRequestSchema) },
  responses: { 200: jsonContent(ImportSchema, 'The import, Busy'), ...writeErrors },
} as const satisfies RouteConfig;

export const retryImport = {
  method: 'put',
  path: '/internal/imports',
  tags,
  summary: 'Runs an import again from its source (the feed URL fetched anew, or the XML it was given): failed episodes are tried again, changes are applied',
  request: { body: jsonBody(ImportRetrySchema) },
  responses: { 204: noContent, ...writeErrors },
} as const satisfies RouteConfig;

export const listPlaylistImports = {
  method: 'get',
  path: '/internal/playlists/{playlistId}/imports',
  tags,
  summary: 'The imports into this playlist, newest first',
  request: { params: PlaylistParams, query: ListQuery },
  responses: { 200: jsonContent(ImportList, 'A page of imports'), ...errors },
} as const satisfies RouteConfig;

export const startPlaylistImport = {
  method: 'post',
  path: '/internal/playlists/{playlistId}/imports',
  tags,
  summary: 'Imports a feed into this playlist (and its program)',
  request: { params: PlaylistParams, body: jsonBody(ImportRequestSchema) },
  responses: { 200: jsonContent(ImportSchema, 'The import, Busy'), ...writeErrors },
} as const satisfies RouteConfig;

export const refreshPlaylistImport = {
  method: 'patch',
  path: '/internal/playlists/{playlistId}/imports',
  tags,
  summary: 'Imports again the feed this playlist was last imported from: new episodes are added, changed ones updated',
  request: { params: PlaylistParams },
  responses: { 200: jsonContent(ImportSchema, 'The new import, Busy'), ...errors },
} as const satisfies RouteConfig;
