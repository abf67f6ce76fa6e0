-- The live streams being received (issue 34; sync-server/audio/live-ingest.ts and live-sweep.ts): a
-- row per recording whose agent's stream comes in, written by the instance receiving it. Its audio
-- is stored as segments in the blob store as it arrives (recordings/{id}/{upload_id}/live/…), so it
-- outlives that instance; every heartbeat with new audio stores a segment and moves seen_at.
--   segments    how many segments are stored (0 … segments-1), each whole before it is counted
--   seen_at     when audio was last stored (the database's clock: every instance compares with it)
--   claimed_at  set by whoever ends the stream: the receiving instance when the body ends, or the
--               sweep once seen_at is older than the lost time (the instance died, the line hangs);
--               a claim older than the lost time again is a claimant that died, and is taken over
-- The row goes when the recording leaves Live.
CREATE TABLE live_streams (
  recording_id uuid PRIMARY KEY REFERENCES recordings (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  upload_id text NOT NULL,
  segments integer NOT NULL DEFAULT 0,
  seen_at timestamptz NOT NULL DEFAULT now(),
  claimed_at timestamptz
);

-- A stream left Live by an instance that died before this table existed: no audio was kept for it
-- (it was on its way to the dead instance's temporary file), so the sweep ends it as lost.
INSERT INTO live_streams (recording_id, organization_id, upload_id, segments, seen_at)
SELECT id, organization_id, id::text, 0, modified_at_utc
  FROM recordings
 WHERE state = 'Live' AND NOT deleted AND data -> 'Urls' ->> 'AudioUrl' ~ '^/api/v1/recordings/[^/]+/live/audio$';
