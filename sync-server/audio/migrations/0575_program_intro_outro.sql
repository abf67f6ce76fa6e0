-- A program's intro and outro (issue 33; sync-server/audio/intro-outro.ts, src/domain/intro-outro.ts).
-- program_audio_operations: each upload's operation (section 3 "Operation progress"), polled by id:
--   status: Busy | Success | Failed (failure_code, failure_message say why)
-- The program's current intro and outro are on its row (Program.IntroOutro, synced to devices); the
-- file each names is programs/{id}/intro-outro/{upload_id}/audio in the blob store. Files of an
-- earlier intro are kept while the program lives: published episodes were made with them, and their
-- loudness normalization renders those episodes again with the same intro (loudness-job.ts).
CREATE TABLE program_audio_operations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  program_id uuid NOT NULL REFERENCES programs (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('intro', 'outro')),
  user_id uuid,
  upload_id uuid NOT NULL,
  file_name text NOT NULL,
  content_type text NOT NULL,
  size_bytes bigint NOT NULL,
  status text NOT NULL CHECK (status IN ('Busy', 'Success', 'Failed')),
  duration_seconds double precision,
  failure_code text,
  failure_message text,
  started_at_utc timestamptz NOT NULL,
  finished_at_utc timestamptz
);
CREATE INDEX program_audio_operations_program ON program_audio_operations (program_id);

-- The intro and outro in effect, one row per program and type: what the clip processing job
-- (versions.ts) puts around an episode. Written with the program row's IntroOutro, in one transaction.
CREATE TABLE program_intro_outro (
  program_id uuid NOT NULL REFERENCES programs (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('intro', 'outro')),
  organization_id uuid NOT NULL,
  upload_id uuid NOT NULL,
  content_type text NOT NULL,
  duration_seconds double precision NOT NULL,
  PRIMARY KEY (program_id, type)
);
