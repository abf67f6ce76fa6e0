// Invitations (issue 31; specification section 7; the routes and their form rules:
// src/protocol/api/invitations.ts; the states: src/domain/invitations.ts; the table:
// accounts/migrations/0514_invitations.sql).
//
//   POST /v1/users/invitation ──400 (Email, Permissions: section 6 and this organization's objects;
//     an address already a member) ──429 (per inviter, then per address, with a body)
//     ──> one transaction: the open invitation of the address in this organization made or renewed
//     (a new token, the new permissions, a new expiry), its mail queued ──> 201, Link when kept
//   POST /v1/users/{userId}/invitation ──404 (no invitation of that user not yet accepted here)
//     ──429 ──403 addOnCapReached (an expired one asks for a seat again) ──> a new token and expiry, mailed ──> 204
//   GET /internal/invitations/{id}?token ──404 (no such id, or not its token: one answer) ──> Open | Used | Expired
//   PUT /internal/invitations/{id} ──404 ──400 at Token (Used, Expired) ──403 addOnCapReached
//     (the seats held now are at the ExtraSeats cap: checked again in the transaction that joins)
//     ├─ the address has an account ──403 unless signed in as it ──> membership, used, session renewed
//     └─ no account ──400 (Name, FirstName, Password) ──> account (activated: the link proved the
//        address), membership, used, signed in as the new account
//
// The member gets exactly the invited entries (an existing membership's entries are replaced).
// Without SMTP the mail is kept (mail/outbox.ts) and the inviter is answered the link itself, the
// only place it is ever shown: only its hash is stored.
import { permissionDetail, recordAudit } from '../audit/record.ts';
import { randomUUID } from 'node:crypto';
import { getCookie } from 'hono/cookie';
import { formError, type DomainMessageKey } from '../../src/domain/form-errors.ts';
import { INVITATION_EXPIRY_DAYS, INVITATION_EXPIRY_MS, invitationState } from '../../src/domain/invitations.ts';
import type { PermissionEntry } from '../../src/domain/permissions.ts';
import * as routes from '../../src/protocol/api/invitations.ts';
import { INVITATION_SCREEN_PATH, invitationAcceptFormErrors, invitationFormErrors, type Invitation, type InvitationDescription, type InvitationRequest } from '../../src/protocol/api/invitations.ts';
import { ServerErrorCode } from '../../src/protocol/errors.ts';
import { announceSessionEnded, checkXsrf, createSession, getAuth, loadCaller, newToken, rotateSession, SESSION_COOKIE, setSessionCookie, sha256 } from '../auth.ts';
import { AppError, assertValid, badRequest, fieldError, notFound } from '../errors.ts';
import { INVITATIONS_MAX_PER_ADDRESS, INVITATIONS_MAX_PER_INVITER, reserveAttempt, throttleKey } from '../accounts/throttle.ts';
import { sendMail, type MailSettings } from '../mail/outbox.ts';
import { invitationMail } from '../mail/templates.ts';
import { hashPassword } from '../passwords.ts';
import { mailOrigin } from '../public-origin.ts';
import { now, type AppDeps } from '../app.ts';
import type { Queryable } from '../store/store.ts';
import { guard } from './guard.ts';
import { assertEntriesValid, normalizeEntries } from './permission-entries.ts';
import { guarded, resourceApp } from './route.ts';
import { assertSeatForMember, assertUnderCap, lockOrganization, withCap } from '../billing/entitlements.ts';

type InvitationRow = {
  id: string;
  organization_id: string;
  user_id: string;
  email: string;
  permissions: PermissionEntry[];
  interface_language: string;
  invited_by_id: string;
  token_hash: string;
  created_at_utc: Date;
  expires_at_utc: Date;
  used_at_utc: Date | null;
};

const tooMany = (field: string, message: DomainMessageKey, seconds: number) =>
  new AppError(429, { Errors: [fieldError(field, formError('invalid', message, { minutes: Math.ceil(seconds / 60) }, ServerErrorCode.TooManyInvitations))] }, { 'Retry-After': String(seconds) });

/** Counts one invitation mail against the inviter and the address: 429 with a body past either limit. */
async function reserveInvitation(deps: AppDeps, inviterId: string, email: string, at: Date, inviterMax = INVITATIONS_MAX_PER_INVITER): Promise<void> {
  const byInviter = await reserveAttempt(deps.store, throttleKey.inviter(inviterId), at, inviterMax);
  if (byInviter !== null) throw tooMany('body', 'domain_invitation_too_many_sent', byInviter);
  const byAddress = await reserveAttempt(deps.store, throttleKey.invitedAddress(email), at, INVITATIONS_MAX_PER_ADDRESS);
  if (byAddress !== null) throw tooMany('Email', 'domain_invitation_too_many_address', byAddress);
}

/** A new token for the invitation, valid from `at`, and its mail queued, in the caller's
 * transaction; returns the link (for an inviter whose studio keeps its mails). */
async function issueToken(q: Queryable, invitation: InvitationRow, inviterId: string, origin: string, at: Date): Promise<{ link: string; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = new Date(at.getTime() + INVITATION_EXPIRY_MS);
  await q.query(`UPDATE invitations SET token_hash = $2, expires_at_utc = $3, invited_by_id = $4 WHERE id = $1`, [invitation.id, sha256(token), expiresAt, inviterId]);
  const [names] = await q.query<{ organization: string; inviter: string; account_first_name: string | null }>(
    `SELECT o.name AS organization, u.name AS inviter, (SELECT coalesce(nullif(a.first_name, ''), a.name) FROM users a WHERE a.id = $3) AS account_first_name
     FROM organizations o, users u WHERE o.id = $1 AND u.id = $2`,
    [invitation.organization_id, inviterId, invitation.user_id],
  );
  const link = `${origin}${INVITATION_SCREEN_PATH}/${invitation.id}?token=${encodeURIComponent(token)}`;
  await sendMail(
    q,
    invitationMail({
      to: invitation.email,
      name: names!.account_first_name ?? invitation.email,
      interfaceLanguage: invitation.interface_language,
      link,
      inviterName: names!.inviter,
      organizationName: names!.organization,
      expiresInDays: INVITATION_EXPIRY_DAYS,
    }),
    at,
  );
  return { link, expiresAt };
}

/** The invitation `id` if `token` is its token; else 404, whether or not the id exists. */
async function invitationByToken(q: Queryable, id: string, token: string, lock = false): Promise<InvitationRow> {
  const [row] = await q.query<InvitationRow>(`SELECT * FROM invitations WHERE id = $1 AND token_hash = $2${lock ? ' FOR UPDATE' : ''}`, [id, sha256(token)]);
  if (!row) throw notFound();
  return row;
}

/** 403: the address has an account, and the caller is not signed in as it. */
const otherAccount = (email: string) =>
  new AppError(403, { Errors: [fieldError('account', formError('invalid', 'domain_invitation_other_account', { email }, ServerErrorCode.InvitationOtherAccount))] });

const USED_OR_EXPIRED = { Used: 'domain_invitation_used', Expired: 'domain_invitation_expired' } as const;

/** 400 at Token unless the invitation is open at `at`. */
function assertOpen(row: InvitationRow, at: Date): void {
  const state = invitationState({ usedAtUtc: row.used_at_utc, expiresAtUtc: row.expires_at_utc }, at);
  if (state !== 'Open') throw badRequest([fieldError('Token', formError('invalid', USED_OR_EXPIRED[state]))]);
}

/** The member joins with exactly the invited entries, and the invitation is used; returns the
 * membership's version (for the change bus, after commit). */
async function join(q: Queryable, row: InvitationRow, userId: string, at: Date): Promise<number> {
  // A new member is a seat: the cap is checked again now (entitlements.ts says why).
  await assertSeatForMember(q, row.organization_id, userId, row.permissions, at);
  const [m] = await q.query<{ version: number }>(
    `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version) VALUES ($1, $2, $3, $4, $4, next_row_version())
     ON CONFLICT (organization_id, user_id) DO UPDATE SET permissions = EXCLUDED.permissions, modified_at_utc = EXCLUDED.modified_at_utc, version = EXCLUDED.version
     RETURNING version`,
    [row.organization_id, userId, JSON.stringify(row.permissions), at],
  );
  await q.query(`UPDATE invitations SET used_at_utc = $2 WHERE id = $1`, [row.id, at]);
  return Number(m!.version);
}

/** Who invites: the member and the organization acted in (getAuth's). */
export type Inviter = { organizationId: string; user: { Id: string; InterfaceLanguage: string } };

/** Whether the address is already a member of the organization (any case of it). */
export async function isMember(q: Queryable, organizationId: string, email: string): Promise<boolean> {
  const [member] = await q.query(`SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.organization_id = $1 AND lower(u.email) = lower($2)`, [organizationId, email.trim()]);
  return member !== undefined;
}

/**
 * One invitation as POST /v1/users/invitation makes it: 400 at Email (the address; already a
 * member) and at Permissions (section 6, this organization's objects), 429 past the limits, then
 * one transaction: the open invitation of the address made or renewed, its mail queued. The bulk
 * import (accounts/bulk-import.ts) calls it per row and reports what it throws; its `inviterMax`
 * is one full file an hour instead of the single form's limit.
 */
export async function invite(
  deps: AppDeps,
  inviter: Inviter,
  body: Pick<InvitationRequest, 'Email' | 'Permissions' | 'InterfaceLanguage'>,
  origin: string,
  inviterMax = INVITATIONS_MAX_PER_INVITER,
): Promise<{ row: InvitationRow; link: string; expiresAt: Date }> {
  assertValid([['Email', invitationFormErrors(body).Email]]);
  const email = body.Email.trim();
  const entries = normalizeEntries(body.Permissions);
  await assertEntriesValid(deps.store, inviter.organizationId, entries, 'Permissions');
  if (await isMember(deps.store, inviter.organizationId, email)) throw badRequest([fieldError('Email', formError('invalid', 'domain_invitation_member'))]);
  const at = now(deps);
  await reserveInvitation(deps, inviter.user.Id, email, at, inviterMax);
  return deps.store.tx(async (q) => {
    // A new member is a seat: refused (403) past the ExtraSeats cap, open invitations counted.
    await assertUnderCap(q, inviter.organizationId, 'ExtraSeats', 1, at, { invitedEmail: email });
    // The address's account, else the id its account will get (any open invitation's, so that
    // every organization inviting the address names the same user).
    const [known] = await q.query<{ id: string }>(
      `SELECT id FROM users WHERE lower(email) = lower($1)
       UNION ALL SELECT user_id FROM (SELECT user_id FROM invitations WHERE lower(email) = lower($1) AND used_at_utc IS NULL ORDER BY created_at_utc LIMIT 1) i`,
      [email],
    );
    const language = body.InterfaceLanguage ?? inviter.user.InterfaceLanguage;
    const [row] = await q.query<InvitationRow>(
      `INSERT INTO invitations (id, organization_id, user_id, email, permissions, interface_language, invited_by_id, token_hash, created_at_utc, expires_at_utc)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9)
       ON CONFLICT (organization_id, lower(email)) WHERE used_at_utc IS NULL
       DO UPDATE SET permissions = EXCLUDED.permissions, interface_language = EXCLUDED.interface_language, created_at_utc = EXCLUDED.created_at_utc
       RETURNING *`,
      [randomUUID(), inviter.organizationId, known?.id ?? randomUUID(), email, JSON.stringify(entries), language, inviter.user.Id, `pending:${randomUUID()}`, at],
    );
    await recordAudit(q, { organizationId: inviter.organizationId, eventType: 'Invited', objectType: 'User', objectId: row!.user_id, userId: inviter.user.Id, at, detail: `${email}; ${permissionDetail(entries)}` });
    return { row: row!, ...(await issueToken(q, row!, inviter.user.Id, origin, at)) };
  });
}

export function invitationRoutes(mail: Pick<MailSettings, 'smtpUrl'>) {
  return resourceApp()
    .openapi(guarded(routes.listPendingInvitations, guard.organization('HasManageUserAccess')), async (c) => {
      const deps = c.get('deps');
      const at = now(deps);
      const rows = await deps.store.query<InvitationRow & { invited_by_name: string | null }>(
        `SELECT i.*, u.name AS invited_by_name FROM invitations i LEFT JOIN users u ON u.id = i.invited_by_id
         WHERE i.organization_id = $1 AND i.used_at_utc IS NULL ORDER BY i.created_at_utc DESC, i.id`,
        [getAuth(c).organizationId],
      );
      return c.json(
        rows.map((r) => ({
          Id: r.id,
          UserId: r.user_id,
          Email: r.email,
          Permissions: r.permissions,
          InvitedById: r.invited_by_id,
          InvitedByName: r.invited_by_name,
          CreatedAtUtc: new Date(r.created_at_utc).toISOString(),
          ExpiresAtUtc: new Date(r.expires_at_utc).toISOString(),
          State: invitationState({ usedAtUtc: null, expiresAtUtc: r.expires_at_utc }, at) === 'Expired' ? ('Expired' as const) : ('Open' as const),
        })),
        200,
      );
    })
    .openapi(guarded(routes.cancelInvitation, guard.organization('HasManageUserAccess')), async (c) => {
      // An accepted invitation is a membership now (removed from the list of users instead).
      const gone = await c.get('deps').store.query(`DELETE FROM invitations WHERE id = $1 AND organization_id = $2 AND used_at_utc IS NULL RETURNING 1`, [
        c.req.valid('param').invitationId,
        getAuth(c).organizationId,
      ]);
      if (gone.length === 0) throw notFound();
      return c.body(null, 204);
    })
    .openapi(guarded(routes.createInvitation, withCap(guard.organization('HasManageUserAccess'), 'ExtraSeats')), async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      const body = c.req.valid('json');
      const { row, link, expiresAt } = await invite(deps, { organizationId: auth.organizationId, user: auth.user }, body, mailOrigin(c));
      const kept = mail.smtpUrl === null;
      const answer: Invitation = {
        Id: row.id,
        UserId: row.user_id,
        OrganizationId: row.organization_id,
        Email: row.email,
        Permissions: row.permissions,
        InvitedById: auth.user.Id,
        CreatedAtUtc: new Date(row.created_at_utc).toISOString(),
        ExpiresAtUtc: expiresAt.toISOString(),
        Delivery: kept ? 'Kept' : 'Mailed',
        Link: kept ? link : null,
      };
      return c.json(answer, 201);
    })
    .openapi(guarded(routes.resendInvitation, withCap(guard.organization('HasManageUserAccess'), 'ExtraSeats')), async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      const { userId } = c.req.valid('param');
      const [row] = await deps.store.query<InvitationRow>(`SELECT * FROM invitations WHERE organization_id = $1 AND user_id = $2 AND used_at_utc IS NULL`, [auth.organizationId, userId]);
      if (!row) throw notFound();
      const at = now(deps);
      await reserveInvitation(deps, auth.user.Id, row.email, at);
      const origin = mailOrigin(c);
      await deps.store.tx(async (q) => {
        // An expired invitation is no longer counted among the seats asked for: sent again, it
        // asks for one again, so it meets the ExtraSeats cap as a new invitation does. An open one
        // is counted already, and a new link for it changes nothing.
        if (new Date(row.expires_at_utc) <= at) await assertUnderCap(q, auth.organizationId, 'ExtraSeats', 1, at, { invitedEmail: row.email });
        return issueToken(q, row, auth.user.Id, origin, at);
      });
      return c.body(null, 204);
    })
    .openapi(guarded(routes.getInvitation, guard.public()), async (c) => {
      const deps = c.get('deps');
      const { invitationId } = c.req.valid('param');
      const row = await invitationByToken(deps.store, invitationId, c.req.valid('query').token);
      const [names] = await deps.store.query<{ organization: string; inviter: string; account: boolean }>(
        `SELECT o.name AS organization, u.name AS inviter, EXISTS (SELECT 1 FROM users a WHERE lower(a.email) = lower($3)) AS account
         FROM organizations o, users u WHERE o.id = $1 AND u.id = $2`,
        [row.organization_id, row.invited_by_id, row.email],
      );
      if (!names) throw notFound();
      const answer: InvitationDescription = {
        Id: row.id,
        OrganizationId: row.organization_id,
        OrganizationName: names.organization,
        InvitedByName: names.inviter,
        Email: row.email,
        State: invitationState({ usedAtUtc: row.used_at_utc, expiresAtUtc: row.expires_at_utc }, now(deps)),
        ExpiresAtUtc: new Date(row.expires_at_utc).toISOString(),
        AccountExists: names.account,
      };
      return c.json(answer, 200);
    })
    .openapi(guarded(routes.acceptInvitation, guard.public()), async (c) => {
      const deps = c.get('deps');
      const { invitationId } = c.req.valid('param');
      const body = c.req.valid('json');
      const first = await invitationByToken(deps.store, invitationId, body.Token);
      assertOpen(first, now(deps));
      const [account] = await deps.store.query<{ id: string }>(`SELECT id FROM users WHERE lower(email) = lower($1)`, [first.email]);
      if (account) {
        // Joining with the account of the address: only its owner, signed in (and XSRF-checked).
        const caller = await loadCaller(c);
        if (caller) checkXsrf(c, caller);
        if (caller?.user.Id !== account.id) {
          throw otherAccount(first.email);
        }
        const version = await deps.store.tx(async (q) => {
          await lockOrganization(q, first.organization_id);
          const row = await invitationByToken(q, invitationId, body.Token, true);
          assertOpen(row, now(deps));
          return join(q, row, account.id, now(deps));
        });
        deps.bus.publish({ organizationId: first.organization_id, version });
        // A privilege change: the session gets a new id (auth.ts rotateSession).
        await rotateSession(c);
        return c.body(null, 204);
      }
      const errors = invitationAcceptFormErrors(body);
      assertValid([['Name', errors.Name], ['FirstName', errors.FirstName], ['Password', errors.Password]]);
      const hash = await hashPassword(body.Password ?? '');
      const name = (body.Name ?? '').trim();
      const firstName = body.FirstName?.trim() || (name.split(/\s+/)[0] ?? '');
      const previous = getCookie(c, SESSION_COOKIE);
      const made = await deps.store.tx(async (q) => {
        const at = now(deps);
        await lockOrganization(q, first.organization_id);
        const row = await invitationByToken(q, invitationId, body.Token, true);
        assertOpen(row, at);
        // The account is activated: the invitation link proved the address is the user's. An id
        // another account took meanwhile (it should not happen) gives way to a fresh one.
        const [taken] = await q.query(`SELECT 1 FROM users WHERE id = $1`, [row.user_id]);
        const userId = taken ? randomUUID() : row.user_id;
        await q.query(
          `INSERT INTO users (id, email, name, first_name, image_url, is_admin, is_admin_or_support, has_reseller_access,
             interface_language, activated, password_hash, created_at_utc, modified_at_utc, version)
           VALUES ($1, $2, $3, $4, NULL, false, false, false, $5, true, $6, $7, $7, next_row_version())`,
          [userId, row.email, name, firstName, row.interface_language, hash, at],
        );
        const version = await join(q, row, userId, at);
        // As a sign-in does: the session this browser held ends, and a new one starts.
        if (previous) await q.query(`DELETE FROM sessions WHERE token_hash = $1`, [sha256(previous)]);
        const { token } = await createSession(q, userId, at);
        return { version, token };
      }).catch((err: unknown) => {
        // The address got an account meanwhile (a sign-up at the same moment): the unique index.
        if ((err as { code?: string } | null)?.code === '23505') throw otherAccount(first.email);
        throw err;
      });
      if (previous) announceSessionEnded(sha256(previous));
      deps.bus.publish({ organizationId: first.organization_id, version: made.version });
      setSessionCookie(c, made.token);
      return c.body(null, 204);
    });
}
