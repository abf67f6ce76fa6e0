-- Durable jobs (sync-server/jobs/queue.ts, runner.ts): side effects written in the transaction
-- that causes them and run by the job runner once it has committed, on any instance.
--   state: queued (waits for run_at) | running (held by locked_by until locked_until) | failed
--   (gave up after max_attempts; kept for inspection). A job that succeeds is deleted.
CREATE TABLE jobs (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  kind text NOT NULL,
  payload jsonb NOT NULL,
  state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'running', 'failed')),
  singleton_key text,
  -- A singleton enqueued again while it runs: it runs once more when it finishes.
  rerun boolean NOT NULL DEFAULT false,
  run_at timestamptz NOT NULL DEFAULT now(),
  attempts integer NOT NULL DEFAULT 0,
  max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
  locked_by text,
  locked_until timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now(),
  finished_at timestamptz
);
CREATE INDEX jobs_due ON jobs (run_at, id) WHERE state = 'queued';
CREATE INDEX jobs_leased ON jobs (locked_until) WHERE state = 'running';
-- At most one queued or running job per singleton key (recurring sweeps, "process clip X").
CREATE UNIQUE INDEX jobs_singleton ON jobs (singleton_key) WHERE singleton_key IS NOT NULL AND state IN ('queued', 'running');

-- The expired-sessions sweep deletes by expiry.
CREATE INDEX sessions_expires ON sessions (expires_at_utc);
