-- The typo rule's trigrams are kept in a table of our own instead of pg_trgm's index and
-- functions. In PGlite, pg_trgm's code crashes the database now and then: its trigram comparator is
-- called through a pointer (CMPTRGM) that is found broken in roughly one fresh PGlite instance in
-- ten to seventy, at the first similarity() or % after the library loads ("RuntimeError: null
-- function or function signature mismatch" in pg_trgm's comp_trgm), the same in PGlite 0.5.16,
-- 0.5.17 and 0.6.1. A crashed backend made PGlite spin for ever (sync-server/store/pglite-guard.ts):
-- the hung CI runs and a search that answered nothing were this. Plain SQL over a table gives the
-- same answer on both stores, and pg_trgm is no longer called at all.
--
-- The rule is unchanged (src/domain/search.ts trigramsOf and trigramSimilarity, which are
-- pg_trgm's show_trgm and similarity): a word's trigrams are those of each run of letters and
-- digits, lower-cased, padded with two spaces before and one after, each counted once; the
-- similarity of two words is their shared trigrams over all distinct trigrams of the two.
DROP INDEX IF EXISTS search_lexicon_trgm;
DROP EXTENSION IF EXISTS pg_trgm;

CREATE FUNCTION search_trigrams(content text) RETURNS SETOF text LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT substr(padded, i, 3)
  FROM (SELECT '  ' || w || ' ' AS padded FROM regexp_split_to_table(lower(coalesce(content, '')), '[^[:alnum:]]+') AS w WHERE w <> '') AS words,
       generate_series(1, length(padded) - 2) AS i
$$;

-- One row per trigram of each lexicon word, with the word's count of distinct trigrams. Like the
-- lexicon (0481), no unique index: a word learned twice at once has its trigrams twice, and the
-- query counts distinct trigrams per word.
CREATE TABLE search_lexicon_trigram (trigram text NOT NULL, word text NOT NULL, trigrams int NOT NULL);
CREATE INDEX search_lexicon_trigram_by_trigram ON search_lexicon_trigram (trigram) INCLUDE (word, trigrams);

-- A word's trigrams are added with it, in the statement that learns it (a data-modifying WITH),
-- so a write that learns nothing new does no more than before. (A statement trigger on the lexicon
-- cost every row write a trigger call, new words or not: the 100,000-clip fill took 159 s instead
-- of 56 s on PostgreSQL.)
CREATE OR REPLACE FUNCTION search_learn(content text) RETURNS void LANGUAGE sql AS $$
  WITH learned AS (
    INSERT INTO search_lexicon (word)
    SELECT DISTINCT u.lexeme FROM unnest(to_tsvector('simple', coalesce(content, ''))) AS u
    WHERE length(u.lexeme) BETWEEN 3 AND 40 AND u.lexeme !~ '[0-9[:punct:][:space:]]'
      AND NOT EXISTS (SELECT 1 FROM search_lexicon l WHERE l.word = u.lexeme)
    RETURNING word
  )
  INSERT INTO search_lexicon_trigram (trigram, word, trigrams)
  SELECT g, l.word, c.n FROM learned AS l, LATERAL (SELECT count(*)::int AS n FROM search_trigrams(l.word)) AS c, search_trigrams(l.word) AS g
$$;

INSERT INTO search_lexicon_trigram (trigram, word, trigrams)
SELECT g, l.word, c.n FROM (SELECT DISTINCT word FROM search_lexicon) AS l, LATERAL (SELECT count(*)::int AS n FROM search_trigrams(l.word)) AS c, search_trigrams(l.word) AS g;

-- The lexicon words whose similarity to `term` is at least `threshold`, sorted, joined by ' or '
-- (websearch_to_tsquery's syntax; sync-server/search/search.ts ORs them with the word); null when
-- none. A word's candidates are those sharing a trigram with it, read from the index.
CREATE FUNCTION search_similar_words(term text, threshold float8) RETURNS text LANGUAGE sql STABLE AS $$
  WITH q AS (SELECT g FROM search_trigrams(term) AS g)
  SELECT string_agg(word, ' or ' ORDER BY word)
  FROM (
    SELECT t.word
    FROM search_lexicon_trigram t JOIN q ON q.g = t.trigram
    GROUP BY t.word, t.trigrams
    HAVING count(DISTINCT t.trigram)::float8 / ((SELECT count(*) FROM q) + t.trigrams - count(DISTINCT t.trigram)) >= threshold
  ) AS close_words
$$;
