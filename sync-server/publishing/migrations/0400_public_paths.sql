-- Clip URLs held an origin that never served anything ('https://listen.castaway.example', the
-- placeholder of content-rules.ts): rows now hold site-relative paths (src/domain/public-urls.ts
-- publicPaths), made absolute against the studio's own origin where they leave it. The embed URL
-- becomes /embed/{clipId}; the show page /shows/{programId}/{slug} (program slugs are unique per
-- organization only, so public paths name a program by its id); any other URL under that origin
-- keeps its path. Each rewritten row takes a new Version and a revision (whose undo step holds the
-- old Urls), so devices pull the change and the three-way merge sees it.
CREATE TEMPORARY TABLE public_paths_rewrite ON COMMIT DROP AS
SELECT c.id, c.organization_id, c.modified_at_utc, c.data->'Urls' AS old_urls,
       (SELECT jsonb_object_agg(u.key,
                 CASE
                   WHEN u.key = 'EmbedUrl' AND u.value #>> '{}' LIKE 'https://listen.castaway.example/%' THEN to_jsonb('/embed/' || c.id::text)
                   WHEN u.key = 'ShowPageUrl' AND u.value #>> '{}' LIKE 'https://listen.castaway.example/%' AND c.slug IS NOT NULL
                     THEN to_jsonb('/shows/' || c.program_id::text || '/' || c.slug)
                   WHEN jsonb_typeof(u.value) = 'string' AND u.value #>> '{}' LIKE 'https://listen.castaway.example/%'
                     THEN to_jsonb(substr(u.value #>> '{}', length('https://listen.castaway.example') + 1))
                   ELSE u.value
                 END)
          FROM jsonb_each(c.data->'Urls') u) AS new_urls
  FROM clips c
 WHERE jsonb_typeof(c.data->'Urls') = 'object'
   AND EXISTS (SELECT 1 FROM jsonb_each(c.data->'Urls') u WHERE jsonb_typeof(u.value) = 'string' AND u.value #>> '{}' LIKE 'https://listen.castaway.example/%');

ALTER TABLE public_paths_rewrite ADD COLUMN version bigint;
ALTER TABLE public_paths_rewrite ADD COLUMN at timestamptz;
UPDATE public_paths_rewrite SET version = next_row_version(), at = greatest(now(), modified_at_utc + interval '1 millisecond');

UPDATE clips c SET data = jsonb_set(c.data, '{Urls}', r.new_urls), version = r.version, modified_at_utc = r.at, modified_by_id = NULL
  FROM public_paths_rewrite r WHERE r.id = c.id;

INSERT INTO row_revisions (entity, id, version, modified_at_utc, modified_by_id, client_id, undo, organization_id)
SELECT 'clip', r.id, r.version, r.at, NULL, NULL, jsonb_build_object('Urls', r.old_urls), r.organization_id FROM public_paths_rewrite r;
