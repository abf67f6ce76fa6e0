-- The counting job's own state (sync-server/analytics/counting.ts), and the one column the recorder
-- adds for it.
--
-- listener_hash_previous: the same listener's hash under the PREVIOUS day's salt (the recorder,
-- sync-server/publishing/downloads.ts, writes it; null in rows recorded before). Salts rotate at
-- midnight UTC, so without it a listener at 23:50 and 00:10 would be two listeners; with it the
-- 00:10 request finds the window opened at 23:50. Both salts are deleted after two days as before.
ALTER TABLE download_events ADD COLUMN listener_hash_previous text;

-- How far the job has counted: every download_events row with id <= last_event_id is in
-- counting_windows / counted_downloads. One row.
CREATE TABLE counting_cursor (
  name text PRIMARY KEY,
  last_event_id bigint NOT NULL
);
INSERT INTO counting_cursor (name, last_event_id) VALUES ('downloads', 0);

-- One listener's window for one clip: the 24 hours from its first request. ranges is the union of
-- the bytes delivered so far ([s0, e0, s1, e1, …], half-open; src/domain/iab-counting.ts), emptied
-- once the window has counted. A window whose 24 hours ended is replaced by the listener's next
-- one, and deleted by the job two days after it started.
CREATE TABLE counting_windows (
  listener_hash text NOT NULL,
  clip_id uuid NOT NULL,
  started_at_utc timestamptz NOT NULL,
  ranges bigint[] NOT NULL,
  counted boolean NOT NULL,
  PRIMARY KEY (listener_hash, clip_id)
);
CREATE INDEX counting_windows_started ON counting_windows (started_at_utc);
