-- Recording agents (issue 34; sync-server/api/recording-agents.ts): machines that push recordings.
-- Only the token's hash is kept (shown once at the create). The programs an agent may push to are
-- rows of their own, so a deleted program takes its grants with it (ON DELETE CASCADE) and
-- "which agents push to this program" is an index away.
CREATE TABLE recording_agents (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  token_hash text NOT NULL UNIQUE,
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  last_seen_at_utc timestamptz,
  deleted boolean NOT NULL DEFAULT false
);
CREATE INDEX recording_agents_organization ON recording_agents (organization_id) WHERE NOT deleted;

CREATE TABLE recording_agent_programs (
  agent_id uuid NOT NULL REFERENCES recording_agents (id) ON DELETE CASCADE,
  program_id uuid NOT NULL REFERENCES programs (id) ON DELETE CASCADE,
  PRIMARY KEY (agent_id, program_id)
);
CREATE INDEX recording_agent_programs_program ON recording_agent_programs (program_id);
