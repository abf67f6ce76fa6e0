// Recording agents (issue 34; specification section 7; the routes: src/protocol/api/recording-agents.ts).
//
//   POST   /v1/recording-agents ──400 (Name, ProgramIds.<i>: not a program of this organization) ──> 201 { …, Token }
//   GET    /v1/recording-agents[?includeProgramIds] ──> the organization's agents that are not deleted
//   PATCH  /v1/recording-agents/{id} ──> 200 (RenewToken: a new Token, the old one refused from then on)
//   DELETE /v1/recording-agents/{id} ──> 204, its token refused from then on (401)
//   another organization's agent, a deleted one ──> 404, as one that does not exist
//
// Agents go as the organization's settings (settingsGuard: read with audit or organization
// settings access, written with the latter): which machines may add recordings is a setting of the
// organization, not of one person, so unlike an API key an agent outlives the person who made it.
// Only the token's hash is kept; a deleted agent stays (deleted) so its token is a plain 401,
// never one someone else now holds.
import { randomUUID } from 'node:crypto';
import type { Context } from 'hono';
import * as routes from '../../src/protocol/api/recording-agents.ts';
import type { RecordingAgent } from '../../src/protocol/api/recording-agents.ts';
import { RECORDING_AGENT_TOKEN_PREFIX } from '../../src/domain/recording-agents.ts';
import { formError } from '../../src/domain/form-errors.ts';
import { getAuth, newToken, sha256 } from '../auth.ts';
import { now } from '../app.ts';
import { badRequest, fieldError, notFound } from '../errors.ts';
import { nextModified } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { settingsGuard } from './settings.ts';
import { guarded, resourceApp } from './route.ts';

type AgentRow = { id: string; organization_id: string; name: string; created_at_utc: Date; modified_at_utc: Date; last_seen_at_utc: Date | null; program_ids?: string[] };

const COLUMNS = 'a.id, a.organization_id, a.name, a.created_at_utc, a.modified_at_utc, a.last_seen_at_utc';
const PROGRAM_IDS = `COALESCE((SELECT array_agg(p.program_id::text ORDER BY p.program_id) FROM recording_agent_programs p WHERE p.agent_id = a.id), '{}') AS program_ids`;
const iso = (d: Date) => new Date(d).toISOString();

function toWire(row: AgentRow): RecordingAgent {
  return {
    Id: row.id,
    OrganizationId: row.organization_id,
    Name: row.name,
    ...(row.program_ids ? { ProgramIds: row.program_ids } : {}),
    CreatedAtUtc: iso(row.created_at_utc),
    ModifiedAtUtc: iso(row.modified_at_utc),
    LastSeenAtUtc: row.last_seen_at_utc === null ? null : iso(row.last_seen_at_utc),
  };
}

const newAgentToken = () => RECORDING_AGENT_TOKEN_PREFIX + newToken();

/** Each id a live program of the organization, else a 400 at ProgramIds.<i> (one not the caller's
 *  organization's reads as one that does not exist). */
async function checkPrograms(q: Queryable, organizationId: string, ids: readonly string[]): Promise<string[]> {
  const lower = ids.map((id) => id.toLowerCase());
  const found = await q.query<{ id: string }>(`SELECT id::text AS id FROM programs WHERE organization_id = $1 AND NOT deleted AND id = ANY($2::uuid[])`, [organizationId, lower]);
  const known = new Set(found.map((r) => r.id));
  const missing = lower.map((id, i) => [id, i] as const).filter(([id]) => !known.has(id));
  if (missing.length > 0) throw badRequest(missing.map(([, i]) => fieldError(`ProgramIds.${i}`, formError('invalid', 'domain_recording_agent_program_unknown'))));
  return lower;
}

async function setPrograms(q: Queryable, agentId: string, programIds: readonly string[]): Promise<void> {
  await q.query(`DELETE FROM recording_agent_programs WHERE agent_id = $1`, [agentId]);
  await q.query(`INSERT INTO recording_agent_programs (agent_id, program_id) SELECT $1, unnest($2::uuid[])`, [agentId, programIds]);
}

async function loadAgent(q: Queryable, organizationId: string, id: string, forUpdate = false): Promise<AgentRow | null> {
  const [row] = await q.query<AgentRow>(
    `SELECT ${COLUMNS}, ${PROGRAM_IDS} FROM recording_agents a WHERE a.id = $1 AND a.organization_id = $2 AND NOT a.deleted${forUpdate ? ' FOR UPDATE' : ''}`,
    [id, organizationId],
  );
  return row ?? null;
}

const agentId = (c: Context) => (c.req.param('recordingAgentId') ?? '').toLowerCase();

export function recordingAgentRoutes() {
  return resourceApp()
    .openapi(guarded(routes.listRecordingAgents, settingsGuard('Organization', 'read')), async (c) => {
      const withPrograms = c.req.valid('query').includeProgramIds === true;
      const rows = await c.get('deps').store.query<AgentRow>(
        `SELECT ${COLUMNS}${withPrograms ? `, ${PROGRAM_IDS}` : ''} FROM recording_agents a WHERE a.organization_id = $1 AND NOT a.deleted ORDER BY lower(a.name), a.id`,
        [getAuth(c).organizationId],
      );
      return c.json(rows.map(toWire), 200);
    })
    .openapi(guarded(routes.createRecordingAgent, settingsGuard('Organization', 'write')), async (c) => {
      const deps = c.get('deps');
      const { user, organizationId } = getAuth(c);
      const body = c.req.valid('json');
      const at = now(deps);
      const token = newAgentToken();
      const id = randomUUID();
      const row = await deps.store.tx(async (q) => {
        const programIds = await checkPrograms(q, organizationId, body.ProgramIds);
        await q.query(
          `INSERT INTO recording_agents (id, organization_id, name, token_hash, created_at_utc, created_by_id, modified_at_utc, modified_by_id) VALUES ($1, $2, $3, $4, $5, $6, $5, $6)`,
          [id, organizationId, body.Name.trim(), sha256(token), at, user.Id],
        );
        await setPrograms(q, id, programIds);
        return (await loadAgent(q, organizationId, id))!;
      });
      return c.json({ ...toWire(row), Token: token }, 201);
    })
    .openapi(guarded(routes.updateRecordingAgent, settingsGuard('Organization', 'write')), async (c) => {
      const deps = c.get('deps');
      const { user, organizationId } = getAuth(c);
      const body = c.req.valid('json');
      const at = now(deps);
      const token = body.RenewToken === true ? newAgentToken() : null;
      const row = await deps.store.tx(async (q) => {
        const current = await loadAgent(q, organizationId, agentId(c), true);
        if (!current) throw notFound();
        if (body.ProgramIds !== undefined) await setPrograms(q, current.id, await checkPrograms(q, organizationId, body.ProgramIds));
        await q.query(
          `UPDATE recording_agents SET name = COALESCE($2, name), token_hash = COALESCE($3, token_hash), modified_at_utc = $4, modified_by_id = $5 WHERE id = $1`,
          [current.id, body.Name?.trim() ?? null, token === null ? null : sha256(token), nextModified(at, current.modified_at_utc), user.Id],
        );
        return (await loadAgent(q, organizationId, current.id))!;
      });
      return c.json({ ...toWire(row), ...(token !== null ? { Token: token } : {}) }, 200);
    })
    .openapi(guarded(routes.deleteRecordingAgent, settingsGuard('Organization', 'write')), async (c) => {
      const deps = c.get('deps');
      const { user, organizationId } = getAuth(c);
      const done = await deps.store.query(
        `UPDATE recording_agents SET deleted = true, modified_at_utc = $3, modified_by_id = $4 WHERE id = $1 AND organization_id = $2 AND NOT deleted RETURNING 1`,
        [agentId(c), organizationId, now(deps), user.Id],
      );
      if (done.length === 0) throw notFound();
      return c.body(null, 204);
    });
}
