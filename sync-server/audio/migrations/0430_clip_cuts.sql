-- A clip's saved cut (clip.saveCut): the kept regions of its original audio. In the database, not
-- beside the media, so the transaction that saves it also queues its render (a cut saved and a
-- render of another one cannot both commit). Earlier cuts live in clips/{id}/cut.json (blob store)
-- and are read from there until the clip's cut is saved again.
CREATE TABLE clip_cuts (
  clip_id uuid PRIMARY KEY REFERENCES clips (id),
  organization_id uuid NOT NULL,
  cut jsonb NOT NULL,
  saved_at_utc timestamptz NOT NULL
);
