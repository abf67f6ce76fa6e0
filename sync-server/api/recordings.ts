// Recordings and their annotations: reads, and the writes that are named mutations. (Their audio
// is media's.)
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/recordings.ts';
import { annotationAdd, annotationDelete, recordingDelete, recordingUpdate } from '../../src/mutations/content.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { getAuth } from '../auth.ts';
import { etagOf, ifMatch } from '../http.ts';
import { newId } from '../mutations/content.ts';
import { runRest } from '../mutations/rest.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';
import { listRows, readablePrograms, Where } from './lists.ts';

const NEWEST_FIRST = 't.created_at_utc DESC, t.id';

export function recordingRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listRecordings, guard.member()), async (c) => {
      const { store } = c.get('deps');
      const auth = getAuth(c);
      const query = c.req.valid('query');
      const where = new Where(auth.organizationId, query.includeDeleted).ids('t.id', query.recordingIds);
      where.add((p) => `t.program_id = ANY(${p}::uuid[])`, await readablePrograms(store, auth, ENTITY_KINDS.recordings.read));
      return c.json(await listRows(store, 'recording', where, NEWEST_FIRST, pageOf(query)), 200);
    })
    .openapi(guarded(routes.getRecording, guard.row('recordings', 'recordingId')), (c) => {
      c.header('ETag', etagOf(c.var.row));
      return c.json(c.var.row, 200);
    })
    .openapi(guarded(routes.listProgramRecordings, guard.program('programId', 'HasContentAccess')), async (c) => {
      const query = c.req.valid('query');
      const where = new Where(getAuth(c).organizationId, query.includeDeleted).ids('t.id', query.recordingIds).add((p) => `t.program_id = ${p}`, c.var.program.id);
      if (query.status && query.status.length > 0) where.add((p) => `t.state = ANY(${p}::text[])`, query.status);
      return c.json(await listRows(c.get('deps').store, 'recording', where, NEWEST_FIRST, pageOf(query)), 200);
    })
    .openapi(guarded(routes.updateRecording, guard.row('recordings', 'recordingId')), async (c) => {
      const row = await runRest(c, recordingUpdate, { recordingId: c.var.row.Id, fields: c.req.valid('json') }, ifMatch(c));
      c.header('ETag', etagOf(row));
      return c.json(row, 200);
    })
    .openapi(guarded(routes.deleteRecording, guard.row('recordings', 'recordingId')), async (c) => {
      await runRest(c, recordingDelete, { recordingId: c.var.row.Id }, ifMatch(c));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.listAnnotations, guard.row('recordings', 'recordingId')), async (c) => {
      const query = c.req.valid('query');
      const where = new Where(getAuth(c).organizationId, query.includeDeleted).add((p) => `t.recording_id = ${p}`, c.var.row.Id);
      return c.json(await listRows(c.get('deps').store, 'annotation', where, "(t.data->>'OffsetSeconds')::float8, t.id", pageOf(query)), 200);
    })
    .openapi(guarded(routes.addAnnotation, guard.row('recordings', 'recordingId')), async (c) => {
      const { Id, ...fields } = c.req.valid('json');
      const row = await runRest(c, annotationAdd, { recordingId: c.var.row.Id, annotationId: Id ?? newId(), fields }, null);
      c.header('ETag', etagOf(row));
      return c.json(row, 201);
    })
    .openapi(guarded(routes.deleteAnnotation, guard.row('recordings', 'recordingId')), async (c) => {
      await runRest(c, annotationDelete, { recordingId: c.var.row.Id, annotationId: c.req.valid('param').annotationId }, ifMatch(c));
      return c.body(null, 204);
    });
}
