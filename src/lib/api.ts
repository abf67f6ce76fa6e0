// The client side of the REST API: typed calls derived from the route declarations of
// src/protocol/api (the same data the server implements and the OpenAPI document describes), and
// the result mapping of section 8:
//   2xx → { kind: 'ok', data }           (the declared JSON answer; null when there is none)
//   400 → { kind: 'badRequest', body }   (the Errors body of src/protocol/errors.ts)
//   404 → { kind: 'notFound' }           (no body)
//   403 with a body, 409, 412, 415, 451 → { kind: 'status', status, body }
//   other non-2xx → { kind: 'status', status }
//   network or thrown error → { kind: 'error', error }
// Writes first GET /internal/session/xsrf and send the token in x-xsrf-token (cached 24 hours).
//
//   call(routes.getClipCut, { params: { clipId } })        GET /api/internal/clips/{clipId}/cut
//   call(routes.login, { json: { Email, Password }, xsrf: false })
//
// The input's types are the declaration's request schemas as a caller writes them (z.input), the
// answer's the 2xx JSON schema as the server sends it (z.output). Answers are not parsed again
// here: the server answered from the same declaration (a caller that wants a check runs its own).

import type * as z from 'zod';
import type { BadRequestBody } from '../protocol/errors.ts';
import { getXsrf } from './shell-routes.ts';

export type ApiResult<T> =
  | { kind: 'ok'; status: number; data: T; etag: string | null }
  | { kind: 'badRequest'; status: 400; body: BadRequestBody }
  | { kind: 'notFound'; status: 404 }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'error'; error: unknown };

type JsonContent<S extends z.ZodType = z.ZodType> = { 'application/json': { schema: S } };

/** What the client reads of a route declaration (src/protocol/api: `… as const satisfies RouteConfig`). */
export type ApiRoute = {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options' | 'trace';
  path: string;
  request?: { params?: z.ZodType; query?: z.ZodType; headers?: z.ZodType; body?: { content: object } };
  responses: object;
};

type RequestOf<R> = R extends { request: infer Q } ? Q : object;
type ParamsOf<R> = RequestOf<R> extends { params: infer S extends z.ZodType } ? z.input<S> : never;
type QueryOf<R> = RequestOf<R> extends { query: infer S extends z.ZodType } ? z.input<S> : never;
type JsonOf<R> = RequestOf<R> extends { body: { content: JsonContent<infer S> } } ? z.input<S> : never;
type Has<T> = [T] extends [never] ? false : true;

export type CallOptions = {
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** false for calls made before a session exists (login). */
  xsrf?: boolean;
};

/** The input of a call of R: its path parameters, query and JSON body, as declared. */
export type CallInput<R extends ApiRoute> = (Has<ParamsOf<R>> extends true ? { params: ParamsOf<R> } : unknown) &
  (Has<QueryOf<R>> extends true ? { query?: QueryOf<R> } : unknown) &
  (Has<JsonOf<R>> extends true ? { json: JsonOf<R> } : unknown) &
  CallOptions;

type SuccessStatus = 200 | 201 | 202 | 203 | 204 | 205 | 206;
type AnswerOf<A> = A extends { content: JsonContent<infer S> } ? z.output<S> : null;

/** The data of a successful call of R: its 2xx JSON answer (null for an answer with no body). */
export type CallData<R extends ApiRoute> = {
  [K in keyof R['responses']]: K extends SuccessStatus | `${SuccessStatus}` ? AnswerOf<R['responses'][K]> : never;
}[keyof R['responses']];

/** A call whose input has required parts (path parameters, a body) takes it; others may omit it. */
type CallArgs<R extends ApiRoute> = object extends CallInput<R> ? [input?: CallInput<R>] : [input: CallInput<R>];

/** The URL of a call: /api and the declared path, its {parameters} filled in, the query encoded
 * (absent values left out; an array repeats its parameter). */
export function routeUrl(route: Pick<ApiRoute, 'path'>, input: { params?: object; query?: object } = {}): string {
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = route.path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined || value === null) throw new Error(`${route.path}: no value for {${name}}`);
    return encodeURIComponent(String(value));
  });
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? (value as unknown[]) : [value]) query.append(name, String(v));
  }
  const search = query.toString();
  return `/api${path}${search ? `?${search}` : ''}`;
}

const XSRF_TTL_MS = 24 * 60 * 60 * 1000;
let xsrf: { token: string; at: number } | null = null;
let organizationId: string | null = null;

/** The organization every call is made for (sent as x-organization-id). */
export function setApiOrganization(id: string | null): void {
  organizationId = id;
}

/** The headers every call carries for its organization, for a request made without call() (a stream read as it arrives). */
export function organizationHeaders(): Record<string, string> {
  return organizationId ? { 'x-organization-id': organizationId } : {};
}

export function setXsrfToken(token: string | null): void {
  xsrf = token ? { token, at: Date.now() } : null;
}

/** The session's XSRF token (fetched once a day), for requests made without `call` (file bodies). */
export async function xsrfToken(): Promise<string> {
  if (xsrf && Date.now() - xsrf.at < XSRF_TTL_MS) return xsrf.token;
  const res = await fetch(routeUrl(getXsrf), { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`xsrf ${res.status}`);
  const body = (await res.json()) as { XsrfToken?: string };
  if (!body.XsrfToken) throw new Error('xsrf token missing');
  setXsrfToken(body.XsrfToken);
  return body.XsrfToken;
}

/** Told of every 403 the server explains (a body: a plan's refusal, an account not activated…),
 * with the organization the call was made for. The session listens for the plan's refusals
 * (session.ts: notePlanLacks), so whichever screen asked, every screen then says the plan lacks the
 * feature, offline too. The body is read there: this module is on the first screens' path, which
 * loads no schemas (tests/lint/first-screens.test.ts). */
let explained403: ((organizationId: string, body: unknown) => void) | null = null;
export function onExplained403(listener: (organizationId: string, body: unknown) => void): void {
  explained403 = listener;
}

/** Calls the route R declares, with its typed input; answers as the header says. */
export async function call<R extends ApiRoute>(route: R, ...[input]: CallArgs<R>): Promise<ApiResult<CallData<R>>> {
  const options = (input ?? {}) as CallOptions & { params?: object; query?: object; json?: unknown };
  const method = route.method.toUpperCase();
  try {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (organizationId) headers['x-organization-id'] = organizationId;
    if (method !== 'GET' && method !== 'HEAD' && options.xsrf !== false) headers['x-xsrf-token'] = await xsrfToken();
    const init: RequestInit = { method, headers, credentials: 'same-origin' };
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.json);
    }
    if (options.signal) init.signal = options.signal;
    const res = await fetch(routeUrl(route, options), init);
    if (res.ok) {
      const text = await res.text();
      return { kind: 'ok', status: res.status, data: (text ? JSON.parse(text) : null) as CallData<R>, etag: res.headers.get('etag') };
    }
    if (res.status === 400) return { kind: 'badRequest', status: 400, body: (await res.json()) as BadRequestBody };
    if (res.status === 404) return { kind: 'notFound', status: 404 };
    // Answers whose body says more: 403 (when it says: the plan's refusal, an unactivated account),
    // 409 (what is in the way, when it says), 412 (the row as it now is), 415, 451.
    if (res.status === 403 || res.status === 409 || res.status === 412 || res.status === 415 || res.status === 451) {
      const text = await res.text();
      // A bare 403 to a write is how a stale XSRF token is refused (sync-server/auth.ts checkXsrf):
      // the next write fetches a new one. An explained 403 says something else and keeps it.
      if (res.status === 403 && !text) {
        if (method !== 'GET' && xsrf) setXsrfToken(null);
        return { kind: 'status', status: 403 };
      }
      const body = text ? (JSON.parse(text) as unknown) : null;
      const refusedFor = headers['x-organization-id'];
      if (res.status === 403 && refusedFor) explained403?.(refusedFor, body);
      return { kind: 'status', status: res.status, body };
    }
    return { kind: 'status', status: res.status };
  } catch (error) {
    return { kind: 'error', error };
  }
}

/** An error carrying an HTTP status, shown by the full-page error screen. */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message = `HTTP ${status}`,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}
