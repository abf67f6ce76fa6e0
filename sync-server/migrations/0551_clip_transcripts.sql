-- Clip transcripts (issue 34; sync-server/api/transcripts.ts). One row per clip that has one: its
-- cues as the wire has them ([{StartSeconds, EndSeconds, Text, Speaker}]), the cues as first
-- imported (what PUT …/transcript/reset goes back to), its language and whether it is published.
-- The words are also kept on the clip (clips.transcript_text, 0480_search.sql) for search.
CREATE TABLE clip_transcripts (
  clip_id uuid PRIMARY KEY REFERENCES clips (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  cues jsonb NOT NULL,
  original_cues jsonb NOT NULL,
  language text,
  published boolean NOT NULL DEFAULT false,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid
);
CREATE INDEX clip_transcripts_organization ON clip_transcripts (organization_id);
