// Clips (specification section 7, "Clips"): reads, and the writes that are named mutations
// (src/mutations/content.ts). The audio, cut and media calls are media.ts's.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { Visibility } from '../entities.ts';
import { Clip, ClipCreate, ClipPatch } from './schemas.ts';
import { BoolQuery, createErrors, enumListQuery, errors, idParams, IdListQuery, IfMatchHeader, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Clips'];
export const ClipParams = idParams('clipId');

export const listClips = {
  method: 'get',
  path: '/v1/clips',
  tags,
  summary: 'Clips of the programs the caller has content access to, newest first',
  request: { query: z.object({ ...PagingQuery, clipIds: IdListQuery, includeDeleted: BoolQuery, include: z.string().max(500).optional() }) },
  responses: { 200: jsonContent(PagedOf(Clip), 'A page of clips'), ...errors },
} as const satisfies RouteConfig;

export const getClip = {
  method: 'get',
  path: '/v1/clips/{clipId}',
  tags,
  summary: 'One clip (its ETag is its ModifiedAtUtc)',
  request: { params: ClipParams, query: z.object({ include: z.string().max(500).optional() }) },
  responses: { 200: jsonContent(Clip, 'The clip'), ...errors },
} as const satisfies RouteConfig;

export const listProgramClips = {
  method: 'get',
  path: '/v1/programs/{programId}/clips',
  tags,
  summary: 'The program’s clips, newest first',
  request: {
    params: idParams('programId'),
    query: z.object({ ...PagingQuery, clipIds: IdListQuery, includeDeleted: BoolQuery, visibilityFilter: enumListQuery(Visibility.options), include: z.string().max(500).optional() }),
  },
  responses: { 200: jsonContent(PagedOf(Clip), 'A page of clips'), ...errors },
} as const satisfies RouteConfig;

export const listPlaylistClips = {
  method: 'get',
  path: '/v1/playlists/{playlistId}/clips',
  tags,
  summary: 'The playlist’s clips in feed order',
  request: { params: idParams('playlistId'), query: z.object({ ...PagingQuery, includeDeleted: BoolQuery, include: z.string().max(500).optional() }) },
  responses: { 200: jsonContent(PagedOf(Clip), 'A page of clips'), ...errors },
} as const satisfies RouteConfig;

export const createClip = {
  method: 'post',
  path: '/v1/programs/{programId}/clips',
  tags,
  summary: 'Creates a clip (mutation clip.create); the caller may choose its Id',
  request: { params: idParams('programId'), body: jsonBody(ClipCreate) },
  responses: { 201: jsonContent(Clip, 'The new clip'), ...createErrors },
} as const satisfies RouteConfig;

export const updateClip = {
  method: 'patch',
  path: '/v1/clips/{clipId}',
  tags,
  summary: 'Changes fields of a clip (mutation clip.update)',
  request: { params: ClipParams, headers: IfMatchHeader, body: jsonBody(ClipPatch) },
  responses: { 200: jsonContent(Clip, 'The clip after the change'), ...writeErrors, ...preconditionFailed(Clip) },
} as const satisfies RouteConfig;

export const deleteClip = {
  method: 'delete',
  path: '/v1/clips/{clipId}',
  tags,
  summary: 'Deletes a clip (mutation clip.delete; soft: includeDeleted lists it)',
  request: { params: ClipParams, headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(Clip) },
} as const satisfies RouteConfig;
