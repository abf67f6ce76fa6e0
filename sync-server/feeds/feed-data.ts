// What a playlist's feed is made of, read from the store in two steps:
//
//   feedValidators(playlistId, now) ── one query of index probes ──> 404? / the version key
//        │                                     (ETag and Last-Modified; a 304 stops here)
//        ▼
//   feedContent(...) ── the playlist's clips (one query, only the fields a feed writes), its
//                       program, organization and drops ──> FeedChannel + FeedItem[] (rss.ts)
//
// The version key is every input of the document: the Versions (one global sequence, new on
// every write) of the organization, the program, the playlist, the newest of the program's clips
// (a playlist holds clips of its own program only), the drops into the playlist and their clips
// and programs; the scheduled visibilities and drop times that have come due (a feed changes
// when one passes, without a write); the origin the URLs are made against; and FEED_FORMAT, which
// changes when this code writes a different document for the same rows.
import { createHash } from 'node:crypto';
import { clipLabel } from '../../src/domain/clip.ts';
import { absoluteUrl, publicPaths } from '../../src/domain/public-urls.ts';
import { enclosureType, feedIncludes, feedOrder, transcriptType, type FeedOptions } from '../../src/domain/feed.ts';
import { programPodcast } from '../../src/domain/program-rules.ts';
import { PODCAST_CATEGORIES } from '../reference/podcast-categories.ts';
import type { Queryable } from '../store/store.ts';
import { Lru } from '../lru.ts';
import { itemXml, podcastGuid, rssDocumentBytes, type FeedChannel, type FeedItem, type FeedPerson } from './rss.ts';

/** Bump when the builder writes a different document for the same rows (a new tag, a fix). */
export const FEED_FORMAT = 2;

export type FeedValidators = {
  playlistId: string;
  programId: string;
  organizationId: string;
  /** The strong ETag's opaque part (no quotes, no coding suffix). */
  tag: string;
  lastModified: Date;
};

type ValidatorRow = {
  program_id: string;
  organization_id: string;
  visibility: string;
  deleted: boolean;
  program_deleted: boolean | null;
  versions: string;
  modified: Date;
};

/** The version key's query, a function (migrations/0411_feed_validators.sql) so that PGlite does
 * not plan its joins again on every poll. */
const VALIDATORS_SQL = `SELECT program_id, organization_id, visibility, deleted, program_deleted, versions, modified FROM feed_validators($1::uuid, $2::timestamptz)`;

/**
 * The feed's validators, or null when it has no public feed: no such playlist, deleted, of a
 * deleted program, or one whose visibility does not allow it (`allowed`).
 */
export async function feedValidators(
  q: Queryable,
  playlistId: string,
  now: Date,
  origin: string,
  allowed: (playlist: { Visibility: string }) => boolean,
  variant = 'public',
): Promise<FeedValidators | null> {
  const [row] = await q.query<ValidatorRow>(VALIDATORS_SQL, [playlistId, now.toISOString()]);
  if (!row || row.deleted || row.program_deleted !== false || !allowed({ Visibility: row.visibility })) return null;
  const tag = createHash('sha1').update(`${FEED_FORMAT}|${variant}|${origin}|${row.versions}`).digest('base64url');
  // HTTP dates have whole seconds: Last-Modified is the second the newest input changed in.
  const lastModified = new Date(Math.floor(new Date(row.modified).getTime() / 1000) * 1000);
  return { playlistId, programId: row.program_id, organizationId: row.organization_id, tag, lastModified };
}

// ── The content ─────────────────────────────────────────────────────────────────────────────

/** A clip as the feed reads it: the columns and the few data fields a feed writes. */
type ClipRow = {
  id: string;
  /** The row's Version (text): what a kept row is keyed by. */
  version: string;
  /** A Date from the driver, PostgreSQL's JSON text from CLIP_JSON. */
  created_at_utc: Date | string;
  title: string | null;
  state: string;
  publish_state: string;
  visibility: string;
  deleted: boolean;
  scheduled_visibility: string | null;
  visible_at_utc: string | null;
  published_utc: string | null;
  description: string | null;
  description_html: string | null;
  short_summary: string | null;
  episode: number | null;
  season: number | null;
  episode_type: string | null;
  content_rating: string | null;
  has_chapters: boolean | null;
  duration_seconds: number | null;
  published_duration_seconds: number | null;
  published_audio_size_in_bytes: number | null;
  rss_link_override: string | null;
  audio_public_url: string | null;
  show_page_url: string | null;
  image_public_url: string | null;
  transcript_public_url: string | null;
};

/** Each ClipRow field and the SQL that reads it (of clips c). */
const CLIP_COLUMNS: ReadonlyArray<readonly [keyof ClipRow, string]> = [
  ['id', 'c.id'],
  ['version', 'c.version::text'],
  ['created_at_utc', 'c.created_at_utc'],
  ['title', 'c.title'],
  ['state', 'c.state'],
  ['publish_state', 'c.publish_state'],
  ['visibility', 'c.visibility'],
  ['deleted', 'c.deleted'],
  ['scheduled_visibility', "c.data->>'ScheduledVisibility'"],
  ['visible_at_utc', "c.data->>'VisibleAtUtc'"],
  ['published_utc', "c.data->>'PublishedUtc'"],
  ['description', "c.data->>'Description'"],
  ['description_html', "c.data->>'DescriptionHtml'"],
  ['short_summary', "c.data->>'ShortSummary'"],
  ['episode', "(c.data->>'Episode')::float8"],
  ['season', "(c.data->>'Season')::float8"],
  ['episode_type', "c.data->>'EpisodeType'"],
  ['content_rating', "c.data->>'ContentRating'"],
  ['has_chapters', "jsonb_typeof(c.data->'Chapters') = 'array' AND jsonb_array_length(c.data->'Chapters') > 0"],
  ['duration_seconds', "(c.data->>'DurationSeconds')::float8"],
  ['published_duration_seconds', "(c.data->>'PublishedDurationSeconds')::float8"],
  ['published_audio_size_in_bytes', "(c.data->>'PublishedAudioSizeInBytes')::float8"],
  ['rss_link_override', "c.data->>'RssLinkOverride'"],
  ['audio_public_url', "c.data#>>'{Urls,AudioPublicUrl}'"],
  ['show_page_url', "c.data#>>'{Urls,ShowPageUrl}'"],
  ['image_public_url', "c.data#>>'{Urls,ImagePublicUrl}'"],
  ['transcript_public_url', "c.data#>>'{Urls,TranscriptPublicUrl}'"],
];
const CLIP_FIELDS = CLIP_COLUMNS.map(([name, sql]) => `${sql} AS ${name}`).join(', ');
/** The same fields as ONE JSON text of all the rows, each row an array in CLIP_COLUMNS' order
 * (clipRowOf names them): PGlite made the arrays about a third faster than objects of 27 keys
 * (half the text, no key written 2,500 times), and a first build's time is mostly this query. */
const CLIP_JSON = `coalesce(json_agg(json_build_array(${CLIP_COLUMNS.map(([, sql]) => sql).join(', ')})), '[]')::text AS rows`;
const CLIP_NAMES = CLIP_COLUMNS.map(([name]) => name);
/** A program's clips as a feed reads them on a first build (bench:publish times it as the floor
 * of a build: the rows must be read whatever is done with them). */
export const PROGRAM_FEED_ROWS_SQL = `SELECT ${CLIP_JSON} FROM clips c WHERE c.program_id = $1`;
function clipRowOf(values: readonly unknown[]): ClipRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < CLIP_NAMES.length; i++) row[CLIP_NAMES[i]!] = values[i] ?? null;
  return row as ClipRow;
}

/** A clip row kept between builds, and the XML of its item once written (for `context`: what
 * else the item's text depends on). Replaced, not changed, when the row has a new Version. */
type KeptClip = { row: ClipRow; xml?: { context: string; bytes: Buffer } };

/** Clips kept between builds, per store (a Version is a store's own sequence), keyed by id and
 * checked against the row's Version: any write of a clip gives it a new one, on every instance. */
const keptClips = new WeakMap<Queryable, Lru<string, KeptClip>>();
/** ~2 KB each (row and item): a few feeds of thousands of episodes. */
const KEPT_CLIPS = 20_000;

/** Up to this many clips a playlist's are found by their ids; more, by their program's index. */
const BY_IDS_MAX = 200;

/**
 * The playlist's clips (a playlist holds clips of its own program only), read in full only when
 * not kept at their current Version: first their ids and Versions, then the rows of the rest. A
 * 2,500-episode feed rebuilt after a write reads one or a few rows, not 2,500 rows of 27 fields
 * (bench:publish, feed_built). A long playlist's ids and Versions are read by the program's index
 * and filtered here: PGlite took 3x longer to match 2,500 ids in SQL than to read the program's.
 */
async function playlistClips(q: Queryable, programId: string, clipIds: readonly string[]): Promise<KeptClip[]> {
  let kept = keptClips.get(q);
  if (!kept) keptClips.set(q, (kept = new Lru(KEPT_CLIPS)));
  const inPlaylist = new Set(clipIds);
  // None kept (a new instance, a restart): every row is read in full below, so its ids and
  // Versions are not read first.
  const noneKept = !clipIds.some((id) => kept.has(id));
  const [current] =
    clipIds.length === 0 || noneKept
      ? []
      : await q.query<{ rows: string | null }>(
          `SELECT string_agg(c.id::text || ' ' || c.version::text, ' ') AS rows FROM clips c WHERE c.program_id = $1${clipIds.length <= BY_IDS_MAX ? ' AND c.id = ANY($2::uuid[])' : ''}`,
          clipIds.length <= BY_IDS_MAX ? [programId, clipIds] : [programId],
        );
  // "id version id version …": uuids and numbers hold no space.
  const words = current?.rows ? current.rows.split(' ') : [];
  const rows: KeptClip[] = [];
  const missing: string[] = noneKept ? [...inPlaylist] : [];
  for (let i = 0; i + 1 < words.length; i += 2) {
    const id = words[i]!;
    const version = words[i + 1]!;
    if (!inPlaylist.has(id)) continue;
    const hit = kept.get(id);
    if (hit && hit.row.version === version) rows.push(hit);
    else missing.push(id);
  }
  if (missing.length > 0) {
    // JSON text of all the rows: a driver decodes 2,500 rows of 27 cells several times slower
    // than JSON.parse reads the same values from one string.
    // Most of the program's clips (a first build): by the program's index, as above.
    const byProgram = missing.length > BY_IDS_MAX && (noneKept || missing.length * 2 >= words.length / 2);
    const [text] = byProgram
      ? await q.query<{ rows: string }>(PROGRAM_FEED_ROWS_SQL, [programId])
      : await q.query<{ rows: string }>(`${PROGRAM_FEED_ROWS_SQL} AND c.id = ANY($2::uuid[])`, [programId, missing]);
    const wanted = byProgram ? new Set(missing) : null;
    for (const values of JSON.parse(text?.rows ?? '[]') as unknown[][]) {
      const row = clipRowOf(values);
      if (wanted && !wanted.has(row.id)) continue;
      const entry = { row };
      kept.set(row.id, entry);
      rows.push(entry);
    }
  }
  return rows;
}

type DropRow = ClipRow & {
  drop_id: string;
  drop_title: string | null;
  drop_description: string | null;
  drop_at_utc: Date | null;
  drop_created_at_utc: Date;
  source_program_deleted: boolean | null;
};

type Json = Record<string, unknown>;

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/**
 * What the channel takes from its program (src/domain/program-rules.ts programPodcast: rows made
 * before the program form had these fields read as null, false, []) and its organization: the
 * organization's name as the author when none is set, the language from the organization or 'en',
 * no category (the tag is left out) unless one is set, episodic unless serial.
 */
export function channelSettings(program: Json, organization: Json) {
  const podcast = programPodcast(program);
  const persons: FeedPerson[] = podcast.Persons.flatMap((p) => {
    const name = str(p.Name);
    return name ? [{ name, role: str(p.Role), href: str(p.Href) }] : [];
  });
  const fundingUrl = str(podcast.FundingUrl);
  return {
    author: str(podcast.Author) ?? str(organization['Name']) ?? str(program['Name']) ?? '',
    ownerName: str(podcast.OwnerName),
    ownerEmail: str(podcast.OwnerEmail),
    language: (str(podcast.Language) ?? str(organization['Language']) ?? 'en').toLowerCase(),
    category: categoryNames(str(podcast.Category), str(podcast.Subcategory)),
    explicit: podcast.Explicit === true,
    copyright: str(podcast.Copyright),
    itunesType: podcast.ItunesType === 'serial' ? ('serial' as const) : ('episodic' as const),
    locked: podcast.Locked === true,
    funding: fundingUrl ? { url: fundingUrl, text: str(podcast.FundingText) ?? fundingUrl } : null,
    persons,
    link: str(podcast.Link),
  };
}

/** Apple's category texts for a Category and Subcategory, each given as a reference Id
 * ('news', 'news.business-news') or as the name itself; unknown: no category. */
export function categoryNames(category: string | null, subcategory: string | null): FeedChannel['category'] {
  if (category === null) return null;
  const top = PODCAST_CATEGORIES.find((c) => c.Id === category || c.Name === category);
  if (!top) return null;
  const sub = subcategory === null ? undefined : top.Subcategories.find((s) => s.Id === subcategory || s.Name === subcategory);
  return { name: top.Name, subcategory: sub?.Name ?? null };
}

const EPISODE_TYPES = { Full: 'full', Trailer: 'trailer', Bonus: 'bonus' } as const;

export type FeedContent = { channel: FeedChannel; items: FeedItem[] };

export type FeedContentOptions = FeedOptions & { feedPath: string; block: boolean; enclosureUrl?: (clipId: string, audioPublicUrl: string) => string };

/**
 * The feed's channel and items. `options.member` lists Restricted clips too (member feeds);
 * `enclosureUrl` says which audio a listener gets (the public audio, or a member's own URL).
 */
export async function feedContent(q: Queryable, v: FeedValidators, origin: string, options: FeedContentOptions): Promise<FeedContent> {
  const { channel, entries } = await feedEntries(q, v, origin, options);
  return { channel, items: entries.map((e) => e.item()) };
}

/**
 * The feed's document as bytes (what buildRss makes of feedContent, UTF-8), with the XML of each
 * clip's item kept with its row: a feed rebuilt because one episode changed writes that one item
 * again, and the document is copied together from the items' bytes (one string of 2 MB made by
 * join and then encoded cost more than writing all the items: bench:publish).
 */
export async function feedDocument(q: Queryable, v: FeedValidators, origin: string, options: FeedContentOptions): Promise<Buffer> {
  const { channel, entries } = await feedEntries(q, v, origin, options);
  const parts: Buffer[] = [];
  for (const e of entries) {
    const kept = e.kept;
    if (kept && e.context !== null && kept.xml?.context === e.context) {
      parts.push(kept.xml.bytes);
      continue;
    }
    const bytes = Buffer.from(itemXml(e.item()), 'utf8');
    if (kept && e.context !== null) kept.xml = { context: e.context, bytes };
    parts.push(bytes);
  }
  return rssDocumentBytes(channel, parts);
}

/** An item of the feed, made when asked; a clip's with its kept row, and `context`: everything
 * else its XML depends on (null: made each time: enclosure URLs the caller makes). */
type FeedEntry = { kept: KeptClip | null; context: string | null; item: () => FeedItem };

async function feedEntries(q: Queryable, v: FeedValidators, origin: string, options: FeedContentOptions): Promise<{ channel: FeedChannel; entries: FeedEntry[] }> {
  const [meta] = await q.query<{ playlist: Json; program: Json; organization: Json; clip_ids: string[]; imported_guid: string | null }>(
    `SELECT jsonb_build_object('Title', p.title, 'Description', p.data->'Description', 'Urls', p.data->'Urls') AS playlist, p.clip_ids,
       g.data || jsonb_build_object('Name', g.name) AS program, o.data || jsonb_build_object('Name', o.name) AS organization,
       (SELECT i.podcast_guid FROM imports i WHERE i.playlist_id = p.id AND i.podcast_guid IS NOT NULL ORDER BY i.created_at_utc LIMIT 1) AS imported_guid
     FROM playlists p JOIN programs g ON g.id = p.program_id JOIN organizations o ON o.id = p.organization_id WHERE p.id = $1`,
    [v.playlistId],
  );
  if (!meta) throw new Error(`feed: playlist ${v.playlistId} vanished`);
  const clipRows = await playlistClips(q, v.programId, meta.clip_ids);
  const dropRows = await q.query<DropRow>(
    `SELECT ${CLIP_FIELDS}, d.id AS drop_id, d.title AS drop_title, d.description AS drop_description, d.drop_at_utc,
       d.created_at_utc AS drop_created_at_utc, cg.deleted AS source_program_deleted
     FROM feed_drops d JOIN clips c ON c.id = d.clip_id LEFT JOIN programs cg ON cg.id = c.program_id
     WHERE d.playlist_id = $1 AND NOT d.deleted AND (d.drop_at_utc IS NULL OR d.drop_at_utc <= $2)`,
    [v.playlistId, options.now.toISOString()],
  );

  const settings = channelSettings(meta.program, meta.organization);
  const abs = (path: string) => absoluteUrl(path, origin);
  const feedUrl = abs(options.feedPath);
  const playlistUrls = (meta.playlist['Urls'] ?? {}) as Json;
  const programUrls = (meta.program['Urls'] ?? {}) as Json;
  const image = str(playlistUrls['ImagePublicUrl']) ?? str(programUrls['ImagePublicUrl']);
  const title = str(meta.playlist['Title']) ?? str(meta.program['Name']) ?? '';
  const channel: FeedChannel = {
    title,
    description: str(meta.playlist['Description']) ?? str(meta.program['Description']) ?? title,
    link: settings.link ?? abs(publicPaths.programPage(v.programId)),
    feedUrl,
    // A podcast:guid is given once in a show's life and follows it (Podcasting 2.0): the one an
    // import brought from the old host, else the UUIDv5 of the public feed's URL, also in a
    // member's private feed (whose URL changes with a new token; the show does not).
    guid: meta.imported_guid ?? podcastGuid(abs(publicPaths.feed(v.playlistId))),
    imageUrl: image ? abs(image) : null,
    language: settings.language,
    category: settings.category,
    explicit: settings.explicit,
    author: settings.author,
    owner: { name: settings.ownerName ?? (settings.ownerEmail ? settings.author : null), email: settings.ownerEmail },
    copyright: settings.copyright,
    itunesType: settings.itunesType,
    locked: settings.locked,
    funding: settings.funding,
    persons: settings.persons,
    block: options.block,
    lastBuildDate: v.lastModified,
  };

  const listed = (c: ClipRow) =>
    c.audio_public_url !== null &&
    feedIncludes(
      { Deleted: c.deleted, State: c.state, PublishState: c.publish_state, Visibility: c.visibility, ScheduledVisibility: c.scheduled_visibility, VisibleAtUtc: c.visible_at_utc },
      options,
    );
  const byId = new Map<string, KeptClip>();
  for (const k of clipRows) if (listed(k.row)) byId.set(k.row.id, k);
  const drops = dropRows
    .filter((d) => d.source_program_deleted === false && listed(d))
    .map((d) => ({ row: d, at: (d.drop_at_utc ?? d.drop_created_at_utc).getTime() }));
  const ordered = feedOrder(meta.clip_ids, byId, drops);

  const toItem = (c: ClipRow, guid: string, pubDate: Date, override?: { title: string | null; description: string | null }): FeedItem => {
    const audio = c.audio_public_url!;
    const url = options.enclosureUrl ? options.enclosureUrl(c.id, audio) : abs(audio);
    const link = str(c.rss_link_override) ?? str(c.show_page_url);
    const html = str(override?.description ?? null) ?? str(c.description_html) ?? str(c.description);
    const dropped = override !== undefined;
    return {
      guid,
      title: str(override?.title ?? null) ?? clipLabel({ Title: c.title }),
      link: link ? abs(link) : null,
      descriptionHtml: html,
      summary: str(c.short_summary),
      pubDate,
      enclosure: { url, length: c.published_audio_size_in_bytes ?? 0, type: enclosureType(audio) },
      durationSeconds: c.published_duration_seconds ?? c.duration_seconds,
      // A drop is another program's episode: its numbers mean nothing in this feed.
      episode: dropped ? null : c.episode,
      season: dropped ? null : c.season,
      episodeType: EPISODE_TYPES[c.episode_type as keyof typeof EPISODE_TYPES] ?? 'full',
      explicit: c.content_rating === 'Explicit' || (c.content_rating === null && settings.explicit),
      imageUrl: c.image_public_url ? abs(c.image_public_url) : null,
      transcript: c.transcript_public_url ? { url: abs(c.transcript_public_url), type: transcriptType(c.transcript_public_url) } : null,
      chaptersUrl: c.has_chapters ? abs(publicPaths.chapters(c.id)) : null,
    };
  };
  const published = (c: ClipRow) => new Date(c.published_utc ?? c.created_at_utc);
  // A clip's item is its row (its Version), the origin of its URLs and the show's explicit flag
  // (the default of a clip without a rating); FEED_FORMAT is this code's.
  const context = options.enclosureUrl ? null : `${FEED_FORMAT}|${origin}|${settings.explicit}`;
  const entries: FeedEntry[] = [
    ...ordered.clips.map((k) => ({ kept: k, context, item: () => toItem(k.row, k.row.id, published(k.row)) })),
    ...ordered.drops.map((d) => ({ kept: null, context: null, item: () => toItem(d.row, d.row.drop_id, new Date(d.at), { title: d.row.drop_title, description: d.row.drop_description }) })),
  ];
  return { channel, entries };
}
