// Admin calls (specification section 7, "Images and admin"; section 6, "Grant access"):
//
//   POST /admin/users/me/organizations { OrganizationId }
//     not signed in 401 · not admin or support 403 · bad body 400 naming the field ·
//     no such (live) organization 404 · otherwise 204: the caller is a member from now on
//
// The page 'Organization not found' offers this to admin or support users and reloads on success,
// so the organization opens with the membership made here. The caller's organization header is
// ignored: by definition they are not a member of the organization they ask for.
import { Hono } from 'hono';
import { allPermissions, type PermissionEntry } from '../../src/domain/permissions.ts';
import { validateGuid } from '../../src/domain/validators.ts';
import { GrantOrganizationAccessSchema } from '../../src/protocol/admin.ts';
import type { User } from '../../src/protocol/entities.ts';
import { loadCaller, requireUser } from '../auth.ts';
import { assertValid, forbidden, notFound } from '../errors.ts';
import { readJson } from '../http.ts';
import { now } from '../app.ts';

/**
 * The permission entries an admin-granted membership carries: Organization scope, like the seed's
 * admin and support users. An admin gets every flag (the admin site may change anything anyway);
 * support gets what reading and auditing the organization's content takes.
 */
export function grantedPermissions(user: Pick<User, 'IsAdmin'>, organizationId: string): PermissionEntry[] {
  const flags = user.IsAdmin ? allPermissions() : { HasContentAccess: true, HasAuditAccess: true };
  return [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: flags }];
}

export function adminRoutes() {
  return new Hono().post('/admin/users/me/organizations', requireUser, async (c) => {
    const deps = c.get('deps');
    const { user } = (await loadCaller(c))!;
    if (!user.IsAdminOrSupport) throw forbidden();
    const body = await readJson(c, GrantOrganizationAccessSchema);
    assertValid([['OrganizationId', validateGuid(body.OrganizationId, { required: true })]]);
    const organizationId = body.OrganizationId!.toLowerCase();
    const at = now(deps);
    await deps.store.tx(async (q) => {
      const [org] = await q.query(`SELECT 1 FROM organizations WHERE id = $1 AND NOT deleted`, [organizationId]);
      if (!org) throw notFound();
      // Already a member: the membership and its permissions stay as they are.
      await q.query(
        `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
         VALUES ($1, $2, $3, $4, $4, next_row_version()) ON CONFLICT (organization_id, user_id) DO NOTHING`,
        [organizationId, user.Id, JSON.stringify(grantedPermissions(user, organizationId)), at],
      );
    });
    return c.body(null, 204);
  });
}
