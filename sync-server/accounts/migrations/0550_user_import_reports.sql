-- The report of a bulk user import (accounts/bulk-import.ts; src/protocol/api/user-import.ts):
-- the organization's latest only, so that whoever closed the dialog, or lost the network while it
-- ran, can read it again; an import replaces the one before (the report holds addresses, and an
-- earlier file's are of no use once the next one is in).
--   rows: the per-row results as the API answers them (RowNumber, Email, Name, Status, Errors).
CREATE TABLE user_import_reports (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL UNIQUE REFERENCES organizations (id) ON DELETE CASCADE,
  created_by_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at_utc timestamptz NOT NULL,
  invited integer NOT NULL,
  already_member integer NOT NULL,
  failed integer NOT NULL,
  rows jsonb NOT NULL
);
