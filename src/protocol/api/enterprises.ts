// Enterprises and sales codes (issue 33; specification section 7 "Images and admin": GET
// enterprises, organizations and users under /internal/enterprises, PUT …/organizations/{id}/access
// (204), PATCH …/organizations/{id} (JSON; 200), GET /internal/sales-codes/{salesCodeName}/owning-user).
// Who may call: src/domain/enterprises.ts; served by sync-server/api/enterprises.ts. These are
// server-held staff tools (no device copy): the screens say so offline.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import {
  ENTERPRISE_DISPLAY_NAME_MAX_LENGTH,
  ENTERPRISE_FILTER_MAX_LENGTH,
  ENTERPRISE_NOTES_MAX_LENGTH,
  ENTERPRISE_PLAN_LABEL_MAX_LENGTH,
  SALES_CODE_MAX_LENGTH,
  SALES_CODE_MIN_LENGTH,
} from '../../domain/enterprises.ts';
import { errors, idParams, IfMatchHeader, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Enterprises'];
const ACCESS = 'Admins (every enterprise) and users with reseller access (the enterprises they are a user of; any other is a 404, as one that does not exist); anyone else 403 (no body).';

export const EnterpriseSalesCode = z
  .object({
    Name: z.string().meta({ description: 'The code as handed out (matched without regard to case)' }),
    OwnerUserId: z.string().nullable().meta({ description: 'The reseller who owns it; null: no one does any more' }),
    OwnerName: z.string().nullable(),
    CreatedAtUtc: z.string(),
  })
  .meta({ id: 'EnterpriseSalesCode' });

export const EnterpriseSummary = z
  .object({
    Id: z.string(),
    Name: z.string(),
    OrganizationCount: z.number().int(),
    UserCount: z.number().int(),
    ModifiedAtUtc: z.string(),
  })
  .meta({ id: 'EnterpriseSummary' });
export type EnterpriseSummary = z.infer<typeof EnterpriseSummary>;

export const Enterprise = EnterpriseSummary.extend({
  CreatedAtUtc: z.string(),
  SalesCodes: z.array(EnterpriseSalesCode).meta({ description: 'Its sales codes, by name' }),
}).meta({ id: 'Enterprise' });
export type Enterprise = z.infer<typeof Enterprise>;

export const EnterpriseOrganization = z
  .object({
    EnterpriseId: z.string(),
    OrganizationId: z.string(),
    Name: z.string().meta({ description: 'The organization’s own name' }),
    DisplayName: z.string().nullable().meta({ description: 'What the enterprise calls it; null: its own name' }),
    PlanLabel: z.string().nullable().meta({ description: 'The plan the enterprise sold it, as the enterprise names it' }),
    Notes: z.string().nullable(),
    Deleted: z.boolean().meta({ description: 'The organization was deleted: it can no longer be opened' }),
    CallerIsMember: z.boolean().meta({ description: 'Whether the caller is a member: if not, PUT …/access makes them one' }),
    AddedAtUtc: z.string(),
    ModifiedAtUtc: z.string().meta({ description: 'Of the enterprise’s fields: the ETag, and what If-Match names' }),
  })
  .meta({ id: 'EnterpriseOrganization' });
export type EnterpriseOrganization = z.infer<typeof EnterpriseOrganization>;

export const EnterpriseUser = z
  .object({ Id: z.string(), Name: z.string(), Email: z.string(), AddedAtUtc: z.string() })
  .meta({ id: 'EnterpriseUser' });
export type EnterpriseUser = z.infer<typeof EnterpriseUser>;

const text = (max: number, what: string) =>
  z
    .string()
    .max(max * 4)
    .nullable()
    .optional()
    .meta({ description: `${what}, at most ${max} characters; null or "" clears it; left out: unchanged` });

export const EnterpriseOrganizationPatch = z
  .object({
    DisplayName: text(ENTERPRISE_DISPLAY_NAME_MAX_LENGTH, 'What the enterprise calls the organization'),
    PlanLabel: text(ENTERPRISE_PLAN_LABEL_MAX_LENGTH, 'The plan the enterprise sold it'),
    Notes: text(ENTERPRISE_NOTES_MAX_LENGTH, 'The enterprise’s notes about it'),
  })
  .strict()
  .meta({ id: 'EnterpriseOrganizationPatch' });
export type EnterpriseOrganizationPatch = z.infer<typeof EnterpriseOrganizationPatch>;

const ListQuery = z.object({
  ...PagingQuery,
  filter: z
    .string()
    .max(ENTERPRISE_FILTER_MAX_LENGTH * 4)
    .optional()
    .meta({ description: `Words the name (or e-mail address) contains, without regard to case; at most ${ENTERPRISE_FILTER_MAX_LENGTH} characters` }),
});

const enterpriseParams = idParams('enterpriseId');
const organizationParams = idParams('enterpriseId', 'organizationId');

export const listEnterprises = {
  method: 'get',
  path: '/internal/enterprises',
  tags,
  summary: 'The enterprises the caller may see, by name',
  description: ACCESS,
  request: { query: ListQuery },
  responses: { 200: jsonContent(PagedOf(EnterpriseSummary), 'A page of enterprises'), ...errors },
} as const satisfies RouteConfig;

export const getEnterprise = {
  method: 'get',
  path: '/internal/enterprises/{enterpriseId}',
  tags,
  summary: 'An enterprise, with its sales codes',
  description: ACCESS,
  request: { params: enterpriseParams },
  responses: { 200: jsonContent(Enterprise, 'The enterprise'), ...errors },
} as const satisfies RouteConfig;

export const listEnterpriseOrganizations = {
  method: 'get',
  path: '/internal/enterprises/{enterpriseId}/organizations',
  tags,
  summary: 'The organizations of an enterprise, by the name the enterprise gives them',
  description: `${ACCESS} filter: the organization’s name or the enterprise’s name for it.`,
  request: { params: enterpriseParams, query: ListQuery },
  responses: { 200: jsonContent(PagedOf(EnterpriseOrganization), 'A page of its organizations'), ...errors },
} as const satisfies RouteConfig;

export const getEnterpriseOrganization = {
  method: 'get',
  path: '/internal/enterprises/{enterpriseId}/organizations/{organizationId}',
  tags,
  summary: 'One organization of an enterprise (404: the enterprise does not hold it)',
  description: ACCESS,
  request: { params: organizationParams },
  responses: { 200: jsonContent(EnterpriseOrganization, 'The organization, as the enterprise keeps it'), ...errors },
} as const satisfies RouteConfig;

export const updateEnterpriseOrganization = {
  method: 'patch',
  path: '/internal/enterprises/{enterpriseId}/organizations/{organizationId}',
  tags,
  summary: 'Changes what the enterprise keeps about one of its organizations: its name there, its plan, notes',
  description: `${ACCESS} Each field’s problem is a 400 at its name. If-Match: the ModifiedAtUtc the change was made on (a stale one is a 412 with the organization as it now is).`,
  request: { params: organizationParams, headers: IfMatchHeader, body: jsonBody(EnterpriseOrganizationPatch) },
  responses: { 200: jsonContent(EnterpriseOrganization, 'The organization as saved'), ...writeErrors, ...preconditionFailed(EnterpriseOrganization) },
} as const satisfies RouteConfig;

export const grantEnterpriseOrganizationAccess = {
  method: 'put',
  path: '/internal/enterprises/{enterpriseId}/organizations/{organizationId}/access',
  tags,
  summary: 'Makes the caller a member of one of the enterprise’s organizations (every flag at Organization scope), so it opens in the studio; an existing membership stays as it is',
  description: `${ACCESS} A deleted organization is a 404. The session gets a new id (a privilege change).`,
  request: { params: organizationParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

export const listEnterpriseUsers = {
  method: 'get',
  path: '/internal/enterprises/{enterpriseId}/users',
  tags,
  summary: 'The users of an enterprise (the resellers who manage it), by name',
  description: `${ACCESS} filter: name or e-mail address.`,
  request: { params: enterpriseParams, query: ListQuery },
  responses: { 200: jsonContent(PagedOf(EnterpriseUser), 'A page of its users'), ...errors },
} as const satisfies RouteConfig;

export const SalesCodeOwner = z
  .object({
    Id: z.string(),
    Name: z.string(),
    Email: z.string(),
    EnterpriseId: z.string(),
    EnterpriseName: z.string(),
    SalesCode: z.string().meta({ description: 'The code as handed out' }),
  })
  .meta({ id: 'SalesCodeOwner' });
export type SalesCodeOwner = z.infer<typeof SalesCodeOwner>;

export const getSalesCodeOwner = {
  method: 'get',
  path: '/internal/sales-codes/{salesCodeName}/owning-user',
  tags,
  summary: 'The reseller who owns a sales code, and its enterprise',
  description:
    `${ACCESS.replace('enterprises they are a user of', 'codes of enterprises they are a user of')} ` +
    `A code (${SALES_CODE_MIN_LENGTH} to ${SALES_CODE_MAX_LENGTH} letters, digits and single dashes, matched without regard to case) that does not exist, or that no one owns, is a 404.`,
  request: { params: z.object({ salesCodeName: z.string().max(1000).meta({ param: { name: 'salesCodeName', in: 'path' }, example: 'CASTAWAY-DEMO' }) }) },
  responses: { 200: jsonContent(SalesCodeOwner, 'Its owner'), ...errors },
} as const satisfies RouteConfig;
