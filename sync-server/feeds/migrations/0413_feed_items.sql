-- Each clip's feed <item> XML, rendered when the clip is written rather than when a feed is built
-- (sync-server/feeds/feed-items.ts): a first build of a 2,500-episode feed reads these and joins
-- them, instead of making the JSON of 2,500 clip rows and writing every item.
--
-- A row is of use only while it is current: `clip_version` is the clip row's Version it was
-- rendered from (any write of the clip gives a new one), and `context` names everything else the
-- item depends on (feed-items.ts itemContext: this code's FEED_FORMAT and the program's Explicit
-- flag, the default of a clip without a rating). A build joins on both and renders from the clip
-- row whatever is missing or stale, so the feed is always the one rendered from scratch.
--
-- `xml` has no origin: every URL made from a site-relative path starts with a marker that a build
-- replaces with the origin it answers for (PUBLIC_URL or the request's own); null when the item
-- cannot be stored so (its text holds the marker, or a path that would leave the origin), and then
-- a build renders it. `listing` is what decides whether a feed lists the clip (feed-data.ts
-- listed: states, visibility, scheduled visibility, whether it has public audio) as JSON, so that
-- a build reads no clip data but the row's id and Version.
CREATE TABLE feed_items (
  clip_id uuid PRIMARY KEY REFERENCES clips (id) ON DELETE CASCADE,
  clip_version bigint NOT NULL,
  context text NOT NULL,
  listing text NOT NULL,
  xml text,
  rendered_at_utc timestamptz NOT NULL DEFAULT now()
);
