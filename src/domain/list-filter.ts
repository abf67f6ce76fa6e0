// What a program's lists show for a filter (issue 32 "Lists that sort and filter"): the program
// screen's clips, playlists and recordings, filtered and sorted on the device as the user types.
//
// This is the instant, partial-word filter of one list, not full-text search (src/domain/search.ts
// is that, with stems and relevance): each word of the filter must appear somewhere in a row's
// text, case and accents aside, so "may" finds "Mayor" and "rück" finds "Rückblick".
//
//   filter text ──parseNeedles──> words that must appear, words that must not ("-word")
//   rows ──prepare*──> folded text + season/episode tokens (once per list change, not per key)
//   prepared + ListQuery ──applyListQuery──> the rows shown, in the chosen order
//
// A clip's text is its title, description and tags; its season and episode labels ("S10", "E3",
// "S10E3", "S10/E3", and the interface language's own label, "S10/F3" in German) are tokens a word
// must equal, so "S1" finds season 1 and not season 10.
//
// The query lives in the URL (q, state, publish, vis, sort: readListQuery / writeListQuery), so
// Back, Forward, reload and a shared link keep it. A value that does not apply to a list (a
// clip's state on the recordings tab, a sort it has not) is ignored there, not an error.
import { clipStateDisplay, seasonEpisodeLabel, type ClipStateDisplay } from './clip.ts';
import type { InterfaceLocale as Locale } from './locales.ts';
import { PublishState as PublishStateSchema, RecordingState as RecordingStateSchema, Visibility as VisibilitySchema } from '../protocol/entities.ts';

export type ListKind = 'clips' | 'playlists' | 'recordings';

export const LIST_SORTS = {
  clips: ['newest', 'oldest', 'title', 'episode'],
  playlists: ['title', 'newest', 'oldest'],
  recordings: ['newest', 'oldest', 'title'],
} as const satisfies Record<ListKind, readonly string[]>;
export type ListSort = (typeof LIST_SORTS)[ListKind][number];

/** The states a clip list filters by: the four the screens show (section 4), not the wire's seven. */
export const CLIP_STATE_FILTERS: readonly ClipStateDisplay[] = ['ingesting', 'draft', 'error', 'ready'];
export const PUBLISH_STATE_FILTERS: readonly string[] = PublishStateSchema.options;
export const VISIBILITY_FILTERS: readonly string[] = VisibilitySchema.options;
export const RECORDING_STATE_FILTERS: readonly string[] = RecordingStateSchema.options;

/** A list's filter and order as the URL holds them; null is "any" (or the list's default order). */
export type ListQuery = {
  text: string;
  state: string | null;
  publish: string | null;
  visibility: string | null;
  sort: string | null;
};

export const EMPTY_LIST_QUERY: ListQuery = { text: '', state: null, publish: null, visibility: null, sort: null };

/** The URL parameter of each part of the query. */
const PARAM = { text: 'q', state: 'state', publish: 'publish', visibility: 'vis', sort: 'sort' } as const satisfies Record<keyof ListQuery, string>;

export function readListQuery(params: URLSearchParams): ListQuery {
  const value = (name: string) => params.get(name) || null;
  return { text: params.get(PARAM.text) ?? '', state: value(PARAM.state), publish: value(PARAM.publish), visibility: value(PARAM.visibility), sort: value(PARAM.sort) };
}

/** Sets the query's parameters on `params` (others, such as the tab, are kept); empty ones are removed. */
export function writeListQuery(params: URLSearchParams, query: ListQuery): void {
  for (const key of Object.keys(PARAM) as Array<keyof ListQuery>) {
    const v = query[key];
    if (v) params.set(PARAM[key], v);
    else params.delete(PARAM[key]);
  }
}

/** Whether the query narrows the list (the screen then says "No … match" rather than "none yet"). */
export function isFiltered(query: ListQuery, kind: ListKind): boolean {
  return query.text.trim() !== '' || stateFilter(query, kind) !== null || publishFilter(query, kind) !== null || visibilityFilter(query, kind) !== null;
}

// ── Text ────────────────────────────────────────────────────────────────────────────────────

/** Lower case without accents, ß as ss: what both a row's text and the filter are compared as. */
export function foldText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replaceAll('ß', 'ss');
}

export type Needles = { include: string[]; exclude: string[] };

/**
 * The words of a filter: words and "quoted phrases" must all appear, a word or phrase after "-"
 * must not; a leading "#" (a tag typed as one) is dropped.
 */
export function parseNeedles(text: string): Needles {
  const needles: Needles = { include: [], exclude: [] };
  for (const match of foldText(text).matchAll(/(-?)(?:"([^"]*)"?|(\S+))/g)) {
    const negated = match[1] === '-';
    const phrase = match[2] !== undefined;
    const word = (phrase ? match[2]! : match[3]!.replace(/^#/, '')).trim().replace(/\s+/g, ' ');
    // A lone "-" is a minus still waiting for its word.
    if (word === '' || word === '-') continue;
    (negated ? needles.exclude : needles.include).push(word);
  }
  return needles;
}

/** A row made ready for filtering: folded text, exact tokens, what it sorts by. */
export type Prepared<T> = {
  row: T;
  text: string;
  tokens: ReadonlySet<string>;
  title: string | null;
  date: string;
  season: number | null;
  episode: number | null;
  state: string | null;
  publish: string | null;
  visibility: string | null;
};

function matchesNeedle(p: Prepared<unknown>, needle: string): boolean {
  return p.tokens.has(needle) || p.text.includes(needle);
}

function matchesText(p: Prepared<unknown>, needles: Needles): boolean {
  return needles.include.every((n) => matchesNeedle(p, n)) && !needles.exclude.some((n) => matchesNeedle(p, n));
}

/** The tokens of a season/episode label: "S10", "E3", "S10E3", "S10/E3" and the language's own "S10/F3". */
export function seasonEpisodeTokens(season: number | null, episode: number | null, locale?: Locale): string[] {
  const tokens: string[] = [];
  if (season !== null) tokens.push(`s${season}`);
  if (episode !== null) tokens.push(`e${episode}`);
  if (season !== null && episode !== null) tokens.push(`s${season}e${episode}`, `s${season}/e${episode}`);
  const own = seasonEpisodeLabel({ Season: season, Episode: episode }, locale);
  if (own !== null) {
    const folded = foldText(own);
    tokens.push(folded, folded.replaceAll('/', ''), ...folded.split('/'));
  }
  return tokens;
}

const joined = (...parts: Array<string | null | undefined>) => foldText(parts.filter((p) => p).join('\n'));

type ClipLike = { Title: string | null; Description: string | null; Tags: readonly string[]; Season: number | null; Episode: number | null; CreatedAtUtc: string; State: string; PublishState: string; Visibility: string };
type PlaylistLike = { Title: string; Description: string | null; CreatedAtUtc: string; Visibility: string };
type RecordingLike = { Title: string | null; Description: string | null; CaptureStartUtc: string | null; CreatedAtUtc: string; State: string };

export function prepareClips<T extends ClipLike>(rows: readonly T[], locale?: Locale): Prepared<T>[] {
  return rows.map((row) => ({
    row,
    text: joined(row.Title, row.Description, row.Tags.join('\n')),
    tokens: new Set(seasonEpisodeTokens(row.Season, row.Episode, locale)),
    title: row.Title?.trim() || null,
    date: row.CreatedAtUtc,
    season: row.Season,
    episode: row.Episode,
    state: clipStateDisplay(row.State),
    publish: row.PublishState,
    visibility: row.Visibility,
  }));
}

export function preparePlaylists<T extends PlaylistLike>(rows: readonly T[]): Prepared<T>[] {
  return rows.map((row) => ({
    row,
    text: joined(row.Title, row.Description),
    tokens: new Set(),
    title: row.Title.trim() || null,
    date: row.CreatedAtUtc,
    season: null,
    episode: null,
    state: null,
    publish: null,
    visibility: row.Visibility,
  }));
}

/** A recording's date is when its capture started, else when it was made. */
export function prepareRecordings<T extends RecordingLike>(rows: readonly T[]): Prepared<T>[] {
  return rows.map((row) => ({
    row,
    text: joined(row.Title, row.Description),
    tokens: new Set(),
    title: row.Title?.trim() || null,
    date: row.CaptureStartUtc ?? row.CreatedAtUtc,
    season: null,
    episode: null,
    state: row.State,
    publish: null,
    visibility: null,
  }));
}

// ── Facets and order ─────────────────────────────────────────────────────────────────────────

const oneOf = (value: string | null, allowed: readonly string[]) => (value !== null && allowed.includes(value) ? value : null);

/** The query's state filter where it applies to the list, else null. */
export function stateFilter(query: ListQuery, kind: ListKind): string | null {
  return kind === 'clips' ? oneOf(query.state, CLIP_STATE_FILTERS) : kind === 'recordings' ? oneOf(query.state, RECORDING_STATE_FILTERS) : null;
}
export function publishFilter(query: ListQuery, kind: ListKind): string | null {
  return kind === 'clips' ? oneOf(query.publish, PUBLISH_STATE_FILTERS) : null;
}
export function visibilityFilter(query: ListQuery, kind: ListKind): string | null {
  return kind === 'recordings' ? null : oneOf(query.visibility, VISIBILITY_FILTERS);
}
/** The list's order: the query's when the list has it, else the list's first (its default). */
export function listSort(query: ListQuery, kind: ListKind): ListSort {
  const sorts: readonly ListSort[] = LIST_SORTS[kind];
  return sorts.find((s) => s === query.sort) ?? sorts[0]!;
}

type Compare = (a: Prepared<unknown>, b: Prepared<unknown>) => number;

/** Nulls after every number, whichever way numbers go. */
const byNumber = (a: number | null, b: number | null) => (a === b ? 0 : a === null ? 1 : b === null ? -1 : a - b);

function comparer(sort: ListSort, locale: string | undefined): Compare {
  const newest: Compare = (a, b) => b.date.localeCompare(a.date);
  // Numbers in titles in their order ("Review 9" before "Review 10"); untitled rows last.
  const collator = new Intl.Collator(locale, { numeric: true, sensitivity: 'base' });
  const title: Compare = (a, b) => (a.title === null ? (b.title === null ? 0 : 1) : b.title === null ? -1 : collator.compare(a.title, b.title));
  switch (sort) {
    case 'newest': return newest;
    case 'oldest': return (a, b) => -newest(a, b);
    case 'title': return (a, b) => title(a, b) || newest(a, b);
    // Season, then episode, first to last; a clip without one of them after those with it.
    case 'episode': return (a, b) => byNumber(a.season, b.season) || byNumber(a.episode, b.episode) || newest(a, b);
  }
}

/**
 * The rows of a list that the query lets through, in its order (ties by the row's Id, so the
 * order is the same on every device). `locale` is the interface language, for titles' order.
 */
export function applyListQuery<T extends { Id: string }>(prepared: readonly Prepared<T>[], query: ListQuery, kind: ListKind, locale?: string): T[] {
  const needles = parseNeedles(query.text);
  const state = stateFilter(query, kind);
  const publish = publishFilter(query, kind);
  const visibility = visibilityFilter(query, kind);
  const compare = comparer(listSort(query, kind), locale);
  return prepared
    .filter((p) => (state === null || p.state === state) && (publish === null || p.publish === publish) && (visibility === null || p.visibility === visibility) && matchesText(p, needles))
    .sort((a, b) => compare(a, b) || a.row.Id.localeCompare(b.row.Id))
    .map((p) => p.row);
}
