// Accounts made by their users, specification section 7 ("Account"): POST /internal/account
// (200 signed in, 451 where the studio is not offered) and the confirmation of the account's
// e-mail address, POST /internal/users/me/email/activation (send the confirmation again) and
// POST /internal/users/me/email/status (report it confirmed, with the mailed token).
//
//   loggedOut ──POST /internal/account──> unactivated ──POST …/email/status { Token }──> activated
//                                             └── POST …/email/activation: another confirmation mail
//
// accountFormErrors is the form's one rule (section 5's messages), run by the sign-up screen as
// the user submits and by the server on what arrives.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { INTERFACE_LOCALES } from '../../domain/locales.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { validatePassword } from '../../domain/password.ts';
import { validateEmail, validateName, validateRequired } from '../../domain/validators.ts';
import { Provider } from '../entities.ts';
import { BadRequestBodySchema } from '../errors.ts';
import { jsonBody, jsonContent, noContent, writeErrors, mailLinkErrors } from './common.ts';
import { Session } from './session.ts';

const tags = ['Session'];

export const AccountRequest = z
  .object({
    Email: z.string().meta({ example: 'new.owner@example.com' }),
    Name: z.string().meta({ description: 'The account’s full name' }),
    FirstName: z.string().optional().meta({ description: 'Omitted or empty: the first word of Name' }),
    Password: z.string().meta({ description: '8 to 128 characters' }),
    OrganizationName: z.string().meta({ description: 'The new organization the account owns' }),
    Provider: Provider.optional().meta({ description: 'Default Podcaster' }),
    InterfaceLanguage: z
      .enum(INTERFACE_LOCALES)
      .optional()
      .meta({ description: `The account’s language, and its mails’ (default en-US): one of ${INTERFACE_LOCALES.join(', ')}` }),
  })
  .strict()
  .meta({ id: 'AccountRequest' });
export type AccountRequest = z.infer<typeof AccountRequest>;

export type AccountField = 'Email' | 'Name' | 'FirstName' | 'Password' | 'OrganizationName';

/** Each field's section 5 error, by field (none: the form may be sent). */
export function accountFormErrors(input: Pick<AccountRequest, AccountField>): Partial<Record<AccountField, FormError>> {
  const checks: Array<[AccountField, FormError | null]> = [
    ['Email', validateEmail(input.Email, { required: true })],
    ['Name', validateName(input.Name)],
    // Optional: left empty, the first word of Name.
    ['FirstName', input.FirstName?.trim() ? validateName(input.FirstName) : null],
    ['Password', validateRequired(input.Password, 'domain_password_required') ?? validatePassword(input.Password)],
    ['OrganizationName', validateName(input.OrganizationName)],
  ];
  return Object.fromEntries(checks.filter(([, e]) => e !== null));
}

export const ConfirmEmailRequest = z.object({ Token: z.string().meta({ description: 'The token of the confirmation link (its `token` parameter)' }) }).strict().meta({ id: 'ConfirmEmailRequest' });

export const TooMany = { description: 'Too many attempts from this client or for this address (or account): try again after Retry-After seconds (no body)' };
export const Unauthorized = { description: 'Not signed in (no body)' };
export const Forbidden = { description: 'A session cookie without its x-xsrf-token (no body)' };

export const createAccount = {
  method: 'post',
  path: '/internal/account',
  tags,
  summary: 'Creates an account and its organization, signs it in (the session cookie, as login) and mails it a link to confirm its address; until then it is unactivated',
  description:
    'An address that already has an account is a 400 at Email: the answer to a new account is a signed-in session, which no answer to an existing one can imitate, so the limits per address and per client stand in the way of probing instead.',
  request: { body: jsonBody(AccountRequest) },
  responses: {
    ...mailLinkErrors,
    200: jsonContent(Session, 'Created and signed in: the session (Type unactivated)'),
    400: writeErrors[400],
    413: writeErrors[413],
    429: TooMany,
    451: jsonContent(BadRequestBodySchema, 'Not available in the client’s location (US sanctions): the Errors body names Field location, Code unavailableInLocation'),
  },
} as const satisfies RouteConfig;

export const requestEmailActivation = {
  method: 'post',
  path: '/internal/users/me/email/activation',
  tags,
  summary: 'Mails the caller a new link to confirm its address (nothing when it is confirmed already)',
  responses: { ...mailLinkErrors, 204: noContent, 401: Unauthorized, 403: Forbidden, 429: TooMany },
} as const satisfies RouteConfig;

export const confirmEmailStatus = {
  method: 'post',
  path: '/internal/users/me/email/status',
  tags,
  summary: 'Confirms the caller’s address with the token of its confirmation link: the session becomes activated (a new session id is set)',
  request: { body: jsonBody(ConfirmEmailRequest) },
  responses: {
    204: noContent,
    400: { ...writeErrors[400], description: 'The token is not the caller’s (or no longer its address’s), was used, or expired: a field error at Token saying which' },
    401: Unauthorized,
    403: Forbidden,
    413: writeErrors[413],
  },
} as const satisfies RouteConfig;
