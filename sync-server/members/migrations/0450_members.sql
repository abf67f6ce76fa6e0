-- Members of a program and their private feeds, and the program's signing keys (issue 29,
-- sync-server/members). Server-held secrets, never synced to devices: not content rows.
--
-- members.token is the secret in a member's feed URL (/feeds/{playlistId}/members/{token}.xml):
-- kept in clear because the studio shows the URL to the program's editors to copy; a reset
-- replaces it (the old URL answers 404 at once). A removed member's row is deleted.
CREATE TABLE members (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  program_id uuid NOT NULL REFERENCES programs (id),
  name text NOT NULL,
  email text NOT NULL,
  note text,
  created_by_id uuid,
  created_at_utc timestamptz NOT NULL,
  modified_at_utc timestamptz NOT NULL,
  revoked_at_utc timestamptz,
  token text NOT NULL,
  -- New with every token, so a feed's ETag differs per token.
  token_version integer NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX members_token ON members (token);
CREATE INDEX members_program_name ON members (program_id, lower(name), id);

-- Keys that sign members' media URLs (HMAC-SHA256). Exactly one current key per program
-- (retires_at_utc null); a rotated key verifies until retires_at_utc, then its material is
-- erased (secret null) at the next rotation. secret is base64url text: PGlite and pg return
-- bytea differently.
CREATE TABLE signing_keys (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  program_id uuid NOT NULL REFERENCES programs (id),
  secret text,
  created_at_utc timestamptz NOT NULL,
  retires_at_utc timestamptz
);
CREATE UNIQUE INDEX signing_keys_current ON signing_keys (program_id) WHERE retires_at_utc IS NULL;
CREATE INDEX signing_keys_program ON signing_keys (program_id, created_at_utc DESC);
