// Demo-data calls of specification section 7, organization-scoped (x-organization-id):
//
//   POST /internal/demo-data                        save the snapshot             204
//   POST /internal/demo-data/restores               start a restore               202 { Id, Status }
//   GET  /internal/demo-data/restores/:operationId  the restore's progress        200 { Id, Status }
//
// Only for demo organizations (403 otherwise), and only for a member who may manage the
// organization's settings, or an admin (403 otherwise): the guard of this module. Restoring
// without a saved snapshot is 404.
//
// A restore's operation (section 4 polling):
//   start ─► Busy ─ restore committed ─► Success
//             └──── restore failed ────► Failed
// The restore runs after the 202 has been sent, in the instance that answered it; the operation
// row lives in the store, so any instance answers the polls. An operation still Busy after
// RESTORE_ABANDONED_MS was cut off (its instance stopped, its transaction rolled back): Failed.
import { logOf } from '../observability/log.ts';
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { DemoRestoreOperation } from '../../src/protocol/admin.ts';
import * as routes from '../../src/protocol/api/demo-data.ts';
import { mayUseDemoSnapshots } from '../../src/domain/demo-snapshots.ts';
import { getAuth, type Auth } from '../auth.ts';
import { forbidden, notFound } from '../errors.ts';
import { now, type AppDeps } from '../app.ts';
import { lockSnapshot, restoreSnapshot, saveSnapshot } from '../demo-data/snapshots.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, type Access } from './guard.ts';

export const RESTORE_ABANDONED_MS = 10 * 60 * 1000;

/** A guard of this module: a member of a demo organization who may manage its settings, or an
 * admin (section 6); 403 otherwise. */
function demoSnapshots(): Access {
  const member = guard.member();
  const check: MiddlewareHandler = async (c, next) => {
    const auth = getAuth(c);
    const [org] = await c.get('deps').store.query<{ is_demo: boolean }>(`SELECT is_demo FROM organizations WHERE id = $1`, [auth.organizationId]);
    if (!mayUseDemoSnapshots({ entries: auth.permissions, isAdmin: auth.user.IsAdmin, isDemoOrganization: org?.is_demo === true })) throw forbidden();
    await next();
  };
  return { middleware: [...member.middleware, check], describe: 'A member of a demo organization with HasManageOrganizationSettingsAccess at organization scope, or an admin' };
}

type OperationRow = { id: string; status: DemoRestoreOperation['Status']; started_at_utc: Date };

function operationToWire(row: OperationRow, at: Date): DemoRestoreOperation {
  const abandoned = row.status === 'Busy' && at.getTime() - row.started_at_utc.getTime() > RESTORE_ABANDONED_MS;
  return { Id: row.id, Status: abandoned ? 'Failed' : row.status };
}

/** The restore itself, after the start call has answered; the outcome is recorded on the operation. */
async function runRestore(deps: AppDeps, auth: Auth, operationId: string): Promise<void> {
  try {
    const version = await deps.store.tx(async (q) => {
      if (!(await lockSnapshot(q, auth.organizationId))) throw new Error('the snapshot was removed');
      const written = await restoreSnapshot(q, { organizationId: auth.organizationId, userId: auth.user.Id, now: now(deps) });
      await q.query(`UPDATE demo_restore_operations SET status = 'Success', finished_at_utc = $2 WHERE id = $1`, [operationId, now(deps)]);
      return written;
    });
    if (version > 0) deps.bus.publish({ organizationId: auth.organizationId, version });
  } catch (err) {
    logOf(deps).error({ err, operationId }, 'demo snapshot restore failed');
    await deps.store
      .query(`UPDATE demo_restore_operations SET status = 'Failed', finished_at_utc = $2 WHERE id = $1`, [operationId, now(deps)])
      .catch((e: unknown) => logOf(deps).error({ err: e, operationId }, 'could not record the failed restore'));
  }
}

export function demoDataRoutes() {
  return resourceApp()
    .openapi(guarded(routes.saveDemoSnapshot, demoSnapshots()), async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      await deps.store.tx((q) => saveSnapshot(q, auth.organizationId, auth.user.Id, now(deps)));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.startDemoRestore, demoSnapshots()), async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      const id = randomUUID();
      const at = now(deps);
      const started = await deps.store.tx(async (q) => {
        if (!(await lockSnapshot(q, auth.organizationId))) return null;
        const [row] = await q.query<OperationRow>(
          `INSERT INTO demo_restore_operations (id, organization_id, user_id, status, started_at_utc) VALUES ($1, $2, $3, 'Busy', $4)
           RETURNING id, status, started_at_utc`,
          [id, auth.organizationId, auth.user.Id, at],
        );
        return row!;
      });
      if (!started) throw notFound();
      void runRestore(deps, auth, id);
      return c.json(operationToWire(started, at), 202);
    })
    .openapi(guarded(routes.getDemoRestore, demoSnapshots()), async (c) => {
      const deps = c.get('deps');
      const [row] = await deps.store.query<OperationRow>(`SELECT id, status, started_at_utc FROM demo_restore_operations WHERE id = $1 AND organization_id = $2`, [
        c.req.valid('param').operationId,
        getAuth(c).organizationId,
      ]);
      if (!row) throw notFound();
      return c.json(operationToWire(row, now(deps)), 200);
    });
}
