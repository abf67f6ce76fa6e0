-- Downloads as the IAB Podcast Measurement Technical Guidelines (v2.2) count them, one row per
-- counted download, written by the counting job (sync-server/analytics/counting.ts) from the raw
-- download_events (0401): one listener (listener_hash, no address), one episode, deduplicated over
-- a rolling 24 hours, counted once the bytes delivered cover a minute of audio plus the header,
-- bots excluded. The analytics API reads rollups made from these rows (sync-server/analytics), never
-- the raw events. counted_at_utc is the time of the window's first request: the hour a download
-- belongs to.
CREATE TABLE counted_downloads (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  organization_id uuid NOT NULL,
  program_id uuid NOT NULL,
  clip_id uuid NOT NULL,
  counted_at_utc timestamptz NOT NULL,
  listener_hash text NOT NULL,
  -- 'Audio' | 'Video' (section 7 downloadMediaType).
  media_type text NOT NULL,
  -- The podcast app or player ('Apple Podcasts', 'Spotify', 'Overcast', …; 'Unknown'), the device
  -- type ('Mobile', 'Tablet', 'Desktop', 'Smart speaker', 'Watch', 'TV', 'Car', 'Unknown') and OS
  -- ('iOS', 'Android', 'Windows', …; 'Unknown') from the user agent.
  app text NOT NULL,
  device text NOT NULL,
  os text NOT NULL,
  -- ISO 3166-1 alpha-2, or 'ZZ' (unknown: no geo database, or an address it does not know).
  country text NOT NULL,
  -- feed | embed | page | api | web | unknown (download_events.source; null there is 'unknown').
  source text NOT NULL
);
CREATE INDEX counted_downloads_org_time ON counted_downloads (organization_id, counted_at_utc);
CREATE INDEX counted_downloads_clip_time ON counted_downloads (clip_id, counted_at_utc);
