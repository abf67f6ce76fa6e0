// The support inbox (issue 33: "Contact support reaches someone"): the enquiries of the contact
// form (POST /internal/custom-support, src/protocol/api/session.ts) as admin and support users
// read them in the studio, newest first, and mark them handled. Not in the specification's call
// list: under /internal like the studio's other staff calls. Served by sync-server/api/support.ts.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { ContactEnquirySchema } from '../entities.ts';
import { enumListQuery, errors, idParams, jsonBody, jsonContent, PagedOf, PagingQuery, writeErrors } from './common.ts';

const tags = ['Support'];

export const SUPPORT_ENQUIRY_STATES = ['Open', 'Handled'] as const;
export type SupportEnquiryState = (typeof SUPPORT_ENQUIRY_STATES)[number];

export const SupportEnquiry = z
  .object({
    Id: z.string(),
    CreatedAtUtc: z.string(),
    State: z.enum(SUPPORT_ENQUIRY_STATES),
    HandledAtUtc: z.string().nullable(),
    HandledByName: z.string().nullable(),
    /** Who sent it: the signed-in user (their account may have changed since: the form's own name and address are in Enquiry). */
    UserId: z.string().nullable(),
    UserEmail: z.string().nullable(),
    OrganizationId: z.string().nullable(),
    OrganizationName: z.string().nullable(),
    Enquiry: ContactEnquirySchema.partial().meta({ description: 'The contact form as sent (AdditionalInfo kept to 2048 characters, BrowserLocale to 255)' }),
  })
  .meta({ id: 'SupportEnquiry' });
export type SupportEnquiry = z.infer<typeof SupportEnquiry>;

export const SupportEnquiriesQuery = z.object({
  ...PagingQuery,
  state: enumListQuery(SUPPORT_ENQUIRY_STATES).meta({ description: 'Open, Handled or both (comma-joined; none: both)' }),
});

const staffOnly = { 403: { description: 'The caller is neither admin nor support, or sent no x-xsrf-token (no body)' } };

export const listSupportEnquiries = {
  method: 'get',
  path: '/internal/support/enquiries',
  tags,
  summary: 'The support inbox: contact enquiries, newest first (admin and support users)',
  request: { query: SupportEnquiriesQuery },
  responses: { 200: jsonContent(PagedOf(SupportEnquiry), 'A page of enquiries'), ...errors, ...staffOnly },
} as const satisfies RouteConfig;

export const SupportEnquiryUpdate = z.object({ Handled: z.boolean().meta({ description: 'true: handled (by the caller, now); false: open again' }) }).strict().meta({ id: 'SupportEnquiryUpdate' });

export const updateSupportEnquiry = {
  method: 'patch',
  path: '/internal/support/enquiries/{enquiryId}',
  tags,
  summary: 'Marks an enquiry handled, or open again (admin and support users)',
  request: { params: idParams('enquiryId'), body: jsonBody(SupportEnquiryUpdate) },
  responses: { 200: jsonContent(SupportEnquiry, 'The enquiry as it now is'), ...writeErrors, ...staffOnly },
} as const satisfies RouteConfig;
