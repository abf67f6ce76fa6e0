-- Named settings (issue 33; specification section 7 /internal/…/settings/{name}): a JSON value
-- under a name, per organization, network, program, playlist or clip. Server-held and written
-- online (sync-server/api/settings.ts); the name and the value's size are checked by
-- src/domain/settings.ts before a row is written. object_id is the organization's own id at
-- organization level. modified_at_utc is the concurrency token (If-Match), strictly increasing
-- for each row. A setting of a deleted object stays, unreachable, as the object's row does.
CREATE TABLE IF NOT EXISTS named_settings (
  organization_id uuid NOT NULL REFERENCES organizations (id),
  level text NOT NULL CHECK (level IN ('Organization', 'Network', 'Program', 'Playlist', 'Clip')),
  object_id uuid NOT NULL,
  name text NOT NULL,
  value jsonb NOT NULL,
  created_at_utc timestamptz NOT NULL,
  modified_at_utc timestamptz NOT NULL,
  modified_by_id uuid,
  PRIMARY KEY (organization_id, level, object_id, name)
);
