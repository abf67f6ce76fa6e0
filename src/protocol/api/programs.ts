// Programs (shows), specification section 7 "Programs, networks, playlists, members".
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { Program, ProgramCreate, ProgramPatch } from './schemas.ts';
import { BoolQuery, createErrors, errors, idParams, IdListQuery, IfMatchHeader, jsonBody, jsonContent, noContent, PagedOf, PagingQuery, preconditionFailed, writeErrors } from './common.ts';

const tags = ['Programs'];
const ProgramParams = idParams('programId');

export const listPrograms = {
  method: 'get',
  path: '/v1/programs',
  tags,
  summary: 'The programs the caller holds any permission on, by name',
  request: { query: z.object({ ...PagingQuery, programIds: IdListQuery, networkIds: IdListQuery, includeDeleted: BoolQuery }) },
  responses: { 200: jsonContent(PagedOf(Program), 'A page of programs'), ...errors },
} as const satisfies RouteConfig;

export const getProgram = {
  method: 'get',
  path: '/v1/programs/{programId}',
  tags,
  summary: 'One program',
  request: { params: ProgramParams },
  responses: { 200: jsonContent(Program, 'The program'), ...errors },
} as const satisfies RouteConfig;

export const createProgram = {
  method: 'post',
  path: '/v1/programs',
  tags,
  summary: 'Creates a program (mutation program.create): HasCreateProgramAccess at organization scope or on its network',
  request: { body: jsonBody(ProgramCreate) },
  responses: { 201: jsonContent(Program, 'The new program'), ...createErrors },
} as const satisfies RouteConfig;

export const updateProgram = {
  method: 'patch',
  path: '/v1/programs/{programId}',
  tags,
  summary: 'Changes a program (mutation program.update): content and manage-settings access',
  request: { params: ProgramParams, headers: IfMatchHeader, body: jsonBody(ProgramPatch) },
  responses: { 200: jsonContent(Program, 'The program after the change'), ...writeErrors, ...preconditionFailed(Program) },
} as const satisfies RouteConfig;

export const deleteProgram = {
  method: 'delete',
  path: '/v1/programs/{programId}',
  tags,
  summary: 'Deletes a program (mutation program.delete)',
  request: { params: ProgramParams, headers: IfMatchHeader },
  responses: { 204: noContent, ...errors, ...preconditionFailed(Program) },
} as const satisfies RouteConfig;

export const listNetworkPrograms = {
  method: 'get',
  path: '/v1/networks/{networkId}/programs',
  tags,
  summary: 'The network’s programs the caller holds any permission on',
  request: { params: idParams('networkId'), query: z.object({ ...PagingQuery, programIds: IdListQuery, includeDeleted: BoolQuery }) },
  responses: { 200: jsonContent(PagedOf(Program), 'A page of programs'), ...errors },
} as const satisfies RouteConfig;

/** The programs moved into a network (PATCH /v1/networks/{networkId}/programs). */
export const NetworkProgramsMove = z
  .object({ ProgramIds: z.array(z.uuid()).min(1).max(500) })
  .strict()
  .meta({ id: 'NetworkProgramsMove', description: 'The programs to move into the network, from wherever they are now; all move or none does.' });

export const moveNetworkPrograms = {
  method: 'patch',
  path: '/v1/networks/{networkId}/programs',
  tags,
  summary: 'Moves programs into the network (mutation program.update with NetworkId, for each, in one transaction)',
  description:
    'Each program needs HasContentAccess and HasManageSettingsAccess, and the caller HasCreateProgramAccess in the network (a program goes only where its mover may create one). A program id the caller may not see, or repeated, is a 400 naming ProgramIds.',
  request: { params: idParams('networkId'), body: jsonBody(NetworkProgramsMove) },
  responses: { 204: noContent, ...writeErrors },
} as const satisfies RouteConfig;

