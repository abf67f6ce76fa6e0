-- Demo organizations' snapshots (specification section 6, 'Save organization snapshot' and
-- 'Restore organization from snapshot'). One snapshot per organization: the wire rows of its
-- content metadata (networks, programs, playlists with their clip order, clips, recordings,
-- annotations) as they were when it was saved, deleted rows included with Deleted true.
CREATE TABLE demo_snapshots (
  organization_id uuid PRIMARY KEY REFERENCES organizations (id),
  saved_at_utc timestamptz NOT NULL,
  saved_by_id uuid
);

CREATE TABLE demo_snapshot_rows (
  organization_id uuid NOT NULL REFERENCES demo_snapshots (organization_id) ON DELETE CASCADE,
  entity text NOT NULL,
  id uuid NOT NULL,
  row jsonb NOT NULL,
  PRIMARY KEY (organization_id, entity, id)
);

-- A restore runs after its start call has answered 202; clients poll its status by Id (section 4).
CREATE TABLE demo_restore_operations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id),
  user_id uuid NOT NULL,
  status text NOT NULL CHECK (status IN ('Busy', 'Failed', 'Success')),
  started_at_utc timestamptz NOT NULL,
  finished_at_utc timestamptz
);
CREATE INDEX demo_restore_operations_org ON demo_restore_operations (organization_id, started_at_utc);
