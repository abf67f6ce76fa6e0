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
