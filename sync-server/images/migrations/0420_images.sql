-- Stored images (sync-server/images): artwork of networks, programs, playlists and clips, and the
-- images of chapters and descriptions, which belong to no row. One row per stored version; its
-- files are in the blob store under images/{kind}/{owner_id}/{version}/.
--   state: processing (the original is checked and stored, the size variants are being made by
--          the image.variants job) | ready (every variant is there)
-- A row's artwork is the newest ready version of its owner (seq orders versions; a version made
-- after another never loses to it, whichever job ends first). Removing artwork deletes the
-- owner's rows; a job whose version is gone discards its files.
CREATE TABLE images (
  kind text NOT NULL CHECK (kind IN ('network', 'program', 'playlist', 'clip', 'chapter', 'upload')),
  owner_id uuid NOT NULL,
  version text NOT NULL,
  organization_id uuid NOT NULL,
  seq bigint GENERATED ALWAYS AS IDENTITY,
  content_type text NOT NULL CHECK (content_type IN ('image/jpeg', 'image/png')),
  width integer NOT NULL,
  height integer NOT NULL,
  state text NOT NULL DEFAULT 'processing' CHECK (state IN ('processing', 'ready')),
  created_by_id uuid,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (kind, owner_id, version)
);
CREATE INDEX images_owner ON images (kind, owner_id, seq);
