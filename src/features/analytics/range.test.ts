import { describe, expect, it } from 'vitest';
import { changePercent, comparisonRows, daysInRange, defaultTimeZone, intervalsFor, presetRange, previousPeriod, readQuery, todayIn, writeQuery } from './range.ts';
import { bucketLabel, countryName, formatChange } from './format.ts';

describe('date-range presets', () => {
  const today = '2026-03-15';
  it('last 7, 30 and 90 days end today and hold that many days', () => {
    for (const [preset, days] of [['last7', 7], ['last30', 30], ['last90', 90]] as const) {
      const r = presetRange(preset, today);
      expect(r.endDate).toBe(today);
      expect(daysInRange(r.startDate, r.endDate)).toBe(days);
    }
    expect(presetRange('last7', today).startDate).toBe('2026-03-09');
  });
  it('this month runs from the first to today; last month is the whole calendar month before', () => {
    expect(presetRange('thisMonth', today)).toEqual({ startDate: '2026-03-01', endDate: today });
    expect(presetRange('lastMonth', today)).toEqual({ startDate: '2026-02-01', endDate: '2026-02-28' });
    expect(presetRange('lastMonth', '2026-01-10')).toEqual({ startDate: '2025-12-01', endDate: '2025-12-31' });
    expect(presetRange('lastMonth', '2024-03-31')).toEqual({ startDate: '2024-02-01', endDate: '2024-02-29' });
  });
  it('today is the date in the chosen time zone, not the browser’s', () => {
    const now = new Date('2026-03-15T23:30:00Z');
    expect(todayIn('UTC', now)).toBe('2026-03-15');
    expect(todayIn('Pacific/Auckland', now)).toBe('2026-03-16');
    expect(todayIn('America/Los_Angeles', new Date('2026-03-15T05:00:00Z'))).toBe('2026-03-14');
  });
});

describe('period comparison', () => {
  it('the previous period has the same number of days and ends the day before the range', () => {
    expect(previousPeriod('2026-03-01', '2026-03-30')).toEqual({ startDate: '2026-01-30', endDate: '2026-02-28' });
    expect(previousPeriod('2026-03-15', '2026-03-15')).toEqual({ startDate: '2026-03-14', endDate: '2026-03-14' });
    const p = previousPeriod('2025-12-20', '2026-01-10');
    expect(daysInRange(p.startDate, p.endDate)).toBe(daysInRange('2025-12-20', '2026-01-10'));
    expect(p.endDate).toBe('2025-12-19');
  });
  it('the change is in percent of the previous period, and none when it had no downloads', () => {
    expect(changePercent(150, 100)).toBe(50);
    expect(changePercent(75, 100)).toBe(-25);
    expect(changePercent(0, 0)).toBeNull();
    expect(changePercent(10, 0)).toBeNull();
    expect(formatChange(50, 'en-US')).toBe('+50%');
    expect(formatChange(-12.345, 'en-US')).toBe('-12.3%');
    expect(formatChange(0, 'en-US')).toBe('0%');
  });
});

describe('comparisonRows', () => {
  it('puts each bucket beside the previous period’s bucket of the same place, and none where it has no partner', () => {
    const cur = [{ Start: '2026-03-08T00:00:00Z', Downloads: 5 }, { Start: '2026-03-09T00:00:00Z', Downloads: 7 }];
    const prev = [{ Start: '2026-03-06T00:00:00Z', Downloads: 2 }];
    expect(comparisonRows(cur, prev)).toEqual([
      { start: '2026-03-08T00:00:00Z', downloads: 5, previousStart: '2026-03-06T00:00:00Z', previousDownloads: 2 },
      { start: '2026-03-09T00:00:00Z', downloads: 7, previousStart: null, previousDownloads: null },
    ]);
    expect(comparisonRows(cur, null)[0]?.previousDownloads).toBeNull();
  });
});

describe('intervals and the query in the URL', () => {
  it('hour is offered only while the range is short enough for it (31 days)', () => {
    expect(intervalsFor('2026-03-01', '2026-03-31')).toEqual(['hour', 'day', 'week', 'month']);
    expect(intervalsFor('2026-03-01', '2026-04-01')).toEqual(['day', 'week', 'month']);
  });
  it('reads a preset as today’s dates and keeps custom dates as typed', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(readQuery(new URLSearchParams(''), 'UTC', now)).toEqual({ preset: 'last30', startDate: '2026-02-14', endDate: '2026-03-15', interval: 'day', timeZone: 'UTC' });
    expect(readQuery(new URLSearchParams('range=custom&start=2026-01-01&end=2026-01-02&interval=hour&tz=Europe/Berlin'), 'UTC', now)).toEqual({
      preset: 'custom',
      startDate: '2026-01-01',
      endDate: '2026-01-02',
      interval: 'hour',
      timeZone: 'Europe/Berlin',
    });
    expect(readQuery(new URLSearchParams('range=last90&interval=hour'), 'UTC', now).interval).toBe('day');
    expect(readQuery(new URLSearchParams('range=nonsense&interval=year'), 'UTC', now)).toMatchObject({ preset: 'last30', interval: 'day' });
  });
  it('writes only what differs from the defaults, and reads back what it wrote', () => {
    const now = new Date('2026-03-15T12:00:00Z');
    expect(writeQuery(readQuery(new URLSearchParams(''), 'UTC', now), 'UTC')).toBe('');
    const custom = { preset: 'custom', startDate: '2026-01-01', endDate: '2026-01-31', interval: 'week', timeZone: 'America/Los_Angeles' } as const;
    expect(readQuery(new URLSearchParams(writeQuery(custom, 'UTC')), 'UTC', now)).toEqual(custom);
  });
  it('defaults to the browser’s zone when the reference list has it, else UTC', () => {
    expect(defaultTimeZone(['UTC', 'Europe/Berlin'], 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(defaultTimeZone(['UTC'], 'Antarctica/Troll')).toBe('UTC');
    expect(defaultTimeZone(null, 'Europe/Berlin')).toBe('Europe/Berlin');
    expect(defaultTimeZone(['UTC'], undefined)).toBe('UTC');
  });
});

describe('labels', () => {
  it('a bucket shows its local date, whatever the browser’s zone', () => {
    expect(bucketLabel('2026-03-08T00:00:00-08:00', 'day', 'en-US')).toBe('Sun, Mar 8, 2026');
    expect(bucketLabel('2026-03-01T00:00:00+01:00', 'month', 'de-DE')).toBe('März 2026');
  });
  it('countries are named in the reader’s language; ZZ is unknown', () => {
    expect(countryName('DE', 'en-US')).toBe('Germany');
    expect(countryName('DE', 'fr-FR')).toBe('Allemagne');
    expect(countryName('ZZ', 'en-US')).toBeNull();
  });
});
