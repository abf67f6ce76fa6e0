// Download analytics (GET /api/v1/…/analytics/downloads, /media-types, /downloads/{grouping}):
// the declarations of src/protocol/api/analytics-api.ts at organization, network, program,
// playlist and clip level, read from the hourly rollups (sync-server/analytics).
//
// Access (section 6): HasAnalyticsAccess at the level asked: the organization scope for the
// organization's numbers, the network (or the organization) for a network's, the program (or its
// network, or the organization) for a program's. A playlist or clip is a content row: the caller
// must be able to read it (content access on its program, as every route naming one) and hold
// HasAnalyticsAccess there. A clips grouping lists only clips of programs the caller has content
// access to (an analytics-only user sees programs, not their clips).
//
// The apps grouping names the organization's own players by its custom player names
// (analytics-insights.ts), applied here at read time (applyCustomPlayerNames).
//
// Freshness: before answering, the route rolls up one small batch of newly counted downloads
// itself (catchUpForQuery), so an answer includes every download counted so far; a larger backlog
// is left to the rollup job and said in PendingDownloads.
import type { Context } from 'hono';
import { ANALYTICS_GROUPINGS, DEFAULT_ANALYTICS_INTERVAL, DEFAULT_ANALYTICS_TIME_ZONE, DEFAULT_GROUPING_ITEMS, type AnalyticsGrouping, type AnalyticsInterval, type DownloadMediaType } from '../../src/domain/analytics.ts';
import { formError } from '../../src/domain/form-errors.ts';
import * as routes from '../../src/protocol/api/analytics-api.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { catchUpForQuery } from '../analytics/analytics-rollup.ts';
import { applyCustomPlayerNames } from '../analytics/analytics-insights-queries.ts';
import { downloadSeries, groups, totalDownloads, totalSeries, type AnalyticsScope, type LocalRange } from '../analytics/analytics-api-queries.ts';
import { getAuth } from '../auth.ts';
import { badRequest, fieldError, notFound } from '../errors.ts';
import { timeZoneIds } from '../reference/time-zones.ts';
import { readablePrograms, visiblePrograms } from './lists.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, type Access } from './guard.ts';
import { withFeature } from '../billing/entitlements.ts';

type RangeQuery = { startDate?: string | undefined; endDate?: string | undefined; timeZoneIanaId?: string | undefined };

let zones: Set<string> | undefined;

/** The time zone asked for (UTC when none), one of the reference list (GET /v1/reference-data/time-zones); else a 400 at `field`. */
export function timeZoneOf(raw: string | undefined, field = 'timeZoneIanaId'): string {
  const timeZone = raw?.trim() || DEFAULT_ANALYTICS_TIME_ZONE;
  zones ??= new Set(timeZoneIds());
  if (!zones.has(timeZone)) throw badRequest([fieldError(field, formError('invalid'))]);
  return timeZone;
}

/** The query's range in its time zone (timeZoneOf). */
export function localRange(query: RangeQuery, field = 'timeZoneIanaId'): LocalRange {
  const timeZone = timeZoneOf(query.timeZoneIanaId, field);
  // Required and checked by the query schema (validateAnalyticsRange).
  return { startDate: query.startDate!.trim(), endDate: query.endDate!.trim(), timeZone };
}

/** A zone ICU knows but this database's time zone data does not (an older tzdata): the caller's field. */
export async function inZone<T>(read: () => Promise<T>, field = 'timeZoneIanaId'): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof Error && /time zone .* not recognized/i.test(err.message)) throw badRequest([fieldError(field, formError('invalid'))]);
    throw err;
  }
}

export type ScopeOf = (c: Context) => Promise<AnalyticsScope>;

export const organizationScope: ScopeOf = async (c) => ({ organizationId: getAuth(c).organizationId, kind: 'organization' });

export const networkScope: ScopeOf = async (c) => {
  const organizationId = getAuth(c).organizationId;
  const rows = await c.get('deps').store.query<{ id: string }>(`SELECT id FROM programs WHERE organization_id = $1 AND network_id = $2 AND NOT deleted`, [
    organizationId,
    c.get('row').Id,
  ]);
  return { organizationId, kind: 'programs', programIds: rows.map((r) => r.id) };
};

export const programScope: ScopeOf = async (c) => ({ organizationId: getAuth(c).organizationId, kind: 'programs', programIds: [c.get('program').id] });

export const playlistScope: ScopeOf = async (c) => {
  const organizationId = getAuth(c).organizationId;
  // The clips in the playlist now (its clip_ids), whatever their downloads were counted through.
  const rows = await c.get('deps').store.query<{ id: string }>(`SELECT DISTINCT jsonb_array_elements_text(clip_ids) AS id FROM playlists WHERE id = $1 AND organization_id = $2`, [
    c.get('row').Id,
    organizationId,
  ]);
  return { organizationId, kind: 'clips', clipIds: rows.map((r) => r.id) };
};

export const clipScope: ScopeOf = async (c) => ({ organizationId: getAuth(c).organizationId, kind: 'clips', clipIds: [c.get('row').Id as string] });

async function seriesAnswer(c: Context, scope: AnalyticsScope, query: RangeQuery & { interval?: AnalyticsInterval | undefined }) {
  const store = c.get('deps').store;
  const range = localRange(query);
  const interval = query.interval ?? DEFAULT_ANALYTICS_INTERVAL;
  const pending = await catchUpForQuery(store);
  const series = await inZone(() => downloadSeries(store, scope, range, interval));
  const envelope = { Interval: interval, TimeZoneIanaId: range.timeZone, StartDate: range.startDate, EndDate: range.endDate, PendingDownloads: pending };
  return { envelope, series };
}

const sum = (points: Array<{ Downloads: number }>) => points.reduce((n, p) => n + p.Downloads, 0);

async function groupingAnswer(
  c: Context,
  scope: AnalyticsScope,
  grouping: AnalyticsGrouping,
  query: RangeQuery & { filter?: string | undefined; maxItems?: number | undefined; downloadMediaType?: DownloadMediaType | undefined },
): Promise<routes.Grouping> {
  const store = c.get('deps').store;
  const range = localRange(query);
  const mediaType = query.downloadMediaType ?? null;
  const pending = await catchUpForQuery(store);
  const [counted, total] = await inZone(async () => [await groups(store, scope, range, grouping, mediaType), await totalDownloads(store, scope, range, mediaType)] as const);
  // The organization's own players named (PUT /v1/settings/analytics/custom-player-names), at read time.
  const all = grouping === 'apps' ? await applyCustomPlayerNames(store, scope, range, mediaType, counted) : counted;
  // What the caller may see: programs they see; clips of programs whose content they may read.
  const auth = getAuth(c);
  const allowed =
    grouping === 'programs'
      ? new Set(await visiblePrograms(store, auth))
      : grouping === 'clips'
        ? new Set(await readablePrograms(store, auth, ENTITY_KINDS.clips.read))
        : null;
  const filter = query.filter?.trim().toLowerCase() ?? '';
  const items = all
    .filter((g) => allowed === null || (g.programId !== null && allowed.has(g.programId)))
    .filter((g) => filter === '' || g.label.toLowerCase().includes(filter))
    .sort((a, b) => b.downloads - a.downloads || a.label.localeCompare(b.label) || a.key.localeCompare(b.key))
    .slice(0, query.maxItems ?? DEFAULT_GROUPING_ITEMS)
    .map((g) => ({ Key: g.key, Label: g.label, Downloads: g.downloads }));
  return {
    Grouping: grouping,
    TimeZoneIanaId: range.timeZone,
    StartDate: range.startDate,
    EndDate: range.endDate,
    PendingDownloads: pending,
    DownloadMediaType: mediaType,
    Total: total,
    Items: items,
  };
}

/** The grouping in the path (validated by the route's enum: anything else was a 404). */
function groupingOf(c: Context): AnalyticsGrouping {
  const grouping = ANALYTICS_GROUPINGS.find((g) => g === c.req.param('grouping'));
  if (!grouping) throw notFound();
  return grouping;
}

/** The three routes of one level, with its guard and scope. */
function level(app: ReturnType<typeof resourceApp>, declared: (typeof routes)['programAnalytics'] | (typeof routes)['organizationAnalytics'], access: Access, scopeOf: ScopeOf) {
  return app
    .openapi(guarded(declared.downloads, access), async (c) => {
      const { envelope, series } = await seriesAnswer(c, await scopeOf(c), c.req.valid('query'));
      const points = totalSeries(series);
      return c.json({ ...envelope, Total: sum(points), Points: points } satisfies routes.DownloadsSeries, 200);
    })
    .openapi(guarded(declared.mediaTypes, access), async (c) => {
      const { envelope, series } = await seriesAnswer(c, await scopeOf(c), c.req.valid('query'));
      const mediaTypes = [...series].map(([MediaType, Points]) => ({ MediaType, Total: sum(Points), Points }));
      return c.json({ ...envelope, Total: mediaTypes.reduce((n, m) => n + m.Total, 0), MediaTypes: mediaTypes } satisfies routes.MediaTypesSeries, 200);
    })
    .openapi(guarded(declared.grouping, access), async (c) => c.json(await groupingAnswer(c, await scopeOf(c), groupingOf(c), c.req.valid('query')), 200));
}

/** The guard of an analytics figure: section 6, "Analytics needs content access plus the
 *  playlist-download-analytics feature": the flags at the level asked, then the organization's plan. */
export const analyticsGuard = (access: Access): Access => withFeature(access, 'playlist-download-analytics');

/** The five levels of analytics (section 6: HasAnalyticsAccess at the level asked, and the plan's
 *  feature), each with its guard and the downloads it covers; shared by every route that exists at
 *  these levels. */
export function analyticsLevels() {
  return {
    organization: { access: analyticsGuard(guard.organization('HasAnalyticsAccess')), scope: organizationScope },
    network: { access: analyticsGuard(guard.network('networkId', { network: ['HasAnalyticsAccess'] })), scope: networkScope },
    program: { access: analyticsGuard(guard.program('programId', 'HasAnalyticsAccess')), scope: programScope },
    playlist: { access: analyticsGuard(guard.row('playlists', 'playlistId', 'HasAnalyticsAccess')), scope: playlistScope },
    clip: { access: analyticsGuard(guard.row('clips', 'clipId', 'HasAnalyticsAccess')), scope: clipScope },
  } as const;
}

export function analyticsRoutes() {
  const app = resourceApp();
  const at = analyticsLevels();
  level(app, routes.organizationAnalytics, at.organization.access, at.organization.scope);
  level(app, routes.networkAnalytics, at.network.access, at.network.scope);
  level(app, routes.programAnalytics, at.program.access, at.program.scope);
  level(app, routes.playlistAnalytics, at.playlist.access, at.playlist.scope);
  level(app, routes.clipAnalytics, at.clip.access, at.clip.scope);
  return app;
}
