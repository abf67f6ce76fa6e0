// The rest of section 7's analytics calls (declared in src/protocol/api/analytics-insights.ts):
//
//   GET  /v1/clips/{clipId}/analytics/consumption             the clip's consumption curve, on read
//   GET  /v1/programs/{programId}/clips/analytics/glance       its clips' downloads at a glance
//   POST …/analytics/reach-estimate (organization, network,    202 operation; a durable job works it
//        program, playlist, clip)                              out (sync-server/analytics/reach-estimate.ts)
//   GET  /v1/analytics/reach-estimate/{operationId}            the operation (its asker only)
//   GET  /v1/analytics/progress                                how current the numbers are
//   GET  /PUT /v1/settings/analytics/custom-player-names       the organization's player names
//
// Access (section 6), as the download routes (analytics-api.ts): HasAnalyticsAccess at the level
// asked; a clip or playlist must be readable by the caller. The glance lists clips, so it needs
// content access on the program too. Progress and the player names are read with
// HasAnalyticsAccess at any scope; the names are written with HasManageOrganizationSettingsAccess
// at organization scope (an organization setting).
import type { Context } from 'hono';
import { formError } from '../../src/domain/form-errors.ts';
import * as routes from '../../src/protocol/api/analytics-insights.ts';
import { catchUpForQuery } from '../analytics/analytics-rollup.ts';
import { analyticsProgress, clipConsumption, clipsGlance, readCustomPlayerNames, writeCustomPlayerNames } from '../analytics/analytics-insights-queries.ts';
import { readReachEstimate, startReachEstimate } from '../analytics/reach-estimate.ts';
import { now } from '../app.ts';
import { getAuth } from '../auth.ts';
import { badRequest, fieldError, notFound } from '../errors.ts';
import { analyticsGuard, analyticsLevels, inZone, localRange, type ScopeOf } from './analytics-api.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, readsOnly, type Access } from './guard.ts';

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;

async function consumption(c: Context, source: routes.Consumption['Source']): Promise<routes.Consumption> {
  const clipId = c.get('row').Id as string;
  const read = await clipConsumption(c.get('deps').store, getAuth(c).organizationId, clipId, source);
  const curve = read.curve;
  const duration = read.durationSeconds;
  const buckets =
    curve && duration !== null
      ? curve.covered.map((n, i) => ({
          StartSeconds: round((i * duration) / curve.covered.length, 3),
          EndSeconds: round(((i + 1) * duration) / curve.covered.length, 3),
          Listeners: n,
          Share: curve.listeners > 0 ? round(n / curve.listeners, 4) : 0,
        }))
      : [];
  const median = curve?.medianSeconds ?? null;
  return {
    ClipId: clipId,
    Source: source,
    DurationSeconds: duration,
    FileSizeBytes: read.sizeBytes,
    RequestsRead: read.events,
    Listeners: curve?.listeners ?? 0,
    MedianListenedThroughSeconds: median === null ? null : round(median, 3),
    MedianListenedThroughShare: median === null || !duration ? null : round(median / duration, 4),
    Buckets: buckets,
  };
}

/** The reach estimate's start route at one level. */
function reach(app: ReturnType<typeof resourceApp>, route: typeof routes.organizationReach | typeof routes.programReach, access: Access, scopeOf: ScopeOf) {
  // Asks for figures, changes nothing: an unactivated account may, as it may read them.
  return app.openapi(guarded(route, readsOnly(access)), async (c) => {
    const deps = c.get('deps');
    const auth = getAuth(c);
    const body = c.req.valid('json');
    const range = localRange({ startDate: body.StartDate, endDate: body.EndDate, timeZoneIanaId: body.TimeZoneIanaId }, 'TimeZoneIanaId');
    // A zone the reference list has but this database's time zone data lacks: said now, not by a failed job.
    await inZone(() => deps.store.query(`SELECT now() AT TIME ZONE $1`, [range.timeZone]), 'TimeZoneIanaId');
    const scope = await scopeOf(c);
    const operation = await deps.store.tx((q) => startReachEstimate(q, { organizationId: auth.organizationId, userId: auth.user.Id, scope, range, at: now(deps) }));
    return c.json(operation, 202);
  });
}

export function analyticsInsightsRoutes() {
  const app = resourceApp()
    .openapi(guarded(routes.clipConsumption, analyticsGuard(guard.row('clips', 'clipId', 'HasAnalyticsAccess'))), async (c) => c.json(await consumption(c, c.req.valid('query').source ?? null), 200))
    .openapi(guarded(routes.clipsGlance, analyticsGuard(guard.program('programId', 'HasAnalyticsAccess', 'HasContentAccess'))), async (c) => {
      const deps = c.get('deps');
      const query = c.req.valid('query');
      if (query.ianaTimeZoneId.trim() === '') throw badRequest([fieldError('ianaTimeZoneId', formError('required'))]);
      const { timeZone } = localRange({ timeZoneIanaId: query.ianaTimeZoneId, startDate: '', endDate: '' }, 'ianaTimeZoneId');
      const pending = await catchUpForQuery(deps.store);
      const at = now(deps);
      const clips = await inZone(() => clipsGlance(deps.store, getAuth(c).organizationId, c.get('program').id, query.clipIds ?? null, timeZone, at), 'ianaTimeZoneId');
      const [today] = await deps.store.query<{ today: string }>(`SELECT to_char(($1::timestamptz AT TIME ZONE $2)::date, 'YYYY-MM-DD') AS today`, [at.toISOString(), timeZone]);
      return c.json(
        {
          TimeZoneIanaId: timeZone,
          Today: today!.today,
          PendingDownloads: pending,
          Clips: clips.map((g) => ({
            ClipId: g.clipId,
            Title: g.title,
            PublishedUtc: g.publishedUtc,
            Downloads: g.total,
            LastSevenDays: g.lastDays,
            FirstSevenDays: g.firstDays,
            FirstSevenDaysComplete: g.firstDaysComplete,
          })),
        } satisfies routes.Glance,
        200,
      );
    })
    .openapi(guarded(routes.getReachEstimate, guard.member()), async (c) => {
      const auth = getAuth(c);
      const operation = await readReachEstimate(c.get('deps').store, auth.organizationId, auth.user.Id, c.req.valid('param').operationId);
      if (!operation) throw notFound();
      return c.json(operation, 200);
    })
    .openapi(guarded(routes.analyticsProgress, analyticsGuard(guard.anywhere('HasAnalyticsAccess'))), async (c) => {
      const deps = c.get('deps');
      const p = await analyticsProgress(deps.store, getAuth(c).organizationId);
      return c.json(
        {
          RawEventsPending: p.rawEventsPending,
          DownloadsPending: p.downloadsPending,
          CountedThroughUtc: p.countedThroughUtc,
          OldestPendingEventUtc: p.oldestPendingEventUtc,
          CountingRunning: p.countingRunning,
          AsOfUtc: p.oldestPendingEventUtc ?? now(deps).toISOString(),
        } satisfies routes.AnalyticsProgress,
        200,
      );
    })
    .openapi(guarded(routes.getCustomPlayerNames, guard.anywhere('HasAnalyticsAccess')), async (c) => {
      const { names, modifiedAtUtc } = await readCustomPlayerNames(c.get('deps').store, getAuth(c).organizationId);
      return c.json({ CustomPlayerNames: names, ModifiedAtUtc: modifiedAtUtc } satisfies routes.CustomPlayerNames, 200);
    })
    .openapi(guarded(routes.putCustomPlayerNames, guard.organization('HasManageOrganizationSettingsAccess')), async (c) => {
      const deps = c.get('deps');
      const auth = getAuth(c);
      const names = c.req.valid('json').CustomPlayerNames.map((n) => ({ UserAgentContains: n.UserAgentContains.trim(), Name: n.Name.trim() }));
      await deps.store.tx((q) => writeCustomPlayerNames(q, auth.organizationId, names, auth.user.Id, now(deps)));
      const saved = await readCustomPlayerNames(deps.store, auth.organizationId);
      return c.json({ CustomPlayerNames: saved.names, ModifiedAtUtc: saved.modifiedAtUtc } satisfies routes.CustomPlayerNames, 200);
    });
  const at = analyticsLevels();
  reach(app, routes.organizationReach, at.organization.access, at.organization.scope);
  reach(app, routes.networkReach, at.network.access, at.network.scope);
  reach(app, routes.programReach, at.program.access, at.program.scope);
  reach(app, routes.playlistReach, at.playlist.access, at.playlist.scope);
  reach(app, routes.clipReach, at.clip.access, at.clip.scope);
  return app;
}
