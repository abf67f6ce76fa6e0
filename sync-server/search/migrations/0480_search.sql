-- Full-text search (issue 32; src/domain/search.ts is the same rule for the offline search).
-- Each searchable row keeps a weighted tsvector, maintained by the database on every write:
--   A  Title: the title (clips: + tags + season/episode labels 'S10' 'E3' 'S10E3')
--   B  Description
--   C  Annotations (recordings: their annotations' text, kept by a trigger on annotations)
--   D  Transcript (transcript_text: nothing stores transcript text yet; issue 34 fills the column
--      and the vector follows). Ranked like C (ts_rank weights {0.2,0.2,0.4,1.0}).
-- in the text-search configuration of the program's content language (english, german, simple).
-- search_lexicon holds every word seen (3 to 40 letters), with a pg_trgm index: the typo rule
-- expands a query word by the lexicon words similar to it.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- src/domain/search.ts searchLanguageOf: 'en…' → english, 'de…' → german, anything else simple.
CREATE FUNCTION search_config_of(lang text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE regexp_replace(lower(coalesce(lang, '')), '[-_].*$', '') WHEN 'en' THEN 'english' WHEN 'de' THEN 'german' ELSE 'simple' END
$$;

CREATE FUNCTION search_document(config text, title text, description text, annotations text, transcript text) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
  SELECT setweight(to_tsvector(config::regconfig, coalesce(title, '')), 'A')
      || setweight(to_tsvector(config::regconfig, coalesce(description, '')), 'B')
      || setweight(to_tsvector(config::regconfig, coalesce(annotations, '')), 'C')
      || setweight(to_tsvector(config::regconfig, coalesce(transcript, '')), 'D')
$$;

CREATE TABLE search_lexicon (word text PRIMARY KEY);
CREATE INDEX search_lexicon_trgm ON search_lexicon USING gin (word gin_trgm_ops);

-- The words of a text that the typo rule may offer (src/domain/search.ts isLexiconWord).
CREATE FUNCTION search_learn(content text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_lexicon (word)
  SELECT u.lexeme FROM unnest(to_tsvector('simple', coalesce(content, ''))) AS u
  WHERE length(u.lexeme) BETWEEN 3 AND 40 AND u.lexeme !~ '[0-9[:punct:][:space:]]'
  ON CONFLICT DO NOTHING
$$;

CREATE FUNCTION search_program_config(program uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT search_config_of(p.data ->> 'Language') FROM programs p WHERE p.id = program), 'simple')
$$;

ALTER TABLE clips ADD COLUMN search_config text NOT NULL DEFAULT 'simple', ADD COLUMN transcript_text text, ADD COLUMN search_vector tsvector;
ALTER TABLE playlists ADD COLUMN search_config text NOT NULL DEFAULT 'simple', ADD COLUMN search_vector tsvector;
ALTER TABLE recordings ADD COLUMN search_config text NOT NULL DEFAULT 'simple', ADD COLUMN annotations_text text, ADD COLUMN transcript_text text, ADD COLUMN search_vector tsvector;

-- A clip's Title-weight text: title, tags, then 'S10 E3 S10E3' (src/domain/search.ts searchableFields).
CREATE FUNCTION search_clip_title(title text, data jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT concat_ws(' ', title,
    (SELECT string_agg(value, ' ') FROM jsonb_array_elements_text(CASE WHEN jsonb_typeof(data -> 'Tags') = 'array' THEN data -> 'Tags' ELSE '[]'::jsonb END)),
    CASE WHEN jsonb_typeof(data -> 'Season') = 'number' THEN 'S' || (data ->> 'Season') END,
    CASE WHEN jsonb_typeof(data -> 'Episode') = 'number' THEN 'E' || (data ->> 'Episode') END,
    CASE WHEN jsonb_typeof(data -> 'Season') = 'number' AND jsonb_typeof(data -> 'Episode') = 'number' THEN 'S' || (data ->> 'Season') || 'E' || (data ->> 'Episode') END)
$$;

-- One trigger function for the three tables: a clip's Title-weight text has its tags and labels;
-- playlists have no annotations nor transcript (to_jsonb(NEW) reads a column a table may lack).
CREATE FUNCTION search_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r jsonb := to_jsonb(NEW);
  doc_title text := CASE TG_TABLE_NAME WHEN 'clips' THEN search_clip_title(NEW.title, NEW.data) ELSE NEW.title END;
BEGIN
  NEW.search_config := search_program_config(NEW.program_id);
  NEW.search_vector := search_document(NEW.search_config, doc_title, NEW.data ->> 'Description', r ->> 'annotations_text', r ->> 'transcript_text');
  IF TG_OP = 'INSERT' OR NEW.search_vector IS DISTINCT FROM OLD.search_vector THEN
    PERFORM search_learn(concat_ws(' ', doc_title, NEW.data ->> 'Description', r ->> 'annotations_text', r ->> 'transcript_text'));
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER clips_search BEFORE INSERT OR UPDATE ON clips FOR EACH ROW EXECUTE FUNCTION search_row();
CREATE TRIGGER playlists_search BEFORE INSERT OR UPDATE ON playlists FOR EACH ROW EXECUTE FUNCTION search_row();
CREATE TRIGGER recordings_search BEFORE INSERT OR UPDATE ON recordings FOR EACH ROW EXECUTE FUNCTION search_row();

-- A recording's annotations, in the order src/domain/search.ts annotationsText joins them.
CREATE FUNCTION search_annotations_text(rec uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT string_agg(a.data ->> 'Text', ' ' ORDER BY (a.data ->> 'OffsetSeconds')::float8, a.id)
  FROM annotations a WHERE a.recording_id = rec AND NOT a.deleted
$$;

CREATE FUNCTION annotations_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE recordings SET annotations_text = search_annotations_text(OLD.recording_id) WHERE id = OLD.recording_id;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    UPDATE recordings SET annotations_text = search_annotations_text(NEW.recording_id) WHERE id = NEW.recording_id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER annotations_search AFTER INSERT OR UPDATE OR DELETE ON annotations FOR EACH ROW EXECUTE FUNCTION annotations_search();

-- A program's language decides its content's configuration: a change re-makes their vectors.
CREATE FUNCTION programs_search() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF search_config_of(NEW.data ->> 'Language') IS DISTINCT FROM search_config_of(OLD.data ->> 'Language') THEN
    UPDATE clips SET search_config = search_config WHERE program_id = NEW.id;
    UPDATE playlists SET search_config = search_config WHERE program_id = NEW.id;
    UPDATE recordings SET search_config = search_config WHERE program_id = NEW.id;
  END IF;
  RETURN NULL;
END
$$;
CREATE TRIGGER programs_search AFTER UPDATE ON programs FOR EACH ROW EXECUTE FUNCTION programs_search();

-- Rows written before this migration.
UPDATE recordings SET annotations_text = search_annotations_text(id);
UPDATE clips SET search_config = search_config;
UPDATE playlists SET search_config = search_config;

CREATE INDEX clips_search ON clips USING gin (search_vector);
CREATE INDEX playlists_search ON playlists USING gin (search_vector);
CREATE INDEX recordings_search ON recordings USING gin (search_vector);
-- Date sorts over every readable program of the organization.
CREATE INDEX clips_org_created ON clips (organization_id, created_at_utc DESC, id);
