// Account security (issue 31; specification section 7, "Account"; the routes and their form rules:
// src/protocol/api/account-security.ts; the states: accounts/password-resets.ts and
// accounts/confirmations.ts).
//
//   PUT /internal/users/me/password ──400 (fields) ──429 (checks of the current password per
//     account) ──400 at CurrentPassword (wrong) ──400 at NewPassword (the current one)
//     ──> setPassword (every API key of the account revoked), keeping this session under a new id
//   PUT /internal/users/me/email ──400 (fields, the account's own address) ──429 ──400 at
//     CurrentPassword ──400 at Email (another account's) ──> a confirmation to the new address, a
//     notice to the old one when it was confirmed (an unconfirmed one may be a stranger's typo)
//   POST /internal/account/password-reset ──400 (Email) ──429 (per client, then per address)
//     ──> 204 and a job, for every address alike
//   PUT /internal/account/password-reset ──400 (fields; Token unknown, used, expired) ──> setPassword,
//     every session ended and every API key revoked
//   GET /internal/users/auth-type ──400 (email) ──> Password, for every address
//
// The reset request answers 204 for every well-formed address, in the same time: the request does
// the same work (the throttle, one job queued) whether or not the address has an account, and the
// job looks it up after the answer. The address is counted before anything else (5 mails an hour),
// so the form cannot be used to flood someone's mailbox. The mailed link is built from PUBLIC_URL,
// else from the request's origin: a studio reachable under names it does not control must set
// PUBLIC_URL (README), or a request with a forged Host header would mail a link to another site.
import { verifyPassword, hashPassword } from '../passwords.ts';
import { formError } from '../../src/domain/form-errors.ts';
import * as routes from '../../src/protocol/api/account-security.ts';
import { emailChangeFormErrors, FORGOT_PASSWORD_PATH, passwordChangeFormErrors, passwordResetFormErrors, passwordResetRequestFormErrors } from '../../src/protocol/api/account-security.ts';
import { announceSessionEnded, loadCaller, rotateSession, type SessionUser } from '../auth.ts';
import { AppError, assertValid, badRequest, fieldError, unauthorized } from '../errors.ts';
import { clientAddress } from '../client-address.ts';
import { mailOrigin } from '../public-origin.ts';
import { now } from '../app.ts';
import type { Context } from 'hono';
import { issueEmailChange } from '../accounts/confirmations.ts';
import { checkPasswordReset, queuePasswordReset, setPassword, type ResetOutcome } from '../accounts/password-resets.ts';
import { CURRENT_PASSWORD_MAX_PER_USER, RESET_MAX_PER_ADDRESS, RESET_MAX_PER_CLIENT, reserveAttempt, throttleKey } from '../accounts/throttle.ts';
import { emailChangingMail } from '../mail/templates.ts';
import { sendMail } from '../mail/outbox.ts';
import { guard } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

const tooMany = (seconds: number) => new AppError(429, undefined, { 'Retry-After': String(seconds) });

const RESET_MESSAGE = { invalid: 'domain_password_reset_invalid', used: 'domain_password_reset_used', expired: 'domain_password_reset_expired' } as const satisfies Record<Exclude<ResetOutcome, 'done'>, string>;

async function signedIn(c: Context): Promise<SessionUser> {
  const caller = await loadCaller(c);
  if (!caller) throw unauthorized();
  return caller;
}

/** Counts a check of the caller's current password (429 past the limit), then makes it: 400 at
 * CurrentPassword when it is not the account's. */
async function checkCurrentPassword(c: Context, userId: string, password: string): Promise<void> {
  const { store } = c.get('deps');
  const wait = await reserveAttempt(store, throttleKey.currentPassword(userId), now(c.get('deps')), CURRENT_PASSWORD_MAX_PER_USER);
  if (wait !== null) throw tooMany(wait);
  const [row] = await store.query<{ password_hash: string }>(`SELECT password_hash FROM users WHERE id = $1`, [userId]);
  if (!row || !(await verifyPassword(password, row.password_hash))) throw badRequest([fieldError('CurrentPassword', formError('invalid', 'domain_password_wrong'))]);
}

export function accountSecurityRoutes() {
  return resourceApp()
    .openapi(guarded(routes.changePassword, guard.user()), async (c) => {
      const deps = c.get('deps');
      const caller = await signedIn(c);
      const body = c.req.valid('json');
      const errors = passwordChangeFormErrors(body);
      assertValid([['CurrentPassword', errors.CurrentPassword], ['NewPassword', errors.NewPassword]]);
      await checkCurrentPassword(c, caller.user.Id, body.CurrentPassword);
      if (body.NewPassword === body.CurrentPassword) throw badRequest([fieldError('NewPassword', formError('invalid', 'domain_password_unchanged'))]);
      const hash = await hashPassword(body.NewPassword);
      const keep = 'tokenHash' in caller ? caller.tokenHash : null;
      const ended = await deps.store.tx((q) => setPassword(q, caller.user.Id, hash, { keepSession: keep, origin: mailOrigin(c), at: now(deps) }));
      for (const tokenHash of ended) announceSessionEnded(tokenHash);
      // A credential changed: this session, which stays, gets a new id (as a privilege change does).
      await rotateSession(c);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.changeEmail, guard.user()), async (c) => {
      const deps = c.get('deps');
      const { user } = await signedIn(c);
      const body = c.req.valid('json');
      const errors = emailChangeFormErrors(body);
      assertValid([['Email', errors.Email], ['CurrentPassword', errors.CurrentPassword]]);
      const email = body.Email.trim();
      if (email.toLowerCase() === user.Email.toLowerCase()) throw badRequest([fieldError('Email', formError('invalid', 'domain_email_unchanged'))]);
      await checkCurrentPassword(c, user.Id, body.CurrentPassword);
      // Deleted accounts keep their address (the unique index covers them).
      if ((await deps.store.query(`SELECT 1 FROM users WHERE lower(email) = lower($1)`, [email])).length > 0) throw badRequest([fieldError('Email', formError('invalid', 'domain_email_in_use'))]);
      const origin = mailOrigin(c);
      const at = now(deps);
      const who = { id: user.Id, email: user.Email, name: user.FirstName || user.Name, interfaceLanguage: user.InterfaceLanguage };
      await deps.store.tx(async (q) => {
        await issueEmailChange(q, who, email, origin, at);
        if (user.Activated) await sendMail(q, emailChangingMail({ to: user.Email, name: who.name, interfaceLanguage: who.interfaceLanguage, newEmail: email, resetLink: `${origin}${FORGOT_PASSWORD_PATH}` }), at);
      });
      return c.body(null, 204);
    })
    .openapi(guarded(routes.requestPasswordReset, guard.public()), async (c) => {
      const deps = c.get('deps');
      const body = c.req.valid('json');
      assertValid([['Email', passwordResetRequestFormErrors(body).Email]]);
      const at = now(deps);
      const client = clientAddress(c);
      const wait =
        (client ? await reserveAttempt(deps.store, throttleKey.resetClient(client), at, RESET_MAX_PER_CLIENT) : null) ??
        (await reserveAttempt(deps.store, throttleKey.resetAddress(body.Email), at, RESET_MAX_PER_ADDRESS));
      if (wait !== null) throw tooMany(wait);
      await deps.store.tx((q) => queuePasswordReset(q, body.Email, mailOrigin(c)));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.resetPassword, guard.public()), async (c) => {
      const deps = c.get('deps');
      const body = c.req.valid('json');
      const errors = passwordResetFormErrors(body);
      assertValid([['Token', errors.Token], ['Password', errors.Password]]);
      const refuse = (outcome: Exclude<ResetOutcome, 'done'>) => badRequest([fieldError('Token', formError('invalid', RESET_MESSAGE[outcome]))]);
      // Checked before the scrypt work, which a bad link need not cost; again, locked, when it is used.
      const first = await checkPasswordReset(deps.store, body.Token, now(deps));
      if (first.outcome !== 'done') throw refuse(first.outcome);
      const hash = await hashPassword(body.Password);
      const at = now(deps);
      const origin = mailOrigin(c);
      const result = await deps.store.tx(async (q) => {
        const check = await checkPasswordReset(q, body.Token, at, true);
        if (check.outcome !== 'done') return check;
        return { outcome: 'done' as const, ended: await setPassword(q, check.userId, hash, { keepSession: null, origin, at }) };
      });
      if (result.outcome !== 'done') throw refuse(result.outcome);
      for (const tokenHash of result.ended) announceSessionEnded(tokenHash);
      return c.body(null, 204);
    })
    .openapi(guarded(routes.getAuthType, guard.public()), (c) => {
      assertValid([['email', passwordResetRequestFormErrors({ Email: c.req.valid('query').email }).Email]]);
      return c.json({ AuthType: 'Password' } satisfies routes.AuthType, 200);
    });
}
