-- A clip's loudness (issue 34; sync-server/audio/loudness-record.ts and loudness-job.ts): its audio
-- as processed, measured to EBU R128 (before), the normalization job's state for the preset it
-- targets, and what the published version measures once normalized (after). One row per clip that
-- has been processed since; the original upload is never touched, the published version is.
--   upload: the upload (PublishedVersion.upload) the preset was chosen for: a new cut or new chapters of the
--           same upload keep it; new audio takes the preset in effect then.
--   state: NotNormalized (no preset chosen) | Waiting | Running | Done | Failed (problem says why)
CREATE TABLE clip_loudness (
  clip_id uuid PRIMARY KEY REFERENCES clips (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  state text NOT NULL,
  preset_id text,
  upload text,
  problem text,
  before_integrated double precision,
  before_true_peak double precision,
  before_range double precision,
  after_integrated double precision,
  after_true_peak double precision,
  after_range double precision,
  gain_db double precision,
  modified_at_utc timestamptz NOT NULL
);
CREATE INDEX clip_loudness_organization ON clip_loudness (organization_id);
