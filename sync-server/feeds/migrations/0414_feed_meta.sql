-- What a feed build reads of its playlist, program and organization (sync-server/feeds/feed-data.ts
-- feedEntries) as a function, as feed_validators is (0411): PGlite planned the statement's joins
-- anew on every build (~9 ms under load, as long as everything else a rebuild of 2,500 kept items
-- does), and a PL/pgSQL function keeps its plan for the session. `has_drops`: whether any drop is
-- made into the playlist, so that a build of a feed without drops (most) skips their query.
CREATE FUNCTION feed_meta(p_playlist uuid)
RETURNS TABLE (playlist jsonb, clip_ids jsonb, program jsonb, organization jsonb, imported_guid text, has_drops boolean)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT jsonb_build_object('Title', p.title, 'Description', p.data->'Description', 'Urls', p.data->'Urls'), p.clip_ids,
    g.data || jsonb_build_object('Name', g.name), o.data || jsonb_build_object('Name', o.name),
    (SELECT i.podcast_guid FROM imports i WHERE i.playlist_id = p.id AND i.podcast_guid IS NOT NULL ORDER BY i.created_at_utc LIMIT 1),
    EXISTS (SELECT 1 FROM feed_drops d WHERE d.playlist_id = p.id AND NOT d.deleted)
  FROM playlists p JOIN programs g ON g.id = p.program_id JOIN organizations o ON o.id = p.organization_id WHERE p.id = p_playlist;
END
$$;
