// The error wire format shared by the server's responses and the client's result mapping
// (specification section 8): 400 carries a body naming each invalid field and its code;
// 404 and other statuses carry none (412 carries the current row, see ARCHITECTURE.md).
import * as z from 'zod';

/** Largest JSON body the server accepts; larger ones get 413 PayloadTooLarge (uploads of audio
 * and images set their own limits). Clients size their requests by it (the sync push). */
export const JSON_BODY_LIMIT_BYTES = 1024 * 1024;

/** Bodies smaller than this go uncompressed, both ways (answers and sync pushes): the bytes saved
 * do not pay for the work, and a body this small fits in a packet or two. */
export const MIN_COMPRESS_BYTES = 1024;

/** Codes of server-side errors beyond the form error types of section 5. */
export const ServerErrorCode = {
  SlugExists: 'SlugExists',
  SlugReservationFailed: 'SlugReservationFailed',
  MalformedJson: 'malformedJson',
  DuplicateObjectId: 'duplicateObjectId',
  /** Permission entries of one user mixing object types (section 6). */
  MixedObjectTypes: 'mixedObjectTypes',
  /** 413: the body is larger than the server accepts. */
  PayloadTooLarge: 'payloadTooLarge',
  /** A string no store keeps: a NUL character, or half of a surrogate pair. */
  InvalidText: 'invalidText',
  /** 429: too many failed logins; try again later. */
  TooManyAttempts: 'tooManyAttempts',
  /** 403: the account's e-mail address is not confirmed yet, so it may read but not write. */
  AccountNotActivated: 'accountNotActivated',
  /** 403: an API key may not make another key (a leaked one would outlive its revocation): only a signed-in session may. */
  ApiKeyByKey: 'apiKeyByKey',
  /** 400 at MfaCode on sign-in: the password was right and the account has two-factor sign-in on; send it again with MfaCode or RecoveryCode. */
  MfaRequired: 'mfaRequired',
  /** 429: too many invitations from one member, or to one address, in the last hour (api/invitations.ts). */
  TooManyInvitations: 'tooManyInvitations',
  /** 403: an invitation for an address that has an account, accepted by someone not signed in as it. */
  InvitationOtherAccount: 'invitationOtherAccount',
  /** 451: account creation is not offered where the client is (US sanctions; sync-server/accounts/location.ts). */
  UnavailableInLocation: 'unavailableInLocation',
  /** 403: the organization's plan (and its add-ons) does not include the feature the call needs (Params.feature; sync-server/billing/entitlements.ts). */
  FeatureNotInPlan: 'featureNotInPlan',
  /** 403: the call would take a metered add-on's usage past its cap, allowance + MaxOverage (Params.addOn, cap, used). */
  AddOnCapReached: 'addOnCapReached',
} as const;

export const FieldErrorSchema = z.object({
  /** The request field (PascalCase, as sent), a query parameter's or header's name, or 'body' for
   * the whole body (earlier releases said ''). */
  Field: z.string(),
  /** A form error type of section 5 (required, tooLong, …) or a ServerErrorCode. */
  Code: z.string(),
  /** The English message of the specification, from the message catalogue. */
  Message: z.string(),
  /** The catalogue key Message was made from (locales/domain), with Params its inputs: a client
   * says the same thing in its user's language (src/domain/messages.ts fieldErrorText). Absent
   * where the message is not in that catalogue. */
  MessageKey: z.string().optional(),
  Params: z.record(z.string(), z.unknown()).optional(),
});
export type FieldError = z.infer<typeof FieldErrorSchema>;

export const BadRequestBodySchema = z.object({
  Errors: z.array(FieldErrorSchema).min(1),
});
export type BadRequestBody = z.infer<typeof BadRequestBodySchema>;
