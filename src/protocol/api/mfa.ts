// Two-factor sign-in, specification section 7 ("Account"; issue 31): the signed-in user's own
// set-up, and an organization admin's reset of a member's. The states: src/domain/mfa.ts. Served by
// sync-server/api/mfa.ts; sign-in's second step is POST /internal/session/login with MfaCode or
// RecoveryCode (src/protocol/api/session.ts).
//
//   GET    /internal/users/me/mfa/config                 ──> { Enabled, …, Setup } (Setup: the pending key and its otpauth:// URI)
//   PUT    /internal/users/me/mfa/config {}              ──> 204: a new pending key (Setup), replacing one not confirmed
//   PUT    /internal/users/me/mfa { Code }               ──> 200 { RecoveryCodes }: on; the codes are shown this once
//   DELETE /internal/users/me/mfa/config { Code | RecoveryCode | CurrentPassword } ──> 204: off
//   POST   /internal/users/me/mfa/recovery-codes { Code } ──> 200 { RecoveryCodes }: new ones replace them all
//   DELETE /v1/users/{userId}/mfa                        ──> 204: a member's turned off (HasManageUserAccess)
//
// Section 7 lists PUT /internal/users/me/mfa among the 204 calls. It answers 200 with the recovery
// codes here: they must reach the user exactly once, and only kept as hashes, so the answer that
// makes them is the only place they can be read.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import type { FormError } from '../../domain/form-errors.ts';
import { validateMfaCode, validateRecoveryCode } from '../../domain/mfa.ts';
import { validatePasswordMaxLength } from '../../domain/password.ts';
import { errors, idParams, jsonBody, jsonContent, noContent, writeErrors, mailLinkErrors } from './common.ts';
import { TooMany, Unauthorized } from './account.ts';

const tags = ['Session'];

export const MfaConfig = z
  .object({
    Enabled: z.boolean(),
    EnabledAtUtc: z.string().nullable(),
    /** Recovery codes not used yet (0 while off). */
    RecoveryCodesLeft: z.number().int(),
    /** While setting up (after PUT …/mfa/config, before PUT …/mfa): the key to add to the app. Null otherwise: a confirmed key is never shown again. */
    Setup: z
      .object({
        Secret: z.string().meta({ description: 'The TOTP key in base32, for typing into the app' }),
        Uri: z.string().meta({ description: 'The otpauth:// URI the QR code holds' }),
      })
      .nullable(),
  })
  .meta({ id: 'MfaConfig' });
export type MfaConfig = z.infer<typeof MfaConfig>;

export const MfaSetupRequest = z.object({}).strict().meta({ id: 'MfaSetupRequest', description: 'An empty object' });

export const MfaConfirmRequest = z
  .object({ Code: z.string().meta({ description: 'The 6-digit code the app shows for the pending key', example: '123456' }) })
  .strict()
  .meta({ id: 'MfaConfirmRequest' });
export type MfaConfirmRequest = z.infer<typeof MfaConfirmRequest>;

export const MfaConfirmed = z
  .object({ RecoveryCodes: z.array(z.string()).meta({ description: 'Single-use codes for signing in without the app: shown this once, kept only hashed' }) })
  .meta({ id: 'MfaConfirmed' });
export type MfaConfirmed = z.infer<typeof MfaConfirmed>;

export const MfaRecoveryCodesRequest = z
  .object({ Code: z.string().meta({ description: 'A code the app shows now', example: '123456' }) })
  .strict()
  .meta({ id: 'MfaRecoveryCodesRequest' });
export type MfaRecoveryCodesRequest = z.infer<typeof MfaRecoveryCodesRequest>;

export const MfaDisableRequest = z
  .object({
    Code: z.string().optional().meta({ description: 'A code of the app' }),
    RecoveryCode: z.string().optional().meta({ description: 'Or one unused recovery code' }),
    CurrentPassword: z.string().optional().meta({ description: 'Or the account’s password' }),
  })
  .strict()
  .meta({ id: 'MfaDisableRequest', description: 'One of Code, RecoveryCode or CurrentPassword proves it is the account’s owner (none: 400 at Code)' });
export type MfaDisableRequest = z.infer<typeof MfaDisableRequest>;

/** Which proof a turn-off carries, checked by section 5's kind of rule; null with none (400 at Code). */
export function mfaDisableProof(input: MfaDisableRequest): { field: 'Code' | 'RecoveryCode' | 'CurrentPassword'; value: string; error: FormError | null } | null {
  if (input.Code !== undefined && input.Code.trim() !== '') return { field: 'Code', value: input.Code, error: validateMfaCode(input.Code) };
  if (input.RecoveryCode !== undefined && input.RecoveryCode.trim() !== '') return { field: 'RecoveryCode', value: input.RecoveryCode, error: validateRecoveryCode(input.RecoveryCode) };
  if (input.CurrentPassword !== undefined && input.CurrentPassword !== '') return { field: 'CurrentPassword', value: input.CurrentPassword, error: validatePasswordMaxLength(input.CurrentPassword) };
  return null;
}

export const getMfaConfig = {
  method: 'get',
  path: '/internal/users/me/mfa/config',
  tags,
  summary: 'Whether two-factor sign-in is on, and while setting it up the key to add to the app',
  responses: { 200: jsonContent(MfaConfig, 'The state'), 401: Unauthorized, 403: errors[403] },
} as const satisfies RouteConfig;

export const startMfaSetup = {
  method: 'put',
  path: '/internal/users/me/mfa/config',
  tags,
  summary: 'Starts setting up two-factor sign-in: a new pending key (GET …/mfa/config shows it); an activated account’s signed-in session only',
  request: { body: jsonBody(MfaSetupRequest) },
  responses: { 204: noContent, 400: writeErrors[400], 401: Unauthorized, 403: { description: 'No XSRF token (no body), an API key, or an account not activated (with a body)' }, 413: writeErrors[413] },
} as const satisfies RouteConfig;

export const confirmMfa = {
  method: 'put',
  path: '/internal/users/me/mfa',
  tags,
  summary: 'Turns two-factor sign-in on with a code of the pending key; answers the recovery codes, this once (section 7 lists a 204: see the module header)',
  request: { body: jsonBody(MfaConfirmRequest) },
  responses: {
    ...mailLinkErrors,
    200: jsonContent(MfaConfirmed, 'On: the recovery codes'),
    400: writeErrors[400],
    401: Unauthorized,
    403: { description: 'No XSRF token (no body), an API key, or an account not activated (with a body)' },
    413: writeErrors[413],
    429: TooMany,
  },
} as const satisfies RouteConfig;

export const disableMfa = {
  method: 'delete',
  path: '/internal/users/me/mfa/config',
  tags,
  summary: 'Turns two-factor sign-in off (or drops a set-up not confirmed), with a code, a recovery code or the password',
  request: { body: jsonBody(MfaDisableRequest) },
  responses: { ...mailLinkErrors, 204: noContent, 400: writeErrors[400], 401: Unauthorized, 403: { description: 'No XSRF token (no body), or an API key (with a body)' }, 413: writeErrors[413], 429: TooMany },
} as const satisfies RouteConfig;

export const regenerateRecoveryCodes = {
  method: 'post',
  path: '/internal/users/me/mfa/recovery-codes',
  tags,
  summary: 'Replaces every recovery code with new ones, with a code of the app; answers them this once (not in section 7: issue 31)',
  request: { body: jsonBody(MfaRecoveryCodesRequest) },
  responses: {
    ...mailLinkErrors,
    200: jsonContent(MfaConfirmed, 'The new recovery codes; the old ones no longer work'),
    400: writeErrors[400],
    401: Unauthorized,
    403: { description: 'No XSRF token (no body), or an API key (with a body)' },
    413: writeErrors[413],
    429: TooMany,
  },
} as const satisfies RouteConfig;

export const resetUserMfa = {
  method: 'delete',
  path: '/v1/users/{userId}/mfa',
  tags: ['Users'],
  summary: 'Turns a member’s two-factor sign-in off (they lost their phone and codes): HasManageUserAccess at organization scope',
  request: { params: idParams('userId') },
  responses: { ...mailLinkErrors, 204: noContent, ...errors },
} as const satisfies RouteConfig;

