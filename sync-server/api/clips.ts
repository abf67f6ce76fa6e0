// Clips: reads, and the writes that are named mutations (src/mutations/content.ts).
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/clips.ts';
import { clipCreate, clipDelete, clipUpdate } from '../../src/mutations/content.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { getAuth } from '../auth.ts';
import { etagOf, ifMatch } from '../http.ts';
import { newId } from '../mutations/content.ts';
import { runRest } from '../mutations/rest.ts';
import { pageOf as pageSql, toWire, type DbRow } from '../rows.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';
import { listRows, paged, readablePrograms, Where } from './lists.ts';

const NEWEST_FIRST = 't.created_at_utc DESC, t.id';

export function clipRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listClips, guard.member()), async (c) => {
      const { store } = c.get('deps');
      const auth = getAuth(c);
      const query = c.req.valid('query');
      const where = new Where(auth.organizationId, query.includeDeleted).ids('t.id', query.clipIds);
      where.add((p) => `t.program_id = ANY(${p}::uuid[])`, await readablePrograms(store, auth, ENTITY_KINDS.clips.read));
      return c.json(await listRows(store, 'clip', where, NEWEST_FIRST, pageOf(query)), 200);
    })
    .openapi(guarded(routes.getClip, guard.row('clips', 'clipId')), (c) => {
      const row = c.var.row;
      c.header('ETag', etagOf(row));
      return c.json(row, 200);
    })
    .openapi(guarded(routes.listProgramClips, guard.program('programId', 'HasContentAccess')), async (c) => {
      const { store } = c.get('deps');
      const query = c.req.valid('query');
      const where = new Where(getAuth(c).organizationId, query.includeDeleted).ids('t.id', query.clipIds).add((p) => `t.program_id = ${p}`, c.var.program.id);
      if (query.visibilityFilter && query.visibilityFilter.length > 0) where.add((p) => `t.visibility = ANY(${p}::text[])`, query.visibilityFilter);
      return c.json(await listRows(store, 'clip', where, NEWEST_FIRST, pageOf(query)), 200);
    })
    .openapi(guarded(routes.listPlaylistClips, guard.row('playlists', 'playlistId')), async (c) => {
      const { store } = c.get('deps');
      const query = c.req.valid('query');
      const page = pageOf(query);
      const rows = await store.query<DbRow>(
        pageSql(
          'clip',
          `SELECT t.*, e.position FROM clips t JOIN playlists p ON p.id = $1
           JOIN LATERAL jsonb_array_elements_text(p.clip_ids) WITH ORDINALITY AS e(clip_id, position) ON e.clip_id::uuid = t.id
           WHERE t.organization_id = $2 ${query.includeDeleted ? '' : 'AND NOT t.deleted'}
           ORDER BY e.position LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`,
          't.position',
        ),
        [c.var.row.Id, getAuth(c).organizationId],
      );
      return c.json(paged(rows.map((r) => toWire('clip', r)), page), 200);
    })
    .openapi(guarded(routes.createClip, guard.program('programId', 'HasContentAccess')), async (c) => {
      const { Id, ...fields } = c.req.valid('json');
      const row = await runRest(c, clipCreate, { programId: c.var.program.id, clipId: Id ?? newId(), fields }, null);
      c.header('ETag', etagOf(row));
      return c.json(row, 201);
    })
    .openapi(guarded(routes.updateClip, guard.row('clips', 'clipId')), async (c) => {
      const row = await runRest(c, clipUpdate, { clipId: c.var.row.Id, fields: c.req.valid('json') }, ifMatch(c));
      c.header('ETag', etagOf(row));
      return c.json(row, 200);
    })
    .openapi(guarded(routes.deleteClip, guard.row('clips', 'clipId')), async (c) => {
      await runRest(c, clipDelete, { clipId: c.var.row.Id }, ifMatch(c));
      return c.body(null, 204);
    });
}
