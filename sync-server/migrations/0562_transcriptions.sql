-- Automatic transcription requests (issue 34; sync-server/transcription/job.ts). One row per clip
-- or recording whose transcript was asked for through POST …/transcript: the latest request, its
-- state (TranscriptStatus: Queued, InProgress, Completed, Failed, also kept on the content row)
-- and, once an attempt failed, why. The transcript itself is written to clip_transcripts or
-- recording_transcripts (0551, 0552) when the engine has finished. Exactly one of clip_id and
-- recording_id is set, each referencing its own content table so a request goes with its row.
CREATE TABLE transcriptions (
  id bigserial PRIMARY KEY,
  clip_id uuid UNIQUE REFERENCES clips (id) ON DELETE CASCADE,
  recording_id uuid UNIQUE REFERENCES recordings (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  language text NOT NULL,
  -- Publish the transcript (clips): true or false as asked, null to keep it as it was.
  publish boolean,
  engine text NOT NULL,
  status text NOT NULL,
  problem text,
  attempts integer NOT NULL DEFAULT 0,
  audio_seconds double precision,
  engine_seconds double precision,
  requested_at_utc timestamptz NOT NULL,
  requested_by_id uuid,
  finished_at_utc timestamptz,
  CHECK ((clip_id IS NULL) <> (recording_id IS NULL))
);
CREATE INDEX transcriptions_organization ON transcriptions (organization_id);
