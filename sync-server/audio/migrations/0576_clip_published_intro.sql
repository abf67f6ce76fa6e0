-- The length of the intro in front of a clip's published audio (sync-server/audio/intro-outro-render.ts),
-- one row per clip whose published version has an intro; written in the transaction that switches the
-- clip to that version. The clip's chapters and transcript cues stay on the episode's own timeline;
-- what the published audio carries of them (the Podcasting 2.0 chapters JSON, the public transcript)
-- is moved later by this many seconds, as the MP3's ID3 chapters are when the version is made.
CREATE TABLE clip_published_intro (
  clip_id uuid PRIMARY KEY REFERENCES clips (id) ON DELETE CASCADE,
  intro_seconds double precision NOT NULL
);
