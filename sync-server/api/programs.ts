// Programs (shows): reads, and the writes that are named mutations.
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/programs.ts';
import { programCreate, programDelete, programUpdate } from '../../src/mutations/content.ts';
import { getAuth } from '../auth.ts';
import { etagOf, ifMatch } from '../http.ts';
import { newId } from '../mutations/content.ts';
import { runRest, runRestMany } from '../mutations/rest.ts';
import { AppError } from '../errors.ts';
import { invalid } from '../routes/content-rules.ts';
import { loadRow } from '../rows.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';
import { listRows, visiblePrograms, Where } from './lists.ts';

const BY_NAME = 't.name, t.id';

export function programRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listPrograms, guard.member()), async (c) => {
      const { store } = c.get('deps');
      const auth = getAuth(c);
      const query = c.req.valid('query');
      const where = new Where(auth.organizationId, query.includeDeleted).ids('t.id', query.programIds).ids('t.network_id', query.networkIds);
      where.add((p) => `t.id = ANY(${p}::uuid[])`, await visiblePrograms(store, auth));
      return c.json(await listRows(store, 'program', where, BY_NAME, pageOf(query)), 200);
    })
    .openapi(guarded(routes.getProgram, guard.program('programId')), async (c) => {
      const row = (await loadRow(c.get('deps').store, 'program', getAuth(c).organizationId, c.var.program.id))!;
      c.header('ETag', etagOf(row));
      return c.json(row, 200);
    })
    .openapi(guarded(routes.listNetworkPrograms, guard.network('networkId')), async (c) => {
      const { store } = c.get('deps');
      const auth = getAuth(c);
      const query = c.req.valid('query');
      const where = new Where(auth.organizationId, query.includeDeleted).ids('t.id', query.programIds).add((p) => `t.network_id = ${p}`, c.var.row.Id);
      where.add((p) => `t.id = ANY(${p}::uuid[])`, await visiblePrograms(store, auth));
      return c.json(await listRows(store, 'program', where, BY_NAME, pageOf(query)), 200);
    })
    .openapi(guarded(routes.createProgram, guard.anywhere('HasCreateProgramAccess')), async (c) => {
      const { Id, ...fields } = c.req.valid('json');
      const row = await runRest(c, programCreate, { programId: Id ?? newId(), fields }, null);
      c.header('ETag', etagOf(row));
      return c.json(row, 201);
    })
    .openapi(guarded(routes.updateProgram, guard.program('programId', 'HasContentAccess', 'HasManageSettingsAccess')), async (c) => {
      const row = await runRest(c, programUpdate, { programId: c.var.program.id, fields: c.req.valid('json') }, ifMatch(c));
      c.header('ETag', etagOf(row));
      return c.json(row, 200);
    })
    .openapi(guarded(routes.deleteProgram, guard.program('programId', 'HasContentAccess', 'HasManageSettingsAccess')), async (c) => {
      await runRest(c, programDelete, { programId: c.var.program.id }, ifMatch(c));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.moveNetworkPrograms, guard.network('networkId')), async (c) => {
      const { ProgramIds } = c.req.valid('json');
      const ids = ProgramIds.map((id) => id.toLowerCase());
      if (new Set(ids).size !== ids.length) throw invalid('ProgramIds');
      const networkId = c.var.row.Id;
      try {
        await runRestMany(c, programUpdate, ids.map((programId) => ({ programId, fields: { NetworkId: networkId } })), null);
      } catch (err) {
        // A program the caller may not see is, in a body, input that names nothing.
        if (err instanceof AppError && err.status === 404) throw invalid('ProgramIds');
        throw err;
      }
      return c.body(null, 204);
    });
}
