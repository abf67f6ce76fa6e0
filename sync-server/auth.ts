// Who is calling, and in which organization (specification section 7, "Users, account and
// session"; section 6 for permissions).
//
//   request ──Authorization: Bearer <key>──> api_keys (hashed) ──> user + the key's organization
//          └─cookie castaway_session──────> sessions (hashed token) ──> user
//                                             └ non-GET: x-xsrf-token must equal the session's token, else 403
//   organization: x-organization-id header (a membership of the user) or the user's first one;
//   a non-member organization is 404, never revealing that it exists.
//
// Route modules use `requireSession` (user + organization), `requireUser` (user only) and
// `getAuth(c)`.
import { clientAddress, requestOverTls } from './client-address.ts';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { PermissionEntry } from '../src/domain/permissions.ts';
import type { User } from '../src/protocol/entities.ts';
import { API_KEY_PREFIX } from '../src/protocol/api/api-keys.ts';
import { AppError, forbidden, unauthorized } from './errors.ts';
import type { Queryable } from './store/store.ts';
import { recordAudit, recordKeyUse } from './audit/record.ts';

export const SESSION_COOKIE = 'castaway_session';
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const XSRF_HEADER = 'x-xsrf-token';
export const ORGANIZATION_HEADER = 'x-organization-id';

export type Auth = {
  user: User;
  organizationId: string;
  permissions: PermissionEntry[];
  via: 'session' | 'apiKey';
};

/** A signed-in caller, with the memberships read in the same statement (requireSession needs them). */
export type SessionUser = ({ user: User; xsrfToken: string; tokenHash: string } | { user: User; apiKeyOrganizationId: string; keyHash: string }) & { memberships: MembershipRow[] };

declare module 'hono' {
  interface ContextVariableMap {
    auth: Auth;
    caller: SessionUser;
  }
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export type UserRow = {
  id: string;
  email: string;
  name: string;
  first_name: string;
  image_url: string | null;
  is_admin: boolean;
  is_admin_or_support: boolean;
  has_reseller_access: boolean;
  interface_language: string;
  activated: boolean;
  password_hash: string;
};

export function userToWire(row: UserRow): User {
  return {
    Id: row.id,
    Name: row.name,
    FirstName: row.first_name,
    Email: row.email,
    ImageUrl: row.image_url,
    IsAdmin: row.is_admin,
    IsAdminOrSupport: row.is_admin_or_support,
    HasResellerAccess: row.has_reseller_access,
    InterfaceLanguage: row.interface_language,
    Activated: row.activated,
  };
}

/** Creates a session for the user; returns the cookie token (only its hash is stored). */
export async function createSession(q: Queryable, userId: string, now: Date): Promise<{ token: string; xsrfToken: string }> {
  const token = newToken();
  const xsrfToken = newToken();
  await q.query(
    `INSERT INTO sessions (token_hash, user_id, xsrf_token, created_at_utc, expires_at_utc) VALUES ($1, $2, $3, $4, $5)`,
    [sha256(token), userId, xsrfToken, now, new Date(now.getTime() + SESSION_TTL_MS)],
  );
  return { token, xsrfToken };
}

/** The session cookie: httpOnly, Lax, Secure over TLS (requestOverTls: also behind a TLS proxy). */
export function setSessionCookie(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'Lax',
    secure: requestOverTls(c),
    maxAge: SESSION_TTL_MS / 1000,
  });
}

/**
 * The caller's privileges changed (OWASP: renew the session id at every privilege level change):
 * the session gets a new id, sent in a new cookie with this answer, and the old id stops working
 * at once (its event streams close; the device reconnects with the new cookie). The XSRF token and
 * the expiry stay: they are the session's, not its id. An API key has no session to rotate.
 */
export async function rotateSession(c: Context): Promise<void> {
  const caller = await loadCaller(c);
  if (!caller || !('tokenHash' in caller)) return;
  const token = newToken();
  const [row] = await c.get('deps').store.query(`UPDATE sessions SET token_hash = $2 WHERE token_hash = $1 RETURNING 1`, [caller.tokenHash, sha256(token)]);
  if (!row) return; // it ended meanwhile (a sign-out in another tab): nothing to renew
  setSessionCookie(c, token);
  announceSessionEnded(caller.tokenHash);
}

/** How finely a session's last use is kept (loadCaller). */
export const SESSION_SEEN_RESOLUTION_MS = 5 * 60_000;

/** How finely an API key's last use is kept (loadCaller). */
export const API_KEY_USE_RESOLUTION_MS = 60_000;

/** Makes an API key for a member of an organization; the plain key is returned once, only its hash is kept. */
export async function createApiKey(
  q: Queryable,
  input: { organizationId: string; userId: string; name: string; now: Date },
): Promise<{ id: string; key: string }> {
  const key = API_KEY_PREFIX + newToken();
  const id = randomUUID();
  await q.query(
    `INSERT INTO api_keys (id, organization_id, user_id, name, key_hash, created_at_utc) VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, input.organizationId, input.userId, input.name, sha256(key), input.now],
  );
  await recordAudit(q, { organizationId: input.organizationId, eventType: 'Created', objectType: 'ApiKey', objectId: id, userId: input.userId, at: input.now });
  return { id, key };
}

/** Revokes every live API key of the user (a password changed or reset: whoever had the old
 * password may have made keys with it). Returns how many. */
export async function revokeApiKeysOf(q: Queryable, userId: string, at: Date): Promise<number> {
  const rows = await q.query(`UPDATE api_keys SET revoked = true, revoked_at_utc = $2 WHERE user_id = $1 AND NOT revoked RETURNING 1`, [userId, at]);
  return rows.length;
}

/** The caller of this request, or null (no or unknown credentials). Cached on the context. */
export async function loadCaller(c: Context): Promise<SessionUser | null> {
  const cached = c.get('caller');
  if (cached) return cached;
  const { store, clock } = c.get('deps');
  const now = clock ? clock() : new Date();
  const authorization = c.req.header('authorization');
  let caller: SessionUser | null = null;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(authorization.trim());
    if (!match?.[1]) throw unauthorized();
    const rows = await store.query<UserRow & { key_id: string; key_org: string; last_used_at_utc: Date | null; memberships: MembershipRow[] }>(
      `SELECT u.*, k.id AS key_id, k.organization_id AS key_org, k.last_used_at_utc, ${MEMBERSHIPS_OF('u.id')} AS memberships FROM api_keys k JOIN users u ON u.id = k.user_id
       WHERE k.key_hash = $1 AND NOT k.revoked AND NOT u.deleted`,
      [sha256(match[1])],
      { name: 'caller_by_api_key' },
    );
    const row = rows[0];
    if (!row) throw unauthorized();
    // Last used, to the minute: a key in steady use writes once a minute, not at every call.
    if (row.last_used_at_utc === null || now.getTime() - new Date(row.last_used_at_utc).getTime() >= API_KEY_USE_RESOLUTION_MS) {
      await store.query(`UPDATE api_keys SET last_used_at_utc = $2 WHERE id = $1`, [row.key_id, now]);
      await recordKeyUse(store, { id: row.key_id, organizationId: row.key_org, userId: row.id, lastUsedAt: row.last_used_at_utc === null ? null : new Date(row.last_used_at_utc) }, now);
    }
    caller = { user: userToWire(row), apiKeyOrganizationId: row.key_org, keyHash: sha256(match[1]), memberships: row.memberships };
  } else {
    const token = getCookie(c, SESSION_COOKIE);
    if (!token) return null;
    const rows = await store.query<UserRow & { xsrf_token: string; session_seen_at: Date | null; memberships: MembershipRow[] }>(
      `SELECT u.*, s.xsrf_token, s.last_seen_at_utc AS session_seen_at, ${MEMBERSHIPS_OF('u.id')} AS memberships FROM sessions s JOIN users u ON u.id = s.user_id
       WHERE s.token_hash = $1 AND s.expires_at_utc > $2 AND NOT u.deleted`,
      [sha256(token), now],
      // Every request of a signed-in user runs it: planned once per connection, not per request.
      { name: 'caller_by_session' },
    );
    const row = rows[0];
    if (!row) return null;
    // Last seen, to 5 minutes, with the browser and address of that use (the sessions list).
    if (row.session_seen_at === null || now.getTime() - new Date(row.session_seen_at).getTime() >= SESSION_SEEN_RESOLUTION_MS) {
      await store.query(`UPDATE sessions SET last_seen_at_utc = $2, user_agent = $3, client_address = $4 WHERE token_hash = $1`, [
        sha256(token),
        now,
        c.req.header('user-agent')?.slice(0, 500) ?? null,
        clientAddress(c) || null,
      ]);
    }
    caller = { user: userToWire(row), xsrfToken: row.xsrf_token, tokenHash: sha256(token), memberships: row.memberships };
  }
  c.set('caller', caller);
  return caller;
}

/**
 * Whether the credentials a long-lived answer (the SSE stream) was opened with still stand: the
 * session neither ended nor expired, the API key not revoked, the user not deleted. A request is
 * checked once when it arrives; a stream lives for hours and asks again (sync-server/api/sync.ts).
 */
/**
 * Whether callers' sessions or API keys still hold (not signed out, expired, revoked, or their user
 * deleted): the event streams ask before they send (api/sync.ts). The checks asked for in the same
 * turn of the event loop go to the database together, one query per kind, and one caller asked
 * about by several streams is looked up once: a write poking 1,000 streams whose last look was
 * over 5 s ago made 1,000 queries at once, and the last stream's poke waited for all of them.
 */
export function callerChecks(q: Queryable, clock: () => Date): (caller: SessionUser) => Promise<boolean> {
  type Pending = Map<string, { resolve: (ok: boolean) => void; reject: (e: unknown) => void; promise: Promise<boolean> }>;
  let sessions: Pending = new Map();
  let keys: Pending = new Map();
  let scheduled = false;

  async function flush(): Promise<void> {
    scheduled = false;
    const [s, k] = [sessions, keys];
    sessions = new Map();
    keys = new Map();
    await Promise.all([
      answer(s, () => q.query<{ hash: string }>(
        `SELECT s.token_hash AS hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = ANY($1::text[]) AND s.expires_at_utc > $2 AND NOT u.deleted`,
        [[...s.keys()], clock()],
      )),
      answer(k, () => q.query<{ hash: string }>(
        `SELECT k.key_hash AS hash FROM api_keys k JOIN users u ON u.id = k.user_id WHERE k.key_hash = ANY($1::text[]) AND NOT k.revoked AND NOT u.deleted`,
        [[...k.keys()]],
      )),
    ]);
  }

  async function answer(pending: Pending, lookUp: () => Promise<Array<{ hash: string }>>): Promise<void> {
    if (pending.size === 0) return;
    try {
      const valid = new Set((await lookUp()).map((r) => r.hash));
      for (const [hash, p] of pending) p.resolve(valid.has(hash));
    } catch (e) {
      for (const p of pending.values()) p.reject(e);
    }
  }

  return (caller) => {
    const [pending, hash] = 'tokenHash' in caller ? [sessions, caller.tokenHash] : [keys, caller.keyHash];
    let entry = pending.get(hash);
    if (!entry) {
      let resolve!: (ok: boolean) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<boolean>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      entry = { resolve, reject, promise };
      pending.set(hash, entry);
    }
    if (!scheduled) {
      scheduled = true;
      setImmediate(() => void flush());
    }
    return entry.promise;
  };
}

/** Sessions ended by a sign-out on this instance, told at once to the streams it serves (other
 * instances' streams learn it at their next check, callerChecks). */
const sessionEndListeners = new Set<(tokenHash: string) => void>();
export function onSessionEnded(fn: (tokenHash: string) => void): () => void {
  sessionEndListeners.add(fn);
  return () => sessionEndListeners.delete(fn);
}
export function announceSessionEnded(tokenHash: string): void {
  for (const fn of [...sessionEndListeners]) fn(tokenHash);
}

function isSafeMethod(method: string): boolean {
  return method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
}

/** Every non-GET call of a cookie session must carry the session's XSRF token (403 otherwise). */
export function checkXsrf(c: Context, caller: SessionUser): void {
  if (isSafeMethod(c.req.method) || !('xsrfToken' in caller)) return;
  if (c.req.header(XSRF_HEADER) !== caller.xsrfToken) throw forbidden();
}

/** A signed-in user (session or API key), XSRF-checked; no organization needed. 401 otherwise. */
export const requireUser: MiddlewareHandler = async (c, next) => {
  const caller = await loadCaller(c);
  if (!caller) throw unauthorized();
  checkXsrf(c, caller);
  await next();
};

export type MembershipRow = { organization_id: string; permissions: PermissionEntry[] };

/** The memberships of the user `userId` (an SQL expression) in live organizations, by
 * organization name, as one JSON value: a column of the caller's own query, not a query more. */
const MEMBERSHIPS_OF = (userId: string) => `(SELECT coalesce(json_agg(json_build_object('organization_id', m.organization_id, 'permissions', m.permissions) ORDER BY o.name, o.id), '[]'::json)
  FROM memberships m JOIN organizations o ON o.id = m.organization_id WHERE m.user_id = ${userId} AND NOT o.deleted)`;

/** The user's memberships of live organizations, by organization name. */
export async function membershipsOf(q: Queryable, userId: string): Promise<MembershipRow[]> {
  const [row] = await q.query<{ memberships: MembershipRow[] }>(`SELECT ${MEMBERSHIPS_OF('$1::uuid')} AS memberships`, [userId]);
  return row?.memberships ?? [];
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * A signed-in user acting in one organization: the x-organization-id header (or, without it, the
 * user's first organization; an API key's own organization). Not a member → 404 (no body).
 */
export const requireSession: MiddlewareHandler = async (c, next) => {
  const caller = await loadCaller(c);
  if (!caller) throw unauthorized();
  checkXsrf(c, caller);
  const header = c.req.header(ORGANIZATION_HEADER)?.trim();
  if (header !== undefined && header !== '' && !GUID.test(header)) throw new AppError(404);
  const { memberships } = caller;
  let wanted = header ? header.toLowerCase() : undefined;
  if ('apiKeyOrganizationId' in caller) {
    if (wanted !== undefined && wanted !== caller.apiKeyOrganizationId) throw new AppError(404);
    wanted = caller.apiKeyOrganizationId;
  }
  const membership = wanted === undefined ? memberships[0] : memberships.find((m) => m.organization_id === wanted);
  if (!membership) throw new AppError(404);
  c.set('auth', {
    user: caller.user,
    organizationId: membership.organization_id,
    permissions: membership.permissions,
    via: 'apiKeyOrganizationId' in caller ? 'apiKey' : 'session',
  });
  await next();
};

/** The caller of a route behind requireSession. */
export function getAuth(c: Context): Auth {
  const auth = c.get('auth');
  if (!auth) throw new Error('getAuth used on a route without requireSession');
  return auth;
}
