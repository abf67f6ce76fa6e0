-- The podcast:guid of an imported show (Podcasting 2.0): assigned once in a podcast's life and
-- meant to follow it from host to host, so the studio's feed of the playlist an import made
-- carries the old feed's own podcast:guid, or the one derived from its URL (sync-server/imports).
ALTER TABLE imports ADD COLUMN podcast_guid text;
