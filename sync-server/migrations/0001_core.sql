-- Core schema of Castaway Studio (specification section 3). Every content table carries the
-- same bookkeeping columns; entity fields that nothing filters on live in `data` (PascalCase
-- keys as on the wire), the ones that are filtered, joined or unique are real columns.
-- `version` comes from ONE global sequence, bumped on every write: pulls page by it.

CREATE SEQUENCE row_version AS bigint;

CREATE TABLE organizations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL,
  name text NOT NULL,
  is_demo boolean NOT NULL DEFAULT false,
  provider text NOT NULL CHECK (provider IN ('Broadcaster', 'Podcaster')),
  data jsonb NOT NULL DEFAULT '{}',
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);

CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  name text NOT NULL,
  first_name text NOT NULL DEFAULT '',
  image_url text,
  is_admin boolean NOT NULL DEFAULT false,
  is_admin_or_support boolean NOT NULL DEFAULT false,
  has_reseller_access boolean NOT NULL DEFAULT false,
  interface_language text NOT NULL DEFAULT 'en-US',
  activated boolean NOT NULL DEFAULT true,
  password_hash text NOT NULL,
  created_at_utc timestamptz NOT NULL,
  modified_at_utc timestamptz NOT NULL,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);
CREATE UNIQUE INDEX users_email ON users (lower(email));

-- Membership of a user in an organization with the permission entries of section 6.
CREATE TABLE memberships (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id uuid NOT NULL REFERENCES users (id),
  permissions jsonb NOT NULL DEFAULT '[]',
  created_at_utc timestamptz NOT NULL,
  modified_at_utc timestamptz NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX memberships_user ON memberships (user_id);

CREATE TABLE networks (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  name text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);
CREATE INDEX networks_org ON networks (organization_id, name);
CREATE INDEX networks_version ON networks (organization_id, version);

CREATE TABLE programs (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  network_id uuid,
  name text NOT NULL,
  slug text,
  data jsonb NOT NULL DEFAULT '{}',
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);
CREATE INDEX programs_org ON programs (organization_id, name);
CREATE INDEX programs_version ON programs (organization_id, version);
CREATE UNIQUE INDEX programs_slug ON programs (organization_id, slug) WHERE slug IS NOT NULL AND NOT deleted;

CREATE TABLE playlists (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  program_id uuid NOT NULL,
  title text NOT NULL,
  slug text,
  visibility text NOT NULL,
  clip_ids jsonb NOT NULL DEFAULT '[]',
  data jsonb NOT NULL DEFAULT '{}',
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);
CREATE INDEX playlists_program ON playlists (program_id, title);
CREATE INDEX playlists_version ON playlists (organization_id, version);
CREATE INDEX playlists_clips ON playlists USING gin (clip_ids jsonb_path_ops);
CREATE UNIQUE INDEX playlists_slug ON playlists (organization_id, slug) WHERE slug IS NOT NULL AND NOT deleted;

CREATE TABLE clips (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  program_id uuid NOT NULL,
  title text,
  slug text,
  state text NOT NULL,
  publish_state text NOT NULL,
  visibility text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);
CREATE INDEX clips_program ON clips (program_id, created_at_utc DESC, id);
CREATE INDEX clips_version ON clips (organization_id, version);
-- Slugs are unique per program (section 5: 'This slug is already in use in this program').
CREATE UNIQUE INDEX clips_slug ON clips (program_id, slug) WHERE slug IS NOT NULL AND NOT deleted;

CREATE TABLE recordings (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  program_id uuid NOT NULL,
  title text,
  state text NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);
CREATE INDEX recordings_program ON recordings (program_id, created_at_utc DESC, id);
CREATE INDEX recordings_version ON recordings (organization_id, version);

CREATE TABLE annotations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  recording_id uuid NOT NULL,
  data jsonb NOT NULL DEFAULT '{}',
  created_at_utc timestamptz NOT NULL,
  created_by_id uuid,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  deleted boolean NOT NULL DEFAULT false,
  version bigint NOT NULL
);
CREATE INDEX annotations_recording ON annotations (recording_id, created_at_utc);
CREATE INDEX annotations_version ON annotations (organization_id, version);

-- Every write's resulting row, for the sync three-way merge (the last 50 per row are kept).
CREATE TABLE row_revisions (
  entity text NOT NULL,
  id uuid NOT NULL,
  version bigint NOT NULL,
  modified_at_utc timestamptz NOT NULL,
  row jsonb NOT NULL,
  PRIMARY KEY (entity, id, version)
);

CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id),
  xsrf_token text NOT NULL,
  created_at_utc timestamptz NOT NULL,
  expires_at_utc timestamptz NOT NULL
);
CREATE INDEX sessions_user ON sessions (user_id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id uuid NOT NULL REFERENCES users (id),
  name text NOT NULL,
  key_hash text NOT NULL UNIQUE,
  created_at_utc timestamptz NOT NULL,
  revoked boolean NOT NULL DEFAULT false
);

-- Failed logins per e-mail address, for throttling (kept in the store so every instance agrees).
CREATE TABLE login_failures (
  key text PRIMARY KEY,
  failures integer NOT NULL,
  window_start_utc timestamptz NOT NULL
);

CREATE TABLE support_enquiries (
  id uuid PRIMARY KEY,
  user_id uuid,
  organization_id uuid,
  enquiry jsonb NOT NULL,
  created_at_utc timestamptz NOT NULL
);
