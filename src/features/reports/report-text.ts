// The words and number formats of the reports screen: kinds, statuses, sources and column
// headings in the user's language (the server's column Labels are English and go into the CSV,
// made by the shared reportCsv; on screen a known column Key reads from the catalogue, and a
// comparison's clip columns, keyed by clip id, keep their Label: the clip's title).
import { m } from '../../paraglide/messages.js';
import { DEFAULT_COMPARISON_DAYS, type ReportCell, type ReportColumnType, type ReportFilters, type ReportKind, type ReportSource, type ReportStatus, type ScheduledReportSort } from '../../domain/reports.ts';
import { formatDuration } from '../../domain/time.ts';

export const KIND_TEXT: Record<ReportKind, () => string> = {
  'consumption-summary-report': () => m.reports_kind_consumption(),
  'content-report': () => m.reports_kind_content(),
  'shared-listeners-report': () => m.reports_kind_shared(),
  'clip-download-comparison-report': () => m.reports_kind_comparison(),
  'apple-premium-linking-report': () => m.directories_linking_report(),
};

export const KIND_HINT: Record<ReportKind, () => string> = {
  'consumption-summary-report': () => m.reports_kind_hint_consumption(),
  'content-report': () => m.reports_kind_hint_content(),
  'shared-listeners-report': () => m.reports_kind_hint_shared(),
  'clip-download-comparison-report': () => m.reports_kind_hint_comparison(),
  'apple-premium-linking-report': () => m.directories_linking_report_hint(),
};

export const STATUS_TEXT: Record<ReportStatus, () => string> = {
  Busy: () => m.reports_status_busy(),
  Success: () => m.reports_status_success(),
  Failed: () => m.reports_status_failed(),
};

export const SOURCE_TEXT: Record<ReportSource, () => string> = {
  feed: () => m.reports_source_feed(),
  embed: () => m.reports_source_embed(),
  page: () => m.reports_source_page(),
  api: () => m.reports_source_api(),
  web: () => m.reports_source_web(),
  unknown: () => m.reports_source_unknown(),
};

export const SORT_TEXT: Record<ScheduledReportSort, () => string> = {
  visibleAt: () => m.reports_sort_time(),
  '-visibleAt': () => m.reports_sort_time_desc(),
  title: () => m.reports_sort_title(),
  '-title': () => m.reports_sort_title_desc(),
  program: () => m.reports_sort_program(),
  '-program': () => m.reports_sort_program_desc(),
};

/** Headings of the columns of src/domain/reports.ts REPORT_COLUMNS, by Key. */
const COLUMN_TEXT: Record<string, () => string> = {
  ProgramId: () => m.reports_col_program_id(),
  Program: () => m.reports_col_program(),
  Network: () => m.reports_col_network(),
  Clips: () => m.reports_col_clips(),
  AudioDownloads: () => m.reports_col_audio_downloads(),
  VideoDownloads: () => m.reports_col_video_downloads(),
  Downloads: () => m.reports_col_downloads(),
  ClipId: () => m.reports_col_clip_id(),
  Clip: () => m.reports_col_clip(),
  Visibility: () => m.reports_col_visibility(),
  PublishedUtc: () => m.reports_col_published_utc(),
  DurationSeconds: () => m.reports_col_duration_seconds(),
  TargetId: () => m.reports_col_target_id(),
  Target: () => m.reports_col_target(),
  Listeners: () => m.reports_col_listeners(),
  TargetListeners: () => m.reports_col_target_listeners(),
  SharedListeners: () => m.reports_col_shared_listeners(),
  SharedPercent: () => m.reports_col_shared_percent(),
  Day: () => m.reports_col_day(),
};

export function columnHeading(column: { Key: string; Label: string }): string {
  return Object.prototype.hasOwnProperty.call(COLUMN_TEXT, column.Key) ? COLUMN_TEXT[column.Key]!() : column.Label;
}

/** Columns that hold ids: kept in the CSV, left off the screen's table (they mean nothing to a reader). */
export const isIdColumn = (column: { Key: string; Type: ReportColumnType }) => column.Type === 'text' && /Id$/.test(column.Key);

/**
 * A cell as the table shows it, in `locale`: numbers grouped, a percentage (0–100) with at most one
 * decimal, a date-time in local words, a duration column as h:mm:ss; empty for no value.
 */
export function formatCell(cell: ReportCell, column: { Key: string; Type: ReportColumnType }, locale: string): string {
  if (cell === null || cell === '') return '';
  if (column.Type === 'number' && typeof cell === 'number') {
    if (column.Key === 'DurationSeconds') return formatDuration(cell);
    return new Intl.NumberFormat(locale).format(cell);
  }
  if (column.Type === 'percent' && typeof cell === 'number') return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(cell / 100);
  if (column.Type === 'datetime' && typeof cell === 'string') {
    const at = Date.parse(cell);
    return Number.isNaN(at) ? cell : new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  }
  return String(cell);
}

/** What a report covered, in a line: its dates and time zone, or a comparison's days and clips. */
export function filtersSummary(op: { Kind: ReportKind; Filters: ReportFilters }): string {
  const f = op.Filters;
  if (op.Kind === 'clip-download-comparison-report') {
    const parts = [m.reports_comparison_days({ days: f.days ?? DEFAULT_COMPARISON_DAYS })];
    if (f.clipIds) parts.push(m.reports_clips_count({ count: f.clipIds.length }));
    return parts.join(' · ');
  }
  const range = m.reports_range({ start: f.startDate ?? '', end: f.endDate ?? '' });
  return f.timeZoneIanaId ? `${range} (${f.timeZoneIanaId})` : range;
}

/** The pill class of each status (styles.css). */
export const STATUS_PILL: Record<ReportStatus, string> = { Busy: 'pill pill-pending', Success: 'pill pill-ready', Failed: 'pill pill-error' };
