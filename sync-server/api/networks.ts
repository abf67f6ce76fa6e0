// Networks: reads, and the writes that are named mutations.
import { pageOf } from '../../src/protocol/api/common.ts';
import * as routes from '../../src/protocol/api/networks.ts';
import { networkCreate, networkDelete, networkUpdate } from '../../src/mutations/content.ts';
import { holdsAny, networkFlags, organizationFlags } from '../../src/domain/access.ts';
import { getAuth } from '../auth.ts';
import { etagOf, ifMatch } from '../http.ts';
import { newId } from '../mutations/content.ts';
import { runRest } from '../mutations/rest.ts';
import { flagsForProgram, type ProgramRef } from '../mutations/store.ts';
import { guarded, resourceApp } from './route.ts';
import { guard } from './guard.ts';
import { listRows, Where } from './lists.ts';

const MANAGE = 'HasManageOrganizationSettingsAccess';

export function networkRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listNetworks, guard.member()), async (c) => {
      const { store } = c.get('deps');
      const auth = getAuth(c);
      const query = c.req.valid('query');
      const where = new Where(auth.organizationId, query.includeDeleted).ids('t.id', query.networkIds);
      // Every network with an organization-scope flag; else those a flag names or a visible program is in.
      if (!holdsAny(organizationFlags(auth.permissions))) {
        const networks = await store.query<{ id: string }>(`SELECT id FROM networks WHERE organization_id = $1`, [auth.organizationId]);
        const programs = await store.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE organization_id = $1 AND NOT deleted`, [auth.organizationId]);
        const seen = networks
          .filter((n) => holdsAny(networkFlags(auth.permissions, n.id)) || programs.some((p) => p.network_id === n.id && holdsAny(flagsForProgram(auth, p))))
          .map((n) => n.id);
        where.add((p) => `t.id = ANY(${p}::uuid[])`, seen);
      }
      return c.json(await listRows(store, 'network', where, 't.name, t.id', pageOf(query)), 200);
    })
    .openapi(guarded(routes.getNetwork, guard.network('networkId')), (c) => {
      c.header('ETag', etagOf(c.var.row));
      return c.json(c.var.row, 200);
    })
    .openapi(guarded(routes.createNetwork, guard.organization(MANAGE)), async (c) => {
      const { Id, ...fields } = c.req.valid('json');
      const row = await runRest(c, networkCreate, { networkId: Id ?? newId(), fields }, null);
      c.header('ETag', etagOf(row));
      return c.json(row, 201);
    })
    .openapi(guarded(routes.updateNetwork, guard.network('networkId', { organization: [MANAGE] })), async (c) => {
      const row = await runRest(c, networkUpdate, { networkId: c.var.row.Id, fields: c.req.valid('json') }, ifMatch(c));
      c.header('ETag', etagOf(row));
      return c.json(row, 200);
    })
    .openapi(guarded(routes.deleteNetwork, guard.network('networkId', { organization: [MANAGE] })), async (c) => {
      await runRest(c, networkDelete, { networkId: c.var.row.Id }, ifMatch(c));
      return c.body(null, 204);
    });
}
