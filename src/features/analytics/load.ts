// One analytics view: the answers a screen shows for one query (the downloads series, the same
// series for the previous period, the media types and the groupings of its level), fetched
// together, kept on the device (src/db/analytics-cache.ts) and shown from there at once and
// offline. A view is whole or not at all: a kept view never mixes answers of two fetches.
//
//   query ──> key ──> kept view? ── yes ──> shown with "As of {fetchedAt}"
//                 │                              ▲
//                 └── online ──> fetch all ── ok ┴─> kept (the oldest beyond 50 forgotten)
//                                          └─ 400 ──> field errors at the form; offline / failed ──> said
import type { AnalyticsGrouping } from '../../domain/analytics.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import type { FieldError } from '../../protocol/errors.ts';
import * as routes from '../../protocol/api/analytics-api.ts';
import { analyticsProgress, clipConsumption, type AnalyticsProgress, type Consumption } from '../../protocol/api/analytics-insights.ts';
import { readPlanRefusal } from '../../protocol/api/plans.ts';
import { previousPeriod, type AnalyticsQuery } from './range.ts';

export type AnalyticsLevel = { kind: 'organization' } | { kind: 'program'; programId: string } | { kind: 'clip'; clipId: string };

/** What each level shows grouped, in the order of the screen. */
export const LEVEL_GROUPINGS: Readonly<Record<AnalyticsLevel['kind'], readonly AnalyticsGrouping[]>> = {
  organization: ['programs', 'clips', 'apps', 'devices', 'os', 'countries', 'sources'],
  program: ['clips', 'apps', 'devices', 'os', 'countries', 'sources'],
  clip: ['apps', 'devices', 'os', 'countries', 'sources'],
};

export type AnalyticsViewData = {
  series: routes.DownloadsSeries;
  /** The previous period of the same length; null when it could not be read. */
  previous: routes.DownloadsSeries | null;
  mediaTypes: routes.MediaTypesSeries | null;
  groupings: Partial<Record<AnalyticsGrouping, routes.Grouping>>;
  /** How far the counting has got (the "counted up to" line); null when it could not be read. */
  progress: AnalyticsProgress | null;
  /** A clip's consumption curve (clip level only). */
  consumption: Consumption | null;
};

export type ViewLoad =
  | { kind: 'ok'; data: AnalyticsViewData }
  | { kind: 'badRequest'; errors: FieldError[] }
  | { kind: 'offline' }
  | { kind: 'forbidden' }
  | { kind: 'notInPlan' }
  | { kind: 'notFound' }
  | { kind: 'failed' };

type Range = { startDate: string; endDate: string; timeZoneIanaId: string };
type SeriesInput = Range & { interval: string };

/** The three calls of a level, its path parameter filled in. */
function levelCalls(level: AnalyticsLevel) {
  switch (level.kind) {
    case 'organization':
      return {
        downloads: (query: SeriesInput) => call(routes.organizationAnalytics.downloads, { params: {}, query }),
        mediaTypes: (query: SeriesInput) => call(routes.organizationAnalytics.mediaTypes, { params: {}, query }),
        grouping: (grouping: AnalyticsGrouping, query: Range) => call(routes.organizationAnalytics.grouping, { params: { grouping }, query }),
      };
    case 'program': {
      const programId = level.programId;
      return {
        downloads: (query: SeriesInput) => call(routes.programAnalytics.downloads, { params: { programId }, query }),
        mediaTypes: (query: SeriesInput) => call(routes.programAnalytics.mediaTypes, { params: { programId }, query }),
        grouping: (grouping: AnalyticsGrouping, query: Range) => call(routes.programAnalytics.grouping, { params: { programId, grouping }, query }),
      };
    }
    case 'clip': {
      const clipId = level.clipId;
      return {
        downloads: (query: SeriesInput) => call(routes.clipAnalytics.downloads, { params: { clipId }, query }),
        mediaTypes: (query: SeriesInput) => call(routes.clipAnalytics.mediaTypes, { params: { clipId }, query }),
        grouping: (grouping: AnalyticsGrouping, query: Range) => call(routes.clipAnalytics.grouping, { params: { clipId, grouping }, query }),
      };
    }
  }
}

/** A failed answer as the screen says it. */
function failure(res: Exclude<ApiResult<unknown>, { kind: 'ok' }>): ViewLoad {
  if (res.kind === 'badRequest') return { kind: 'badRequest', errors: res.body.Errors };
  if (res.kind === 'notFound') return { kind: 'notFound' };
  if (res.kind === 'error') return { kind: 'offline' };
  // The plan's 403 names its feature (src/protocol/api/plans.ts); the flags' has no body.
  if (res.kind === 'status' && res.status === 403) return readPlanRefusal(res.body)?.kind === 'feature' ? { kind: 'notInPlan' } : { kind: 'forbidden' };
  return { kind: 'failed' };
}

/** Fetches a view's answers at once; the first that fails says what the whole view is. */
export async function loadView(level: AnalyticsLevel, query: AnalyticsQuery): Promise<ViewLoad> {
  const calls = levelCalls(level);
  const range: Range = { startDate: query.startDate, endDate: query.endDate, timeZoneIanaId: query.timeZone };
  const before = previousPeriod(query.startDate, query.endDate);
  const groupings = LEVEL_GROUPINGS[level.kind];
  const [series, previous, mediaTypes, progress, consumption, ...grouped] = await Promise.all([
    calls.downloads({ ...range, interval: query.interval }),
    calls.downloads({ ...range, ...before, interval: query.interval }),
    calls.mediaTypes({ ...range, interval: query.interval }),
    call(analyticsProgress),
    level.kind === 'clip' ? call(clipConsumption, { params: { clipId: level.clipId } }) : null,
    ...groupings.map((g) => calls.grouping(g, range)),
  ]);
  if (series.kind !== 'ok') return failure(series);
  const data: AnalyticsViewData = {
    series: series.data,
    previous: previous.kind === 'ok' ? previous.data : null,
    mediaTypes: mediaTypes.kind === 'ok' ? mediaTypes.data : null,
    groupings: {},
    progress: progress.kind === 'ok' ? progress.data : null,
    consumption: consumption?.kind === 'ok' ? consumption.data : null,
  };
  for (const [i, g] of groupings.entries()) {
    const res = grouped[i] as ApiResult<routes.Grouping> | undefined;
    if (res?.kind === 'ok') data.groupings[g] = res.data;
    else if (res) return failure(res);
  }
  return { kind: 'ok', data };
}

/** The view's fields for its cache key (src/db/analytics-cache.ts analyticsViewKey). */
export function viewKeyFields(level: AnalyticsLevel, query: AnalyticsQuery): Record<string, string> {
  const id = level.kind === 'program' ? level.programId : level.kind === 'clip' ? level.clipId : '';
  // v: the shape of AnalyticsViewData; a new shape is a new key, never an old answer misread.
  return { v: '1', level: level.kind, id: id.toLowerCase(), startDate: query.startDate, endDate: query.endDate, interval: query.interval, timeZone: query.timeZone };
}
