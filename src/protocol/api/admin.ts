// Admin calls, specification section 7 "Images and admin" (section 6, "Grant access").
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { validateGuid } from '../../domain/validators.ts';
import { GrantOrganizationAccessSchema } from '../admin.ts';
import { errors, jsonBody, noContent, writeErrors, type DomainIssueParams } from './common.ts';

/** The body, its id checked as a GUID ('Not a valid GUID', 'required' for null) and lower-cased. */
export const GrantOrganizationAccess = GrantOrganizationAccessSchema.extend({
  OrganizationId: z
    .string()
    .nullable()
    .superRefine((value, ctx) => {
      const error = validateGuid(value, { required: true });
      if (error) ctx.addIssue({ code: 'custom', message: error.type, params: { formError: error } satisfies DomainIssueParams });
    })
    // Only a GUID gets here (a refused value stops the parse before its transform).
    .transform((id) => (id ?? '').toLowerCase()),
}).meta({ id: 'GrantOrganizationAccess' });

export const grantOrganizationAccess = {
  method: 'post',
  path: '/admin/users/me/organizations',
  tags: ['Admin'],
  summary: 'Makes the caller (an admin or support user) a member of the organization; an existing membership stays as it is',
  request: { body: jsonBody(GrantOrganizationAccess) },
  responses: {
    204: noContent,
    ...writeErrors,
    403: { description: 'The caller is neither admin nor support, or sent no x-xsrf-token (no body)' },
    404: errors[404],
  },
} as const satisfies RouteConfig;
