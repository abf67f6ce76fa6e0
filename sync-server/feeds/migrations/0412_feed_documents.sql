-- Built feed documents, compressed, kept in the store (sync-server/api/feeds.ts): the newest per
-- feed and coding, on PostgreSQL only (api/feeds.ts says why not on PGlite). The first poll of a
-- feed on another instance sharing the database, or after a restart or a deploy, is then one read
-- of a few hundred KB instead of a build of every episode (bench:publish, feed_first_on_another_
-- instance_pg). A row is used only when its `tag` is the feed's current version key, which names
-- every input of the document, so a kept body is the one a build would make; a feed that changes
-- overwrites its row. The table exists on PGlite too: one schema for both stores.
CREATE TABLE feed_documents (
  name text PRIMARY KEY,
  tag text NOT NULL,
  body bytea NOT NULL,
  built_at_utc timestamptz NOT NULL DEFAULT now()
);
-- Already compressed: TOAST need not try to compress it again.
ALTER TABLE feed_documents ALTER COLUMN body SET STORAGE EXTERNAL;
