-- Resumable uploads (sync-server/uploads/tus.ts) kept where every instance sees them: a PATCH that
-- resumes an upload may reach any instance behind the load balancer.
--   tus_uploads: @tus/server's record of each upload (offset, size, metadata: owner, clip, and
--   handedOverAt once its file went to the audio pipeline), as the JSON @tus/server writes.
--   tus_locks: who writes to an upload now. A lease renewed while its request runs; a lock whose
--   instance died (kill -9) lapses at its expiry. release_requested is how a resuming client's
--   request on another instance asks the holder (a half-open PATCH) to let go.
CREATE TABLE tus_uploads (
  id text PRIMARY KEY,
  info jsonb NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- The per-user limit counts a user's unfinished uploads.
CREATE INDEX tus_uploads_owner ON tus_uploads ((info -> 'metadata' ->> 'userId'));

CREATE TABLE tus_locks (
  id text PRIMARY KEY,
  holder text NOT NULL,
  expires_at timestamptz NOT NULL,
  release_requested boolean NOT NULL DEFAULT false
);
