-- The audit trail (issue 31; spec section 7's audit-events calls). One row per recorded event,
-- written in the transaction of the change it records: content writes by the trigger below on
-- row_revisions (every synced row write records a revision there), sign-ins, permission changes,
-- invitations and API keys by sync-server/audit/record.ts. Unlike row_revisions (the last few per
-- row, for the merge) nothing here is pruned.
CREATE TABLE audit_events (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  organization_id uuid NOT NULL,
  event_type text NOT NULL,
  object_type text NOT NULL,
  object_id uuid NOT NULL,
  -- Where the object sits, for scope checks and includeRelated (null above that level).
  network_id uuid,
  program_id uuid,
  user_id uuid,
  api_key_id uuid,
  date_utc timestamptz NOT NULL DEFAULT now(),
  detail text NOT NULL DEFAULT ''
);
CREATE INDEX audit_events_org_time ON audit_events (organization_id, date_utc DESC, id);
CREATE INDEX audit_events_object ON audit_events (object_id, date_utc DESC, id);
CREATE INDEX audit_events_program ON audit_events (program_id, date_utc DESC, id) WHERE program_id IS NOT NULL;
CREATE INDEX audit_events_network ON audit_events (network_id, date_utc DESC, id) WHERE network_id IS NOT NULL;

-- Content writes: one statement-level trigger, so a batch of writes (push, seeding) is one
-- INSERT … SELECT. A revision without undo is a create; one whose undo holds Deleted = false is a
-- delete (and Deleted = true a restore); otherwise an update, its detail the changed field names.
CREATE FUNCTION audit_row_revisions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO audit_events (organization_id, event_type, object_type, object_id, network_id, program_id, user_id, api_key_id, date_utc, detail)
  SELECT n.organization_id,
         CASE WHEN n.undo IS NULL THEN 'Created'
              WHEN n.undo->>'Deleted' = 'false' THEN 'Deleted'
              WHEN n.undo->>'Deleted' = 'true' THEN 'Restored'
              ELSE 'Updated' END,
         initcap(n.entity), n.id,
         CASE WHEN n.entity = 'network' THEN n.id ELSE pr.network_id END,
         pr.id, n.modified_by_id, NULL,
         n.modified_at_utc,
         CASE WHEN n.undo IS NULL THEN '' ELSE coalesce((SELECT string_agg(k, ', ' ORDER BY k) FROM jsonb_object_keys(n.undo) k
           WHERE k NOT IN ('ModifiedAtUtc', 'ModifiedById', 'Version', 'Deleted')), '') END
  FROM new_revisions n
  LEFT JOIN clips c ON n.entity = 'clip' AND c.id = n.id
  LEFT JOIN playlists pl ON n.entity = 'playlist' AND pl.id = n.id
  LEFT JOIN recordings r ON n.entity = 'recording' AND r.id = n.id
  LEFT JOIN programs pr ON pr.id = CASE n.entity WHEN 'program' THEN n.id WHEN 'clip' THEN c.program_id
                                   WHEN 'playlist' THEN pl.program_id WHEN 'recording' THEN r.program_id END
  WHERE n.organization_id IS NOT NULL;
  RETURN NULL;
END;
$$;
CREATE TRIGGER row_revisions_audit AFTER INSERT ON row_revisions REFERENCING NEW TABLE AS new_revisions
  FOR EACH STATEMENT EXECUTE FUNCTION audit_row_revisions();
