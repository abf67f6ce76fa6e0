// How a resource module declares its routes: an OpenAPIHono app whose every route is a declaration
// of src/protocol/api (path, method, schemas: typed and validated in one place, described in the
// OpenAPI document) with its access guard (sync-server/api/guard.ts) put in front of its
// validators. A route without a guard cannot be written: `guarded` is the only way in.
//
//   request ──guard (401 / 404 / 403)──> query, path, headers, body by their schemas ──> handler
//                                         └─ a field that fails: 400 naming it (a path parameter
//                                            that is not a GUID names no row: 404)
import { OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { formError } from '../../src/domain/form-errors.ts';
import { badRequest, fieldError, notFound, zodFieldErrors } from '../errors.ts';
import { requireSession } from '../auth.ts';
import { activatedToWrite, type Access } from './guard.ts';

/** A resource module's app: failed validation answers as the API answers (not Hono's text). */
export function resourceApp() {
  return new OpenAPIHono({
    defaultHook: (result) => {
      if (result.success) return;
      if (result.target === 'param') throw notFound();
      throw badRequest(zodFieldErrors(result.error, (result as { data?: unknown }).data));
    },
  });
}

/** A route that takes a JSON body gets one: none at all is a 400 naming the body (the route's own
 * validators would take an absent body for an empty object). */
const requireJsonBody: MiddlewareHandler = async (c, next) => {
  if (c.req.raw.body === null) throw badRequest([fieldError('body', formError('required'))]);
  await next();
};

/** A route whose declaration requires a JSON body. */
const takesJson = (route: RouteConfig) => {
  const body = route.request?.body;
  return body !== undefined && body.required === true && 'content' in body && body.content !== undefined && 'application/json' in body.content;
};

/** A route declaration with its guard, ready for `app.openapi(…)`. The guard's description goes
 * into the document as `x-access`. */
export function guarded<R extends RouteConfig>(route: R, access: Access): R & { middleware: MiddlewareHandler[] } {
  // Only a member's calls (requireSession) have an account in an organization to refuse.
  const writes = route.method !== 'get' && route.method !== 'head' && access.unactivatedMayWrite !== true && access.middleware.includes(requireSession);
  const middleware = [...access.middleware, ...(writes ? [activatedToWrite] : []), ...(takesJson(route) ? [requireJsonBody] : [])];
  const responses = access.responses ? { ...route.responses, ...access.responses } : route.responses;
  return { ...route, responses, middleware, 'x-access': writes ? `${access.describe}; an activated account` : access.describe };
}
