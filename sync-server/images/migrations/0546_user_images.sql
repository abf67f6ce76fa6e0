-- A user's own picture (PUT /internal/users/me/image, section 7 "Account"): images of kind 'user',
-- owned by the user and by no organization. users.image_url names the current version's path.
ALTER TABLE images DROP CONSTRAINT images_kind_check;
ALTER TABLE images ADD CONSTRAINT images_kind_check CHECK (kind IN ('network', 'program', 'playlist', 'clip', 'chapter', 'upload', 'user'));
ALTER TABLE images ALTER COLUMN organization_id DROP NOT NULL;
