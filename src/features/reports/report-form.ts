// What the reports screen asks before it starts a report: the kind, where (the organization, a
// network or a program), and the kind's filters (section 3 "Report filters", section 7). The
// draft holds what the user typed, as text; validateDraft checks it by the rules of
// src/domain/reports.ts (section 5: startDate and endDate required, the range, the duration
// bounds) before anything is sent, and reportQuery turns it into the query the route declares.
// The server checks again and its 400 names a field; serverField puts it back on the form.
import { validateAnalyticsRange } from '../../domain/analytics.ts';
import { formError, type FormError } from '../../domain/form-errors.ts';
import { listParameter } from '../../domain/call-params.ts';
import { validateInteger } from '../../domain/validators.ts';
import {
  DEFAULT_COMPARISON_DAYS,
  MAX_COMPARISON_CLIPS,
  MAX_COMPARISON_DAYS,
  MAX_SHARED_TARGETS,
  validateReportFilters,
  type ReportKind,
  type ReportLevel,
  type ReportVisibility,
} from '../../domain/reports.ts';

/** Where each kind can be started (section 7's paths). */
export const KIND_LEVELS: Readonly<Record<ReportKind, readonly ReportLevel[]>> = {
  'consumption-summary-report': ['organization', 'network', 'program'],
  'content-report': ['organization', 'network'],
  'shared-listeners-report': ['network', 'program'],
  'clip-download-comparison-report': ['program'],
  // Started from a playlist's Premium feeds, not from the reports screen.
  'apple-premium-linking-report': [],
};

export type ReportDraft = {
  kind: ReportKind;
  level: ReportLevel;
  /** The network or program id ('' for none chosen; ignored for the organization). */
  levelId: string;
  startDate: string;
  endDate: string;
  timeZoneIanaId: string;
  durationSecondsFrom: string;
  durationSecondsTo: string;
  /** '' for every source. */
  source: string;
  clipVisibilityFilter: ReportVisibility[];
  /** Target networks (at a network) or programs (at a program) of a shared-listeners report. */
  targetIds: string[];
  clipIds: string[];
  days: string;
};

export type DraftField = Exclude<keyof ReportDraft, 'kind'>;
export type DraftErrors = Partial<Record<DraftField, FormError>>;

/** The filters each kind asks for (beyond where it runs). */
export function kindFields(kind: ReportKind): ReadonlySet<DraftField> {
  switch (kind) {
    case 'consumption-summary-report':
      return new Set(['startDate', 'endDate', 'timeZoneIanaId', 'durationSecondsFrom', 'durationSecondsTo', 'source']);
    case 'content-report':
      return new Set(['startDate', 'endDate', 'timeZoneIanaId', 'durationSecondsFrom', 'durationSecondsTo', 'source', 'clipVisibilityFilter']);
    case 'shared-listeners-report':
      return new Set(['startDate', 'endDate', 'timeZoneIanaId', 'targetIds']);
    case 'clip-download-comparison-report':
      return new Set(['clipIds', 'days']);
    case 'apple-premium-linking-report':
      // Started from a playlist: no filters of its own here (KIND_LEVELS has no level for it).
      return new Set();
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A date as YYYY-MM-DD on the device's calendar. */
export const localDate = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** A first draft: the last 30 days up to today (the device's calendar), in `timeZoneIanaId`. */
export function initialDraft(now: Date, timeZoneIanaId: string, level: ReportLevel = 'organization', levelId = ''): ReportDraft {
  const start = new Date(now.getFullYear(), now.getMonth(), now.getDate() - 29);
  return {
    kind: 'consumption-summary-report',
    level,
    levelId,
    startDate: localDate(start),
    endDate: localDate(now),
    timeZoneIanaId,
    durationSecondsFrom: '',
    durationSecondsTo: '',
    source: '',
    clipVisibilityFilter: [],
    targetIds: [],
    clipIds: [],
    days: String(DEFAULT_COMPARISON_DAYS),
  };
}

/** The draft with another kind: where it runs moves to the first level the kind allows, if needed. */
export function withKind(draft: ReportDraft, kind: ReportKind, allowed: readonly ReportLevel[]): ReportDraft {
  const levels = KIND_LEVELS[kind].filter((l) => allowed.includes(l));
  const level = levels.includes(draft.level) ? draft.level : (levels[0] ?? draft.level);
  const moved = level !== draft.level;
  return { ...draft, kind, level, levelId: moved ? '' : draft.levelId, targetIds: moved ? [] : draft.targetIds, clipIds: moved ? [] : draft.clipIds };
}

/** Every error of the draft, by field, before it is sent (the first of each field). */
export function validateDraft(draft: ReportDraft): DraftErrors {
  const errors: DraftErrors = {};
  const add = (field: DraftField, error: FormError) => {
    errors[field] ??= error;
  };
  if (draft.level !== 'organization' && draft.levelId === '') add('levelId', formError('required', 'domain_required'));
  const fields = kindFields(draft.kind);
  if (fields.has('durationSecondsFrom')) {
    const found = validateReportFilters({
      startDate: draft.startDate,
      endDate: draft.endDate,
      durationSecondsFrom: draft.durationSecondsFrom,
      durationSecondsTo: draft.durationSecondsTo,
      source: draft.source,
      ...(fields.has('clipVisibilityFilter') ? { clipVisibilityFilter: draft.clipVisibilityFilter.join(',') } : {}),
    });
    for (const { field, error } of found) add(field === 'clipVisibilityFilter' ? 'clipVisibilityFilter' : field, error);
  } else if (fields.has('startDate')) {
    for (const { field, error } of validateAnalyticsRange(draft.startDate, draft.endDate, 'day')) add(field, error);
  }
  if (fields.has('targetIds')) {
    if (draft.targetIds.length === 0) add('targetIds', formError('required', 'domain_required'));
    else if (draft.targetIds.length > MAX_SHARED_TARGETS) add('targetIds', formError('outOfRange', undefined, { max: MAX_SHARED_TARGETS }, 'overflow'));
  }
  if (fields.has('clipIds')) {
    if (draft.clipIds.length === 0) add('clipIds', formError('required', 'domain_required'));
    else if (draft.clipIds.length > MAX_COMPARISON_CLIPS) add('clipIds', formError('outOfRange', undefined, { max: MAX_COMPARISON_CLIPS }, 'overflow'));
    const days = validateInteger(draft.days, { required: true, min: 1, max: MAX_COMPARISON_DAYS });
    if (days) add('days', days);
  }
  return errors;
}

/** The query of the report's start call (strings as sent; empty filters left out, lists comma-joined). */
export function reportQuery(draft: ReportDraft): Record<string, string> {
  const fields = kindFields(draft.kind);
  const query: Record<string, string> = {};
  const put = (name: string, value: string | undefined) => {
    if (value !== undefined && value.trim() !== '') query[name] = value.trim();
  };
  if (fields.has('startDate')) {
    put('startDate', draft.startDate);
    put('endDate', draft.endDate);
    put('timeZoneIanaId', draft.timeZoneIanaId);
  }
  if (fields.has('durationSecondsFrom')) {
    put('durationSecondsFrom', draft.durationSecondsFrom);
    put('durationSecondsTo', draft.durationSecondsTo);
    put('source', draft.source);
  }
  if (fields.has('clipVisibilityFilter')) put('clipVisibilityFilter', listParameter(draft.clipVisibilityFilter));
  if (fields.has('targetIds')) put(draft.level === 'network' ? 'targetNetworkIds' : 'targetProgramIds', listParameter(draft.targetIds));
  return query;
}

/** The JSON body of a clip download comparison. */
export function comparisonBody(draft: ReportDraft): { clipIds: string[]; days: number } {
  return { clipIds: [...draft.clipIds], days: Number(draft.days.trim()) };
}

/** The form field a server's 400 names (its query or body field, any letter case); null: none of the form's. */
export function serverField(field: string): DraftField | null {
  const name = field.replace(/^(query|body)\./i, '').split(/[.[]/)[0] ?? '';
  const byLower: Record<string, DraftField> = {
    startdate: 'startDate',
    enddate: 'endDate',
    timezoneianaid: 'timeZoneIanaId',
    durationsecondsfrom: 'durationSecondsFrom',
    durationsecondsto: 'durationSecondsTo',
    source: 'source',
    clipvisibilityfilter: 'clipVisibilityFilter',
    targetnetworkids: 'targetIds',
    targetprogramids: 'targetIds',
    clipids: 'clipIds',
    days: 'days',
    networkid: 'levelId',
    programid: 'levelId',
  };
  return byLower[name.toLowerCase()] ?? null;
}
