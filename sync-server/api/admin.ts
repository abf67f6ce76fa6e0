// Admin calls (specification section 7, "Images and admin"; section 6, "Grant access"):
//
//   POST /admin/users/me/organizations { OrganizationId }
//     not signed in 401 · not admin or support 403 · bad body 400 naming the field ·
//     no such (live) organization 404 · otherwise 204: the caller is a member from now on
//
// The page 'Organization not found' offers this to admin or support users and reloads on success,
// so the organization opens with the membership made here. The caller's organization header is
// ignored: by definition they are not a member of the organization they ask for.
import type { MiddlewareHandler } from 'hono';
import { allPermissions, type PermissionEntry } from '../../src/domain/permissions.ts';
import * as routes from '../../src/protocol/api/admin.ts';
import type { User } from '../../src/protocol/entities.ts';
import { loadCaller, rotateSession } from '../auth.ts';
import { forbidden, notFound, unauthorized } from '../errors.ts';
import { now } from '../app.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, type Access } from './guard.ts';

/**
 * The permission entries an admin-granted membership carries: Organization scope, like the seed's
 * admin and support users. An admin gets every flag (the admin site may change anything anyway);
 * support gets what reading and auditing the organization's content takes.
 */
function grantedPermissions(user: Pick<User, 'IsAdmin'>, organizationId: string): PermissionEntry[] {
  const flags = user.IsAdmin ? allPermissions() : { HasContentAccess: true, HasAuditAccess: true };
  return [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: flags }];
}

/** A guard of this module: a signed-in admin or support user, in no particular organization (403
 * for any other user). */
export function adminOrSupport(): Access {
  const signedIn = guard.user();
  const check: MiddlewareHandler = async (c, next) => {
    const caller = await loadCaller(c);
    if (!caller) throw unauthorized();
    if (!caller.user.IsAdminOrSupport) throw forbidden();
    await next();
  };
  return { middleware: [...signedIn.middleware, check], describe: 'An admin or support user' };
}

export function adminRoutes() {
  return resourceApp().openapi(guarded(routes.grantOrganizationAccess, adminOrSupport()), async (c) => {
    const deps = c.get('deps');
    const { user } = (await loadCaller(c))!;
    const organizationId = c.req.valid('json').OrganizationId;
    await deps.store.tx(async (q) => {
      const [org] = await q.query(`SELECT 1 FROM organizations WHERE id = $1 AND NOT deleted`, [organizationId]);
      if (!org) throw notFound();
      // Already a member: the membership and its permissions stay as they are.
      await q.query(
        `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
         VALUES ($1, $2, $3, $4, $4, next_row_version()) ON CONFLICT (organization_id, user_id) DO NOTHING`,
        [organizationId, user.Id, JSON.stringify(grantedPermissions(user, organizationId)), now(deps)],
      );
    });
    // The caller now reaches an organization it did not: a new session id.
    await rotateSession(c);
    return c.body(null, 204);
  });
}
