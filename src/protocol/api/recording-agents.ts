// Recording agents, specification section 7 ("Recordings and recording agents"; issue 34): the
// machines that push recordings, each with a token (shown once) and the programs it may push to.
// Served by sync-server/api/recording-agents.ts; the rules are src/domain/recording-agents.ts.
//
//   GET    /v1/recording-agents[?includeProgramIds=true] ──> the organization's agents
//   POST   /v1/recording-agents { Name, ProgramIds }     ──> 201 with Token, shown this once
//   PATCH  /v1/recording-agents/{id} { Name?, ProgramIds?, RenewToken? } ──> the agent (a new Token when renewed)
//   DELETE /v1/recording-agents/{id}                     ──> 204, its token refused from then on
//
// Agents are the organization's equipment, so they go as the organization's settings go
// (src/domain/settings.ts): read with HasAuditAccess or HasManageOrganizationSettingsAccess at
// organization scope, changed with the latter. They are server-held (a token is minted by the
// server and only its hash kept): plain REST, not named mutations, and the screen says offline
// that it needs the connection.
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import { RECORDING_AGENT_TOKEN_PREFIX, validateRecordingAgentName, validateRecordingAgentPrograms } from '../../domain/recording-agents.ts';
import type { DomainIssueParams } from './common.ts';
import { BoolQuery, checkedString, errors, idParams, jsonBody, jsonContent, noContent, writeErrors } from './common.ts';

const tags = ['Recording agents'];

export const RecordingAgent = z
  .object({
    Id: z.uuid(),
    OrganizationId: z.uuid(),
    Name: z.string(),
    /** The programs it may push to: only with includeProgramIds=true on the list (always on one agent). */
    ProgramIds: z.array(z.uuid()).optional(),
    CreatedAtUtc: z.string(),
    ModifiedAtUtc: z.string(),
    /** When it last pushed (to the minute); null: never. */
    LastSeenAtUtc: z.string().nullable(),
  })
  .meta({ id: 'RecordingAgent', description: 'A machine that pushes recordings (its token is never shown again after the create or a renewal)' });
export type RecordingAgent = z.infer<typeof RecordingAgent>;

export const RecordingAgentWithToken = RecordingAgent.extend({
  Token: z.string().meta({ description: `${RECORDING_AGENT_TOKEN_PREFIX} and 43 characters: the password of HTTP Basic with the agent's Id as the user (or Bearer <Token>). Shown this once` }),
}).meta({ id: 'RecordingAgentWithToken', description: 'The agent with its token (shown this once)' });
export type RecordingAgentWithToken = z.infer<typeof RecordingAgentWithToken>;

const Name = checkedString((v) => validateRecordingAgentName(v)).meta({ description: 'To tell agents apart: required, 100 characters at most', example: 'Studio 2 encoder' });
const ProgramIds = z
  .array(z.string())
  .superRefine((ids, ctx) => {
    for (const { index, error } of validateRecordingAgentPrograms(ids)) {
      ctx.addIssue({ code: 'custom', message: error.type, path: index === null ? [] : [index], params: { formError: error } satisfies DomainIssueParams });
    }
  })
  .meta({ description: 'The programs of the organization it may push to: at least one, each once' });

export const RecordingAgentCreate = z.object({ Name, ProgramIds }).strict().meta({ id: 'RecordingAgentCreate' });
export type RecordingAgentCreate = z.infer<typeof RecordingAgentCreate>;

export const RecordingAgentPatch = z
  .object({
    Name: Name.optional(),
    ProgramIds: ProgramIds.optional(),
    RenewToken: z.boolean().optional().meta({ description: 'true: a new token, answered this once; the old one is refused from then on' }),
  })
  .strict()
  .meta({ id: 'RecordingAgentPatch' });
export type RecordingAgentPatch = z.infer<typeof RecordingAgentPatch>;

export const RecordingAgentPatched = RecordingAgent.extend({ Token: z.string().optional().meta({ description: 'The new token, when RenewToken was asked: shown this once' }) }).meta({ id: 'RecordingAgentPatched' });

/** The form's rules, run by the screen before anything is sent (the server runs them through the schema). */
export function recordingAgentFormErrors(input: { Name: string; ProgramIds: readonly string[] }): Record<string, ReturnType<typeof validateRecordingAgentName>> {
  const out: Record<string, ReturnType<typeof validateRecordingAgentName>> = {};
  const name = validateRecordingAgentName(input.Name);
  if (name) out['Name'] = name;
  for (const { index, error } of validateRecordingAgentPrograms(input.ProgramIds)) out[index === null ? 'ProgramIds' : `ProgramIds.${index}`] = error;
  return out;
}

const AgentParams = idParams('recordingAgentId');
const access = 'Read: HasAuditAccess or HasManageOrganizationSettingsAccess at organization scope; write: HasManageOrganizationSettingsAccess at organization scope';

export const listRecordingAgents = {
  method: 'get',
  path: '/v1/recording-agents',
  tags,
  summary: 'The organization’s recording agents, by name',
  description: access,
  request: { query: z.object({ includeProgramIds: BoolQuery.optional().meta({ description: 'true: each agent with the programs it may push to' }) }) },
  responses: { 200: jsonContent(z.array(RecordingAgent), 'The agents (never their tokens)'), ...errors },
} as const satisfies RouteConfig;

export const createRecordingAgent = {
  method: 'post',
  path: '/v1/recording-agents',
  tags,
  summary: 'Makes a recording agent: the answer carries its token, which is never shown again',
  description: `${access}. A program id that is not one of the organization's is a 400 at ProgramIds.<i>`,
  request: { body: jsonBody(RecordingAgentCreate) },
  responses: { 201: jsonContent(RecordingAgentWithToken, 'The new agent and its token'), ...writeErrors },
} as const satisfies RouteConfig;

export const updateRecordingAgent = {
  method: 'patch',
  path: '/v1/recording-agents/{recordingAgentId}',
  tags,
  summary: 'Renames a recording agent, changes the programs it may push to, or renews its token',
  description: access,
  request: { params: AgentParams, body: jsonBody(RecordingAgentPatch) },
  responses: { 200: jsonContent(RecordingAgentPatched, 'The agent (with its new token when renewed)'), ...writeErrors },
} as const satisfies RouteConfig;

export const deleteRecordingAgent = {
  method: 'delete',
  path: '/v1/recording-agents/{recordingAgentId}',
  tags,
  summary: 'Deletes a recording agent: its token is refused from then on (its recordings stay)',
  description: access,
  request: { params: AgentParams },
  responses: { 204: noContent, ...errors },
} as const satisfies RouteConfig;
