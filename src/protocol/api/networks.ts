// Networks, specification section 7 "Programs, networks, playlists, members".
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { Network, NetworkCreate, NetworkPatch } from './schemas.ts';
import { BoolQuery, createErrors, errors, idParams, IdListQuery, IfMatchHeader, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Networks'];
const NetworkParams = idParams('networkId');

export const listNetworks = {
  method: 'get',
  path: '/v1/networks',
  tags,
  summary: 'The networks the caller sees (a permission on it, or on one of its programs), by name',
  request: { query: z.object({ ...PagingQuery, networkIds: IdListQuery, includeDeleted: BoolQuery, permissionFilter: z.string().max(200).optional() }) },
  responses: { 200: jsonContent(PagedOf(Network), 'A page of networks'), ...errors },
} as const satisfies RouteConfig;

export const getNetwork = {
  method: 'get',
  path: '/v1/networks/{networkId}',
  tags,
  summary: 'One network',
  request: { params: NetworkParams },
  responses: { 200: jsonContent(Network, 'The network'), ...errors },
} as const satisfies RouteConfig;

export const createNetwork = {
  method: 'post',
  path: '/v1/networks',
  tags,
  summary: 'Creates a network (mutation network.create): manage-organization-settings access',
  request: { body: jsonBody(NetworkCreate) },
  responses: { 201: jsonContent(Network, 'The new network'), ...createErrors },
} as const satisfies RouteConfig;

export const updateNetwork = {
  method: 'patch',
  path: '/v1/networks/{networkId}',
  tags,
  summary: 'Changes a network (mutation network.update)',
  request: { params: NetworkParams, headers: IfMatchHeader, body: jsonBody(NetworkPatch) },
  responses: { 200: jsonContent(Network, 'The network after the change'), ...writeErrors, ...preconditionFailed(Network) },
} as const satisfies RouteConfig;

export const deleteNetwork = {
  method: 'delete',
  path: '/v1/networks/{networkId}',
  tags,
  summary: 'Deletes a network (mutation network.delete)',
  request: { params: NetworkParams, headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(Network) },
} as const satisfies RouteConfig;
