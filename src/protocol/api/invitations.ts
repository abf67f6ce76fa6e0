// Invitations, specification section 7 ("Users, account and session"; issue 31): a member with
// manage-user access invites an address into the organization with a scope and the seven flags of
// section 6; the mailed link opens the studio's accept screen (INVITATION_SCREEN_PATH), which sets
// a name and password for a new account or joins with the signed-in account of that address.
// Served by sync-server/api/invitations.ts; the states: src/domain/invitations.ts.
//
//   POST /v1/users/invitation { Email, Permissions }   ──> 201 Invitation (Link: the link itself when the studio has no SMTP)
//   POST /v1/users/{userId}/invitation                 ──> 204: a new link mailed (the earlier one stops working)
//   GET  /internal/invitations/{invitationId}?token=   ──> 200 InvitationDescription (the organization, who invited, Open/Used/Expired)
//   PUT  /internal/invitations/{invitationId} { Token, Name, FirstName, Password }
//                                                      ──> 204, signed in as the member, with exactly the invited permissions
//
// A token is random, single-use, expires after INVITATION_EXPIRY_DAYS, and only its SHA-256 hash
// is kept. A wrong token is a 404 whether or not the invitation exists.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { INTERFACE_LOCALES } from '../../domain/locales.ts';
import type { FormError } from '../../domain/form-errors.ts';
import { InvitationState } from '../../domain/invitations.ts';
import { validatePassword } from '../../domain/password.ts';
import { validateEmail, validateName, validateRequired } from '../../domain/validators.ts';
import { PermissionEntries } from './schemas.ts';
import { BadRequestBodySchema } from '../errors.ts';
import { errors, idParams, jsonBody, jsonContent, noContent, writeErrors, mailLinkErrors } from './common.ts';

const tags = ['Users'];

/** The studio screen an invitation link opens: `${INVITATION_SCREEN_PATH}/{invitationId}?token=…`. */
export const INVITATION_SCREEN_PATH = '/internal/invitations';

export const InvitationRequest = z
  .object({
    Email: z.string().meta({ description: 'The address to invite: it gets the link', example: 'producer@example.com' }),
    // What the member will hold once the invitation is accepted, as PUT /v1/users/{userId}/permissions
    // takes it (section 6): one object type (Organization, Network, Program, or null: none), each
    // object id once, the seven flags.
    Permissions: PermissionEntries,
    InterfaceLanguage: z
      .enum(INTERFACE_LOCALES)
      .optional()
      .meta({ description: `The language of the mail, and of a new account (default: the inviter’s): one of ${INTERFACE_LOCALES.join(', ')}` }),
  })
  .strict()
  .meta({ id: 'InvitationRequest' });
export type InvitationRequest = z.infer<typeof InvitationRequest>;

export const InvitationDelivery = z.enum(['Mailed', 'Kept']).meta({
  description: 'Mailed: the mail is on its way through SMTP. Kept: the studio has no SMTP (SMTP_URL): the mail is kept on the server and Link is the invitation link, for the inviter to pass on',
});
export type InvitationDelivery = z.infer<typeof InvitationDelivery>;

export const Invitation = z
  .object({
    Id: z.uuid(),
    /** The invited account's id: an existing account of the address, else the id the new account will have. */
    UserId: z.uuid().meta({ description: 'The id of the account the invitation is for (the address’s account, or the one accepting will make): the resend call names it' }),
    OrganizationId: z.uuid(),
    Email: z.string(),
    Permissions: PermissionEntries,
    InvitedById: z.uuid(),
    CreatedAtUtc: z.string(),
    ExpiresAtUtc: z.string(),
    Delivery: InvitationDelivery,
    Link: z.string().nullable().meta({ description: 'The invitation link when Delivery is Kept (shown to the inviter, never stored); null when it was mailed' }),
  })
  .meta({ id: 'Invitation' });
export type Invitation = z.infer<typeof Invitation>;

export const InvitationDescription = z
  .object({
    Id: z.uuid(),
    OrganizationId: z.uuid(),
    OrganizationName: z.string(),
    InvitedByName: z.string().meta({ description: 'The name of the member who sent (or last re-sent) the invitation' }),
    Email: z.string().meta({ description: 'The invited address' }),
    State: z.enum([InvitationState.Open, InvitationState.Used, InvitationState.Expired]),
    ExpiresAtUtc: z.string(),
    AccountExists: z.boolean().meta({ description: 'The address has an account: accepting joins with it (signed in as it), instead of making one' }),
  })
  .meta({ id: 'InvitationDescription' });
export type InvitationDescription = z.infer<typeof InvitationDescription>;

export const InvitationAccept = z
  .object({
    Token: z.string().meta({ description: 'The token of the invitation link (its `token` parameter)' }),
    Name: z.string().optional().meta({ description: 'A new account’s full name (required when the address has no account; ignored otherwise)' }),
    FirstName: z.string().optional().meta({ description: 'Omitted or empty: the first word of Name' }),
    Password: z.string().optional().meta({ description: 'A new account’s password, 8 to 128 characters (required when the address has no account; ignored otherwise)' }),
  })
  .strict()
  .meta({ id: 'InvitationAccept' });
export type InvitationAccept = z.infer<typeof InvitationAccept>;

export type InvitationAcceptField = 'Name' | 'FirstName' | 'Password';

/** The accept form's rule for a new account (section 5's messages), run by the screen as the user
 * submits and by the server on what arrives. Joining with an existing account has no fields. */
export function invitationAcceptFormErrors(input: Pick<InvitationAccept, InvitationAcceptField>): Partial<Record<InvitationAcceptField, FormError>> {
  const checks: Array<[InvitationAcceptField, FormError | null]> = [
    ['Name', validateName(input.Name)],
    ['FirstName', input.FirstName?.trim() ? validateName(input.FirstName) : null],
    ['Password', validateRequired(input.Password, 'domain_password_required') ?? validatePassword(input.Password)],
  ];
  return Object.fromEntries(checks.filter(([, e]) => e !== null));
}

/** The invite form's rule for the address (the permissions are the permission editor's: section 6). */
export function invitationFormErrors(input: Pick<InvitationRequest, 'Email'>): Partial<Record<'Email', FormError>> {
  const email = validateEmail(input.Email, { required: true });
  return email ? { Email: email } : {};
}

const TooManyInvitations = {
  description: 'Too many invitations from this member, or to this address, in the last hour: a body naming the limit (Field Email or body, Code tooManyInvitations) and Retry-After seconds',
  content: { 'application/json': { schema: BadRequestBodySchema } },
};

export const createInvitation = {
  method: 'post',
  path: '/v1/users/invitation',
  tags,
  summary: 'Invites an address into the organization with the given permissions: a single-use link, valid for a week, is mailed (or, without SMTP, returned as Link)',
  description: 'Manage-user access at organization scope. An address that is already a member is a 400 at Email',
  request: { body: jsonBody(InvitationRequest) },
  responses: { ...mailLinkErrors, 201: jsonContent(Invitation, 'The invitation'), ...writeErrors, 429: TooManyInvitations },
} as const satisfies RouteConfig;

export const resendInvitation = {
  method: 'post',
  path: '/v1/users/{userId}/invitation',
  tags,
  summary: 'Mails the invitation of this (not yet joined) user again with a new link, valid for a week: the earlier link stops working',
  description: 'Manage-user access at organization scope. A user with no invitation open or expired in this organization: 404',
  request: { params: idParams('userId') },
  responses: { ...mailLinkErrors, 204: noContent, ...errors, 429: TooManyInvitations },
} as const satisfies RouteConfig;

const InvitationParams = idParams('invitationId');
const NotFoundOrWrongToken = { description: 'No such invitation, or the token is not its token (the same answer: no body)' };

export const getInvitation = {
  method: 'get',
  path: '/internal/invitations/{invitationId}',
  tags,
  summary: 'What an invitation link invites to (for the accept screen): the organization, who invited, the address, and whether it is open, used or expired',
  description: 'Anyone holding the link’s token',
  request: { params: InvitationParams, query: z.object({ token: z.string().min(1).max(200).meta({ description: 'The token of the invitation link' }) }) },
  responses: { 200: jsonContent(InvitationDescription, 'The invitation'), 400: errors[400], 404: NotFoundOrWrongToken },
} as const satisfies RouteConfig;

export const acceptInvitation = {
  method: 'put',
  path: '/internal/invitations/{invitationId}',
  tags,
  summary: 'Accepts an invitation: makes the account (Name, Password) or joins with the signed-in account of the invited address, gives it exactly the invited permissions, and signs it in',
  description: 'Anyone holding the link’s token. The token is used up',
  request: { params: InvitationParams, body: jsonBody(InvitationAccept) },
  responses: {
    204: noContent,
    400: { ...writeErrors[400], description: 'A field is not valid, or the invitation was already used or has expired: each named (Token, Name, FirstName, Password) with its message' },
    403: {
      description:
        'The address has an account and the caller is not signed in as it (Code invitationOtherAccount), or a session cookie without its x-xsrf-token (no body); or the organization’s seats are at the ExtraSeats cap now (the allowance plus the add-on’s MaxOverage): a body naming it (Field body, Code addOnCapReached, Params.addOn ExtraSeats, cap, used)',
      content: { 'application/json': { schema: BadRequestBodySchema } },
    },
    404: NotFoundOrWrongToken,
    413: writeErrors[413],
  },
} as const satisfies RouteConfig;

// ── Pending invitations (the users screen's list; not in the specification's call list: under
// /internal like the studio's other screen calls) ────────────────────────────────────────────

export const PendingInvitation = z
  .object({
    Id: z.uuid(),
    UserId: z.uuid().meta({ description: 'What POST /v1/users/{userId}/invitation (resend) names' }),
    Email: z.string(),
    Permissions: PermissionEntries,
    InvitedById: z.uuid(),
    InvitedByName: z.string().nullable(),
    CreatedAtUtc: z.string(),
    ExpiresAtUtc: z.string(),
    State: z.enum([InvitationState.Open, InvitationState.Expired]).meta({ description: 'Open: the link works; Expired: resend it' }),
  })
  .meta({ id: 'PendingInvitation' });
export type PendingInvitation = z.infer<typeof PendingInvitation>;

export const listPendingInvitations = {
  method: 'get',
  path: '/internal/invitations',
  tags,
  summary: 'The organization’s invitations not yet accepted (open or expired), newest first: manage-user access at organization scope',
  responses: { 200: jsonContent(z.array(PendingInvitation), 'The pending invitations'), ...errors },
} as const satisfies RouteConfig;

export const cancelInvitation = {
  method: 'delete',
  path: '/internal/invitations/{invitationId}',
  tags,
  summary: 'Withdraws an invitation not yet accepted: its link stops working. Manage-user access at organization scope; an accepted one, or another organization’s: 404',
  request: { params: idParams('invitationId') },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;
