// Users, account and session (specification section 7): login, session, XSRF, logout, the
// user's organizations, and the contact enquiry of the PWA's contact dialog.
//
//   loggedOut ──POST login (200)──> activated | unactivated ──POST logout / POST /logout──> loggedOut
//             └─two-factor sign-in on: 400 at MfaCode (mfaRequired) until the call carries MfaCode
//               or RecoveryCode (accounts/mfa.ts); a wrong one 400 at its field
//   failed logins per e-mail: LOGIN_MAX_FAILURES within LOGIN_WINDOW_MS → 429 until the window ends;
//   per client address: LOGIN_MAX_FAILURES_PER_CLIENT, whatever the accounts
//
// Sign-in, the session's state and sign-out are open to anyone (guard.public): they answer for a
// caller with no session too. Sign-out checks the XSRF token itself, when there is a session.
import { recordSignIn } from '../audit/record.ts';
import type { Context } from 'hono';
import { deleteCookie, getCookie } from 'hono/cookie';
import { validateEmail, validateRequired } from '../../src/domain/validators.ts';
import { validatePasswordMaxLength } from '../../src/domain/password.ts';
import { truncateText, validateContactForm } from '../../src/domain/contact.ts';
import { CONTACT_ADDITIONAL_INFO_MAX, CONTACT_BROWSER_LOCALE_MAX } from '../../src/domain/constants.ts';
import { sameOriginPath } from '../../src/domain/redirect.ts';
import type { PermissionEntry } from '../../src/domain/permissions.ts';
import type { Organization, Session } from '../../src/protocol/entities.ts';
import * as routes from '../../src/protocol/api/session.ts';
import { SESSION_COOKIE, setSessionCookie, announceSessionEnded, sha256, createSession, getAuth, loadCaller, membershipsOf, checkXsrf, userToWire, type SessionUser, type UserRow } from '../auth.ts';
import { AppError, assertValid, badRequest, fieldError, notFound, unauthorized } from '../errors.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { validateMfaCode, validateRecoveryCode } from '../../src/domain/mfa.ts';
import { ServerErrorCode } from '../../src/protocol/errors.ts';
import { mfaEnabled, takeSecondFactor } from '../accounts/mfa.ts';
import { hashPassword, needsRehash, verifyPassword } from '../passwords.ts';
import { selectFrom, toWire, type DbRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { now } from '../app.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, readsOnly } from './guard.ts';
import { clientAddress } from '../client-address.ts';
import { mailOrigin } from '../public-origin.ts';
import { recordEnquiry } from '../support/inbox.ts';
import { organizationFeatures } from '../billing/entitlements.ts';

export const LOGIN_MAX_FAILURES = 5;
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failed sign-ins one client address may make in a window, whatever accounts it names: each costs
 * a scrypt verification, and 200 from one client slowed another user's reads from 21 ms to 16 s. */
export const LOGIN_MAX_FAILURES_PER_CLIENT = 30;

/**
 * Counts an attempt against `key` (an account's e-mail, or a client address) before the password
 * is checked, in one statement: parallel guesses that each read the count first all saw it below
 * the limit (40 at once at one account got 11 checked where 5 are allowed). A window starts at the
 * first attempt and lasts LOGIN_WINDOW_MS. Returns the seconds to wait when this attempt is over
 * `max`, null when it may go on.
 */
async function reserveAttempt(q: Queryable, key: string, at: Date, max: number): Promise<number | null> {
  const [row] = await q.query<{ failures: number; window_start_utc: Date }>(
    `INSERT INTO login_failures (key, failures, window_start_utc) VALUES ($1, 1, $2)
     ON CONFLICT (key) DO UPDATE SET
       failures = CASE WHEN login_failures.window_start_utc > $2::timestamptz - make_interval(secs => $3) THEN login_failures.failures + 1 ELSE 1 END,
       window_start_utc = CASE WHEN login_failures.window_start_utc > $2::timestamptz - make_interval(secs => $3) THEN login_failures.window_start_utc ELSE $2 END
     RETURNING failures, window_start_utc`,
    [key, at, LOGIN_WINDOW_MS / 1000],
  );
  if (row!.failures <= max) return null;
  return Math.max(1, Math.ceil((new Date(row!.window_start_utc).getTime() + LOGIN_WINDOW_MS - at.getTime()) / 1000));
}

let dummy: Promise<string> | null = null;
function dummyHash(): Promise<string> {
  dummy ??= hashPassword('castaway-no-such-user');
  return dummy;
}

function sessionType(user: { Activated: boolean } | null): Session['Type'] {
  if (!user) return 'loggedOut';
  return user.Activated ? 'activated' : 'unactivated';
}

async function organizationsOf(q: Queryable, userId: string): Promise<Organization[]> {
  const rows = await q.query<DbRow & { permissions: PermissionEntry[] }>(
    `${selectFrom('organization', 'o')} JOIN memberships m ON m.organization_id = o.id AND m.user_id = $1
     WHERE NOT o.deleted ORDER BY o.name, o.id`.replace('SELECT o.*', 'SELECT o.*, m.permissions'),
    [userId],
  );
  // Each with its plan's features, so the menus and screens say what the plan leaves out (section 6).
  return Promise.all(rows.map(async (row) => ({ ...organizationToWire(row, row.permissions), Features: await organizationFeatures(q, row.id) })));
}

export function organizationToWire(row: DbRow, permissions: PermissionEntry[]): Organization {
  const wire = toWire('organization', row);
  return {
    ...(wire as unknown as Organization),
    IsBroadcaster: wire.Provider === 'Broadcaster',
    UserPermissions: permissions,
  };
}

/** The second factor of a sign-in (accounts/mfa.ts), checked and used up; refusals at its field. */
async function secondFactor(q: Queryable, userId: string, body: { MfaCode?: string | undefined; RecoveryCode?: string | undefined }, at: Date): Promise<void> {
  if (body.MfaCode === undefined && body.RecoveryCode === undefined) {
    throw badRequest([fieldError('MfaCode', formError('required', 'domain_mfa_code_required', undefined, ServerErrorCode.MfaRequired))]);
  }
  if (body.RecoveryCode !== undefined) {
    assertValid([['RecoveryCode', validateRecoveryCode(body.RecoveryCode)]]);
    await takeSecondFactor(q, userId, { field: 'RecoveryCode', kind: 'recovery', value: body.RecoveryCode }, at);
  } else {
    assertValid([['MfaCode', validateMfaCode(body.MfaCode)]]);
    await takeSecondFactor(q, userId, { field: 'MfaCode', kind: 'code', value: body.MfaCode ?? '' }, at);
  }
}

/** Signs the caller out (XSRF-checked when they are signed in); the cookie goes either way. */
async function endSession(c: Context): Promise<void> {
  const caller = await loadCaller(c);
  if (caller) checkXsrf(c, caller);
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
  const tokenHash = caller && 'tokenHash' in caller ? caller.tokenHash : undefined;
  if (tokenHash) {
    await c.get('deps').store.query(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash]);
    announceSessionEnded(tokenHash);
  }
}

/** The caller of a route behind guard.user(). */
async function signedIn(c: Context): Promise<SessionUser> {
  const caller = await loadCaller(c);
  if (!caller) throw unauthorized();
  return caller;
}

export function sessionRoutes() {
  return resourceApp()
    .openapi(guarded(routes.login, guard.public()), async (c) => {
      const deps = c.get('deps');
      const body = c.req.valid('json');
      assertValid([
        ['Email', validateEmail(body.Email, { required: true })],
        ['Password', validateRequired(body.Password, 'domain_password_required') ?? validatePasswordMaxLength(body.Password)],
      ]);
      const at = now(deps);
      const key = body.Email.trim().toLowerCase();
      // Counted before the password is checked, the client first: a client over its limit spends
      // no attempt of the account it names.
      const client = clientAddress(c);
      const clientKey = client ? `client:${client}` : null;
      const waitSeconds =
        (clientKey ? await reserveAttempt(deps.store, clientKey, at, LOGIN_MAX_FAILURES_PER_CLIENT) : null) ??
        (await reserveAttempt(deps.store, key, at, LOGIN_MAX_FAILURES));
      if (waitSeconds !== null) throw new AppError(429, undefined, { 'Retry-After': String(waitSeconds) });
      const [user] = await deps.store.query<UserRow>(`SELECT * FROM users WHERE lower(email) = $1 AND NOT deleted`, [key]);
      // An unknown address costs the same scrypt work as a known one: timing tells nothing.
      const ok = await verifyPassword(body.Password, user?.password_hash ?? (await dummyHash()));
      if (!user || !ok) throw unauthorized();
      // Two-factor sign-in: the password was right; the code (or a recovery code) comes in the
      // same call. Without one: 400 at MfaCode (mfaRequired), and the attempt stays counted as
      // the account's, as a wrong code does, until a sign-in succeeds.
      if (await mfaEnabled(deps.store, user.id)) await secondFactor(deps.store, user.id, body, at);
      // A hash made at an older cost is made again now that the password is known (before the
      // transaction: scrypt takes a while, and nothing needs to wait for it).
      const rehashed = needsRehash(user.password_hash) ? await hashPassword(body.Password) : null;
      const previous = getCookie(c, SESSION_COOKIE);
      // One transaction: a sign-in that fails half-way (the database gone) changes nothing.
      const { token } = await deps.store.tx(async (q) => {
        // A sign-in that succeeds: the account's count starts again, and the client's attempt was
        // not a failure (an office behind one address signs in all day).
        await q.query(`DELETE FROM login_failures WHERE key = $1`, [key]);
        if (rehashed) await q.query(`UPDATE users SET password_hash = $2 WHERE id = $1`, [user.id, rehashed]);
        if (clientKey) await q.query(`UPDATE login_failures SET failures = failures - 1 WHERE key = $1 AND failures > 0`, [clientKey]);
        // A new session on every sign-in, and the one this browser held ends: a session id planted
        // in the browser before sign-in (fixation) never becomes a signed-in one.
        if (previous) await q.query(`DELETE FROM sessions WHERE token_hash = $1`, [sha256(previous)]);
        await recordSignIn(q, user.id, at);
        return createSession(q, user.id, at);
      });
      // Its streams close once the session's end is committed.
      if (previous) announceSessionEnded(sha256(previous));
      setSessionCookie(c, token);
      const wire = userToWire(user);
      const memberships = await membershipsOf(deps.store, user.id);
      return c.json({ Type: sessionType(wire), User: wire, UserBelongsToMultipleOrganizations: memberships.length > 1 } satisfies Session, 200);
    })
    .openapi(guarded(routes.getSession, guard.public()), async (c) => {
      const caller = await loadCaller(c);
      const session: Session = caller
        ? { Type: sessionType(caller.user), User: caller.user, UserBelongsToMultipleOrganizations: caller.memberships.length > 1 }
        : { Type: 'loggedOut', User: null, UserBelongsToMultipleOrganizations: false };
      return c.json(session, 200);
    })
    .openapi(guarded(routes.getXsrf, guard.user()), async (c) => {
      const caller = await signedIn(c);
      if (!('xsrfToken' in caller)) throw unauthorized();
      return c.json({ XsrfToken: caller.xsrfToken }, 200);
    })
    .openapi(guarded(routes.logout, guard.public()), async (c) => {
      await endSession(c);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.logoutAndRedirect, guard.public()), async (c) => {
      await endSession(c);
      // Only same-site paths (the domain's one rule, as the PWA applies it): an open redirect
      // would let a link send users anywhere ('/\\evil.example' is '//evil.example' to a browser).
      const redirect = sameOriginPath(c.req.valid('query').redirectUrl, new URL(c.req.url).origin);
      if (redirect) return c.redirect(redirect, 302);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.updateMe, guard.user()), async (c) => {
      const deps = c.get('deps');
      const { user } = await signedIn(c);
      const body = c.req.valid('json');
      const [row] = await deps.store.query<UserRow & { version: number }>(
        `UPDATE users SET name = COALESCE($2, name), first_name = COALESCE($3, first_name),
           interface_language = COALESCE($4, interface_language), modified_at_utc = $5, version = next_row_version()
         WHERE id = $1 RETURNING *`,
        [user.Id, body.Name?.trim() ?? null, body.FirstName?.trim() ?? null, body.InterfaceLanguage ?? null, now(deps)],
      );
      for (const m of await membershipsOf(deps.store, user.Id)) deps.bus.publish({ organizationId: m.organization_id, version: row!.version });
      return c.json(userToWire(row!), 200);
    })
    .openapi(guarded(routes.listMyOrganizations, guard.user()), async (c) => {
      const { user } = await signedIn(c);
      return c.json(await organizationsOf(c.get('deps').store, user.Id), 200);
    })
    // Before /{organizationId}: 'permissions' is not an organization.
    .openapi(guarded(routes.getMyPermissions, guard.member()), (c) => {
      // The caller's permission entries in the organization of this request (x-organization-id).
      const auth = getAuth(c);
      return c.json({ OrganizationId: auth.organizationId, Permissions: auth.permissions }, 200);
    })
    .openapi(guarded(routes.getMyOrganization, guard.user()), async (c) => {
      const { user } = await signedIn(c);
      const { organizationId } = c.req.valid('param');
      const org = (await organizationsOf(c.get('deps').store, user.Id)).find((o) => o.Id === organizationId);
      if (!org) throw notFound();
      return c.json(org, 200);
    })
    // An unactivated account must be able to ask for help, as much as anyone.
    .openapi(guarded(routes.sendSupportEnquiry, readsOnly(guard.member())), async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      const body = c.req.valid('json');
      const errors = validateContactForm(body);
      assertValid((['ContactName', 'ContactEmail', 'ContactEnquiry'] as const).map((f) => [f, errors[f]]));
      // Section 5: AdditionalInfo is truncated to 2048 characters and BrowserLocale to 255, never
      // inside a character (the device cuts the same way before sending).
      const cut = (value: string | null | undefined, max: number) => (typeof value === 'string' ? truncateText(value, max) : null);
      const enquiry = {
        ...body,
        AdditionalInfo: cut(body.AdditionalInfo, CONTACT_ADDITIONAL_INFO_MAX),
        BrowserLocale: cut(body.BrowserLocale, CONTACT_BROWSER_LOCALE_MAX),
      };
      // Kept for the support inbox, and mailed to the support address when one is set.
      await recordEnquiry(deps, { userId: auth.user.Id, organizationId: auth.organizationId, enquiry, origin: mailOrigin(c) });
      return c.body(null, 204);
    });
}
