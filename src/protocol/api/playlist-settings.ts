// A playlist's settings, specification section 7: its auto-add rule
// (GET and PATCH /v1/playlists/{playlistId}/settings/auto-add). The rule is kept on the playlist's
// row (Playlist.AutoAdd), so it syncs and is edited offline through playlist.setAutoAdd.
import type { RouteConfig } from '@hono/zod-openapi';
import { AutoAddRuleSchema } from '../entities.ts';
import { Playlist } from './schemas.ts';
import { errors, idParams, IfMatchHeader, jsonBody, jsonContent, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Playlists'];
const PlaylistParams = idParams('playlistId');

export const AutoAddRule = AutoAddRuleSchema.meta({
  id: 'PlaylistAutoAdd',
  description: 'Enabled: new clips of the program join the playlist (when created, and when published); Tags: only clips with any of them (none: any clip); EpisodeType: only clips of that type (a clip without one is Full)',
});
export const AutoAddRulePatch = AutoAddRuleSchema.partial().strict().meta({ id: 'PlaylistAutoAddPatch' });

export const getAutoAdd = {
  method: 'get',
  path: '/v1/playlists/{playlistId}/settings/auto-add',
  tags,
  summary: 'The playlist’s auto-add rule (off when it has none); the ETag names the playlist',
  request: { params: PlaylistParams },
  responses: { 200: jsonContent(AutoAddRule, 'The rule'), ...errors },
} as const satisfies RouteConfig;

export const updateAutoAdd = {
  method: 'patch',
  path: '/v1/playlists/{playlistId}/settings/auto-add',
  tags,
  summary: 'Changes the playlist’s auto-add rule (mutation playlist.setAutoAdd): the fields sent, over the rule as it is',
  request: { params: PlaylistParams, headers: IfMatchHeader, body: jsonBody(AutoAddRulePatch) },
  responses: { 200: jsonContent(AutoAddRule, 'The rule after the change'), ...writeErrors, ...preconditionFailed(Playlist) },
} as const satisfies RouteConfig;
