-- A playlist's premium delivery to third parties (issue 33, sync-server/api/directories.ts):
-- its link to the organization's Apple Podcasts Subscriptions settings, and the member that holds
-- the secret of its Spotify subscriber feed. Written online only (the link is checked by the
-- server, the token is a secret): not content rows, never synced to devices.
--
-- spotify_member_id names a member of the playlist's program (sync-server/members) whose private
-- feed of this playlist Spotify reads; its token is the feed's secret, rotated as any member's.
-- A member removed on the members screen takes the Spotify feed with it (ON DELETE SET NULL).
CREATE TABLE playlist_premium (
  playlist_id uuid PRIMARY KEY REFERENCES playlists (id),
  organization_id uuid NOT NULL REFERENCES organizations (id),
  apple_linked boolean NOT NULL DEFAULT false,
  apple_linked_at_utc timestamptz,
  apple_linked_by_id uuid,
  -- The last check of the link (a link, or a resync) and what it found.
  apple_checked_at_utc timestamptz,
  apple_state text,
  spotify_member_id uuid REFERENCES members (id) ON DELETE SET NULL,
  modified_at_utc timestamptz NOT NULL
);
CREATE INDEX playlist_premium_organization ON playlist_premium (organization_id);
