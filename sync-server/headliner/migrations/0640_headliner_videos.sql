-- A clip's headliner videos (audiograms; sync-server/headliner/job.ts, rules: src/domain/headliner.ts).
-- One row per video asked for: its aspect ratio and look as asked (the program's setting then), its
-- state (Queued, Rendering, Ready, Failed with problem) and, once Ready, its file in the blob store
-- (blob_key) with its length and size. A clip keeps one per aspect ratio: a new one replaces the
-- row of its ratio (its file swept after the media grace period). Rows go with their clip: a deleted
-- clip's videos are removed by the sweep job queued with the deletion (the row is soft-deleted).
CREATE TABLE headliner_videos (
  id uuid PRIMARY KEY,
  clip_id uuid NOT NULL REFERENCES clips (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  aspect_ratio text NOT NULL,
  transcript_enabled boolean NOT NULL,
  background_color text NOT NULL,
  foreground_color text NOT NULL,
  state text NOT NULL CHECK (state IN ('Queued', 'Rendering', 'Ready', 'Failed')),
  problem text,
  attempts integer NOT NULL DEFAULT 0,
  duration_seconds double precision,
  size_bytes bigint,
  blob_key text,
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL
);
CREATE INDEX headliner_videos_clip ON headliner_videos (clip_id, created_at_utc DESC);
