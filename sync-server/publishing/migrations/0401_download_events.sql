-- Raw download events of public audio (sync-server/publishing/downloads.ts): one row per request,
-- GET or HEAD, whatever it was answered, for the analytics jobs to count by the IAB Podcast
-- Measurement rules. No address is kept: listener_hash is SHA-256 of the day's salt, the address
-- (IPv6 cut to its /64) and the user agent; the salts live in download_salts and are deleted
-- after two days, after which no hash can be tied to an address again.
CREATE TABLE download_events (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  at_utc timestamptz NOT NULL,
  clip_id uuid,
  organization_id uuid,
  program_id uuid,
  method text NOT NULL,
  status smallint NOT NULL,
  -- The Range header as sent (cut to 100 characters), and the first and last byte it asked for.
  range_header text,
  range_start bigint,
  range_end bigint,
  bytes_sent bigint NOT NULL,
  user_agent text,
  -- feed | embed | page | api (?src=), else from the Referer: embed | page | web; null: neither.
  source text,
  ad_free boolean NOT NULL,
  listener_hash text NOT NULL
);
CREATE INDEX download_events_clip ON download_events (organization_id, clip_id, at_utc);
CREATE INDEX download_events_at ON download_events (at_utc);

CREATE TABLE download_salts (
  day date PRIMARY KEY,
  salt text NOT NULL
);
