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
//
// Enclosures of a public feed carry the organization's measurement URL prefixes in front
// (src/domain/measurement.ts measuredUrl: "https://op3.dev/e/" + the URL without its scheme); its
// other URLs (links, images, transcripts, chapters) do not, and neither do a member's private feed's
// signed links, which a third party has no business seeing. The prefixes are on the organization's
// row, whose Version is in the version key, and in an item's context (itemContext): changing them
// gives the feeds a new ETag and their stored items a new render.
import { createHash } from 'node:crypto';
import { clipLabel } from '../../src/domain/clip.ts';
import { absoluteUrl, publicPaths } from '../../src/domain/public-urls.ts';
import { enclosureType, feedIncludes, feedOrder, transcriptType, type FeedOptions } from '../../src/domain/feed.ts';
import { measuredUrl, measurementPrefixesOf } from '../../src/domain/measurement.ts';
import { programPodcast } from '../../src/domain/program-rules.ts';
import { PODCAST_CATEGORIES } from '../reference/podcast-categories.ts';
import type { Queryable } from '../store/store.ts';
import { Lru } from '../lru.ts';
import { enqueueJob } from '../jobs/queue.ts';
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

/** What decides whether a feed lists a clip (`listed`), of its row or of its stored item. */
type Listing = Pick<ClipRow, 'state' | 'publish_state' | 'visibility' | 'deleted' | 'scheduled_visibility' | 'visible_at_utc'> & { audio: boolean };

const listingOf = (row: ClipRow): Listing => ({
  state: row.state,
  publish_state: row.publish_state,
  visibility: row.visibility,
  deleted: row.deleted,
  scheduled_visibility: row.scheduled_visibility,
  visible_at_utc: row.visible_at_utc,
  audio: row.audio_public_url !== null,
});

/** feed_items.listing: the Listing as a JSON array (no key written 2,500 times). JSON keeps
 * control characters escaped, so the text never holds the separators FEED_ITEMS_SQL uses. */
const listingText = (l: Listing): string => JSON.stringify([l.state, l.publish_state, l.visibility, l.deleted, l.scheduled_visibility, l.visible_at_utc, l.audio]);
function parseListing(text: string): Listing {
  const [state, publish_state, visibility, deleted, scheduled_visibility, visible_at_utc, audio] = JSON.parse(text) as [string, string, string, boolean, string | null, string | null, boolean];
  return { state, publish_state, visibility, deleted, scheduled_visibility, visible_at_utc, audio };
}

/**
 * A clip kept between builds at one Version: what decides its listing, and what its item can be
 * made of. `row` is null when it came from its stored item (feed_items): a build that needs the
 * row (a member feed, feedContent) reads it. `fragment` is the stored item (origin-free, for a
 * context: itemContext), `xml` the item's bytes for a context and origin. Replaced, not changed,
 * when the clip has a new Version.
 */
type KeptClip = {
  id: string;
  version: string;
  listing: Listing;
  row: ClipRow | null;
  fragment?: { context: string; text: string } | undefined;
  xml?: { context: string; bytes: Buffer } | undefined;
};

/** Clips kept between builds, per store (a Version is a store's own sequence), keyed by id and
 * checked against the row's Version: any write of a clip gives it a new one, on every instance. */
const keptClips = new WeakMap<Queryable, Lru<string, KeptClip>>();
/** ~3 KB each (row and item): a few feeds of thousands of episodes. */
const KEPT_CLIPS = 20_000;

function keptOf(q: Queryable): Lru<string, KeptClip> {
  let kept = keptClips.get(q);
  if (!kept) keptClips.set(q, (kept = new Lru(KEPT_CLIPS)));
  return kept;
}

/** Up to this many clips a playlist's are found by their ids; more, by their program's index. */
const BY_IDS_MAX = 200;

// ── Stored items (feed_items, migrations/0413_feed_items.sql) ─────────────────────────────────
//
// A clip's item is rendered when the clip is written (feed-items.ts, a durable job after each
// change of an organization) with every URL made from a site-relative path starting with
// ITEM_ORIGIN, and stored keyed by the clip's Version and the item's context; a build replaces the
// marker with the origin it answers for. An item rendered for an origin O is the stored text with
// ITEM_ORIGIN replaced by O when (checked as it is rendered) every URL made from a path kept the
// marker's origin (a path such as "//host/x" does not: that item is not stored), and the text
// holds the marker's host exactly as many times as URLs were made (a clip's own text could hold
// it). A measured enclosure holds the marker without its scheme (prefix + "castaway-origin.invalid/
// audio/…"), which becomes O without its scheme. O must be an http(s) origin that URLs write as
// they are (originTakesItems).

/** The host of ITEM_ORIGIN: what a measured enclosure holds of it. */
const ITEM_HOST = 'castaway-origin.invalid';
/** The origin an item is rendered against to be stored: replaced by the real one in a build. */
export const ITEM_ORIGIN = `http://${ITEM_HOST}`;

/** Everything but the clip row and the origin an item's XML depends on: this code's format, the
 * program's Explicit flag (the default of a clip without a ContentRating) and the organization's
 * measurement prefixes (none: the context items had before there were prefixes). */
export function itemContext(program: Json, organization: Json = {}): string {
  return programItems(program, organization).context;
}

/** How a program's items are rendered, and the context that names it (itemContext). */
export type ProgramItems = { context: string; explicit: boolean; prefixes: readonly string[] };

/** itemContext, and the explicit flag and prefixes it names. */
export function programItems(program: Json, organization: Json = {}): ProgramItems {
  const explicit = channelSettings(program, {}).explicit;
  const prefixes = measurementPrefixesOf(organization);
  const measured = prefixes.length > 0 ? `|${JSON.stringify(prefixes)}` : '';
  return { context: `${FEED_FORMAT}|${explicit ? 1 : 0}${measured}`, explicit, prefixes };
}

/** Whether stored items can be used for this origin: an http(s) origin written as URLs write it
 * (publicOrigin gives URL.origin), holding nothing XML escapes. */
export function originTakesItems(origin: string): boolean {
  return /^https?:\/\/[^/?#\s&<>"']+$/.test(origin) && absoluteUrl('/', origin) === `${origin}/`;
}

/** A stored item's text for an origin (originTakesItems): the marker, then a measured
 * enclosure's marker without its scheme. */
export const itemForOrigin = (fragment: string, origin: string): string => fragment.replaceAll(ITEM_ORIGIN, origin).replaceAll(ITEM_HOST, origin.replace(/^https?:\/\//, ''));

/**
 * What is stored of a clip: its listing (feed_items.listing) and its item XML with no origin
 * (ITEM_ORIGIN in its place), or null when it cannot be stored so (see above) or has no public
 * audio (never listed).
 */
export function renderFragment(row: ClipRow, items: Omit<ProgramItems, 'context'>): { listing: string; xml: string | null } {
  return { listing: listingText(listingOf(row)), xml: fragmentXml(row, items) };
}

function fragmentXml(row: ClipRow, { explicit, prefixes }: Omit<ProgramItems, 'context'>): string | null {
  if (row.audio_public_url === null) return null;
  let made = 0;
  let leaves = false;
  const abs = (path: string) => {
    const url = absoluteUrl(path, ITEM_ORIGIN);
    // Already absolute (kept as it is), or made from a path: then it must start with the marker.
    if (url === path && ABSOLUTE.test(path)) return url;
    if (url.startsWith(`${ITEM_ORIGIN}/`)) made++;
    else leaves = true;
    return url;
  };
  const xml = itemXml(clipItem(row, row.id, published(row), { abs, explicit, prefixes }));
  return !leaves && xml.split(ITEM_HOST).length - 1 === made ? xml : null;
}

/** What absoluteUrl keeps as it is. */
const ABSOLUTE = /^[a-z][a-z0-9+.-]*:/i;

/** The rows of these clips (as the feed reads them), for rendering their items. */
export async function clipRowsByIds(q: Queryable, ids: readonly string[]): Promise<ClipRow[]> {
  if (ids.length === 0) return [];
  const [text] = await q.query<{ rows: string }>(`SELECT ${CLIP_JSON} FROM clips c WHERE c.id = ANY($1::uuid[])`, [ids]);
  return (JSON.parse(text?.rows ?? '[]') as unknown[][]).map(clipRowOf);
}

/** A clip whose item was just rendered and stored: kept with its row, so this instance's next
 * build of its feeds neither reads nor renders it (the instance running the job; on PGlite the
 * only one). */
export function keepRendered(q: Queryable, row: ClipRow, context: string, fragment: string | null): void {
  keptOf(q).set(row.id, { id: row.id, version: row.version, listing: listingOf(row), row, fragment: fragment === null ? undefined : { context, text: fragment } });
}

/** A listing and item per clip: `id \x01 version [\x01 listing \x01 xml]` (the last two when a
 * current item is stored; xml empty when it has none), one per clip, separated by \x02. XML holds
 * no C0 control (rss.ts xmlChars), JSON escapes them, ids and numbers have none: one text, no
 * JSON of 2 MB of XML to write and parse. */
export const FEED_ITEMS_SQL = `SELECT string_agg(c.id::text || E'\x01' || c.version::text || coalesce(E'\x01' || f.listing || E'\x01' || coalesce(f.xml, ''), ''), E'\x02') AS rows
  FROM clips c LEFT JOIN feed_items f ON f.clip_id = c.id AND f.clip_version = c.version AND f.context = $2 WHERE c.program_id = $1`;

/** What playlistClips is asked for: rows (a member feed, feedContent), or for each clip its row or
 * its stored item of `context` (a public feed; null: rows). */
type Wanted = { rows: boolean; context: string | null };

const usable = (k: KeptClip, want: Wanted) => k.row !== null || (!want.rows && want.context !== null && k.fragment?.context === want.context);

/**
 * The playlist's clips (a playlist holds clips of its own program only), read only when not kept
 * at their current Version: first their ids and Versions, then the stored items of the rest (a
 * public feed), then the rows of what is left. A 2,500-episode feed rebuilt after a write reads
 * one or a few rows, not 2,500 rows of 27 fields (bench:publish, feed_built); a first build reads
 * the stored items, and rows only for items missing or stale. A long playlist's clips are read by
 * the program's index and filtered here: PGlite took 3x longer to match 2,500 ids in SQL than to
 * read the program's. Returns the clips and how many items were missing from the store.
 */
async function playlistClips(q: Queryable, programId: string, clipIds: readonly string[], want: Wanted): Promise<{ clips: KeptClip[]; unstored: number }> {
  const kept = keptOf(q);
  const inPlaylist = new Set(clipIds);
  const clips: KeptClip[] = [];
  // None kept (a new instance, a restart): the stored items (or the rows) of all are read below,
  // so their ids and Versions are not read first.
  const noneKept = !clipIds.some((id) => kept.has(id));
  let missing: string[] = [];
  // How many clips the program has (known after the ids and Versions are read).
  let programClips = 0;
  if (noneKept) missing = [...inPlaylist];
  else if (clipIds.length > 0) {
    const [current] = await q.query<{ rows: string | null }>(
      `SELECT string_agg(c.id::text || ' ' || c.version::text, ' ') AS rows FROM clips c WHERE c.program_id = $1${clipIds.length <= BY_IDS_MAX ? ' AND c.id = ANY($2::uuid[])' : ''}`,
      clipIds.length <= BY_IDS_MAX ? [programId, clipIds] : [programId],
    );
    // "id version id version …": uuids and numbers hold no space.
    const words = current?.rows ? current.rows.split(' ') : [];
    programClips = words.length / 2;
    for (let i = 0; i + 1 < words.length; i += 2) {
      const id = words[i]!;
      if (!inPlaylist.has(id)) continue;
      const hit = kept.get(id);
      if (hit && hit.version === words[i + 1] && usable(hit, want)) clips.push(hit);
      else missing.push(id);
    }
  }
  // Most of the program's clips (a first build): read by the program's index, as above.
  const byProgram = (n: number) => n > BY_IDS_MAX && (noneKept || n * 2 >= programClips);
  let unstored = 0;
  if (missing.length > 0 && !want.rows && want.context !== null) {
    const [text] =
      byProgram(missing.length)
        ? await q.query<{ rows: string | null }>(FEED_ITEMS_SQL, [programId, want.context])
        : await q.query<{ rows: string | null }>(`${FEED_ITEMS_SQL} AND c.id = ANY($3::uuid[])`, [programId, want.context, missing]);
    const wanted = new Set(missing);
    missing = [];
    for (const record of text?.rows ? text.rows.split('\x02') : []) {
      const [id, version, listing, xml] = record.split('\x01') as [string, string, string?, string?];
      if (!wanted.has(id)) continue;
      if (listing === undefined || xml === undefined) {
        missing.push(id);
        unstored++;
        continue;
      }
      const l = parseListing(listing);
      if (xml === '' && l.audio) {
        // Stored without XML (not storable without an origin): rendered from its row.
        missing.push(id);
        continue;
      }
      const entry: KeptClip = { id, version, listing: l, row: null, fragment: xml === '' ? undefined : { context: want.context, text: xml } };
      kept.set(id, entry);
      clips.push(entry);
    }
  }
  if (missing.length > 0) {
    // JSON text of all the rows: a driver decodes 2,500 rows of 27 cells several times slower
    // than JSON.parse reads the same values from one string.
    const all = byProgram(missing.length);
    const [text] = all
      ? await q.query<{ rows: string }>(PROGRAM_FEED_ROWS_SQL, [programId])
      : await q.query<{ rows: string }>(`${PROGRAM_FEED_ROWS_SQL} AND c.id = ANY($2::uuid[])`, [programId, missing]);
    const wanted = all ? new Set(missing) : null;
    for (const values of JSON.parse(text?.rows ?? '[]') as unknown[][]) {
      const row = clipRowOf(values);
      if (wanted && !wanted.has(row.id)) continue;
      const entry: KeptClip = { id: row.id, version: row.version, listing: listingOf(row), row };
      kept.set(row.id, entry);
      clips.push(entry);
    }
  }
  return { clips, unstored };
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

export type FeedContent = { channel: FeedChannel; items: FeedItem[] };

export type FeedContentOptions = FeedOptions & { feedPath: string; block: boolean; enclosureUrl?: (clipId: string, audioPublicUrl: string) => string };

/**
 * The feed's channel and items. `options.member` lists Restricted clips too (member feeds);
 * `enclosureUrl` says which audio a listener gets (the public audio, or a member's own URL).
 * Made from the clips' rows (never from stored items: an item here is data, not XML).
 */
export async function feedContent(q: Queryable, v: FeedValidators, origin: string, options: FeedContentOptions): Promise<FeedContent> {
  const { channel, entries } = await feedEntries(q, v, origin, options, false);
  return { channel, items: entries.map((e) => e.item()) };
}

/**
 * The feed's document as bytes (what buildRss makes of feedContent, UTF-8). Each clip's item is
 * its XML kept in memory for this context and origin, else its stored item (feed_items) with the
 * origin put in, else written from its row; kept for the next build. A feed rebuilt because one
 * episode changed writes that one item again, a first build joins the stored items, and the
 * document is copied together from the items' bytes (one string of 2 MB made by join and then
 * encoded cost more than writing all the items: bench:publish). When items were missing from the
 * store (not rendered yet, or stale), the job that renders them is asked for (feed-items.ts).
 */
export async function feedDocument(q: Queryable, v: FeedValidators, origin: string, options: FeedContentOptions): Promise<Buffer> {
  const stored = options.enclosureUrl === undefined && originTakesItems(origin);
  const { channel, entries, context, unstored } = await feedEntries(q, v, origin, options, stored);
  const parts: Buffer[] = [];
  // The kept bytes are for this context and origin; null: made each time (enclosure URLs the caller makes).
  const xmlContext = options.enclosureUrl ? null : `${context}|${origin}`;
  for (const e of entries) {
    const kept = e.kept;
    if (kept && xmlContext !== null && kept.xml?.context === xmlContext) {
      parts.push(kept.xml.bytes);
      continue;
    }
    const text = stored && kept?.fragment?.context === context ? itemForOrigin(kept.fragment.text, origin) : itemXml(e.item());
    const bytes = Buffer.from(text, 'utf8');
    if (kept && xmlContext !== null) kept.xml = { context: xmlContext, bytes };
    parts.push(bytes);
  }
  if (unstored > 0) await enqueueJob(q, FEED_ITEMS_JOB, { organizationId: v.organizationId }, feedItemsJobOptions(v.organizationId));
  return rssDocumentBytes(channel, parts);
}

/** The job that renders and stores the items of an organization's clips (feed-items.ts runs it). */
export const FEED_ITEMS_JOB = 'feeds.items';
/** One queued per organization; a change while it runs runs it again (it may have read the old row). */
export const feedItemsJobOptions = (organizationId: string | null) => ({ singletonKey: `${FEED_ITEMS_JOB}:${organizationId ?? '*'}`, rerunIfRunning: true });

/** An item of the feed: a clip's with its kept entry, made when asked. */
type FeedEntry = { kept: KeptClip | null; item: () => FeedItem };

/** How a clip's item is made: the URLs (absolute for an origin), the show's explicit flag (the
 * default of a clip without a rating), the measurement prefixes of a public enclosure, and a
 * member's enclosure URL (never measured). */
type ItemSettings = {
  abs: (path: string) => string;
  explicit: boolean;
  prefixes: readonly string[];
  enclosureUrl?: ((clipId: string, audioPublicUrl: string) => string) | undefined;
};

const EPISODE_TYPES = { Full: 'full', Trailer: 'trailer', Bonus: 'bonus' } as const;

/** A clip's item: its own, or (override) a drop's of it into another program's feed. */
function clipItem(c: ClipRow, guid: string, pubDate: Date, s: ItemSettings, override?: { title: string | null; description: string | null }): FeedItem {
  const audio = c.audio_public_url!;
  const url = s.enclosureUrl ? s.enclosureUrl(c.id, audio) : measuredUrl(s.abs(audio), s.prefixes);
  const link = str(c.rss_link_override) ?? str(c.show_page_url);
  const html = str(override?.description ?? null) ?? str(c.description_html) ?? str(c.description);
  const dropped = override !== undefined;
  return {
    guid,
    title: str(override?.title ?? null) ?? clipLabel({ Title: c.title }),
    link: link ? s.abs(link) : null,
    descriptionHtml: html,
    summary: str(c.short_summary),
    pubDate,
    enclosure: { url, length: c.published_audio_size_in_bytes ?? 0, type: enclosureType(audio) },
    durationSeconds: c.published_duration_seconds ?? c.duration_seconds,
    // A drop is another program's episode: its numbers mean nothing in this feed.
    episode: dropped ? null : c.episode,
    season: dropped ? null : c.season,
    episodeType: EPISODE_TYPES[c.episode_type as keyof typeof EPISODE_TYPES] ?? 'full',
    explicit: c.content_rating === 'Explicit' || (c.content_rating === null && s.explicit),
    imageUrl: c.image_public_url ? s.abs(c.image_public_url) : null,
    transcript: c.transcript_public_url ? { url: s.abs(c.transcript_public_url), type: transcriptType(c.transcript_public_url) } : null,
    chaptersUrl: c.has_chapters ? s.abs(publicPaths.chapters(c.id)) : null,
  };
}

const published = (c: ClipRow) => new Date(c.published_utc ?? c.created_at_utc);

/** Whether the feed lists a clip (its listing) at options.now. */
const listed = (l: Listing, options: FeedOptions) =>
  l.audio &&
  feedIncludes({ Deleted: l.deleted, State: l.state, PublishState: l.publish_state, Visibility: l.visibility, ScheduledVisibility: l.scheduled_visibility, VisibleAtUtc: l.visible_at_utc }, options);

async function feedEntries(
  q: Queryable,
  v: FeedValidators,
  origin: string,
  options: FeedContentOptions,
  /** Whether stored items may stand for rows (feedDocument of a public feed). */
  stored: boolean,
): Promise<{ channel: FeedChannel; entries: FeedEntry[]; context: string; unstored: number }> {
  // A function (migrations/0414_feed_meta.sql) so that PGlite does not plan its joins on every build.
  const [meta] = await q.query<{ playlist: Json; program: Json; organization: Json; clip_ids: string[]; imported_guid: string | null; has_drops: boolean }>(
    `SELECT playlist, clip_ids, program, organization, imported_guid, has_drops FROM feed_meta($1::uuid)`,
    [v.playlistId],
  );
  if (!meta) throw new Error(`feed: playlist ${v.playlistId} vanished`);
  const items = programItems(meta.program, meta.organization);
  const { context } = items;
  const { clips: clipRows, unstored } = await playlistClips(q, v.programId, meta.clip_ids, { rows: !stored, context: stored ? context : null });
  const dropRows = !meta.has_drops
    ? []
    : await q.query<DropRow>(
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

  const byId = new Map<string, KeptClip>();
  for (const k of clipRows) if (listed(k.listing, options)) byId.set(k.id, k);
  const drops = dropRows
    .filter((d) => d.source_program_deleted === false && listed(listingOf(d), options))
    .map((d) => ({ row: d, at: (d.drop_at_utc ?? d.drop_created_at_utc).getTime() }));
  const ordered = feedOrder(meta.clip_ids, byId, drops);

  const item: ItemSettings = { abs, explicit: settings.explicit, prefixes: items.prefixes, enclosureUrl: options.enclosureUrl };
  // A clip's row is read whenever its item is not stored (playlistClips): item() is called only then.
  const rowOf = (k: KeptClip) => {
    if (k.row === null) throw new Error(`feed: clip ${k.id} has no row kept`);
    return k.row;
  };
  const entries: FeedEntry[] = [
    ...ordered.clips.map((k) => ({ kept: k, item: () => clipItem(rowOf(k), k.id, published(rowOf(k)), item) })),
    ...ordered.drops.map((d) => ({ kept: null, item: () => clipItem(d.row, d.row.drop_id, new Date(d.at), item, { title: d.row.drop_title, description: d.row.drop_description }) })),
  ];
  return { channel, entries, context, unstored };
}
