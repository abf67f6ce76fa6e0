// Account security, specification section 7 ("Account"; issue 31): the signed-in user's password
// and e-mail address, the password reset of a user who forgot theirs, and what the login screen
// may learn about an address (its auth type). Section 5 gives the messages.
//
//   PUT  /internal/users/me/password { CurrentPassword, NewPassword }  ──> 204: the other sessions end, the API keys are revoked, a notice is mailed
//   PUT  /internal/users/me/email    { Email, CurrentPassword }        ──> 204: a link to the new address, a notice to the old;
//        the address changes when the link is confirmed (POST /internal/users/me/email/status, account.ts)
//   POST /internal/account/password-reset { Email }                    ──> 204 always: a link mailed when the address has an account
//   PUT  /internal/account/password-reset { Token, Password }          ──> 204: the password set, every session ended, a notice mailed
//   GET  /internal/users/auth-type?email=                              ──> { AuthType: 'Password' } for any address
//
// The *FormErrors functions are each form's one rule, run by the screens as the user submits and
// by the server on what arrives.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import type { FormError } from '../../domain/form-errors.ts';
import { validatePassword, validatePasswordChange, validatePasswordMaxLength } from '../../domain/password.ts';
import { validateEmail, validateRequired } from '../../domain/validators.ts';
import { jsonBody, jsonContent, noContent, writeErrors, mailLinkErrors } from './common.ts';
import { Forbidden, TooMany, Unauthorized } from './account.ts';

const tags = ['Session'];

/** The studio screens of a password reset, which the mails link to: the request ("Forgot your
 * password?") and the one a reset link opens (with `token`). */
export const FORGOT_PASSWORD_PATH = '/account/forgot-password';
export const RESET_PASSWORD_PATH = '/account/reset-password';

type Errors<F extends string> = Partial<Record<F, FormError>>;
const byField = <F extends string>(checks: Array<[F, FormError | null | undefined]>): Errors<F> => Object.fromEntries(checks.filter(([, e]) => e != null)) as Errors<F>;

export const PasswordChangeRequest = z
  .object({
    CurrentPassword: z.string().meta({ description: 'The password the account has now' }),
    NewPassword: z.string().meta({ description: '8 to 128 characters, not the current one' }),
  })
  .strict()
  .meta({ id: 'PasswordChangeRequest' });
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;

/** Section 5's password change rule (the confirmation field is the screen's own: the wire has none). */
export function passwordChangeFormErrors(input: PasswordChangeRequest): Errors<keyof PasswordChangeRequest> {
  const errors = validatePasswordChange({ currentPassword: input.CurrentPassword, newPassword: input.NewPassword, confirmPassword: input.NewPassword });
  return byField([
    ['CurrentPassword', errors.currentPassword ?? validatePasswordMaxLength(input.CurrentPassword)],
    ['NewPassword', errors.newPassword],
  ]);
}

export const EmailChangeRequest = z
  .object({
    Email: z.string().meta({ description: 'The new address: it gets a confirmation link, and becomes the account’s when that is confirmed', example: 'new.address@example.com' }),
    CurrentPassword: z.string().meta({ description: 'The password the account has now' }),
  })
  .strict()
  .meta({ id: 'EmailChangeRequest' });
export type EmailChangeRequest = z.infer<typeof EmailChangeRequest>;

export function emailChangeFormErrors(input: EmailChangeRequest): Errors<keyof EmailChangeRequest> {
  return byField([
    ['Email', validateEmail(input.Email, { required: true })],
    ['CurrentPassword', validateRequired(input.CurrentPassword, 'domain_password_current_required') ?? validatePasswordMaxLength(input.CurrentPassword)],
  ]);
}

export const PasswordResetRequest = z.object({ Email: z.string().meta({ example: 'someone@example.com' }) }).strict().meta({ id: 'PasswordResetRequest' });
export type PasswordResetRequest = z.infer<typeof PasswordResetRequest>;

export function passwordResetRequestFormErrors(input: PasswordResetRequest): Errors<keyof PasswordResetRequest> {
  return byField([['Email', validateEmail(input.Email, { required: true })]]);
}

export const PasswordReset = z
  .object({
    Token: z.string().meta({ description: 'The token of the mailed link (its `token` parameter)' }),
    Password: z.string().meta({ description: 'The new password: 8 to 128 characters' }),
  })
  .strict()
  .meta({ id: 'PasswordReset' });
export type PasswordReset = z.infer<typeof PasswordReset>;

export function passwordResetFormErrors(input: PasswordReset): Errors<keyof PasswordReset> {
  return byField([
    ['Token', validateRequired(input.Token, 'domain_password_reset_invalid')],
    ['Password', validatePassword(input.Password, { requiredMessage: 'domain_password_new_required' })],
  ]);
}

export const AuthType = z
  .object({ AuthType: z.enum(['Password']).meta({ description: 'How the address signs in. Password for every address, with or without an account: the studio has no single sign-on, and the answer says nothing of who has an account' }) })
  .meta({ id: 'AuthType' });
export type AuthType = z.infer<typeof AuthType>;

export const changePassword = {
  method: 'put',
  path: '/internal/users/me/password',
  tags,
  summary: 'Changes the caller’s password: every other session of the account ends (this one stays, under a new id), every API key of the account is revoked, and the account’s address is told by mail',
  request: { body: jsonBody(PasswordChangeRequest) },
  responses: {
    ...mailLinkErrors,
    204: noContent,
    400: { ...writeErrors[400], description: 'A field is not valid, CurrentPassword is not the account’s password, or NewPassword is the current one: each named with its message' },
    401: Unauthorized,
    403: Forbidden,
    413: writeErrors[413],
    429: TooMany,
  },
} as const satisfies RouteConfig;

export const changeEmail = {
  method: 'put',
  path: '/internal/users/me/email',
  tags,
  summary: 'Asks to change the caller’s address: the new one is mailed a confirmation link, the old one (when confirmed) a notice; the address changes only when the link is confirmed (POST /internal/users/me/email/status)',
  request: { body: jsonBody(EmailChangeRequest) },
  responses: {
    ...mailLinkErrors,
    204: noContent,
    400: { ...writeErrors[400], description: 'A field is not valid, CurrentPassword is not the account’s password, or Email is already the account’s or another account’s: each named with its message' },
    401: Unauthorized,
    403: Forbidden,
    413: writeErrors[413],
    429: TooMany,
  },
} as const satisfies RouteConfig;

export const requestPasswordReset = {
  method: 'post',
  path: '/internal/account/password-reset',
  tags,
  summary: 'Mails a single-use link to set a new password (valid for an hour) when the address has an account; the answer is the same either way',
  request: { body: jsonBody(PasswordResetRequest) },
  responses: { ...mailLinkErrors, 204: noContent, 400: writeErrors[400], 413: writeErrors[413], 429: TooMany },
} as const satisfies RouteConfig;

export const resetPassword = {
  method: 'put',
  path: '/internal/account/password-reset',
  tags,
  summary: 'Sets a new password with the token of a reset link: the token is used up, every session of the account ends, every API key of the account is revoked, and the account’s address is told by mail',
  request: { body: jsonBody(PasswordReset) },
  responses: {
    ...mailLinkErrors,
    204: noContent,
    400: { ...writeErrors[400], description: 'The password is not valid, or the token is unknown, used or expired: each named (Token, Password) with its message' },
    413: writeErrors[413],
  },
} as const satisfies RouteConfig;

export const getAuthType = {
  method: 'get',
  path: '/internal/users/auth-type',
  tags,
  summary: 'How an address signs in, for the login screen: the same answer for addresses with and without an account',
  request: { query: z.object({ email: z.string().meta({ example: 'someone@example.com' }) }) },
  responses: { 200: jsonContent(AuthType, 'How the address signs in'), 400: writeErrors[400] },
} as const satisfies RouteConfig;
