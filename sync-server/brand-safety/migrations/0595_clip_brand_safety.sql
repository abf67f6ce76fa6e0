-- A clip's brand-safety analysis (sync-server/brand-safety/job.ts; rules: src/domain/brand-safety.ts).
-- One row per clip: the last analysis made (result, and the fingerprint of the texts it read) and
-- the request for the next one (requested_fingerprint while Queued). A row is written when the
-- clip's analysis is first read or asked for again by staff; a clip never read has none.
CREATE TABLE clip_brand_safety (
  clip_id uuid PRIMARY KEY REFERENCES clips (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  -- Queued: the job will make it; Completed: result is current for fingerprint; Failed: problem says why.
  status text NOT NULL CHECK (status IN ('Queued', 'Completed', 'Failed')),
  requested_fingerprint text,
  requested_at_utc timestamptz,
  fingerprint text,
  result jsonb,
  read_transcript boolean NOT NULL DEFAULT false,
  problem text,
  attempts integer NOT NULL DEFAULT 0,
  analyzed_at_utc timestamptz
);
