-- Clip search's GIN index holds live clips only (issue 32's bench): every search asks NOT deleted,
-- and deleted clips stay as tombstones for sync (in the bench's store, 50,277 of the demo
-- organization's 77,130). With them in the index, a word's candidates were mostly rows that the
-- heap visit then threw away: 'preview' in titles found 19,132 rows for 5,096 answers over 5,518
-- heap pages; without them 9,465 rows over 4,014 pages. The planner uses it for every search, whose
-- WHERE always has NOT t.deleted (sync-server/search/search.ts).
CREATE INDEX clip_search_vector_live ON clip_search USING gin (search_vector) WHERE NOT deleted;
DROP INDEX clip_search_vector;
