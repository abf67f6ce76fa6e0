// Users, account and session (specification section 7): login, session, XSRF, logout, the
// user's organizations, and the contact enquiry of the PWA's contact dialog.
//
//   loggedOut ──POST login (200)──> activated | unactivated ──POST logout / POST /logout──> loggedOut
//   failed logins per e-mail: LOGIN_MAX_FAILURES within LOGIN_WINDOW_MS → 429 until the window ends
import { randomUUID } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { deleteCookie, setCookie } from 'hono/cookie';
import { validateEmail, validateRequired } from '../../src/domain/validators.ts';
import { validateContactForm } from '../../src/domain/contact.ts';
import { CONTACT_ADDITIONAL_INFO_MAX, CONTACT_BROWSER_LOCALE_MAX } from '../../src/domain/constants.ts';
import { ContactEnquirySchema, LoginRequestSchema, UserPatchSchema, type Organization, type Session } from '../../src/protocol/entities.ts';
import { INTERFACE_LOCALES as locales } from '../../src/domain/locales.ts';
import { validateName } from '../../src/domain/validators.ts';
import { sameOriginPath } from '../../src/domain/redirect.ts';
import { formError as domainFormError } from '../../src/domain/form-errors.ts';
import type { PermissionEntry } from '../../src/domain/permissions.ts';
import {
  ORGANIZATION_HEADER,
  SESSION_COOKIE,
  SESSION_TTL_MS,
  createSession,
  getAuth,
  loadCaller,
  membershipsOf,
  requireSession,
  requireUser,
  checkXsrf,
  userToWire,
  type UserRow,
} from '../auth.ts';
import { AppError, assertValid, unauthorized } from '../errors.ts';
import { readJson } from '../http.ts';
import { hashPassword, verifyPassword } from '../passwords.ts';
import { selectFrom, toWire, type DbRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { now } from '../app.ts';

export const LOGIN_MAX_FAILURES = 5;

let dummy: Promise<string> | null = null;
function dummyHash(): Promise<string> {
  dummy ??= hashPassword('castaway-no-such-user');
  return dummy;
}
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;

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
  return rows.map((row) => organizationToWire(row, row.permissions));
}

export function organizationToWire(row: DbRow, permissions: PermissionEntry[]): Organization {
  const wire = toWire('organization', row);
  return {
    ...(wire as unknown as Organization),
    IsBroadcaster: wire.Provider === 'Broadcaster',
    UserPermissions: permissions,
  };
}

function isHttps(c: Context): boolean {
  return new URL(c.req.url).protocol === 'https:' || c.req.header('x-forwarded-proto') === 'https';
}

function endSession(c: Context, tokenHash: string | undefined) {
  deleteCookie(c, SESSION_COOKIE, { path: '/' });
  if (!tokenHash) return Promise.resolve([]);
  return c.get('deps').store.query(`DELETE FROM sessions WHERE token_hash = $1`, [tokenHash]);
}

export function sessionRoutes() {
  return new Hono()
    .post('/internal/session/login', async (c) => {
      const deps = c.get('deps');
      const body = await readJson(c, LoginRequestSchema);
      assertValid([
        ['Email', validateEmail(body.Email, { required: true })],
        ['Password', validateRequired(body.Password, 'domain_password_required')],
      ]);
      const at = now(deps);
      const key = body.Email.trim().toLowerCase();
      const [throttle] = await deps.store.query<{ failures: number; window_start_utc: Date }>(
        `SELECT failures, window_start_utc FROM login_failures WHERE key = $1`,
        [key],
      );
      const windowOpen = throttle && at.getTime() - throttle.window_start_utc.getTime() < LOGIN_WINDOW_MS;
      if (windowOpen && throttle.failures >= LOGIN_MAX_FAILURES) {
        const retry = Math.ceil((throttle.window_start_utc.getTime() + LOGIN_WINDOW_MS - at.getTime()) / 1000);
        throw new AppError(429, undefined, { 'Retry-After': String(retry) });
      }
      const [user] = await deps.store.query<UserRow>(`SELECT * FROM users WHERE lower(email) = $1 AND NOT deleted`, [key]);
      // An unknown address costs the same scrypt work as a known one: timing tells nothing.
      const ok = await verifyPassword(body.Password, user?.password_hash ?? (await dummyHash()));
      if (!user || !ok) {
        await deps.store.query(
          `INSERT INTO login_failures (key, failures, window_start_utc) VALUES ($1, 1, $2)
           ON CONFLICT (key) DO UPDATE SET
             failures = CASE WHEN login_failures.window_start_utc > $2::timestamptz - make_interval(secs => $3) THEN login_failures.failures + 1 ELSE 1 END,
             window_start_utc = CASE WHEN login_failures.window_start_utc > $2::timestamptz - make_interval(secs => $3) THEN login_failures.window_start_utc ELSE $2 END`,
          [key, at, LOGIN_WINDOW_MS / 1000],
        );
        throw unauthorized();
      }
      await deps.store.query(`DELETE FROM login_failures WHERE key = $1`, [key]);
      const { token } = await createSession(deps.store, user.id, at);
      setCookie(c, SESSION_COOKIE, token, {
        path: '/',
        httpOnly: true,
        sameSite: 'Lax',
        secure: deps.secureCookies === true || isHttps(c),
        maxAge: SESSION_TTL_MS / 1000,
      });
      const wire = userToWire(user);
      const memberships = await membershipsOf(deps.store, user.id);
      return c.json<Session>({ Type: sessionType(wire), User: wire, UserBelongsToMultipleOrganizations: memberships.length > 1 });
    })
    .get('/internal/session', async (c) => {
      const caller = await loadCaller(c);
      if (!caller) return c.json<Session>({ Type: 'loggedOut', User: null, UserBelongsToMultipleOrganizations: false });
      return c.json<Session>({
        Type: sessionType(caller.user),
        User: caller.user,
        UserBelongsToMultipleOrganizations: caller.memberships.length > 1,
      });
    })
    .get('/internal/session/xsrf', async (c) => {
      const caller = await loadCaller(c);
      if (!caller || !('xsrfToken' in caller)) throw unauthorized();
      return c.json({ XsrfToken: caller.xsrfToken });
    })
    .post('/internal/session/logout', async (c) => {
      const caller = await loadCaller(c);
      if (!caller) {
        deleteCookie(c, SESSION_COOKIE, { path: '/' });
        return c.body(null, 204);
      }
      checkXsrf(c, caller);
      await endSession(c, 'tokenHash' in caller ? caller.tokenHash : undefined);
      return c.body(null, 204);
    })
    .post('/logout', async (c) => {
      const caller = await loadCaller(c);
      if (caller) {
        checkXsrf(c, caller);
        await endSession(c, 'tokenHash' in caller ? caller.tokenHash : undefined);
      } else {
        deleteCookie(c, SESSION_COOKIE, { path: '/' });
      }
      // Only same-site paths (the domain's one rule, as the PWA applies it): an open redirect
      // would let a link send users anywhere ('/\\evil.example' is '//evil.example' to a browser).
      const redirect = sameOriginPath(c.req.query('redirectUrl'), new URL(c.req.url).origin);
      if (redirect) return c.redirect(redirect, 302);
      return c.body(null, 204);
    })
    .patch('/internal/users/me', requireUser, async (c) => {
      const deps = c.get('deps');
      const caller = (await loadCaller(c))!;
      const body = await readJson(c, UserPatchSchema);
      assertValid([
        ['Name', 'Name' in body ? validateName(body.Name) : null],
        [
          'InterfaceLanguage',
          body.InterfaceLanguage !== undefined && !(locales as readonly string[]).includes(body.InterfaceLanguage) ? domainFormError('invalid') : null,
        ],
      ]);
      const at = now(deps);
      const [row] = await deps.store.query<UserRow & { version: number }>(
        `UPDATE users SET name = COALESCE($2, name), first_name = COALESCE($3, first_name),
           interface_language = COALESCE($4, interface_language), modified_at_utc = $5, version = next_row_version()
         WHERE id = $1 RETURNING *`,
        [caller.user.Id, body.Name?.trim() ?? null, body.FirstName?.trim() ?? null, body.InterfaceLanguage ?? null, at],
      );
      for (const m of await membershipsOf(deps.store, caller.user.Id)) deps.bus.publish({ organizationId: m.organization_id, version: row!.version });
      return c.json(userToWire(row!));
    })
    .get('/internal/users/me/organizations', requireUser, async (c) => {
      const caller = (await loadCaller(c))!;
      return c.json(await organizationsOf(c.get('deps').store, caller.user.Id));
    })
    .get('/internal/users/me/organizations/permissions', requireSession, (c) => {
      // The caller's permission entries in the organization of this request (x-organization-id).
      const auth = getAuth(c);
      return c.json({ OrganizationId: auth.organizationId, Permissions: auth.permissions });
    })
    .get('/internal/users/me/organizations/:organizationId', requireUser, async (c) => {
      const caller = (await loadCaller(c))!;
      const id = c.req.param('organizationId').toLowerCase();
      const orgs = await organizationsOf(c.get('deps').store, caller.user.Id);
      const org = orgs.find((o) => o.Id === id);
      if (!org) throw new AppError(404);
      return c.json(org);
    })
    .post('/internal/custom-support', requireSession, async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      const body = await readJson(c, ContactEnquirySchema);
      const errors = validateContactForm(body);
      assertValid((['ContactName', 'ContactEmail', 'ContactEnquiry'] as const).map((f) => [f, errors[f]]));
      // Section 5: AdditionalInfo is truncated to 2048 characters and BrowserLocale to 255.
      const enquiry = {
        ...body,
        AdditionalInfo: body.AdditionalInfo?.slice(0, CONTACT_ADDITIONAL_INFO_MAX) ?? null,
        BrowserLocale: body.BrowserLocale?.slice(0, CONTACT_BROWSER_LOCALE_MAX) ?? null,
      };
      await deps.store.query(
        `INSERT INTO support_enquiries (id, user_id, organization_id, enquiry, created_at_utc) VALUES ($1, $2, $3, $4, $5)`,
        [randomUUID(), auth.user.Id, auth.organizationId, JSON.stringify(enquiry), now(deps)],
      );
      return c.body(null, 204);
    });
}

export { ORGANIZATION_HEADER };
