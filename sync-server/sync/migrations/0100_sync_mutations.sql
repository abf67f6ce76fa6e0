-- Sync: the result of every processed mutation, by the mutation's client-made id, so a mutation
-- sent again (lost response, retry, duplicate) is applied once and answered the same.
-- `written_modified_at_utc` is the ModifiedAtUtc of the row revision the mutation wrote: the
-- three-way merge tells the client's own earlier writes from other people's by it.
CREATE TABLE sync_mutations (
  id uuid PRIMARY KEY,
  client_id uuid NOT NULL,
  user_id uuid NOT NULL,
  entity text NOT NULL,
  entity_id text NOT NULL,
  result jsonb NOT NULL,
  written_modified_at_utc text,
  processed_at_utc timestamptz NOT NULL
);
CREATE INDEX sync_mutations_own ON sync_mutations (client_id, entity_id);
