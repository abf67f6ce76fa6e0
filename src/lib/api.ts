// The client side of the REST API (spec section 7 and the result mapping of section 8):
//   400 → { kind: 'badRequest', body }   (the Errors body of src/protocol/errors.ts)
//   404 → { kind: 'notFound' }           (no body)
//   415, 451 → { kind: 'status', status, body }  (these two carry a body)
//   other non-2xx → { kind: 'status', status }
//   network or thrown error → { kind: 'error', error }
// Writes first GET /internal/session/xsrf and send the token in x-xsrf-token (cached 24 hours).

import type { BadRequestBody } from '../protocol/errors.ts';

export type ApiResult<T> =
  | { kind: 'ok'; status: number; data: T; etag: string | null }
  | { kind: 'badRequest'; status: 400; body: BadRequestBody }
  | { kind: 'notFound'; status: 404 }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'error'; error: unknown };

const XSRF_TTL_MS = 24 * 60 * 60 * 1000;
let xsrf: { token: string; at: number } | null = null;
let organizationId: string | null = null;

/** The organization every call is made for (sent as x-organization-id). */
export function setApiOrganization(id: string | null): void {
  organizationId = id;
}

export function setXsrfToken(token: string | null): void {
  xsrf = token ? { token, at: Date.now() } : null;
}

async function xsrfToken(): Promise<string> {
  if (xsrf && Date.now() - xsrf.at < XSRF_TTL_MS) return xsrf.token;
  const res = await fetch('/api/internal/session/xsrf', { credentials: 'same-origin' });
  if (!res.ok) throw new Error(`xsrf ${res.status}`);
  const body = (await res.json()) as { XsrfToken?: string };
  if (!body.XsrfToken) throw new Error('xsrf token missing');
  setXsrfToken(body.XsrfToken);
  return body.XsrfToken;
}

export type ApiOptions = { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal; /** false for calls made before a session exists (login). */ xsrf?: boolean };

export async function api<T = unknown>(method: string, path: string, options: ApiOptions = {}): Promise<ApiResult<T>> {
  try {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    if (organizationId) headers['x-organization-id'] = organizationId;
    if (method !== 'GET' && method !== 'HEAD' && options.xsrf !== false) headers['x-xsrf-token'] = await xsrfToken();
    const init: RequestInit = { method, headers, credentials: 'same-origin' };
    if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(options.body);
    }
    if (options.signal) init.signal = options.signal;
    const res = await fetch(`/api${path}`, init);
    if (res.status === 403 && method !== 'GET' && xsrf) setXsrfToken(null);
    if (res.ok) {
      const text = await res.text();
      return { kind: 'ok', status: res.status, data: (text ? JSON.parse(text) : null) as T, etag: res.headers.get('etag') };
    }
    if (res.status === 400) return { kind: 'badRequest', status: 400, body: (await res.json()) as BadRequestBody };
    if (res.status === 404) return { kind: 'notFound', status: 404 };
    if (res.status === 415 || res.status === 451) {
      const text = await res.text();
      return { kind: 'status', status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
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
