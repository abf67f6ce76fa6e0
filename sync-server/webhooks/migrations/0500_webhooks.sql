-- Webhooks (sync-server/webhooks): endpoints of an organization or of one of its networks, told of
-- changes to its rows; their events are made from row_revisions after the changes commit.
CREATE TABLE webhooks (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  -- null: the organization's webhook; else one network's (its programs and their rows too).
  network_id uuid,
  url text NOT NULL,
  description text,
  event_types jsonb NOT NULL,
  -- whsec_… (Standard Webhooks). The server signs with it, so it is kept as it is; it is shown
  -- only when made. After a rotation the previous one also signs until previous_secret_until.
  secret text NOT NULL,
  previous_secret text,
  previous_secret_until timestamptz,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text CHECK (disabled_reason IN ('Failing', 'User')),
  disabled_at_utc timestamptz,
  failing_since_utc timestamptz,
  last_delivery_at_utc timestamptz,
  last_response_status integer,
  -- It hears of revisions above this Version: those committed after it was made (or enabled).
  from_version bigint NOT NULL,
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  -- Whoever delivers its events now (one at a time, in order), until when.
  delivery_lease text,
  delivery_lease_until timestamptz
);
CREATE INDEX webhooks_organization ON webhooks (organization_id, network_id, created_at_utc);

-- How far each organization's revisions have been made into events (the Version of the last one
-- read). A row exists for each organization that has had a webhook.
CREATE TABLE webhook_cursors (
  organization_id uuid PRIMARY KEY,
  version bigint NOT NULL
);

-- Each event of each webhook, and its delivery: the log. seq is the order of delivery.
CREATE TABLE webhook_events (
  id uuid PRIMARY KEY,
  webhook_id uuid NOT NULL REFERENCES webhooks (id) ON DELETE CASCADE,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  event_type text NOT NULL,
  entity text,
  entity_id uuid,
  version bigint,
  created_at_utc timestamptz NOT NULL,
  status text NOT NULL DEFAULT 'Pending' CHECK (status IN ('Pending', 'Retrying', 'Succeeded', 'Failed')),
  attempts integer NOT NULL DEFAULT 0,
  -- A test event or a re-send: one attempt, not held behind a retry, sent while disabled too.
  manual boolean NOT NULL DEFAULT false,
  last_attempt_at_utc timestamptz,
  next_attempt_at_utc timestamptz,
  request_body text NOT NULL,
  response_status integer,
  response_body text,
  error text,
  duration_ms double precision
);
-- One event per webhook, revision and type, however often a scan runs.
CREATE UNIQUE INDEX webhook_events_once ON webhook_events (webhook_id, entity, entity_id, version, event_type) WHERE version IS NOT NULL;
CREATE INDEX webhook_events_log ON webhook_events (webhook_id, seq);
CREATE INDEX webhook_events_queue ON webhook_events (webhook_id, manual, seq) WHERE status IN ('Pending', 'Retrying');
