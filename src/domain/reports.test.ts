// Report rules (src/domain/reports.ts): the filters of section 3 by section 5's rules, the totals
// row, and the CSV a report downloads as (RFC 4180), with the expected text written out by hand.
import { describe, expect, it } from 'vitest';
import { parseVisibilityList, reportCsv, reportFileName, sharedPercent, totalsRow, validateReportFilters, type ReportColumn } from './reports.ts';

const fields = (raw: Parameters<typeof validateReportFilters>[0]) => validateReportFilters(raw).map((e) => `${e.field}:${e.error.type}`);

describe('report filters', () => {
  it('need startDate and endDate (section 5, reports), each named', () => {
    expect(fields({})).toEqual(['startDate:required', 'endDate:required']);
    expect(fields({ startDate: '2025-05-01' })).toEqual(['endDate:required']);
    expect(fields({ startDate: '2025-05-01', endDate: '2025-05-31' })).toEqual([]);
  });

  it('refuse bad and reversed dates', () => {
    expect(fields({ startDate: '2025-13-01', endDate: '2025-05-31' })).toEqual(['startDate:dateInvalid']);
    expect(fields({ startDate: 'May 1', endDate: '2025-05-31' })).toEqual(['startDate:dateInvalid']);
    expect(fields({ startDate: '2025-05-31', endDate: '2025-05-01' })).toEqual(['endDate:reversed']);
  });

  it('take whole, non-negative duration bounds, from not above to', () => {
    const range = { startDate: '2025-05-01', endDate: '2025-05-31' };
    expect(fields({ ...range, durationSecondsFrom: '60', durationSecondsTo: '60' })).toEqual([]);
    expect(fields({ ...range, durationSecondsFrom: '61', durationSecondsTo: '60' })).toEqual(['durationSecondsTo:reversed']);
    expect(fields({ ...range, durationSecondsFrom: '-1' })).toEqual(['durationSecondsFrom:outOfRange']);
    expect(fields({ ...range, durationSecondsTo: '1.5' })).toEqual(['durationSecondsTo:invalid']);
  });

  it('know the sources and visibilities', () => {
    const range = { startDate: '2025-05-01', endDate: '2025-05-31' };
    expect(fields({ ...range, source: 'Feed' })).toEqual([]);
    expect(fields({ ...range, source: 'radio' })).toEqual(['source:invalid']);
    expect(fields({ ...range, clipVisibilityFilter: 'public, Unlisted' })).toEqual([]);
    expect(fields({ ...range, clipVisibilityFilter: 'Public,Secret' })).toEqual(['clipVisibilityFilter:invalid']);
    expect(parseVisibilityList('public,Public, unlisted,')).toEqual(['Public', 'Unlisted']);
    expect(parseVisibilityList('')).toEqual([]);
  });
});

describe('report results', () => {
  const columns: ReportColumn[] = [
    { Key: 'Program', Label: 'Program', Type: 'text' },
    { Key: 'PublishedUtc', Label: 'Published (UTC)', Type: 'datetime' },
    { Key: 'Downloads', Label: 'Downloads', Type: 'number' },
  ];

  it('total the number columns', () => {
    expect(totalsRow(columns, [['A', null, 3], ['B', '2025-05-01T00:00:00Z', 4], ['C', null, null]])).toEqual(['Total', null, 7]);
    expect(sharedPercent(1, 3)).toBe(33.3);
    expect(sharedPercent(0, 0)).toBe(0);
  });

  it('write RFC 4180 CSV: CRLF, quoted commas, quotes and line breaks, no BOM, formulas defused', () => {
    const csv = reportCsv({
      Columns: columns,
      Rows: [
        ['Morning, "Briefing"', '2025-05-01T06:00:00Z', 12],
        ['Two\nlines', null, 0],
        ['=HYPERLINK("x")', null, -1],
        ['Café ☕', null, 3],
      ],
      Totals: ['Total', null, 14],
    });
    expect(csv).toBe(
      'Program,Published (UTC),Downloads\r\n' +
        '"Morning, ""Briefing""",2025-05-01T06:00:00Z,12\r\n' +
        '"Two\nlines",,0\r\n' +
        `"'=HYPERLINK(""x"")",,-1\r\n` +
        'Café ☕,,3\r\n' +
        'Total,,14\r\n',
    );
    expect(csv.charCodeAt(0)).not.toBe(0xfeff);
    expect(reportCsv({ Columns: columns, Rows: [], Totals: null })).toBe('Program,Published (UTC),Downloads\r\n');
  });

  it('name the file by kind and range', () => {
    expect(reportFileName('content-report', { startDate: '2025-05-01', endDate: '2025-05-31' })).toBe('content-report_2025-05-01_2025-05-31.csv');
    expect(reportFileName('clip-download-comparison-report', {})).toBe('clip-download-comparison-report.csv');
  });
});
