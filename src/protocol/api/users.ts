// The organization's users and their permissions, specification section 7 "Users, account and
// session" and section 6.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { OrganizationUser, PermissionEntries } from './schemas.ts';
import { PermissionFlagsSchema } from '../entities.ts';
import { errors, idParams, IdListQuery, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, writeErrors } from './common.ts';

const tags = ['Users'];

export const UserProfileSchema = z.object({ Id: z.uuid(), Name: z.string(), FirstName: z.string(), ImageUrl: z.string().nullable() }).meta({ id: 'UserProfile' });

export const listUsers = {
  method: 'get',
  path: '/v1/users',
  tags,
  summary: 'Members of the organization with their permission entries (manage-user access)',
  request: { query: z.object({ ...PagingQuery, includeAll: z.string().max(10).optional() }) },
  responses: { 200: jsonContent(PagedOf(OrganizationUser), 'A page of users'), ...errors },
} as const satisfies RouteConfig;

export const getUser = {
  method: 'get',
  path: '/v1/users/{userId}',
  tags,
  summary: 'One member (the caller, or any with manage-user access)',
  request: { params: idParams('userId') },
  responses: { 200: jsonContent(OrganizationUser, 'The user'), ...errors },
} as const satisfies RouteConfig;

export const listUserProfiles = {
  method: 'get',
  path: '/v1/user-profiles',
  tags,
  summary: 'Names and pictures of members (CreatedById, ModifiedById), for any member',
  request: { query: z.object({ userIds: IdListQuery }) },
  responses: { 200: jsonContent(z.object({ Items: z.array(UserProfileSchema) }), 'The profiles'), ...errors },
} as const satisfies RouteConfig;

const UsersWithAccessQuery = z.object({ ...PagingQuery, filter: z.string().max(200).optional(), sortBy: z.string().max(50).optional() });

export const listNetworkUsers = {
  method: 'get',
  path: '/v1/networks/{networkId}/users',
  tags,
  summary: 'Members with any permission on the network (manage-user access there)',
  request: { params: idParams('networkId'), query: UsersWithAccessQuery },
  responses: { 200: jsonContent(PagedOf(OrganizationUser), 'A page of users'), ...errors },
} as const satisfies RouteConfig;

export const listProgramUsers = {
  method: 'get',
  path: '/v1/programs/{programId}/users',
  tags,
  summary: 'Members with any permission on the program (manage-user access there)',
  request: { params: idParams('programId'), query: UsersWithAccessQuery },
  responses: { 200: jsonContent(PagedOf(OrganizationUser), 'A page of users'), ...errors },
} as const satisfies RouteConfig;

export const setUserPermissions = {
  method: 'put',
  path: '/v1/users/{userId}/permissions',
  tags,
  summary: 'Sets a member’s complete list of permission entries (section 6)',
  request: { params: idParams('userId'), body: jsonBody(PermissionEntries) },
  responses: { 200: jsonContent(PermissionEntries, 'The entries as stored'), ...writeErrors },
} as const satisfies RouteConfig;

export const removeUser = {
  method: 'delete',
  path: '/v1/users/{userId}',
  tags,
  summary: 'Removes a member’s access to this organization (manage-user access at organization scope)',
  description:
    'Only the membership in the organization the caller acts in goes: the account and its memberships elsewhere stay. Removing yourself, or the last member who holds HasManageUserAccess at Organization scope, is a 400 naming userId. A user who is not a member here is a 404.',
  request: { params: idParams('userId') },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;

const ObjectPermissions = PermissionFlagsSchema.meta({
  id: 'ObjectPermissions',
  description: 'The flags the user holds on this one network or program (a missing flag is false; none on: the entry is taken out)',
});

const perObject = (kind: 'network' | 'program') =>
  `Manage-user access on the ${kind} (or at organization scope), and each flag given held there by the caller (403 otherwise). The user's other entries stay; the result is held to section 6 as a whole (one object type: a user at another scope is a 400 naming body; HasManageOrganizationSettingsAccess is a 400 naming it). Answers the user's complete entries.`;

const setObjectUserPermissions = <K extends 'network' | 'program', P extends string>(kind: K, path: P, scope: string) =>
  ({
    method: 'put',
    path,
    tags,
    summary: `Sets a member’s permissions within one ${kind} (section 6: ${scope} scope)`,
    description: perObject(kind),
    request: { params: idParams(`${kind}Id`, 'userId'), body: jsonBody(ObjectPermissions) },
    responses: { 200: jsonContent(PermissionEntries, 'The user’s entries as stored'), ...writeErrors },
  }) as const satisfies RouteConfig;

export const setNetworkUserPermissions = setObjectUserPermissions('network', '/v1/networks/{networkId}/users/{userId}/permissions', 'Network');
export const setProgramUserPermissions = setObjectUserPermissions('program', '/v1/programs/{programId}/users/{userId}/permissions', 'Program');

/** A member the caller could give access to a network or program: who they are, to pick from. */
export const EligibleUserProfileSchema = UserProfileSchema.extend({ Email: z.string() }).meta({ id: 'EligibleUserProfile' });

const EligibleQuery = z.object({ ...PagingQuery, filter: z.string().max(200).optional().meta({ description: 'Part of the name or e-mail address (any case)' }) });

const listEligibleProfiles = <K extends 'network' | 'program', P extends string>(kind: K, path: P) =>
  ({
    method: 'get',
    path,
    tags,
    summary: `Members who could be given access to the ${kind} (manage-user access there)`,
    description: `The organization's members who hold nothing on the ${kind} yet and whose entries could take one for it (section 6: one object type per user, so a member at Organization scope, who holds everything already, or at another scope is not listed), by name.`,
    request: { params: idParams(`${kind}Id`), query: EligibleQuery },
    responses: { 200: jsonContent(PagedOf(EligibleUserProfileSchema), 'A page of profiles'), ...errors },
  }) as const satisfies RouteConfig;

export const listNetworkEligibleProfiles = listEligibleProfiles('network', '/internal/networks/{networkId}/user-profiles/eligible');
export const listProgramEligibleProfiles = listEligibleProfiles('program', '/internal/programs/{programId}/user-profiles/eligible');
