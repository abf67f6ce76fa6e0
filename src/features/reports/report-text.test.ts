import { describe, expect, it } from 'vitest';
import { columnHeading, filtersSummary, formatCell, isIdColumn } from './report-text.ts';

describe('report cells and headings', () => {
  it('formats numbers, percentages, durations and date-times in the reader’s locale, and no value as empty', () => {
    expect(formatCell(1234567, { Key: 'Downloads', Type: 'number' }, 'de-DE')).toBe('1.234.567');
    expect(formatCell(1234567, { Key: 'Downloads', Type: 'number' }, 'en-US')).toBe('1,234,567');
    expect(formatCell(12.5, { Key: 'SharedPercent', Type: 'percent' }, 'en-US')).toBe('12.5%');
    expect(formatCell(3725, { Key: 'DurationSeconds', Type: 'number' }, 'en-US')).toBe('1:02:05');
    expect(formatCell(null, { Key: 'Downloads', Type: 'number' }, 'en-US')).toBe('');
    expect(formatCell('2025-05-09T19:30:00.000Z', { Key: 'PublishedUtc', Type: 'datetime' }, 'en-US')).toMatch(/2025/);
    expect(formatCell('not a date', { Key: 'PublishedUtc', Type: 'datetime' }, 'en-US')).toBe('not a date');
  });

  it('names known columns from the catalogue and keeps a comparison’s clip title', () => {
    expect(columnHeading({ Key: 'Downloads', Label: 'Downloads' })).toBe('Downloads');
    expect(columnHeading({ Key: '0b0e…', Label: 'Episode 12' })).toBe('Episode 12');
    expect(isIdColumn({ Key: 'ProgramId', Type: 'text' })).toBe(true);
    expect(isIdColumn({ Key: 'Program', Type: 'text' })).toBe(false);
  });

  it('says what a report covered', () => {
    expect(filtersSummary({ Kind: 'content-report', Filters: { startDate: '2025-05-01', endDate: '2025-05-31', timeZoneIanaId: 'UTC' } })).toBe('2025-05-01 – 2025-05-31 (UTC)');
    expect(filtersSummary({ Kind: 'clip-download-comparison-report', Filters: { days: 7, clipIds: ['a', 'b'] } })).toBe('Days 1–7 since publish · Clips: 2');
  });
});
