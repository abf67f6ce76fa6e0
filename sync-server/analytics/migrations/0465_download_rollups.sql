-- Rollups of counted_downloads (0460) by UTC hour, kept by the rollup job
-- (sync-server/analytics/analytics-rollup.ts), read by the analytics API
-- (sync-server/api/analytics-api.ts). Each table answers one kind of query without touching the
-- counted rows: a 90-day organization series reads 2 × 24 × 90 rows of the organization table,
-- whatever the number of downloads. Hours are UTC; a query buckets them by local time
-- (AT TIME ZONE), so one set of rollups serves every time zone.

-- How far the rollups have read counted_downloads, by its id (the counting job is the only writer
-- of counted_downloads and one run at a time, so ids become visible in order).
CREATE TABLE analytics_rollup_cursor (
  name text PRIMARY KEY,
  last_id bigint NOT NULL
);
INSERT INTO analytics_rollup_cursor (name, last_id) VALUES ('downloads', 0);

-- The organization's series (GET /v1/analytics/downloads and /media-types).
CREATE TABLE download_hours_org (
  organization_id uuid NOT NULL,
  hour_utc timestamptz NOT NULL,
  media_type text NOT NULL,
  downloads bigint NOT NULL,
  PRIMARY KEY (organization_id, hour_utc, media_type)
);

-- A program's series, a network's (its programs), and the programs grouping.
CREATE TABLE download_hours_program (
  organization_id uuid NOT NULL,
  program_id uuid NOT NULL,
  hour_utc timestamptz NOT NULL,
  media_type text NOT NULL,
  downloads bigint NOT NULL,
  PRIMARY KEY (program_id, hour_utc, media_type)
);
CREATE INDEX download_hours_program_org ON download_hours_program (organization_id, hour_utc);

-- A clip's series, a playlist's (the clips in it now), and the clips grouping.
CREATE TABLE download_hours_clip (
  organization_id uuid NOT NULL,
  program_id uuid NOT NULL,
  clip_id uuid NOT NULL,
  hour_utc timestamptz NOT NULL,
  media_type text NOT NULL,
  downloads bigint NOT NULL,
  PRIMARY KEY (clip_id, hour_utc, media_type)
);
CREATE INDEX download_hours_clip_program ON download_hours_clip (program_id, hour_utc);
CREATE INDEX download_hours_clip_org ON download_hours_clip (organization_id, hour_utc);

-- The listener dimensions (app, device, os, country, source) per program and hour: the groupings
-- at organization, network and program level. (A clip's or playlist's own dimension groupings read
-- counted_downloads through its (clip_id, counted_at_utc) index: one clip's downloads are few, and
-- a per-clip dimension table would be larger than the rows it sums.)
CREATE TABLE download_hours_dimension (
  organization_id uuid NOT NULL,
  program_id uuid NOT NULL,
  hour_utc timestamptz NOT NULL,
  media_type text NOT NULL,
  dimension text NOT NULL,
  value text NOT NULL,
  downloads bigint NOT NULL,
  PRIMARY KEY (program_id, dimension, hour_utc, media_type, value)
);
CREATE INDEX download_hours_dimension_org ON download_hours_dimension (organization_id, dimension, hour_utc);
