-- The typo rule's word list no longer makes writers wait for each other. With search_lexicon's
-- primary key, a write that learned a new word held that key until it committed, and any other
-- write of the same word (another clip saved with it, the same edit pushed from another device)
-- waited on it: a long transaction stalled every writer of its words (tests/sync/pull-in-flight
-- holds one open on purpose and timed out). Without a unique index, INSERT … WHERE NOT EXISTS
-- never waits; two transactions learning one word at once may both add it, and the query takes
-- the distinct words (sync-server/search/search.ts).
ALTER TABLE search_lexicon DROP CONSTRAINT search_lexicon_pkey;
CREATE INDEX search_lexicon_word ON search_lexicon (word);

CREATE OR REPLACE FUNCTION search_learn(content text) RETURNS void LANGUAGE sql AS $$
  INSERT INTO search_lexicon (word)
  SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('simple', coalesce(content, ''))) AS u
  WHERE length(u.lexeme) BETWEEN 3 AND 40 AND u.lexeme !~ '[0-9[:punct:][:space:]]'
    AND NOT EXISTS (SELECT 1 FROM search_lexicon l WHERE l.word = u.lexeme)
$$;
