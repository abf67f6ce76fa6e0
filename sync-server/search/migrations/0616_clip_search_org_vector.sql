-- Clip search's GIN index finds a word's clips of the searching organization only, and holds no
-- pending list (issue 32's server target). Every clip search asks organization_id = $1 AND NOT
-- deleted (sync-server/search/search.ts); btree_gin puts the organization into the same index, so
-- the heap visit reads that organization's matches and not every organization's: in the bench's
-- store, 'interview' found 14,571 live rows of which 6,556 were another organization's.
-- fastupdate = off: with it on, new and changed rows wait in an unsorted pending list that every
-- search reads from start to end until VACUUM merges it (after the bench's fill, 475 pages and
-- 9,223 rows), and the planner, counting that list, took the program index over this one
-- ('interview' 124,344 candidates for 8,015 answers). PostgreSQL's documentation advises it off
-- where search time matters more than write time; a clip's write adds its few words directly.
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX clip_search_org_vector_live ON clip_search USING gin (organization_id, search_vector) WITH (fastupdate = off) WHERE NOT deleted;
DROP INDEX clip_search_vector_live;
