-- A feed's validators (sync-server/feeds/feed-data.ts) as a function: a podcast app's poll answered
-- 304 is this one query, and PGlite spent most of it PLANNING the statement's six joins anew on every
-- call (bench:publish: ~10 ms planning against ~0.8 ms executing). A PL/pgSQL function keeps its
-- plan for the session (PostgreSQL: per connection). Same SELECT as the statement it replaces.
CREATE FUNCTION feed_validators(p_playlist uuid, p_now timestamptz)
RETURNS TABLE (program_id uuid, organization_id uuid, visibility text, deleted boolean, program_deleted boolean, versions text, modified timestamptz)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
  SELECT p.program_id, p.organization_id, p.visibility::text, p.deleted, g.deleted AS program_deleted,
    concat_ws(':', p.version, g.version, o.version, lc.version, d.versions) AS versions,
    greatest(p.modified_at_utc, g.modified_at_utc, o.modified_at_utc, lc.modified_at_utc, d.modified) AS modified
  FROM playlists p
  LEFT JOIN programs g ON g.id = p.program_id
  LEFT JOIN organizations o ON o.id = p.organization_id
  -- The newest clip write of the ORGANIZATION, from the revisions' pull index: the clips table keeps
  -- no Version index (0103: a title edit stays a HOT update), so a feed's key moves with any clip
  -- write of its organization (a podcast app then gets a 200 it could have been spared, never a
  -- stale 304). A scheduled visibility is applied by its job at VisibleAtUtc, a write like any other.
  LEFT JOIN LATERAL (SELECT r.version, r.modified_at_utc FROM row_revisions r
    WHERE r.organization_id = p.organization_id AND r.entity = 'clip' ORDER BY r.version DESC LIMIT 1) lc ON true
  LEFT JOIN LATERAL (
    SELECT concat_ws('.', count(*), max(fd.version), max(c.version), max(cg.version),
        count(*) FILTER (WHERE fd.drop_at_utc <= p_now),
        count(*) FILTER (WHERE (c.data->>'VisibleAtUtc')::timestamptz <= p_now)) AS versions,
      max(greatest(fd.modified_at_utc, c.modified_at_utc, CASE WHEN fd.drop_at_utc <= p_now THEN fd.drop_at_utc END)) AS modified
    FROM feed_drops fd JOIN clips c ON c.id = fd.clip_id LEFT JOIN programs cg ON cg.id = c.program_id
    WHERE fd.playlist_id = p.id) d ON true
  WHERE p.id = p_playlist;
END
$$;
