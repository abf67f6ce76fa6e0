// Date rules of section 5. Dates travel as ISO strings ('YYYY-MM-DD', or with a time for
// date-time fields); a date must parse and be in 1753 or later (the smallest year SQL Server's
// datetime holds, which is where the rule comes from).
import { MIN_YEAR } from './constants.ts';
import { formError, type FormError } from './form-errors.ts';

const DAY_MS = 86_400_000;
const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** Epoch milliseconds of an ISO date or date-time (UTC unless it names an offset), or null. */
export function parseIsoDate(value: string): number | null {
  const m = ISO_PATTERN.exec(value.trim());
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [1, 2, 3, 4, 5, 6].map((i) => Number(m[i] ?? 0)) as [number, number, number, number, number, number];
  if (year < MIN_YEAR || hour > 23 || minute > 59 || second > 59) return null;
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, Number((m[7] ?? '0').padEnd(3, '0')));
  const check = new Date(utc);
  // Date.UTC rolls 31 February over to March: a date that does not round-trip is not a date.
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return utc - offsetMs(m[8]);
}

function offsetMs(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const [h, min] = zone.slice(1).split(':').map(Number) as [number, number];
  return sign * (h * 60 + min) * 60_000;
}

export type DateOptions = { required?: boolean; min?: string; max?: string; withTime?: boolean };

const blank = (v: string | null | undefined): v is null | undefined | '' => v === null || v === undefined || v.trim() === '';

/** Single date and date-time: on or before the max, on or after the min. */
export function validateDate(value: string | null | undefined, options: DateOptions = {}): FormError | null {
  if (blank(value)) return options.required === true ? formError('required', 'domain_date_required') : null;
  const at = parseIsoDate(value);
  if (at === null) return formError('dateInvalid', options.withTime === true ? 'domain_datetime_invalid' : 'domain_date_invalid');
  if (options.max !== undefined && at > (parseIsoDate(options.max) ?? Infinity)) {
    return formError('outOfRange', 'domain_date_max', { maxDate: options.max }, 'overflow');
  }
  if (options.min !== undefined && at < (parseIsoDate(options.min) ?? -Infinity)) {
    return formError('outOfRange', 'domain_date_min', { minDate: options.min }, 'underflow');
  }
  return null;
}

export type DateRangeOptions = { required?: boolean; min?: string; max?: string; numberOfDaysLimit?: number };

/** Days a range covers, counting both ends: 1 January to 31 January is 31 days. */
export function daysInRange(startMs: number, endMs: number): number {
  return Math.floor((endMs - startMs) / DAY_MS) + 1;
}

export function validateDateRange(start: string | null | undefined, end: string | null | undefined, options: DateRangeOptions = {}): FormError | null {
  if (blank(start) && blank(end)) return options.required === true ? formError('required', 'domain_date_required') : null;
  const from = blank(start) ? null : parseIsoDate(start);
  const to = blank(end) ? null : parseIsoDate(end);
  if (from === null && to === null) return formError('dateInvalid', 'domain_date_both_invalid', undefined, 'both');
  if (from === null) return formError('dateInvalid', 'domain_date_start_invalid', undefined, 'start');
  if (to === null) return formError('dateInvalid', 'domain_date_end_invalid', undefined, 'end');
  if (to < from) return formError('reversed', 'domain_date_reversed');
  const min = options.min === undefined ? null : parseIsoDate(options.min);
  const max = options.max === undefined ? null : parseIsoDate(options.max);
  const early = min !== null && from < min;
  const late = max !== null && to > max;
  if ((early || late) && min !== null && max !== null) {
    return formError('outOfRange', 'domain_date_range_between', { minDate: options.min!, maxDate: options.max! }, early ? 'underflow' : 'overflow');
  }
  if (late) return formError('outOfRange', 'domain_date_end_max', { maxDate: options.max! }, 'overflow');
  if (early) return formError('outOfRange', 'domain_date_start_min', { minDate: options.min! }, 'underflow');
  const limit = options.numberOfDaysLimit;
  if (limit !== undefined && daysInRange(from, to) > limit) {
    return formError('outOfRange', 'domain_date_range_limit', { numberOfDaysLimit: limit }, 'overflow');
  }
  return null;
}
