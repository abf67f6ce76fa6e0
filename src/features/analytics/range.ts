// The analytics screens' query: a date-range preset (or custom dates), the interval and the time
// zone, read from and written to the URL, and the previous period of the same length that the
// downloads chart compares with. Pure: "today" is passed in, dates are local calendar dates
// ('YYYY-MM-DD') of the chosen time zone, as the API takes them (src/domain/analytics.ts).
import { ANALYTICS_INTERVALS, DEFAULT_ANALYTICS_INTERVAL, DEFAULT_ANALYTICS_TIME_ZONE, MAX_RANGE_DAYS, validateAnalyticsRange, type AnalyticsInterval } from '../../domain/analytics.ts';

export const RANGE_PRESETS = ['last7', 'last30', 'last90', 'thisMonth', 'lastMonth', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export const DEFAULT_PRESET: RangePreset = 'last30';

export type AnalyticsQuery = { preset: RangePreset; startDate: string; endDate: string; interval: AnalyticsInterval; timeZone: string };

const DAY_MS = 86_400_000;

function toDate(iso: string): Date {
  return new Date(`${iso}T00:00:00Z`);
}
function toIso(d: Date): string {
  return d.toISOString().slice(0, 10);
}
export function addDays(iso: string, days: number): string {
  return toIso(new Date(toDate(iso).getTime() + days * DAY_MS));
}
/** Days from start to end, both included. */
export function daysInRange(startDate: string, endDate: string): number {
  return Math.round((toDate(endDate).getTime() - toDate(startDate).getTime()) / DAY_MS) + 1;
}

/** Today's date in the time zone (a zone Intl does not know: UTC). */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  try {
    // en-CA formats a date as YYYY-MM-DD.
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);
  } catch {
    return toIso(now);
  }
}

/** The dates of a preset, today included in the "last N days" and "this month" ones. */
export function presetRange(preset: Exclude<RangePreset, 'custom'>, today: string): { startDate: string; endDate: string } {
  switch (preset) {
    case 'last7':
      return { startDate: addDays(today, -6), endDate: today };
    case 'last30':
      return { startDate: addDays(today, -29), endDate: today };
    case 'last90':
      return { startDate: addDays(today, -89), endDate: today };
    case 'thisMonth':
      return { startDate: `${today.slice(0, 8)}01`, endDate: today };
    case 'lastMonth': {
      const endDate = addDays(`${today.slice(0, 8)}01`, -1);
      return { startDate: `${endDate.slice(0, 8)}01`, endDate };
    }
  }
}

/** The period of the same length that ends the day before the range starts. */
export function previousPeriod(startDate: string, endDate: string): { startDate: string; endDate: string } {
  const days = daysInRange(startDate, endDate);
  const end = addDays(startDate, -1);
  return { startDate: addDays(end, -(days - 1)), endDate: end };
}

/** The intervals a range may be shown in: hour only while the range is short enough for it. */
export function intervalsFor(startDate: string, endDate: string): AnalyticsInterval[] {
  const valid = validateAnalyticsRange(startDate, endDate, 'day').length === 0;
  const days = valid ? daysInRange(startDate, endDate) : Infinity;
  return ANALYTICS_INTERVALS.filter((i) => days <= MAX_RANGE_DAYS[i]);
}

/** The change from the previous period in percent, or null when there was nothing to compare with. */
export function changePercent(current: number, previous: number): number | null {
  if (previous === 0) return null;
  return ((current - previous) / previous) * 100;
}

const isPreset = (v: string | null): v is RangePreset => v !== null && (RANGE_PRESETS as readonly string[]).includes(v);
const isInterval = (v: string | null): v is AnalyticsInterval => v !== null && (ANALYTICS_INTERVALS as readonly string[]).includes(v);

/**
 * The query a URL's search asks for. A preset's dates are today's (a link to "last 30 days"
 * shows the last 30 days whenever it is opened); custom dates are kept as typed, for the form to
 * judge. An hourly interval on a range too long for it falls back to days.
 */
export function readQuery(search: URLSearchParams, defaultTimeZone: string, now: Date = new Date()): AnalyticsQuery {
  const timeZone = search.get('tz') || defaultTimeZone || DEFAULT_ANALYTICS_TIME_ZONE;
  const rawPreset = search.get('range');
  const preset: RangePreset = isPreset(rawPreset) ? rawPreset : DEFAULT_PRESET;
  const dates = preset === 'custom' ? { startDate: search.get('start') ?? '', endDate: search.get('end') ?? '' } : presetRange(preset, todayIn(timeZone, now));
  const rawInterval = search.get('interval');
  let interval = isInterval(rawInterval) ? rawInterval : DEFAULT_ANALYTICS_INTERVAL;
  if (!intervalsFor(dates.startDate, dates.endDate).includes(interval) && interval === 'hour') interval = 'day';
  return { preset, ...dates, interval, timeZone };
}

/** The URL search of a query: defaults left out, dates only for a custom range. */
export function writeQuery(query: AnalyticsQuery, defaultTimeZone: string): string {
  const params = new URLSearchParams();
  if (query.preset !== DEFAULT_PRESET) params.set('range', query.preset);
  if (query.preset === 'custom') {
    params.set('start', query.startDate);
    params.set('end', query.endDate);
  }
  if (query.interval !== DEFAULT_ANALYTICS_INTERVAL) params.set('interval', query.interval);
  if (query.timeZone !== defaultTimeZone) params.set('tz', query.timeZone);
  const text = params.toString();
  return text ? `?${text}` : '';
}

/**
 * The user's own zone when the reference list has it (the browser's, e.g. Europe/Berlin), else
 * UTC, the API's default. While the list is unknown (never fetched, offline) the browser's zone
 * is used as it is: the server judges it.
 */
export function defaultTimeZone(zoneIds: readonly string[] | null, browserZone: string | undefined): string {
  if (!browserZone) return DEFAULT_ANALYTICS_TIME_ZONE;
  if (zoneIds === null || zoneIds.includes(browserZone)) return browserZone;
  return DEFAULT_ANALYTICS_TIME_ZONE;
}

type Point = { Start: string; Downloads: number };
export type ComparisonRow = { start: string; downloads: number; previousStart: string | null; previousDownloads: number | null };

/**
 * The current period's buckets beside the previous period's, bucket by bucket (the first day
 * beside the first day). The two may differ by a bucket (an hourly range across a DST change, a
 * month of 31 days after one of 30 weeks' worth): a bucket with no partner has none.
 */
export function comparisonRows(current: readonly Point[], previous: readonly Point[] | null): ComparisonRow[] {
  return current.map((p, i) => {
    const q = previous?.[i];
    return { start: p.Start, downloads: p.Downloads, previousStart: q?.Start ?? null, previousDownloads: q?.Downloads ?? null };
  });
}
