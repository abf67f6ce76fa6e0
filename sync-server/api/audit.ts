// The audit trail's calls (src/protocol/api/audit.ts; what is recorded: sync-server/audit). Section
// 6: audit needs HasAuditAccess with HasContentAccess, at the scope read. The organization's list
// is every event for those holding both at Organization scope; below it, the events of the
// programs (and networks) where they hold both; account events (sign-ins, keys, permissions) sit
// in no program and are the Organization scope's alone. One object's list needs both flags on it.
import type { Context, MiddlewareHandler } from 'hono';
import { mayReadAudit } from '../../src/domain/audit.ts';
import { networkFlags } from '../../src/domain/access.ts';
import * as routes from '../../src/protocol/api/audit.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import { getAuth, requireSession, type Auth } from '../auth.ts';
import { listAuditEvents, type AuditFilter } from '../audit/read.ts';
import { forbidden } from '../errors.ts';
import { orgFlags } from '../mutations/store.ts';
import type { Queryable } from '../store/store.ts';
import { guard, type Access } from './guard.ts';
import { programsWhere } from './lists.ts';
import { guarded, resourceApp } from './route.ts';

/** Where the caller may read the trail: everywhere, or these programs and networks. */
async function auditScope(q: Queryable, auth: Auth): Promise<AuditFilter['scope'] | null> {
  if (mayReadAudit(orgFlags(auth))) return { kind: 'organization' };
  const programIds = await programsWhere(q, auth, mayReadAudit);
  const networkIds = auth.permissions.filter((e) => e.ObjectType === 'Network' && e.ObjectId && mayReadAudit(networkFlags(auth.permissions, e.ObjectId))).map((e) => e.ObjectId!);
  return programIds.length > 0 || networkIds.length > 0 ? { kind: 'places', programIds, networkIds } : null;
}

/** A member who may read the trail somewhere (403 otherwise); the scope is left for the handler. */
const auditor: Access = {
  middleware: [
    requireSession,
    (async (c, next) => {
      const scope = await auditScope(c.get('deps').store, getAuth(c));
      if (!scope) throw forbidden();
      c.set('auditScope', scope);
      await next();
    }) satisfies MiddlewareHandler,
  ],
  describe: 'A member holding HasAuditAccess and HasContentAccess at some scope (the events of that scope)',
};

declare module 'hono' {
  interface ContextVariableMap {
    auditScope: AuditFilter['scope'];
  }
}

const BOTH = ['HasAuditAccess', 'HasContentAccess'] as const;

type ObjectQuery = { startDate: string; endDate: string; eventType?: AuditFilter['eventTypes'] | undefined; includeRelated?: boolean | undefined };

/** One object's events; with includeRelated, those of what it holds too (`related`: none for clips and playlists). */
function objectFilter(c: Context, query: ObjectQuery, objectId: string, related: AuditFilter['scope'] | null): AuditFilter {
  return {
    organizationId: getAuth(c).organizationId,
    startDate: query.startDate,
    endDate: query.endDate,
    eventTypes: query.eventType ?? [],
    scope: query.includeRelated === true && related ? related : { kind: 'object', objectId },
  };
}

export function auditRoutes() {
  const app = resourceApp().openapi(guarded(routes.listAuditEvents, auditor), async (c) => {
    const query = c.req.valid('query');
    const filter: AuditFilter = {
      organizationId: getAuth(c).organizationId,
      startDate: query.startDate,
      endDate: query.endDate,
      eventTypes: query.eventType ?? [],
      objectTypes: query.objectType ?? [],
      scope: c.get('auditScope'),
      ...(query.objectId ? { objectId: query.objectId } : {}),
    };
    return c.json(await listAuditEvents(c.get('deps').store, filter, pageOf(query)), 200);
  });

  return app
    .openapi(guarded(routes.listProgramAuditEvents, guard.program('programId', ...BOTH)), async (c) => {
      const query = c.req.valid('query');
      const programId = c.get('program').id;
      return c.json(await listAuditEvents(c.get('deps').store, objectFilter(c, query, programId, { kind: 'program', programId }), pageOf(query)), 200);
    })
    .openapi(guarded(routes.listNetworkAuditEvents, guard.network('networkId', { network: [...BOTH] })), async (c) => {
      const query = c.req.valid('query');
      const networkId = c.get('row').Id as string;
      return c.json(await listAuditEvents(c.get('deps').store, objectFilter(c, query, networkId, { kind: 'network', networkId }), pageOf(query)), 200);
    })
    .openapi(guarded(routes.listClipAuditEvents, guard.row('clips', 'clipId', 'HasAuditAccess')), async (c) => {
      const query = c.req.valid('query');
      return c.json(await listAuditEvents(c.get('deps').store, objectFilter(c, query, c.get('row').Id as string, null), pageOf(query)), 200);
    })
    .openapi(guarded(routes.listPlaylistAuditEvents, guard.row('playlists', 'playlistId', 'HasAuditAccess')), async (c) => {
      const query = c.req.valid('query');
      return c.json(await listAuditEvents(c.get('deps').store, objectFilter(c, query, c.get('row').Id as string, null), pageOf(query)), 200);
    });
}
