-- Feeds (issue 29). A feed's validators (ETag, Last-Modified) come from a version key read in one
-- cheap query (sync-server/feeds/feed-data.ts), so a 304 never builds the feed. It reads the
-- revisions' pull index, not an index on clips: clips keep none on Version (0103, HOT updates).

-- Feed drops (section 7, /v1/clips/{clipId}/feed-drops): a clip published into a playlist of
-- another program of its organization, with its own optional title and description and an
-- optional time from which it is listed. Soft-deleted like content rows; `version` comes from the
-- global sequence, so a change of a drop changes the target feed's version key.
CREATE TABLE feed_drops (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  clip_id uuid NOT NULL,
  playlist_id uuid NOT NULL,
  title text,
  description text,
  drop_at_utc timestamptz,
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);
CREATE INDEX feed_drops_clip ON feed_drops (clip_id, created_at_utc, id);
CREATE INDEX feed_drops_playlist ON feed_drops (playlist_id, version);
-- A clip is dropped into a feed once (a drop deleted may be made again).
CREATE UNIQUE INDEX feed_drops_once ON feed_drops (clip_id, playlist_id) WHERE NOT deleted;
