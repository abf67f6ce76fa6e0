-- Pages of a program's or an organization's live clips, newest first (the lists' default order),
-- from the index alone. clips_program and clips_org_created hold the order but not `deleted` (nor
-- the other scope column), so a deep page read every clip's row to filter it, then sorted them:
-- the last page of a 19,000-clip program took 26 ms warm and 155 ms cold on PostgreSQL at 100,000
-- clips, an organization's page 1,000 115 ms. With these (an index-only scan, once VACUUM has set
-- the visibility map: autovacuum on PostgreSQL, the store.analyze job on PGlite): 8 ms and 8 ms.
-- Edits leave every column here alone, so they stay HOT updates (migration 0103).
CREATE INDEX IF NOT EXISTS clips_program_live ON clips (program_id, created_at_utc DESC, id) INCLUDE (organization_id) WHERE NOT deleted;
CREATE INDEX IF NOT EXISTS clips_org_live ON clips (organization_id, created_at_utc DESC, id) INCLUDE (program_id) WHERE NOT deleted;
