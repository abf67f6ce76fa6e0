-- Revisions become undo steps (sync-server/rows.ts header): each keeps its author, the sync client
-- that made it (the merge's "own write", which it looked up in sync_mutations by client and row
-- before, through an index every stored result paid for), and the values the fields it changed
-- had before it, instead of a copy of the whole row. sync_mutations.written_modified_at_utc stays:
-- it still says which revision each mutation wrote.
ALTER TABLE row_revisions ADD COLUMN modified_by_id uuid;
ALTER TABLE row_revisions ADD COLUMN client_id uuid;
ALTER TABLE row_revisions ADD COLUMN undo jsonb;

UPDATE row_revisions SET modified_by_id = NULLIF(row->>'ModifiedById', '')::uuid;

-- A kept copy's undo is what differs from the copy before it (bookkeeping aside; an absent field
-- reads as null). The oldest kept copy of a row has none before it: its undo stays null, as a
-- create's, and nothing older than it can be rebuilt (nothing older was kept either).
UPDATE row_revisions r SET undo = (
  SELECT coalesce(jsonb_object_agg(k.key, coalesce(p.prev->k.key, 'null'::jsonb)), '{}'::jsonb)
  FROM (SELECT jsonb_object_keys(r.row) AS key UNION SELECT jsonb_object_keys(p.prev)) k
  WHERE k.key NOT IN ('Id', 'OrganizationId', 'CreatedAtUtc', 'CreatedById', 'ModifiedAtUtc', 'ModifiedById', 'Version', 'PlaylistIds')
    AND coalesce(p.prev->k.key, 'null'::jsonb) IS DISTINCT FROM coalesce(r.row->k.key, 'null'::jsonb))
FROM (SELECT entity, id, version, lag(row) OVER (PARTITION BY entity, id ORDER BY version) AS prev FROM row_revisions) p
WHERE p.entity = r.entity AND p.id = r.id AND p.version = r.version AND p.prev IS NOT NULL;

UPDATE row_revisions r SET client_id = m.client_id
FROM sync_mutations m
WHERE m.written_modified_at_utc IS NOT NULL AND lower(m.entity_id) = r.id::text AND m.written_modified_at_utc::timestamptz = r.modified_at_utc;

ALTER TABLE row_revisions DROP COLUMN row;
DROP INDEX sync_mutations_own;
