-- The length of the intro in front of a clip's published audio moves onto the clip's row as
-- PublishedIntroSeconds (sync-server/audio/versions.ts versionPatch writes it with the version's
-- Urls): the studio's chapter, ad-marker and transcript editors play that audio and need it on the
-- device, and the public chapters JSON and transcript read it from the row as well, so one field
-- replaces the side table of 0576. Each row given the field takes a new Version and a revision, so
-- devices pull it.
CREATE TEMPORARY TABLE published_intro_move ON COMMIT DROP AS
SELECT c.id, c.organization_id, c.modified_at_utc, i.intro_seconds
  FROM clips c JOIN clip_published_intro i ON i.clip_id = c.id
 WHERE i.intro_seconds > 0;

ALTER TABLE published_intro_move ADD COLUMN version bigint;
ALTER TABLE published_intro_move ADD COLUMN at timestamptz;
UPDATE published_intro_move SET version = next_row_version(), at = greatest(now(), modified_at_utc + interval '1 millisecond');

UPDATE clips c SET data = jsonb_set(c.data, '{PublishedIntroSeconds}', to_jsonb(m.intro_seconds)), version = m.version, modified_at_utc = m.at, modified_by_id = NULL
  FROM published_intro_move m WHERE m.id = c.id;

INSERT INTO row_revisions (entity, id, version, modified_at_utc, modified_by_id, client_id, undo, organization_id)
SELECT 'clip', m.id, m.version, m.at, NULL, NULL, jsonb_build_object('PublishedIntroSeconds', NULL), m.organization_id FROM published_intro_move m;

DROP TABLE clip_published_intro;
