-- A clip's suggested ad markers and chapters (issue 34; sync-server/api/ad-markers.ts). One row per
-- clip and kind: the suggestions made by the studio from the clip's audio (its silences) and
-- transcript (the job clip.suggest), or stored by a PUT …/suggested/{kind} (an outside tool's, or
-- what is left after a producer accepted some). audio_etag names the published audio they were
-- made from, so a new upload or cut makes them again; a PUT's rows keep the audio they were sent for.
CREATE TABLE clip_suggestions (
  clip_id uuid NOT NULL REFERENCES clips (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('ad-markers', 'chapters')),
  organization_id uuid NOT NULL,
  -- Pending: the job is making them; Ready: items are the suggestions; Failed: the audio could not be read.
  status text NOT NULL,
  items jsonb NOT NULL DEFAULT '[]',
  made_by text NOT NULL,
  audio_etag text,
  modified_at_utc timestamptz NOT NULL,
  PRIMARY KEY (clip_id, kind)
);
