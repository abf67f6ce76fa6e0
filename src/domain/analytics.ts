// Download analytics (issue 30, section 7 "Reports and analytics"): the words of the analytics
// queries, shared by the API's declarations (src/protocol/api/analytics-api.ts), the server
// (sync-server/api/analytics-api.ts) and the screens. Downloads are counted by the IAB rules
// (counted_downloads, sync-server/analytics) and rolled up by UTC hour; a query names a range of
// local dates in an IANA time zone and an interval, and the server buckets the hours by local time.
import { validateDateRange } from './dates.ts';
import { formError, type FormError } from './form-errors.ts';
import { validateInteger } from './validators.ts';

/** The intervals of a downloads series. A week starts on Monday (ISO 8601, PostgreSQL's date_trunc). */
export const ANALYTICS_INTERVALS = ['hour', 'day', 'week', 'month'] as const;
export type AnalyticsInterval = (typeof ANALYTICS_INTERVALS)[number];
export const DEFAULT_ANALYTICS_INTERVAL: AnalyticsInterval = 'day';

/** The groupings of GET …/analytics/downloads/{grouping}: top programs, clips and listener dimensions. */
export const ANALYTICS_GROUPINGS = ['programs', 'clips', 'apps', 'devices', 'os', 'countries', 'sources'] as const;
export type AnalyticsGrouping = (typeof ANALYTICS_GROUPINGS)[number];

/** counted_downloads.media_type (section 7's downloadMediaType). */
export const DOWNLOAD_MEDIA_TYPES = ['Audio', 'Video'] as const;
export type DownloadMediaType = (typeof DOWNLOAD_MEDIA_TYPES)[number];

/** Items of a grouping when maxItems is not given, and the most it may ask for. */
export const DEFAULT_GROUPING_ITEMS = 10;
export const MAX_GROUPING_ITEMS = 1000;

/** Longest range a query may cover: an hourly series is one point per hour, so it is kept shorter. */
export const MAX_RANGE_DAYS: Readonly<Record<AnalyticsInterval, number>> = { hour: 31, day: 3660, week: 3660, month: 3660 };

/** The time zone when timeZoneIanaId is left out. */
export const DEFAULT_ANALYTICS_TIME_ZONE = 'UTC';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * startDate and endDate of an analytics query: both required (section 5, "Call parameters":
 * analytics downloads), local calendar dates 'YYYY-MM-DD' in the query's time zone, end on or after
 * start (both days included), at most MAX_RANGE_DAYS of the interval. Errors by field name.
 */
export function validateAnalyticsRange(startDate: string | undefined, endDate: string | undefined, interval: AnalyticsInterval): Array<{ field: 'startDate' | 'endDate'; error: FormError }> {
  const out: Array<{ field: 'startDate' | 'endDate'; error: FormError }> = [];
  const blank = (v: string | undefined) => v === undefined || v.trim() === '';
  if (blank(startDate)) out.push({ field: 'startDate', error: formError('required', 'domain_required') });
  if (blank(endDate)) out.push({ field: 'endDate', error: formError('required', 'domain_required') });
  if (out.length > 0) return out;
  if (!DATE_ONLY.test(startDate!.trim())) out.push({ field: 'startDate', error: formError('dateInvalid', 'domain_date_start_invalid', undefined, 'start') });
  if (!DATE_ONLY.test(endDate!.trim())) out.push({ field: 'endDate', error: formError('dateInvalid', 'domain_date_end_invalid', undefined, 'end') });
  if (out.length > 0) return out;
  const error = validateDateRange(startDate, endDate, { required: true, numberOfDaysLimit: MAX_RANGE_DAYS[interval] });
  if (!error) return [];
  // A start that does not parse is the start's fault; anything else (an end that does not parse,
  // reversed, too long) is said on the end.
  return [{ field: error.reason === 'start' || error.reason === 'both' ? 'startDate' : 'endDate', error }];
}

/** maxItems: an integer from 1 to MAX_GROUPING_ITEMS. */
export function validateMaxItems(value: string): FormError | null {
  return validateInteger(value, { required: true, min: 1, max: MAX_GROUPING_ITEMS });
}

// ── Consumption, glance, reach estimate, custom player names (section 7, the rest of the
// analytics calls: src/protocol/api/analytics-insights.ts, sync-server/api/analytics-insights.ts).

/** download_events.source values (null there is 'unknown'): the consumption curve's `source`. */
export const DOWNLOAD_SOURCES = ['feed', 'embed', 'page', 'api', 'web', 'unknown'] as const;
export type DownloadSource = (typeof DOWNLOAD_SOURCES)[number];

/** Points of a consumption curve: one per hundredth of the episode. */
export const CONSUMPTION_BUCKETS = 100;

export type ConsumptionCurve = {
  /** Listeners whose delivered bytes pass the IAB threshold (those the curve is of). */
  listeners: number;
  /** Per bucket: listeners whose delivered ranges cover the bucket's middle byte. */
  covered: number[];
  /** Median over those listeners of the seconds their delivered bytes cover; null: no listener. */
  medianSeconds: number | null;
};

/**
 * How far listeners got, from the bytes delivered to them (a listener: the union of one
 * listener's ranges, [s0, e0, s1, e1, …] half-open, as addRange keeps them in iab-counting.ts).
 * Bytes map to time in proportion to the file (second = byte × duration / size: a constant bit
 * rate, the header counted as audio). A listener is on the curve when their union covers
 * `thresholdBytes` (the IAB download threshold); bucket i (of `buckets` equal parts of the file)
 * counts those whose union covers its middle byte. Delivered is not played: a player that
 * downloads the whole file ahead shows as having heard it all.
 */
export function consumptionCurve(unions: ReadonlyArray<readonly number[]>, file: { sizeBytes: number; durationSeconds: number; thresholdBytes: number }, buckets = CONSUMPTION_BUCKETS): ConsumptionCurve {
  const covered = new Array<number>(buckets).fill(0);
  const seconds: number[] = [];
  const { sizeBytes, durationSeconds } = file;
  for (const ranges of unions) {
    let bytes = 0;
    for (let i = 0; i < ranges.length; i += 2) bytes += Math.min(ranges[i + 1]!, sizeBytes) - Math.min(ranges[i]!, sizeBytes);
    if (bytes < file.thresholdBytes) continue;
    seconds.push((bytes * durationSeconds) / sizeBytes);
    let r = 0;
    for (let b = 0; b < buckets; b++) {
      const middle = ((b + 0.5) * sizeBytes) / buckets;
      while (r < ranges.length && ranges[r + 1]! <= middle) r += 2;
      if (r < ranges.length && ranges[r]! <= middle) covered[b]!++;
    }
  }
  return { listeners: seconds.length, covered, medianSeconds: median(seconds) };
}

/** The middle value (the mean of the two middle ones for an even count); null for none. */
export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const half = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2;
}

/** Clips a glance may name at once (clipIds), and those it lists when none are named. */
export const MAX_GLANCE_CLIPS = 100;

/** Days of a glance's "last days" and "first days after publishing". */
export const GLANCE_DAYS = 7;

export type ReachDay = { date: string; listeners: number; downloads: number };

export type ReachSummary = {
  days: number;
  downloads: number;
  /** Sum of the days' unique listeners: listener-days. */
  listenerDays: number;
  averageDailyListeners: number;
  peak: ReachDay | null;
  downloadsPerListenerDay: number | null;
};

/**
 * A reach estimate from each local day's unique listeners (hashes rotate daily and keep no
 * address, so a listener cannot be followed from one day to the next: the honest figures are per
 * day). `days` lists the days that had downloads; `dayCount` is every day of the range (the
 * average is over all of them, quiet days included). The peak is the day with most listeners (the
 * earliest on a tie). Rounded to two decimals.
 */
export function reachSummary(days: readonly ReachDay[], dayCount: number): ReachSummary {
  const round = (n: number) => Math.round(n * 100) / 100;
  const downloads = days.reduce((n, d) => n + d.downloads, 0);
  const listenerDays = days.reduce((n, d) => n + d.listeners, 0);
  let peak: ReachDay | null = null;
  for (const d of days) if (peak === null || d.listeners > peak.listeners || (d.listeners === peak.listeners && d.date < peak.date)) peak = d;
  return {
    days: dayCount,
    downloads,
    listenerDays,
    averageDailyListeners: dayCount > 0 ? round(listenerDays / dayCount) : 0,
    peak,
    downloadsPerListenerDay: listenerDays > 0 ? round(downloads / listenerDays) : null,
  };
}

/** One custom player name: downloads whose user agent contains the text are shown under the name. */
export type CustomPlayerName = { UserAgentContains: string; Name: string };

export const MAX_CUSTOM_PLAYER_NAMES = 100;
export const CUSTOM_PLAYER_PATTERN_MIN = 3;
export const CUSTOM_PLAYER_PATTERN_MAX = 200;
export const CUSTOM_PLAYER_NAME_MAX = 100;

/**
 * The custom player names of an organization: each text and name required (blank is missing),
 * the text at least CUSTOM_PLAYER_PATTERN_MIN characters (a shorter one would match most user
 * agents) and at most CUSTOM_PLAYER_PATTERN_MAX, the name at most CUSTOM_PLAYER_NAME_MAX, a text
 * given twice (any letter case, trimmed) an error on the second. Errors by field path
 * ('CustomPlayerNames.<i>.<field>').
 */
export function validateCustomPlayerNames(items: ReadonlyArray<{ UserAgentContains: string; Name: string }>): Array<{ field: string; error: FormError }> {
  const out: Array<{ field: string; error: FormError }> = [];
  if (items.length > MAX_CUSTOM_PLAYER_NAMES) return [{ field: 'CustomPlayerNames', error: formError('outOfRange', undefined, { max: MAX_CUSTOM_PLAYER_NAMES }, 'overflow') }];
  const seen = new Set<string>();
  items.forEach((item, i) => {
    const at = (f: string) => `CustomPlayerNames.${i}.${f}`;
    const pattern = item.UserAgentContains.trim();
    if (pattern === '') out.push({ field: at('UserAgentContains'), error: formError('required') });
    else if (pattern.length < CUSTOM_PLAYER_PATTERN_MIN) out.push({ field: at('UserAgentContains'), error: formError('tooShort', undefined, { min: CUSTOM_PLAYER_PATTERN_MIN }) });
    else if (pattern.length > CUSTOM_PLAYER_PATTERN_MAX) out.push({ field: at('UserAgentContains'), error: formError('tooLong', undefined, { max: CUSTOM_PLAYER_PATTERN_MAX }) });
    else if (seen.has(pattern.toLowerCase())) out.push({ field: at('UserAgentContains'), error: formError('invalid', undefined, undefined, 'duplicate') });
    else seen.add(pattern.toLowerCase());
    const name = item.Name.trim();
    if (name === '') out.push({ field: at('Name'), error: formError('required') });
    else if (name.length > CUSTOM_PLAYER_NAME_MAX) out.push({ field: at('Name'), error: formError('tooLong', undefined, { max: CUSTOM_PLAYER_NAME_MAX }) });
  });
  return out;
}

/** The name of the first entry whose text the user agent contains (any letter case), or null. */
export function customPlayerName(names: readonly CustomPlayerName[], userAgent: string | null): string | null {
  if (!userAgent) return null;
  const ua = userAgent.toLowerCase();
  return names.find((n) => ua.includes(n.UserAgentContains.trim().toLowerCase()))?.Name.trim() ?? null;
}
