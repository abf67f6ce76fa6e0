// Playlists (RSS feeds), specification section 7 "Programs, networks, playlists, members".
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { Playlist, PlaylistClips, PlaylistCreate, PlaylistPatch } from './schemas.ts';
import { BoolQuery, createErrors, errors, idParams, IdListQuery, IfMatchHeader, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Playlists'];
const PlaylistParams = idParams('playlistId');

export const listPlaylists = {
  method: 'get',
  path: '/v1/playlists',
  tags,
  summary: 'Playlists of the programs the caller has content access to, by title',
  request: { query: z.object({ ...PagingQuery, playlistIds: IdListQuery, includeDeleted: BoolQuery, filterToShared: BoolQuery, sortBy: z.string().max(50).optional() }) },
  responses: { 200: jsonContent(PagedOf(Playlist), 'A page of playlists'), ...errors },
} as const satisfies RouteConfig;

export const listProgramPlaylists = {
  method: 'get',
  path: '/v1/programs/{programId}/playlists',
  tags,
  summary: 'The program’s playlists, by title',
  request: { params: idParams('programId'), query: z.object({ ...PagingQuery, playlistIds: IdListQuery, includeDeleted: BoolQuery }) },
  responses: { 200: jsonContent(PagedOf(Playlist), 'A page of playlists'), ...errors },
} as const satisfies RouteConfig;

export const getPlaylist = {
  method: 'get',
  path: '/v1/playlists/{playlistId}',
  tags,
  summary: 'One playlist',
  request: { params: PlaylistParams },
  responses: { 200: jsonContent(Playlist, 'The playlist'), ...errors },
} as const satisfies RouteConfig;

export const createPlaylist = {
  method: 'post',
  path: '/v1/programs/{programId}/playlists',
  tags,
  summary: 'Creates a playlist (mutation playlist.create)',
  request: { params: idParams('programId'), body: jsonBody(PlaylistCreate) },
  responses: { 201: jsonContent(Playlist, 'The new playlist'), ...createErrors },
} as const satisfies RouteConfig;

export const updatePlaylist = {
  method: 'patch',
  path: '/v1/playlists/{playlistId}',
  tags,
  summary: 'Changes a playlist (mutation playlist.update)',
  request: { params: PlaylistParams, headers: IfMatchHeader, body: jsonBody(PlaylistPatch) },
  responses: { 200: jsonContent(Playlist, 'The playlist after the change'), ...writeErrors, ...preconditionFailed(Playlist) },
} as const satisfies RouteConfig;

export const setPlaylistClips = {
  method: 'patch',
  path: '/v1/playlists/{playlistId}/clips',
  tags,
  summary: 'Sets the playlist’s clips, in feed order (mutation playlist.setClips); the ETag names the playlist after it',
  request: { params: PlaylistParams, headers: IfMatchHeader, body: jsonBody(PlaylistClips) },
  responses: { 204: noContent, ...writeErrors, ...preconditionFailed(Playlist) },
} as const satisfies RouteConfig;

export const deletePlaylist = {
  method: 'delete',
  path: '/v1/playlists/{playlistId}',
  tags,
  summary: 'Deletes a playlist (mutation playlist.delete)',
  request: { params: PlaylistParams, headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(Playlist) },
} as const satisfies RouteConfig;
