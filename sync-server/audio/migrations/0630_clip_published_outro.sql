-- A clip's row carries the length of the outro its published audio ends with (PublishedOutroSeconds,
-- written by sync-server/audio/versions.ts with the version's Urls from now on). The versions made
-- before say which outro they were rendered with only in their own record in the blob store
-- (published.json), out of reach here: the job recordPublishedOutros (versions.ts) reads it and
-- writes the field, once, where any clip has audio.
INSERT INTO jobs (kind, payload, singleton_key, max_attempts)
SELECT 'clip.recordPublishedOutros', '{}'::jsonb, 'clip.recordPublishedOutros', 5
 WHERE EXISTS (SELECT 1 FROM clips WHERE NOT deleted AND data->'Urls'->>'AudioPrivateUrl' IS NOT NULL);
