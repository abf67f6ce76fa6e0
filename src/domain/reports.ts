// Reports (issue 30, specification section 7 "Reports and analytics", section 4 "Report
// generation"): the rules a report's filters follow, the columns each kind answers with, and the
// CSV a finished report downloads as. Shared by the route declarations (src/protocol/api/reports.ts),
// the server that makes reports (sync-server/reports) and the reports screen, which makes the same
// CSV offline from a stored result with reportCsv.
//
// A report is an operation (section 4): POST …/reports/{kind} answers 202 { Id, Status: Busy }, a
// durable job makes it (Progress 0–100 while Busy), and GET /v1/reports/{kind}/{operationId} answers
// it with its result once Success (or its reason once Failed).
//
// The kinds, what they count (downloads are those of the IAB rules, counted_downloads; a download
// belongs to the local date of the hour it was counted in, in the report's time zone, exactly as the
// analytics API buckets them, so a report's totals equal the analytics totals of the same range):
//   consumption-summary-report       one row per program with downloads in the range
//   content-report                   one row per clip of the scope (those with none included); a
//                                    program whose clips the caller may not read (analytics access
//                                    without content access) is one row with its total and no clip
//   shared-listeners-report          one row per target network or program: listeners of the
//                                    report's network or program who also listened to the target
//   clip-download-comparison-report  one row per day since publish, one column per clip
//
// Listeners (shared-listeners-report): a listener is one listener hash on one UTC day. The hash is
// a salted hash of address and user agent whose salt rotates every UTC midnight (no address is
// kept), so the same person on two days is two listeners, and two people behind one address with
// one user agent are one. A listener "of" a network or program downloaded something of it in the
// range; shared: the same hash on the same UTC day downloaded something of both.
//
// Days since publish (clip-download-comparison-report): day n of a clip is the 24 hours from
// PublishedUtc + (n − 1) × 24 h; day 1 starts at the publish instant. A clip never published, or a
// day that has not started yet when the report is made, has no number (empty, not 0).
import { validateAnalyticsRange, MAX_RANGE_DAYS } from './analytics.ts';
import { formError, type FormError } from './form-errors.ts';
import { validateInteger } from './validators.ts';

export const REPORT_KINDS = ['consumption-summary-report', 'content-report', 'shared-listeners-report', 'clip-download-comparison-report', 'apple-premium-linking-report'] as const;
export type ReportKind = (typeof REPORT_KINDS)[number];

/** The paged GET report (not an operation). */
export const SCHEDULED_PUBLISH_REPORT = 'clip-scheduled-publish-report';

export const REPORT_STATUSES = ['Busy', 'Failed', 'Success'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** Where a report was started: the organization, a network, a program. */
export const REPORT_LEVELS = ['organization', 'network', 'program'] as const;
export type ReportLevel = (typeof REPORT_LEVELS)[number];

/** counted_downloads.source: where a download came from (the public audio's src, else unknown). */
export const REPORT_SOURCES = ['feed', 'embed', 'page', 'api', 'web', 'unknown'] as const;
export type ReportSource = (typeof REPORT_SOURCES)[number];

/** Clip visibilities (section 3), the values of clipVisibilityFilter and scheduledVisibilityFilter. */
export const REPORT_VISIBILITIES = ['Private', 'Public', 'Restricted', 'Unlisted'] as const;
export type ReportVisibility = (typeof REPORT_VISIBILITIES)[number];

/** Longest range of a report, in days (as a daily analytics series). */
export const MAX_REPORT_RANGE_DAYS = MAX_RANGE_DAYS.day;
/** Target networks or programs of one shared-listeners report, at most. */
export const MAX_SHARED_TARGETS = 50;
/** Clips of one comparison, at most; and its horizon in days since publish. */
export const MAX_COMPARISON_CLIPS = 20;
export const MAX_COMPARISON_DAYS = 90;
export const DEFAULT_COMPARISON_DAYS = 30;

/** The sort orders of the scheduled-publish report ('-' first: descending). Default visibleAt. */
export const SCHEDULED_REPORT_SORTS = ['visibleAt', '-visibleAt', 'title', '-title', 'program', '-program'] as const;
export type ScheduledReportSort = (typeof SCHEDULED_REPORT_SORTS)[number];

/**
 * The filters of a report as the caller gave them (query strings, section 3 "Report filters"), and
 * the ones each kind takes besides. Stored with the operation and shown in the list of reports.
 */
export type ReportFilters = {
  /** Absent only in a clip-download-comparison-report (days since publish, not dates). */
  startDate?: string | undefined;
  endDate?: string | undefined;
  timeZoneIanaId?: string | undefined;
  durationSecondsFrom?: number | undefined;
  durationSecondsTo?: number | undefined;
  source?: ReportSource | undefined;
  clipVisibilityFilter?: ReportVisibility[] | undefined;
  targetNetworkIds?: string[] | undefined;
  targetProgramIds?: string[] | undefined;
  clipIds?: string[] | undefined;
  days?: number | undefined;
  /** apple-premium-linking-report: the playlist (src/domain/directories.ts). */
  playlistId?: string | undefined;
};

export type ReportFilterField = 'startDate' | 'endDate' | 'durationSecondsFrom' | 'durationSecondsTo' | 'source' | 'clipVisibilityFilter';

/** The raw filter strings of a report query (any may be absent). */
export type RawReportFilters = Partial<Record<ReportFilterField, string | undefined>>;

const splitList = (raw: string) =>
  raw
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

/** A duration bound: a whole number of seconds, 0 or more. */
export function validateDurationSeconds(value: string): FormError | null {
  return validateInteger(value, { required: true, min: 0 });
}

/** source: one of REPORT_SOURCES (any letter case). */
export function parseReportSource(value: string): ReportSource | null {
  const lower = value.trim().toLowerCase();
  return REPORT_SOURCES.find((s) => s === lower) ?? null;
}

/** clipVisibilityFilter / scheduledVisibilityFilter: comma-joined visibilities (any letter case); null if one is unknown. */
export function parseVisibilityList(value: string): ReportVisibility[] | null {
  const out: ReportVisibility[] = [];
  for (const item of splitList(value)) {
    const found = REPORT_VISIBILITIES.find((v) => v.toLowerCase() === item.toLowerCase());
    if (!found) return null;
    if (!out.includes(found)) out.push(found);
  }
  return out;
}

/**
 * The report filters of section 3 by the rules of section 5: startDate and endDate required (the
 * "Call parameters" rule for reports) and a valid range; the duration bounds whole seconds, from not
 * above to; source and the visibilities known values. Errors by field (the time zone is checked
 * against the reference list by the server, which owns it).
 */
export function validateReportFilters(raw: RawReportFilters): Array<{ field: ReportFilterField; error: FormError }> {
  const out: Array<{ field: ReportFilterField; error: FormError }> = [...validateAnalyticsRange(raw.startDate, raw.endDate, 'day')];
  const present = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';
  let from: number | null = null;
  let to: number | null = null;
  if (present(raw.durationSecondsFrom)) {
    const error = validateDurationSeconds(raw.durationSecondsFrom);
    if (error) out.push({ field: 'durationSecondsFrom', error });
    else from = Number(raw.durationSecondsFrom.trim());
  }
  if (present(raw.durationSecondsTo)) {
    const error = validateDurationSeconds(raw.durationSecondsTo);
    if (error) out.push({ field: 'durationSecondsTo', error });
    else to = Number(raw.durationSecondsTo.trim());
  }
  if (from !== null && to !== null && from > to) out.push({ field: 'durationSecondsTo', error: formError('reversed') });
  if (present(raw.source) && parseReportSource(raw.source) === null) out.push({ field: 'source', error: formError('invalid') });
  if (raw.clipVisibilityFilter !== undefined && parseVisibilityList(raw.clipVisibilityFilter) === null) out.push({ field: 'clipVisibilityFilter', error: formError('invalid') });
  return out;
}

// ── Results ──────────────────────────────────────────────────────────────────────────────────

/** How a column's cells read: text, a whole number, a percentage (0–100, one decimal), an ISO date-time. */
export type ReportColumnType = 'text' | 'number' | 'percent' | 'datetime';
export type ReportColumn = { Key: string; Label: string; Type: ReportColumnType };
export type ReportCell = string | number | null;

/** A finished report: its columns, its rows (cells in column order), and the totals row (null: none). */
export type ReportResult = { Columns: ReportColumn[]; Rows: ReportCell[][]; Totals: ReportCell[] | null };

const col = (Key: string, Label: string, Type: ReportColumnType): ReportColumn => ({ Key, Label, Type });

/**
 * The columns of each kind. (A comparison has these first, then one column per clip compared,
 * keyed by the clip's id and labelled by its title: clipComparisonColumn.)
 */
export const REPORT_COLUMNS: Readonly<Record<ReportKind, readonly ReportColumn[]>> = {
  'consumption-summary-report': [
    col('ProgramId', 'Program id', 'text'),
    col('Program', 'Program', 'text'),
    col('Network', 'Network', 'text'),
    col('Clips', 'Clips downloaded', 'number'),
    col('AudioDownloads', 'Audio downloads', 'number'),
    col('VideoDownloads', 'Video downloads', 'number'),
    col('Downloads', 'Downloads', 'number'),
  ],
  'content-report': [
    col('ProgramId', 'Program id', 'text'),
    col('Program', 'Program', 'text'),
    col('ClipId', 'Clip id', 'text'),
    col('Clip', 'Clip', 'text'),
    col('Visibility', 'Visibility', 'text'),
    col('PublishedUtc', 'Published (UTC)', 'datetime'),
    col('DurationSeconds', 'Duration (seconds)', 'number'),
    col('Downloads', 'Downloads', 'number'),
  ],
  'shared-listeners-report': [
    col('TargetId', 'Target id', 'text'),
    col('Target', 'Target', 'text'),
    col('Listeners', 'Listeners', 'number'),
    col('TargetListeners', 'Listeners of the target', 'number'),
    col('SharedListeners', 'Shared listeners', 'number'),
    col('SharedPercent', 'Shared (% of listeners)', 'percent'),
  ],
  'clip-download-comparison-report': [col('Day', 'Day since publish', 'number')],
  'apple-premium-linking-report': [
    col('ClipId', 'Clip id', 'text'),
    col('Clip', 'Clip', 'text'),
    col('Visibility', 'Visibility', 'text'),
    col('PublishState', 'Publish state', 'text'),
    col('Linking', 'Apple linking', 'text'),
  ],
};

/** The column of one clip in a comparison. */
export function clipComparisonColumn(clipId: string, title: string | null): ReportColumn {
  return col(clipId, title?.trim() ? title : 'Untitled clip', 'number');
}

/** shared / listeners as a percentage with one decimal (0 when there are no listeners). */
export function sharedPercent(shared: number, listeners: number): number {
  return listeners === 0 ? 0 : Math.round((shared / listeners) * 1000) / 10;
}

/** Totals of the number columns of rows (the first column reads 'Total', other columns empty). */
export function totalsRow(columns: readonly ReportColumn[], rows: readonly ReportCell[][]): ReportCell[] {
  return columns.map((c, i) => {
    if (i === 0) return 'Total';
    if (c.Type !== 'number') return null;
    return rows.reduce<number>((sum, r) => sum + (typeof r[i] === 'number' ? (r[i] as number) : 0), 0);
  });
}

// ── CSV ──────────────────────────────────────────────────────────────────────────────────────

/**
 * A cell as an RFC 4180 field: quoted when it holds a comma, a quote, CR or LF (quotes doubled).
 * Text that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR: a clip title
 * is anyone's text) gets a leading apostrophe first, as OWASP advises for CSV injection; numbers
 * are written as they are.
 */
function csvField(cell: ReportCell, type: ReportColumnType): string {
  if (cell === null) return '';
  let text = typeof cell === 'number' ? String(cell) : cell;
  if (typeof cell === 'string' && type === 'text' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * A finished report as CSV (RFC 4180: CRLF line ends, a header line of the column labels, one line
 * per row, then the totals line when there is one). UTF-8 without a byte-order mark; the caller
 * sends it as text/csv; charset=utf-8; header=present.
 */
export function reportCsv(result: ReportResult): string {
  const line = (cells: readonly ReportCell[]) => result.Columns.map((c, i) => csvField(cells[i] ?? null, c.Type)).join(',');
  const lines = [result.Columns.map((c) => csvField(c.Label, 'text')).join(','), ...result.Rows.map(line)];
  if (result.Totals) lines.push(line(result.Totals));
  return `${lines.join('\r\n')}\r\n`;
}

/** The file name a report downloads as: kind and range, e.g. content-report_2025-05-01_2025-05-31.csv. */
export function reportFileName(kind: ReportKind, filters: Pick<ReportFilters, 'startDate' | 'endDate'> | null): string {
  const safe = (s: string) => s.replace(/[^0-9A-Za-z-]/g, '');
  return filters?.startDate && filters.endDate ? `${kind}_${safe(filters.startDate)}_${safe(filters.endDate)}.csv` : `${kind}.csv`;
}
