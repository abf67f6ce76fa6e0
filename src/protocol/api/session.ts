// Users, account and session, specification section 7: sign-in, the session and its XSRF token,
// sign-out, the caller's own profile and organizations, and the contact enquiry of the contact
// dialog (section 5 for its checks and cuts).
//
//   loggedOut ──POST login (200)──> activated | unactivated ──POST logout / POST /logout──> loggedOut
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { INTERFACE_LOCALES } from '../../domain/locales.ts';
import { formError } from '../../domain/form-errors.ts';
import { validateName } from '../../domain/validators.ts';
import { ContactEnquirySchema, LoginRequestSchema, OrganizationSchema, PermissionEntrySchema, SessionSchema, UserSchema, XsrfSchema } from '../entities.ts';
import { checkedString, errors, idParams, jsonBody, jsonContent, noContent, writeErrors, mailLinkErrors } from './common.ts';

const tags = ['Session'];

export const Session = SessionSchema.meta({ id: 'Session' });
export const User = UserSchema.meta({ id: 'User' });
export const Organization = OrganizationSchema.meta({ id: 'Organization' });
export const LoginRequest = LoginRequestSchema.meta({ id: 'LoginRequest' });
export const Xsrf = XsrfSchema.meta({ id: 'Xsrf' });
export const ContactEnquiry = ContactEnquirySchema.meta({ id: 'ContactEnquiry' });

/** PATCH /internal/users/me: the caller's own profile, each field checked by its section 5 rule. */
export const UserMePatch = z
  .object({
    Name: checkedString((v) => validateName(v)),
    FirstName: z.string(),
    InterfaceLanguage: checkedString((v) => ((INTERFACE_LOCALES as readonly string[]).includes(v) ? null : formError('invalid'))).meta({
      description: `One of ${INTERFACE_LOCALES.join(', ')}`,
    }),
  })
  .partial()
  .strict()
  .meta({ id: 'UserMePatch' });

export const OrganizationPermissions = z.object({ OrganizationId: z.uuid(), Permissions: z.array(PermissionEntrySchema) }).meta({ id: 'OrganizationPermissions' });

const Unauthorized = errors[401];
const Forbidden = { description: 'A session cookie without its x-xsrf-token (no body)' };
const TooManyAttempts = { description: 'Too many failed logins for this address: try again after Retry-After seconds (no body)' };

export const login = {
  method: 'post',
  path: '/internal/session/login',
  tags,
  summary: 'Signs in with e-mail and password (and, for an account with two-factor sign-in on, MfaCode or RecoveryCode): sets the HttpOnly session cookie',
  description:
    'Two-factor sign-in is one call sent twice: with the password only, an account that has it on is answered 400 at MfaCode with Code mfaRequired (the password was right; no session yet). The same call again with MfaCode (or RecoveryCode) signs in. A wrong, reused or malformed code is a 400 at its field; every attempt counts against the address as a wrong password does (429).',
  request: { body: jsonBody(LoginRequest) },
  responses: {
    200: jsonContent(Session, 'Signed in: the session'),
    400: { ...writeErrors[400], description: 'A field is not valid, or (Code mfaRequired at MfaCode) the account needs its second factor' },
    401: { description: 'Unknown e-mail address or wrong password (no body)' },
    413: writeErrors[413],
    429: TooManyAttempts,
  },
} as const satisfies RouteConfig;

export const getSession = {
  method: 'get',
  path: '/internal/session',
  tags,
  summary: 'The session: loggedOut, or the signed-in user',
  responses: { 200: jsonContent(Session, 'The session') },
} as const satisfies RouteConfig;

export const getXsrf = {
  method: 'get',
  path: '/internal/session/xsrf',
  tags,
  summary: 'The XSRF token every write of this session sends in x-xsrf-token',
  responses: { 200: jsonContent(Xsrf, 'The token'), 401: { description: 'No session cookie (an API key needs no token) (no body)' } },
} as const satisfies RouteConfig;

export const logout = {
  method: 'post',
  path: '/internal/session/logout',
  tags,
  summary: 'Ends the session (and clears its cookie)',
  responses: { 204: noContent, 403: Forbidden },
} as const satisfies RouteConfig;

export const logoutAndRedirect = {
  method: 'post',
  path: '/logout',
  tags,
  summary: 'Ends the session, then sends the browser to redirectUrl when that is a place on this site',
  request: {
    query: z.object({
      redirectUrl: z.string().optional().meta({ description: 'A path on this site; "null" (as the navigation sends it) or another site: no redirect', example: '/login' }),
    }),
  },
  responses: {
    204: noContent,
    302: { description: 'Signed out: go to the Location (a path on this site)' },
    403: Forbidden,
  },
} as const satisfies RouteConfig;

export const updateMe = {
  method: 'patch',
  path: '/internal/users/me',
  tags,
  summary: 'Changes the caller’s own name or interface language',
  request: { body: jsonBody(UserMePatch) },
  responses: { 200: jsonContent(User, 'The user after the change'), 400: writeErrors[400], 401: Unauthorized, 403: Forbidden, 413: writeErrors[413] },
} as const satisfies RouteConfig;

export const listMyOrganizations = {
  method: 'get',
  path: '/internal/users/me/organizations',
  tags,
  summary: 'The organizations the caller belongs to, by name, with the caller’s permission entries in each',
  responses: { 200: jsonContent(z.array(Organization), 'The organizations'), 401: Unauthorized },
} as const satisfies RouteConfig;

export const getMyPermissions = {
  method: 'get',
  path: '/internal/users/me/organizations/permissions',
  tags,
  summary: 'The caller’s permission entries in the organization of the call (x-organization-id)',
  responses: { 200: jsonContent(OrganizationPermissions, 'The entries'), 401: Unauthorized, 404: errors[404] },
} as const satisfies RouteConfig;

export const getMyOrganization = {
  method: 'get',
  path: '/internal/users/me/organizations/{organizationId}',
  tags,
  summary: 'One organization the caller belongs to (404 for any other)',
  request: { params: idParams('organizationId') },
  responses: { 200: jsonContent(Organization, 'The organization'), 401: Unauthorized, 404: errors[404] },
} as const satisfies RouteConfig;

export const sendSupportEnquiry = {
  method: 'post',
  path: '/internal/custom-support',
  tags: ['Support'],
  summary: 'Sends a contact enquiry to support (AdditionalInfo is kept to 2048 characters, BrowserLocale to 255)',
  request: { body: jsonBody(ContactEnquiry) },
  responses: { ...mailLinkErrors, 204: noContent, ...writeErrors },
} as const satisfies RouteConfig;
