// Playlists (RSS feeds): reads, and the writes that are named mutations.
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/playlists.ts';
import { playlistCreate, playlistDelete, playlistSetClips, playlistUpdate } from '../../src/mutations/content.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { getAuth } from '../auth.ts';
import { etagOf, ifMatch } from '../http.ts';
import { newId } from '../mutations/content.ts';
import { runRest } from '../mutations/rest.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';
import { listRows, readablePrograms, Where } from './lists.ts';

const BY_TITLE = 't.title, t.id';

export function playlistRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listPlaylists, guard.member()), async (c) => {
      const { store } = c.get('deps');
      const auth = getAuth(c);
      const query = c.req.valid('query');
      const where = new Where(auth.organizationId, query.includeDeleted).ids('t.id', query.playlistIds);
      where.add((p) => `t.program_id = ANY(${p}::uuid[])`, await readablePrograms(store, auth, ENTITY_KINDS.playlists.read));
      return c.json(await listRows(store, 'playlist', where, BY_TITLE, pageOf(query)), 200);
    })
    .openapi(guarded(routes.listProgramPlaylists, guard.program('programId', 'HasContentAccess')), async (c) => {
      const query = c.req.valid('query');
      const where = new Where(getAuth(c).organizationId, query.includeDeleted).ids('t.id', query.playlistIds).add((p) => `t.program_id = ${p}`, c.var.program.id);
      return c.json(await listRows(c.get('deps').store, 'playlist', where, BY_TITLE, pageOf(query)), 200);
    })
    .openapi(guarded(routes.getPlaylist, guard.row('playlists', 'playlistId')), (c) => {
      c.header('ETag', etagOf(c.var.row));
      return c.json(c.var.row, 200);
    })
    .openapi(guarded(routes.createPlaylist, guard.program('programId', 'HasContentAccess')), async (c) => {
      const { Id, ...fields } = c.req.valid('json');
      const row = await runRest(c, playlistCreate, { programId: c.var.program.id, playlistId: Id ?? newId(), fields }, null);
      c.header('ETag', etagOf(row));
      return c.json(row, 201);
    })
    .openapi(guarded(routes.updatePlaylist, guard.row('playlists', 'playlistId')), async (c) => {
      const row = await runRest(c, playlistUpdate, { playlistId: c.var.row.Id, fields: c.req.valid('json') }, ifMatch(c));
      c.header('ETag', etagOf(row));
      return c.json(row, 200);
    })
    .openapi(guarded(routes.setPlaylistClips, guard.row('playlists', 'playlistId')), async (c) => {
      const row = await runRest(c, playlistSetClips, { playlistId: c.var.row.Id, ClipIds: c.req.valid('json').ClipIds }, ifMatch(c));
      c.header('ETag', etagOf(row));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.deletePlaylist, guard.row('playlists', 'playlistId')), async (c) => {
      await runRest(c, playlistDelete, { playlistId: c.var.row.Id }, ifMatch(c));
      return c.body(null, 204);
    });
}
