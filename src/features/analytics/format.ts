// Numbers, dates and dimension names of the analytics screens in the reader's language (Intl).
// Bucket starts come from the API as local times with their offset ('2025-03-09T00:00:00-08:00'):
// the local date and time are read from the text itself, so a bucket shows the day it is in the
// query's time zone whatever the browser's own zone is.
import type { AnalyticsInterval } from '../../domain/analytics.ts';

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?/;

/** The local wall time of a bucket start (or a YYYY-MM-DD date) as a UTC instant, to format in UTC. */
function wallTime(start: string): Date | null {
  const m = LOCAL.exec(start);
  if (!m) return null;
  return new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4] ?? 0), Number(m[5] ?? 0)));
}

const FULL: Record<AnalyticsInterval, Intl.DateTimeFormatOptions> = {
  hour: { dateStyle: 'medium', timeStyle: 'short' },
  day: { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric' },
  week: { dateStyle: 'medium' },
  month: { year: 'numeric', month: 'long' },
};
const SHORT: Record<AnalyticsInterval, Intl.DateTimeFormatOptions> = {
  hour: { month: 'short', day: 'numeric', hour: 'numeric' },
  day: { month: 'short', day: 'numeric' },
  week: { month: 'short', day: 'numeric' },
  month: { year: '2-digit', month: 'short' },
};

/** A bucket's start as a table shows it (a week by its first day). */
export function bucketLabel(start: string, interval: AnalyticsInterval, locale: string): string {
  const at = wallTime(start);
  return at ? new Intl.DateTimeFormat(locale, { ...FULL[interval], timeZone: 'UTC' }).format(at) : start;
}

/** A bucket's start as the chart's axis shows it. */
export function axisLabel(start: string, interval: AnalyticsInterval, locale: string): string {
  const at = wallTime(start);
  return at ? new Intl.DateTimeFormat(locale, { ...SHORT[interval], timeZone: 'UTC' }).format(at) : start;
}

/** A local date (YYYY-MM-DD) in the reader's words. */
export function dateLabel(date: string, locale: string): string {
  const at = wallTime(date);
  return at ? new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(at) : date;
}

export function formatCount(n: number, locale: string): string {
  return new Intl.NumberFormat(locale).format(n);
}

/** +12.5 %, −3 %, 0 % in the reader's notation (the sign always shown but on zero). */
export function formatChange(percent: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1, signDisplay: 'exceptZero' }).format(percent / 100);
}

/** A share of a total, 0 to 1, as a percentage. */
export function formatShare(share: number, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(share);
}

/** A country's name from its ISO 3166-1 alpha-2 code; null for ZZ (unknown) or a code Intl does not know. */
export function countryName(code: string, locale: string): string | null {
  if (!/^[A-Z]{2}$/i.test(code) || code.toUpperCase() === 'ZZ') return null;
  try {
    const name = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' }).of(code.toUpperCase());
    return name ?? null;
  } catch {
    return null;
  }
}
