-- Imports from another podcast host (sync-server/imports): one row per import (who, when, from
-- which feed, how far it got) and one per episode of its feed (its clip and the state of its
-- audio). The clips, playlist and program themselves are content rows written by the named
-- mutations' runs; these tables only remember the import's own progress.
CREATE TABLE imports (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  created_by_id uuid,
  created_at_utc timestamptz NOT NULL,
  modified_at_utc timestamptz NOT NULL,
  -- 'Url' (fetched from feed_url) or 'Xml' (uploaded: kept in feed_xml for the job and a re-run).
  source text NOT NULL CHECK (source IN ('Url', 'Xml')),
  feed_url text,
  feed_xml text,
  -- What makes a later import "the same feed": the feed URL, or an uploaded feed's own self link
  -- or podcast:guid (null until the feed is read).
  source_key text,
  -- Set by the playlist routes before the job runs, else by the job once it found or made them.
  program_id uuid,
  playlist_id uuid,
  -- Queued | FetchingFeed | Importing | Done | Failed (the feed's part; episodes say the rest).
  stage text NOT NULL,
  error_code text,
  error_message text,
  title text,
  artwork_url text,
  episodes_created integer NOT NULL DEFAULT 0,
  episodes_updated integer NOT NULL DEFAULT 0
);
CREATE INDEX imports_organization ON imports (organization_id, created_at_utc DESC, id);
CREATE INDEX imports_source ON imports (organization_id, source_key, created_at_utc DESC);
CREATE INDEX imports_playlist ON imports (playlist_id, created_at_utc DESC);

CREATE TABLE import_episodes (
  import_id uuid NOT NULL REFERENCES imports (id) ON DELETE CASCADE,
  -- The episode's guid (its clip's ImportedId).
  guid text NOT NULL,
  position integer NOT NULL,
  title text,
  clip_id uuid,
  audio_url text,
  artwork_url text,
  -- Queued | Fetching | Done | Failed (Done: the audio is in the clip's upload pipeline, or was
  -- already there from an earlier import of the same enclosure).
  state text NOT NULL,
  error_code text,
  error_message text,
  created boolean NOT NULL DEFAULT false,
  PRIMARY KEY (import_id, guid)
);
CREATE INDEX import_episodes_clip ON import_episodes (clip_id);
