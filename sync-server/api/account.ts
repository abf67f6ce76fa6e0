// Accounts made by their users (issue 31; specification section 7, "Account"): creation, and the
// confirmation of the account's e-mail address (the states: sync-server/accounts/confirmations.ts;
// the routes: src/protocol/api/account.ts).
//
//   POST /internal/account ──451 (the location's rule, accounts/location.ts, before anything else)
//     ──400 (each field, section 5) ──429 (per client, then per address) ──400 at Email (taken)
//     ──> one transaction: organization, unactivated owner, session, confirmation and its mail
//   POST /internal/users/me/email/activation ──429 per account──> another confirmation mail
//   POST /internal/users/me/email/status { Token } ──> activated (and, for an e-mail change, the new
//     address: api/account-security.ts), a new session id
//
// An address that already has an account is answered 400 at Email, which tells whoever asks that
// it has one (account enumeration). It cannot be avoided here without changing what sign-up is:
// the answer to a new account is a signed-in session that works, and no answer to a taken address
// can imitate that without signing the caller in to someone else's account. The alternative, an
// identical "check your mail" for both and a sign-in only after the link, is not the flow of
// section 4 (a new account is signed in and unactivated). So the probe is made slow instead: every
// attempt that passes the field checks counts against its client (ACCOUNT_MAX_PER_CLIENT an hour)
// and its address (ACCOUNT_MAX_PER_ADDRESS), before the address is looked up, and sign-in already
// answers both unknown addresses and wrong passwords with the same 401.
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';
import { formError } from '../../src/domain/form-errors.ts';
import { ServerErrorCode, type BadRequestBody } from '../../src/protocol/errors.ts';
import * as routes from '../../src/protocol/api/account.ts';
import { accountFormErrors, type AccountField } from '../../src/protocol/api/account.ts';
import type { Session } from '../../src/protocol/entities.ts';
import { announceSessionEnded, createSession, loadCaller, membershipsOf, rotateSession, SESSION_COOKIE, setSessionCookie, sha256, userToWire, type UserRow } from '../auth.ts';
import { AppError, assertValid, badRequest, fieldError, unauthorized } from '../errors.ts';
import { checkOwner, hasUser, insertOwner, OwnerInputError } from '../first-run.ts';
import { hashPassword } from '../passwords.ts';
import { clientAddress } from '../client-address.ts';
import { mailOrigin } from '../public-origin.ts';
import { now } from '../app.ts';
import { confirmEmail, issueConfirmation, type ConfirmationOutcome } from '../accounts/confirmations.ts';
import { unservedCountry, type LocationPolicy } from '../accounts/location.ts';
import type { AccountSettings } from '../accounts/settings.ts';
import { ACCOUNT_MAX_PER_ADDRESS, ACCOUNT_MAX_PER_CLIENT, ACTIVATION_MAX_PER_USER, reserveAttempt, throttleKey } from '../accounts/throttle.ts';
import { guard, type Access } from './guard.ts';
import { guarded, resourceApp } from './route.ts';

const FIELDS: readonly AccountField[] = ['Email', 'Name', 'FirstName', 'Password', 'OrganizationName'];

/** The 451 body (section 8: account creation's 451 carries one). */
export function unavailableInLocationBody(): BadRequestBody {
  return { Errors: [fieldError('location', formError('invalid', 'domain_unavailable_in_location', undefined, ServerErrorCode.UnavailableInLocation))] };
}

/** Anyone, from where the studio is offered: elsewhere 451, before the body is read. */
function servedLocation(policy: LocationPolicy): Access {
  const check: MiddlewareHandler = async (c, next) => {
    if (unservedCountry(c, policy) !== null) return c.json(unavailableInLocationBody(), 451);
    await next();
  };
  return { middleware: [check], describe: 'Anyone, where the studio is offered (elsewhere 451)' };
}

const emailTaken = () => badRequest([fieldError('Email', formError('invalid', 'domain_email_taken'))]);

const tooMany = (seconds: number) => new AppError(429, undefined, { 'Retry-After': String(seconds) });

const OUTCOME_MESSAGE = { invalid: 'domain_confirmation_invalid', used: 'domain_confirmation_used', expired: 'domain_confirmation_expired', taken: 'domain_email_in_use' } as const satisfies Record<Exclude<ConfirmationOutcome, 'done'>, string>;

export function accountRoutes(settings: AccountSettings) {
  return resourceApp()
    .openapi(guarded(routes.createAccount, servedLocation(settings.location)), async (c) => {
      const deps = c.get('deps');
      const body = c.req.valid('json');
      const errors = accountFormErrors(body);
      assertValid(FIELDS.map((f) => [f, errors[f]]));
      const at = now(deps);
      const client = clientAddress(c);
      const wait =
        (client ? await reserveAttempt(deps.store, throttleKey.client(client), at, ACCOUNT_MAX_PER_CLIENT) : null) ??
        (await reserveAttempt(deps.store, throttleKey.address(body.Email), at, ACCOUNT_MAX_PER_ADDRESS));
      if (wait !== null) throw tooMany(wait);
      // Looked up before the scrypt work, which a taken address need not cost; the unique index
      // refuses the same address made twice at once (below).
      if (await hasUser(deps.store, body.Email.trim())) throw emailTaken();
      const owner = checkOwner({
        email: body.Email,
        name: body.Name,
        ...(body.FirstName ? { firstName: body.FirstName } : {}),
        organizationName: body.OrganizationName,
        provider: body.Provider ?? 'Podcaster',
        password: body.Password,
        activated: false,
        interfaceLanguage: body.InterfaceLanguage ?? 'en-US',
      });
      const hash = await hashPassword(owner.password);
      const previous = getCookie(c, SESSION_COOKIE);
      const origin = mailOrigin(c);
      let made: { userId: string; token: string };
      try {
        made = await deps.store.tx(async (q) => {
          const { userId } = await insertOwner(q, owner, hash, at);
          // As a sign-in does: the session this browser held ends, and a new one starts.
          if (previous) await q.query(`DELETE FROM sessions WHERE token_hash = $1`, [sha256(previous)]);
          const { token } = await createSession(q, userId, at);
          await issueConfirmation(q, { id: userId, email: owner.email, name: owner.firstName || owner.name, interfaceLanguage: owner.interfaceLanguage }, origin, at);
          return { userId, token };
        });
      } catch (err) {
        if (err instanceof OwnerInputError || (err as { code?: string } | null)?.code === '23505') throw emailTaken();
        throw err;
      }
      if (previous) announceSessionEnded(sha256(previous));
      setSessionCookie(c, made.token);
      const [user] = await deps.store.query<UserRow>(`SELECT * FROM users WHERE id = $1`, [made.userId]);
      const wire = userToWire(user!);
      return c.json({ Type: 'unactivated', User: wire, UserBelongsToMultipleOrganizations: false } satisfies Session, 200);
    })
    .openapi(guarded(routes.requestEmailActivation, guard.user()), async (c) => {
      const deps = c.get('deps');
      const caller = await loadCaller(c);
      if (!caller) throw unauthorized();
      const { user } = caller;
      if (user.Activated) return c.body(null, 204);
      const at = now(deps);
      const wait = await reserveAttempt(deps.store, throttleKey.activation(user.Id), at, ACTIVATION_MAX_PER_USER);
      if (wait !== null) throw tooMany(wait);
      const origin = mailOrigin(c);
      await deps.store.tx((q) => issueConfirmation(q, { id: user.Id, email: user.Email, name: user.FirstName || user.Name, interfaceLanguage: user.InterfaceLanguage }, origin, at));
      return c.body(null, 204);
    })
    .openapi(guarded(routes.confirmEmailStatus, guard.user()), async (c) => {
      const deps = c.get('deps');
      const caller = await loadCaller(c);
      if (!caller) throw unauthorized();
      const { Token } = c.req.valid('json');
      // An e-mail change whose new address another account took at the same moment: the unique index.
      const outcome = await deps.store.tx((q) => confirmEmail(q, caller.user.Id, Token, now(deps))).catch((err: unknown) => {
        if ((err as { code?: string } | null)?.code === '23505') return 'taken' as const;
        throw err;
      });
      if (outcome !== 'done') throw badRequest([fieldError('Token', formError('invalid', OUTCOME_MESSAGE[outcome]))]);
      // A privilege change (it may write now): the session gets a new id, as auth.ts rotateSession says.
      await rotateSession(c);
      const [row] = await deps.store.query<{ version: number }>(`SELECT version FROM users WHERE id = $1`, [caller.user.Id]);
      for (const m of await membershipsOf(deps.store, caller.user.Id)) deps.bus.publish({ organizationId: m.organization_id, version: Number(row!.version) });
      return c.body(null, 204);
    });
}
