-- Clip search reads a narrow copy of what it filters and ranks on (issue 32's bench: the server's
-- p95 was 7× its target). A common word matches thousands of clips; ranking them read each one's
-- heap page of `clips`, whose rows carry the whole wire row (277 MB at 100,000 clips), so 8,000
-- matches touched ~18,000 pages. clip_search holds only the columns a search filters, ranks and
-- sorts on (34 MB at 100,000 clips): the page of ids is found and ranked here, and only that page
-- is read from `clips` (sync-server/search/search.ts). The vector stays computed on `clips` by
-- search_row (0480) and is copied here by the database on every write, so nothing in the
-- application keeps it; its GIN index moves here.
CREATE TABLE clip_search (
  id uuid PRIMARY KEY REFERENCES clips (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL,
  program_id uuid NOT NULL,
  deleted boolean NOT NULL,
  visibility text,
  created_at_utc timestamptz NOT NULL,
  search_config text NOT NULL,
  search_vector tsvector
);

CREATE FUNCTION clip_search_copy() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.search_vector IS NOT DISTINCT FROM OLD.search_vector AND NEW.deleted = OLD.deleted
     AND NEW.program_id = OLD.program_id AND NEW.visibility IS NOT DISTINCT FROM OLD.visibility
     AND NEW.created_at_utc = OLD.created_at_utc AND NEW.search_config = OLD.search_config AND NEW.organization_id = OLD.organization_id THEN
    RETURN NULL;
  END IF;
  INSERT INTO clip_search (id, organization_id, program_id, deleted, visibility, created_at_utc, search_config, search_vector)
  VALUES (NEW.id, NEW.organization_id, NEW.program_id, NEW.deleted, NEW.visibility, NEW.created_at_utc, NEW.search_config, NEW.search_vector)
  ON CONFLICT (id) DO UPDATE SET organization_id = EXCLUDED.organization_id, program_id = EXCLUDED.program_id, deleted = EXCLUDED.deleted,
    visibility = EXCLUDED.visibility, created_at_utc = EXCLUDED.created_at_utc, search_config = EXCLUDED.search_config, search_vector = EXCLUDED.search_vector;
  RETURN NULL;
END
$$;
CREATE TRIGGER clips_search_copy AFTER INSERT OR UPDATE ON clips FOR EACH ROW EXECUTE FUNCTION clip_search_copy();

INSERT INTO clip_search (id, organization_id, program_id, deleted, visibility, created_at_utc, search_config, search_vector)
SELECT id, organization_id, program_id, deleted, visibility, created_at_utc, search_config, search_vector FROM clips;

CREATE INDEX clip_search_vector ON clip_search USING gin (search_vector);
CREATE INDEX clip_search_program ON clip_search (program_id) WHERE NOT deleted;
-- The date sorts of a common word: walk the organization's clips newest (or oldest) first and stop
-- at a page of matches, instead of sorting every match.
CREATE INDEX clip_search_org_created ON clip_search (organization_id, created_at_utc DESC, id) WHERE NOT deleted;
DROP INDEX clips_search;
