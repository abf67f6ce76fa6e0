-- The rest of section 7's analytics calls (sync-server/api/analytics-insights.ts).

-- An organization's custom player names (PUT /v1/settings/analytics/custom-player-names): a list
-- of {UserAgentContains, Name}, in order (the first entry a user agent contains names it). Applied
-- when the apps grouping is read, to downloads counted before and after the change alike.
CREATE TABLE analytics_custom_player_names (
  organization_id uuid PRIMARY KEY,
  names jsonb NOT NULL,
  modified_at_utc timestamptz NOT NULL,
  modified_by uuid
);

-- Reach estimates (POST …/analytics/reach-estimate): an operation polled by its id
-- (GET /v1/analytics/reach-estimate/{id}), worked out by the durable job analytics.reach-estimate
-- (sync-server/analytics/reach-estimate.ts). scope: the downloads it covers, resolved when it was
-- asked for ({kind: 'organization'} | {kind: 'programs', programIds} | {kind: 'clips', clipIds}).
-- Only the user who asked may read it; rows older than a week are deleted when a new one is made.
CREATE TABLE analytics_reach_estimates (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  user_id uuid NOT NULL,
  scope jsonb NOT NULL,
  start_date date NOT NULL,
  end_date date NOT NULL,
  time_zone text NOT NULL,
  -- Busy | Failed | Success (section 3, operation progress).
  status text NOT NULL,
  progress real NOT NULL DEFAULT 0,
  result jsonb,
  created_at_utc timestamptz NOT NULL,
  finished_at_utc timestamptz
);
CREATE INDEX analytics_reach_estimates_created ON analytics_reach_estimates (created_at_utc);
