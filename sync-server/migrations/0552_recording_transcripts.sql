-- Recording transcripts (issue 34; sync-server/api/transcripts.ts): as clip_transcripts (0551),
-- one row per recording that has one. A recording's transcript is never public; its words are
-- kept on the recording (recordings.transcript_text, 0480_search.sql) for search.
CREATE TABLE recording_transcripts (
  recording_id uuid PRIMARY KEY REFERENCES recordings (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  cues jsonb NOT NULL,
  original_cues jsonb NOT NULL,
  language text,
  published boolean NOT NULL DEFAULT false,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid
);
CREATE INDEX recording_transcripts_organization ON recording_transcripts (organization_id);
