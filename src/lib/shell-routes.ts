// The calls the app's shell makes on its first screens (sign in, the session, the XSRF token, my
// organizations, my language, sign out, confirm my address, grant access, the names of conflict
// authors) as call() uses them: their method and path, typed as their declarations.
//
// Why not the declarations themselves: src/protocol/api/*.ts build zod schemas, and importing one
// put zod and every entity schema (26.6 KB gzip of the login screen's 156.7 KB; 25 KB of the
// signed-in home) on screens that parse nothing: call() reads a route's method and path, and
// answers are not parsed on the client (src/lib/api.ts). The compiler holds each path and method
// to its declaration (both are literal types there), so they cannot drift; the schemas load with
// the first screen that needs them.
import type * as account from '../protocol/api/account.ts';
import type * as admin from '../protocol/api/admin.ts';
import type * as declared from '../protocol/api/session.ts';
import type * as users from '../protocol/api/users.ts';
import type { ApiRoute } from './api.ts';

/** A route as call() reads it: the declaration's type, with only its method and path at run time. */
function light<R extends ApiRoute>(method: R['method'], path: R['path']): R {
  return { method, path, responses: {} } as R;
}

export const login = light<typeof declared.login>('post', '/internal/session/login');
export const getSession = light<typeof declared.getSession>('get', '/internal/session');
export const getXsrf = light<typeof declared.getXsrf>('get', '/internal/session/xsrf');
export const listMyOrganizations = light<typeof declared.listMyOrganizations>('get', '/internal/users/me/organizations');
export const updateMe = light<typeof declared.updateMe>('patch', '/internal/users/me');
export const logout = light<typeof declared.logout>('post', '/internal/session/logout');
export const requestEmailActivation = light<typeof account.requestEmailActivation>('post', '/internal/users/me/email/activation');
export const grantOrganizationAccess = light<typeof admin.grantOrganizationAccess>('post', '/admin/users/me/organizations');
export const listUserProfiles = light<typeof users.listUserProfiles>('get', '/v1/user-profiles');
