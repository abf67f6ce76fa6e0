// Reports, specification section 7 "Reports and analytics" and section 4 "Report generation":
//
//   POST …/reports/{kind}                          start a report          202 ReportOperation (Busy)
//   GET  /v1/reports/{kind}/{operationId}          its progress or result  200 ReportOperation
//   GET  /v1/reports/{kind}/{operationId}/csv      the finished report     200 text/csv (409 unfinished)
//   GET  /internal/reports                         the caller's reports    200 paged, newest first
//   GET  …/reports/clip-scheduled-publish-report   clips scheduled to become visible in a range (paged)
//
// The kinds, their filters, columns, the CSV and what "listener" and "day since publish" mean are
// src/domain/reports.ts. Served by sync-server/api/reports.ts; made by the report job
// (sync-server/reports).
import type { RouteConfig } from '@hono/zod-openapi';
import * as z from 'zod';
import {
  DEFAULT_COMPARISON_DAYS,
  MAX_COMPARISON_CLIPS,
  MAX_COMPARISON_DAYS,
  MAX_SHARED_TARGETS,
  REPORT_KINDS,
  REPORT_LEVELS,
  REPORT_SOURCES,
  REPORT_STATUSES,
  REPORT_VISIBILITIES,
  SCHEDULED_REPORT_SORTS,
  parseVisibilityList,
  validateReportFilters,
  type ReportColumnType,
  type ReportFilters,
  type ReportKind,
  type ReportResult,
} from '../../domain/reports.ts';
import { formError } from '../../domain/form-errors.ts';
import { IdListQuery, IdParam, PagedOf, PagingQuery, checkDates, errors, idParams, jsonBody, jsonContent, type DomainIssueParams } from './common.ts';

const tags = ['Reports'];

export type { ReportKind, ReportResult, ReportFilters };

// ── Queries ──────────────────────────────────────────────────────────────────────────────────

const DateFields = {
  // Required (section 5 "Call parameters": reports take startDate and endDate); checked by the refinement.
  startDate: z.string().max(40).meta({ description: 'First local date of the range, YYYY-MM-DD (required)', example: '2025-05-01' }),
  endDate: z.string().max(40).meta({ description: 'Last local date of the range, YYYY-MM-DD, included (required)', example: '2025-05-31' }),
  timeZoneIanaId: z
    .string()
    .max(100)
    .optional()
    .meta({ description: 'The IANA time zone the dates are local to, one of GET /v1/reference-data/time-zones (default UTC)', example: 'America/Los_Angeles' }),
};

const FilterFields = {
  ...DateFields,
  durationSecondsFrom: z.string().max(20).optional().meta({ description: 'Only clips at least this long, in whole seconds', example: '60' }),
  durationSecondsTo: z.string().max(20).optional().meta({ description: 'Only clips at most this long, in whole seconds (not below durationSecondsFrom)', example: '3600' }),
  source: z
    .string()
    .max(20)
    .optional()
    .meta({ description: `Only downloads from this source: ${REPORT_SOURCES.join(', ')} (default all)`, example: 'feed' }),
};

type RawFilters = { startDate?: string | undefined; endDate?: string | undefined } & Partial<Record<string, unknown>>;

/** The filters by src/domain/reports.ts, each error on its own field. */
function checkFilters(value: RawFilters, ctx: z.RefinementCtx) {
  const text = (k: string) => (typeof value[k] === 'string' ? (value[k] as string) : undefined);
  const found = validateReportFilters({
    startDate: value.startDate,
    endDate: value.endDate,
    durationSecondsFrom: text('durationSecondsFrom'),
    durationSecondsTo: text('durationSecondsTo'),
    source: text('source'),
    clipVisibilityFilter: text('clipVisibilityFilter'),
  });
  for (const { field, error } of found) ctx.addIssue({ code: 'custom', path: [field], message: error.type, params: { formError: error } satisfies DomainIssueParams });
}

/** A list of targets that must not be empty. */
function requireTargets(field: 'targetNetworkIds' | 'targetProgramIds') {
  return (value: Record<string, unknown>, ctx: z.RefinementCtx) => {
    const ids = value[field];
    if (!Array.isArray(ids) || ids.length === 0) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'required', params: { formError: formError('required') } satisfies DomainIssueParams });
    } else if (ids.length > MAX_SHARED_TARGETS) {
      ctx.addIssue({ code: 'custom', path: [field], message: 'outOfRange', params: { formError: formError('outOfRange', undefined, { max: MAX_SHARED_TARGETS }, 'overflow') } satisfies DomainIssueParams });
    }
  };
}


/** consumption-summary-report: section 3's report filters. */
export const ConsumptionSummaryQuery = z.object(FilterFields).superRefine(checkFilters);

/** content-report: the same plus clipVisibilityFilter. */
export const ContentReportQuery = z
  .object({
    ...FilterFields,
    clipVisibilityFilter: z
      .string()
      .max(200)
      .optional()
      .meta({ description: `Only clips of these visibilities, comma-joined: ${REPORT_VISIBILITIES.join(', ')} (empty or absent: all)`, example: 'Public,Unlisted' }),
  })
  .superRefine(checkFilters);

/** shared-listeners-report: the range and the targets (networks, or programs). */
function sharedListenersQuery<F extends 'targetNetworkIds' | 'targetProgramIds'>(field: F, what: string) {
  const targets = IdListQuery.meta({ description: `The ${what} to compare with, comma-joined ids (1 to ${MAX_SHARED_TARGETS}; each one the caller has analytics access to)` });
  return z
    .object({ ...DateFields, ...({ [field]: targets } as Record<F, typeof targets>) })
    .superRefine((v: Record<string, unknown>, ctx) => {
      checkDates(v as RawFilters, ctx);
      requireTargets(field)(v, ctx);
    });
}

export const SharedListenersNetworkQuery = sharedListenersQuery('targetNetworkIds', 'networks');
export const SharedListenersProgramQuery = sharedListenersQuery('targetProgramIds', 'programs');

export const ClipComparisonBody = z
  .object({
    clipIds: z
      .array(IdParam)
      .min(1)
      .max(MAX_COMPARISON_CLIPS)
      .meta({ description: `The clips to compare, 1 to ${MAX_COMPARISON_CLIPS}, each a clip of the program` }),
    days: z
      .number()
      .int()
      .min(1)
      .max(MAX_COMPARISON_DAYS)
      .optional()
      .meta({ description: `Days since publish to compare, 1 to ${MAX_COMPARISON_DAYS} (default ${DEFAULT_COMPARISON_DAYS}): day n of a clip is the 24 hours from PublishedUtc + (n − 1) × 24 h` }),
  })
  .meta({ id: 'ClipDownloadComparisonRequest' });
export type ClipComparisonRequest = z.infer<typeof ClipComparisonBody>;

// ── The operation ────────────────────────────────────────────────────────────────────────────

const ColumnTypes = ['text', 'number', 'percent', 'datetime'] as const satisfies readonly ReportColumnType[];
const Cell = z.union([z.string(), z.number(), z.null()]);

export const ReportResultSchema = z
  .object({
    Columns: z
      .array(z.object({ Key: z.string(), Label: z.string(), Type: z.enum(ColumnTypes) }))
      .meta({ description: 'The columns in order: Key names it (a clip id for a comparison’s clip columns), Label is its heading, Type how its cells read' }),
    Rows: z.array(z.array(Cell)).meta({ description: 'The rows, each its cells in column order (null: no value)' }),
    Totals: z.array(Cell).nullable().meta({ description: 'The totals row (number columns summed; the first text cell reads Total), null when the kind has none' }),
  })
  .meta({ id: 'ReportResult' }) satisfies z.ZodType<ReportResult>;

export const ReportFiltersSchema = z
  .object({
    startDate: z.string().optional(),
    endDate: z.string().optional(),
    timeZoneIanaId: z.string().optional(),
    durationSecondsFrom: z.number().int().optional(),
    durationSecondsTo: z.number().int().optional(),
    source: z.enum(REPORT_SOURCES).optional(),
    clipVisibilityFilter: z.array(z.enum(REPORT_VISIBILITIES)).optional(),
    targetNetworkIds: z.array(z.string()).optional(),
    targetProgramIds: z.array(z.string()).optional(),
    clipIds: z.array(z.string()).optional(),
    days: z.number().int().optional(),
  })
  .meta({ id: 'ReportFilters', description: 'The filters the report was started with, parsed (the time zone filled in)' }) satisfies z.ZodType<ReportFilters>;

const OperationFields = {
  Id: z.uuid().meta({ description: 'The operationId to poll' }),
  Kind: z.enum(REPORT_KINDS),
  Status: z.enum(REPORT_STATUSES).meta({ description: 'Busy while the report is made; then Success (Result) or Failed (FailureReason)' }),
  Progress: z.number().int().min(0).max(100).meta({ description: 'How far the report is, 0 to 100 (100 once Success)' }),
  Level: z.enum(REPORT_LEVELS).meta({ description: 'Where it was started' }),
  LevelId: z.uuid().nullable().meta({ description: 'The network or program id (null for the organization)' }),
  LevelName: z.string().nullable().meta({ description: 'The network or program name when started (null for the organization)' }),
  Filters: ReportFiltersSchema,
  CreatedAtUtc: z.iso.datetime({ offset: true }),
  FinishedAtUtc: z.iso.datetime({ offset: true }).nullable(),
  FailureReason: z.string().nullable().meta({ description: 'Why the report failed (Failed only), in words' }),
};

export const ReportOperationSummarySchema = z.object(OperationFields).meta({ id: 'ReportOperationSummary' });
export type ReportOperationSummary = z.infer<typeof ReportOperationSummarySchema>;

export const ReportOperationSchema = z
  .object({ ...OperationFields, Result: ReportResultSchema.nullable().meta({ description: 'The report (Success only)' }) })
  .meta({ id: 'ReportOperation' });
export type ReportOperation = z.infer<typeof ReportOperationSchema>;

// ── Routes: start ────────────────────────────────────────────────────────────────────────────

const Started = jsonContent(ReportOperationSchema, 'Started: the operation, Busy; poll GET /v1/reports/{kind}/{operationId}');

const KIND_DESCRIPTIONS: Record<ReportKind, string> = {
  'consumption-summary-report':
    'One row per program with downloads in the range (IAB v2.2 counted downloads; a download belongs to the local date of the hour it was counted in, as the analytics API buckets them, so the totals equal the analytics totals of the range). Columns: program, network, clips downloaded, audio, video and all downloads; a totals row.',
  'content-report':
    'One row per clip of the scope that passes the filters, clips without downloads included (deleted clips left out). Clips are listed only of programs whose clips the caller may read; of any other program (analytics access without content access) one row with its total and no clip.',
  'shared-listeners-report':
    'One row per target: the listeners of this network or program in the range, of the target, and of both (with the share in percent). A listener is one listener hash on one UTC day: the hash of address and user agent is salted with a salt that rotates every UTC midnight and no address is kept, so the same person on two days counts as two listeners and listeners cannot be followed across days. No totals row (targets overlap).',
  'clip-download-comparison-report':
    'One row per day since publish (1…days), one column per clip. Day n of a clip is the 24 hours from PublishedUtc + (n − 1) × 24 h, so clips published at different times are compared from their own start; a day that has not begun when the report is made, or a clip never published, has no number (null). A totals row per clip.',
  'apple-premium-linking-report':
    'Started from a playlist (POST /internal/playlists/{playlistId}/directories/apple-premium/linking-report): one row per premium clip of the playlist (Restricted, or scheduled to be) with its linking state: Delivered (the playlist is linked, the Apple Podcasts Subscriptions settings in effect allow delivery and subscribers’ feeds list it now), NotPublished, PlaylistNotLinked or SettingsIncomplete (src/domain/directories.ts premiumClipLinking). No totals row.',
};

function start<Q extends z.ZodObject, P extends z.ZodObject>(kind: ReportKind, prefix: string, params: P, query: Q, summary: string) {
  return {
    method: 'post',
    path: `${prefix}/reports/${kind}`,
    tags,
    summary,
    description: KIND_DESCRIPTIONS[kind],
    request: { params, query },
    responses: { 202: Started, ...errors },
  } as const satisfies RouteConfig;
}

const networkParams = idParams('networkId');
const programParams = idParams('programId');

export const startConsumptionSummary = {
  organization: start('consumption-summary-report', '/v1', z.object({}), ConsumptionSummaryQuery, 'Starts a consumption summary of the organization: downloads per program in the range'),
  network: start('consumption-summary-report', '/v1/networks/{networkId}', networkParams, ConsumptionSummaryQuery, 'Starts a consumption summary of the network’s programs'),
  program: start('consumption-summary-report', '/v1/programs/{programId}', programParams, ConsumptionSummaryQuery, 'Starts a consumption summary of the program'),
};

export const startContentReport = {
  organization: start('content-report', '/v1', z.object({}), ContentReportQuery, 'Starts a content report of the organization: downloads per clip in the range'),
  network: start('content-report', '/v1/networks/{networkId}', networkParams, ContentReportQuery, 'Starts a content report of the network’s clips'),
};

export const startSharedListeners = {
  network: start('shared-listeners-report', '/v1/networks/{networkId}', networkParams, SharedListenersNetworkQuery, 'Starts a shared-listeners report: listeners of the network who also listened to each target network'),
  program: start('shared-listeners-report', '/v1/programs/{programId}', programParams, SharedListenersProgramQuery, 'Starts a shared-listeners report: listeners of the program who also listened to each target program'),
};

export const startClipComparison = {
  method: 'post',
  path: '/v1/programs/{programId}/reports/clip-download-comparison-report',
  tags,
  summary: 'Starts a clip download comparison: each clip’s downloads on day 1…N since its publish',
  description: KIND_DESCRIPTIONS['clip-download-comparison-report'],
  request: { params: programParams, body: jsonBody(ClipComparisonBody) },
  responses: { 202: Started, ...errors },
} as const satisfies RouteConfig;

// ── Routes: read ─────────────────────────────────────────────────────────────────────────────

const KindParam = z.enum(REPORT_KINDS).meta({ param: { name: 'kind', in: 'path' }, description: `The report kind: ${REPORT_KINDS.join(', ')}` });
const operationParams = z.object({ kind: KindParam, operationId: IdParam.meta({ param: { name: 'operationId', in: 'path' } }) });

const NotYours = { description: 'No report of this kind and id that the caller started in this organization (no body)' };

export const getReport = {
  method: 'get',
  path: '/v1/reports/{kind}/{operationId}',
  tags,
  summary: 'A report’s progress (Busy, with Progress), its result (Success) or why it failed (Failed)',
  request: { params: operationParams },
  responses: { 200: jsonContent(ReportOperationSchema, 'The operation'), 401: errors[401], 404: NotYours },
} as const satisfies RouteConfig;

export const getReportCsv = {
  method: 'get',
  path: '/v1/reports/{kind}/{operationId}/csv',
  tags,
  summary: 'A finished report as CSV (RFC 4180, UTF-8, header line; the totals line last), with its file name',
  request: { params: operationParams },
  responses: {
    200: { description: 'The CSV (Content-Disposition: attachment; filename=…)', content: { 'text/csv': { schema: z.string() } } },
    401: errors[401],
    404: NotYours,
    409: { description: 'The report is not finished, or failed: no CSV (no body)' },
  },
} as const satisfies RouteConfig;

export const ReportListQuery = z.object({
  ...PagingQuery,
  kind: z.enum(REPORT_KINDS).optional().meta({ description: 'Only reports of this kind' }),
});

export const listReports = {
  method: 'get',
  path: '/internal/reports',
  tags,
  summary: 'The reports the caller started in the organization, newest first (without their results)',
  request: { query: ReportListQuery },
  responses: { 200: jsonContent(PagedOf(ReportOperationSummarySchema).meta({ id: 'ReportOperationPage' }), 'A page of reports'), 401: errors[401], 400: errors[400] },
} as const satisfies RouteConfig;

// ── The scheduled-publish report (a paged GET) ───────────────────────────────────────────────

function checkScheduled(value: RawFilters, ctx: z.RefinementCtx) {
  checkDates(value, ctx);
  const raw = value['scheduledVisibilityFilter'];
  if (typeof raw === 'string' && parseVisibilityList(raw) === null) {
    ctx.addIssue({ code: 'custom', path: ['scheduledVisibilityFilter'], message: 'invalid', params: { formError: formError('invalid') } satisfies DomainIssueParams });
  }
}

const ScheduledFields = {
  ...PagingQuery,
  ...DateFields,
  clipTitleFilter: z.string().max(200).optional().meta({ description: 'Only clips whose title contains this text (any letter case)' }),
  sortBy: z
    .enum(SCHEDULED_REPORT_SORTS)
    .optional()
    .meta({ description: `Order: ${SCHEDULED_REPORT_SORTS.join(', ')} ('-' first: descending; default visibleAt, then title)` }),
  scheduledVisibilityFilter: z
    .string()
    .max(200)
    .optional()
    .meta({ description: `Only clips scheduled to become one of these, comma-joined: ${REPORT_VISIBILITIES.join(', ')}` }),
};

export const ScheduledOrganizationQuery = z
  .object({
    ...ScheduledFields,
    programIds: IdListQuery.meta({ description: 'Only clips of these programs, comma-joined ids' }),
    networkIds: IdListQuery.meta({ description: 'Only clips of programs of these networks, comma-joined ids' }),
    networkFilter: z.string().max(200).optional().meta({ description: 'Only clips of programs whose network name contains this text (any letter case)' }),
  })
  .superRefine(checkScheduled);

export const ScheduledNetworkQuery = z
  .object({ ...ScheduledFields, programIds: IdListQuery.meta({ description: 'Only clips of these programs of the network, comma-joined ids' }) })
  .superRefine(checkScheduled);

export const ScheduledProgramQuery = z.object(ScheduledFields).superRefine(checkScheduled);

export const ScheduledPublishItemSchema = z
  .object({
    ClipId: z.uuid(),
    Title: z.string().nullable(),
    ProgramId: z.uuid(),
    Program: z.string(),
    NetworkId: z.uuid().nullable(),
    Network: z.string().nullable(),
    Visibility: z.string().meta({ description: 'Its visibility now' }),
    ScheduledVisibility: z.enum(REPORT_VISIBILITIES).meta({ description: 'What it becomes at VisibleAtUtc' }),
    VisibleAtUtc: z.iso.datetime({ offset: true }),
    VisibleAtLocal: z.string().meta({ description: 'VisibleAtUtc in the report’s time zone, with its offset, e.g. 2025-05-09T19:30:00-07:00' }),
  })
  .meta({ id: 'ScheduledPublishItem' });
export type ScheduledPublishItem = z.infer<typeof ScheduledPublishItemSchema>;

export const ScheduledPublishPageSchema = PagedOf(ScheduledPublishItemSchema)
  .extend({ TimeZoneIanaId: z.string().meta({ description: 'The time zone of the dates and of VisibleAtLocal' }) })
  .meta({ id: 'ScheduledPublishPage' });
export type ScheduledPublishPage = z.infer<typeof ScheduledPublishPageSchema>;

function scheduled<Q extends z.ZodObject, P extends z.ZodObject>(prefix: string, params: P, query: Q, level: string) {
  return {
    method: 'get',
    path: `${prefix}/reports/clip-scheduled-publish-report`,
    tags,
    summary: `Clips of the ${level} scheduled to become visible (VisibleAtUtc) on a local date of the range, of programs whose clips the caller may read`,
    request: { params, query },
    responses: { 200: jsonContent(ScheduledPublishPageSchema, 'A page of scheduled clips'), ...errors },
  } as const satisfies RouteConfig;
}

export const scheduledPublishReport = {
  organization: scheduled('/v1', z.object({}), ScheduledOrganizationQuery, 'organization'),
  network: scheduled('/v1/networks/{networkId}', networkParams, ScheduledNetworkQuery, 'network'),
  program: scheduled('/v1/programs/{programId}', programParams, ScheduledProgramQuery, 'program'),
};
