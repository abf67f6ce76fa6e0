// Reports (specification section 7 "Reports and analytics", section 4 "Report generation"): the
// declarations of src/protocol/api/reports.ts. A start call checks the filters and who asks, writes
// the operation with its job (sync-server/reports/report-job.ts) and answers 202; the job makes the
// report; the poll, the CSV and the list read the operation.
//
// Access (section 6):
//   - downloads reports need HasAnalyticsAccess at the level, as the analytics routes: the
//     organization scope for the organization's, the network (or organization) for a network's,
//     the program (or its network, or the organization) for a program's;
//   - a content report lists clips only of programs whose clips the caller may read (content
//     access, as the analytics clips grouping); of the others it gives one row per program;
//   - a clip download comparison names clips: it needs content access on the program too (403);
//   - shared-listeners targets are networks or programs the caller has analytics access to (any
//     other id, of this organization or not, is a 400 naming the field: it learns nothing);
//   - a report is read (polled, downloaded, listed) only by the user who started it, in its own
//     organization: 404 for anyone else;
//   - the scheduled-publish report lists clips of programs whose clips the caller may read.
import type { Context } from 'hono';
import { mayRead, networkFlags } from '../../src/domain/access.ts';
import { formError } from '../../src/domain/form-errors.ts';
import {
  DEFAULT_COMPARISON_DAYS,
  parseReportSource,
  parseVisibilityList,
  reportCsv,
  reportFileName,
  type ReportFilters,
  type ReportKind,
  type ReportLevel,
} from '../../src/domain/reports.ts';
import * as routes from '../../src/protocol/api/reports.ts';
import { pageOf } from '../../src/protocol/api/common.ts';
import { ENTITY_KINDS } from '../../src/protocol/entity-kinds.ts';
import { getAuth, type Auth } from '../auth.ts';
import { AppError, badRequest, fieldError, forbidden, notFound } from '../errors.ts';
import { flagsForProgram } from '../mutations/store.ts';
import { formatUtcOffset } from '../reference/time-zones.ts';
import { listReportsOf, readReport, startReport, type ReportTarget } from '../reports/report-job.ts';
import { scheduledClips, type ReportScope } from '../reports/report-queries.ts';
import type { Queryable } from '../store/store.ts';
import { now } from '../app.ts';
import { analyticsGuard, inZone, timeZoneOf } from './analytics-api.ts';
import { readablePrograms } from './lists.ts';
import { guarded, resourceApp } from './route.ts';
import { guard, readsOnly } from './guard.ts';

type RawQuery = {
  startDate: string;
  endDate: string;
  timeZoneIanaId?: string | undefined;
  durationSecondsFrom?: string | undefined;
  durationSecondsTo?: string | undefined;
  source?: string | undefined;
  clipVisibilityFilter?: string | undefined;
};

/** The query's filters, parsed (the query schema has checked them by src/domain/reports.ts). */
function filtersOf(query: RawQuery): ReportFilters {
  const filters: ReportFilters = { startDate: query.startDate.trim(), endDate: query.endDate.trim(), timeZoneIanaId: timeZoneOf(query.timeZoneIanaId) };
  const number = (v: string | undefined) => (v !== undefined && v.trim() !== '' ? Number(v.trim()) : undefined);
  const from = number(query.durationSecondsFrom);
  const to = number(query.durationSecondsTo);
  if (from !== undefined) filters.durationSecondsFrom = from;
  if (to !== undefined) filters.durationSecondsTo = to;
  const source = query.source?.trim() ? parseReportSource(query.source) : null;
  if (source) filters.source = source;
  const visibilities = query.clipVisibilityFilter !== undefined ? parseVisibilityList(query.clipVisibilityFilter) : null;
  if (visibilities && visibilities.length > 0) filters.clipVisibilityFilter = visibilities;
  return filters;
}

type Level = { level: ReportLevel; levelId: string | null; levelName: string | null; scope: ReportScope };

async function programsOfNetwork(q: Queryable, organizationId: string, networkId: string): Promise<string[]> {
  const rows = await q.query<{ id: string }>(`SELECT id::text AS id FROM programs WHERE organization_id = $1 AND network_id = $2 AND NOT deleted`, [organizationId, networkId]);
  return rows.map((r) => r.id);
}

const organizationLevel = async (): Promise<Level> => ({ level: 'organization', levelId: null, levelName: null, scope: { kind: 'organization' } });

const networkLevel = async (c: Context): Promise<Level> => {
  const network = c.get('row');
  const id = network.Id as string;
  return { level: 'network', levelId: id, levelName: network['Name'] as string, scope: { kind: 'programs', programIds: await programsOfNetwork(c.get('deps').store, getAuth(c).organizationId, id) } };
};

const programLevel = async (c: Context): Promise<Level> => {
  const program = c.get('program');
  const [row] = await c.get('deps').store.query<{ name: string }>(`SELECT name FROM programs WHERE id = $1`, [program.id]);
  return { level: 'program', levelId: program.id, levelName: row?.name ?? null, scope: { kind: 'programs', programIds: [program.id] } };
};

async function start(c: Context, kind: ReportKind, where: Level, filters: ReportFilters, targets?: ReportTarget[]) {
  const deps = c.get('deps');
  const auth = getAuth(c);
  const clipProgramIds = kind === 'content-report' ? await readablePrograms(deps.store, auth, ENTITY_KINDS.clips.read) : [];
  const operation = await deps.store.tx((q) =>
    startReport(q, {
      organizationId: auth.organizationId,
      userId: auth.user.Id,
      kind,
      ...where,
      filters,
      access: { clipProgramIds },
      ...(targets ? { targets } : {}),
      at: now(deps),
    }),
  );
  return c.json(operation, 202);
}

/** Target networks the caller has analytics access to, with their programs; else a 400 on the field. */
async function networkTargets(q: Queryable, auth: Auth, ids: string[]): Promise<ReportTarget[]> {
  const rows = await q.query<{ id: string; name: string }>(`SELECT id::text AS id, name FROM networks WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted`, [
    auth.organizationId,
    ids,
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const targets: ReportTarget[] = [];
  for (const id of ids) {
    const row = byId.get(id);
    if (!row || !networkFlags(auth.permissions, id).HasAnalyticsAccess) throw badRequest([fieldError('targetNetworkIds', formError('invalid'))]);
    targets.push({ id, name: row.name, programIds: await programsOfNetwork(q, auth.organizationId, id) });
  }
  return targets;
}

/** Target programs the caller has analytics access to; else a 400 on the field. */
async function programTargets(q: Queryable, auth: Auth, ids: string[]): Promise<ReportTarget[]> {
  const rows = await q.query<{ id: string; name: string; network_id: string | null }>(
    `SELECT id::text AS id, name, network_id::text AS network_id FROM programs WHERE organization_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted`,
    [auth.organizationId, ids],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row || !flagsForProgram(auth, { id, network_id: row.network_id }).HasAnalyticsAccess) throw badRequest([fieldError('targetProgramIds', formError('invalid'))]);
    return { id, name: row.name, programIds: [id] };
  });
}

/** The report the caller started, of the path's kind (404 otherwise). */
async function ownReport(c: Context, params: { kind: ReportKind; operationId: string }) {
  const auth = getAuth(c);
  const operation = await readReport(c.get('deps').store, auth.organizationId, auth.user.Id, params.kind, params.operationId);
  if (!operation) throw notFound();
  return operation;
}

type ScheduledQuery = {
  page?: number | undefined;
  pageSize?: number | undefined;
  startDate: string;
  endDate: string;
  timeZoneIanaId?: string | undefined;
  clipTitleFilter?: string | undefined;
  sortBy?: string | undefined;
  scheduledVisibilityFilter?: string | undefined;
  programIds?: string[] | undefined;
  networkIds?: string[] | undefined;
  networkFilter?: string | undefined;
};

/** The scheduled-publish report over some programs (those whose clips the caller may read among them). */
async function scheduledAnswer(c: Context, programIds: string[] | null, query: ScheduledQuery): Promise<routes.ScheduledPublishPage> {
  const store = c.get('deps').store;
  const auth = getAuth(c);
  const timeZone = timeZoneOf(query.timeZoneIanaId);
  let allowed = await readablePrograms(store, auth, ENTITY_KINDS.clips.read);
  if (programIds) allowed = allowed.filter((id) => programIds.includes(id));
  if (query.programIds && query.programIds.length > 0) allowed = allowed.filter((id) => query.programIds!.includes(id));
  if (query.networkIds && query.networkIds.length > 0) {
    const inNetworks = await store.query<{ id: string }>(`SELECT id::text AS id FROM programs WHERE organization_id = $1 AND network_id = ANY($2::uuid[])`, [
      auth.organizationId,
      query.networkIds,
    ]);
    const set = new Set(inNetworks.map((r) => r.id));
    allowed = allowed.filter((id) => set.has(id));
  }
  const page = pageOf(query);
  const visibilities = query.scheduledVisibilityFilter !== undefined ? (parseVisibilityList(query.scheduledVisibilityFilter) ?? []) : [];
  const rows = await inZone(() =>
    scheduledClips(store, auth.organizationId, allowed, { startDate: query.startDate.trim(), endDate: query.endDate.trim(), timeZone }, {
      titleFilter: query.clipTitleFilter?.trim() || undefined,
      networkFilter: query.networkFilter?.trim() || undefined,
      visibilities,
      sortBy: query.sortBy ?? 'visibleAt',
      offset: page.offset,
      pageSize: page.pageSize,
    }),
  );
  const items = rows.slice(0, page.pageSize).map((r) => ({
    ClipId: r.id,
    Title: r.title,
    ProgramId: r.programId,
    Program: r.program,
    NetworkId: r.networkId,
    Network: r.network,
    Visibility: r.visibility,
    ScheduledVisibility: r.scheduledVisibility as routes.ScheduledPublishItem['ScheduledVisibility'],
    VisibleAtUtc: r.visibleAtUtc,
    VisibleAtLocal: `${r.visibleAtLocal}${formatUtcOffset(Math.round((Date.parse(`${r.visibleAtLocal}Z`) - r.visibleAtEpoch * 1000) / 60_000))}`,
  }));
  return { Items: items, HasNext: rows.length > page.pageSize, Page: page.page, TimeZoneIanaId: timeZone };
}

export function reportRoutes() {
  // Starting a report reads figures and changes nothing: an unactivated account may, as it may read them.
  // Download figures: the plan's playlist-download-analytics too (section 6). The scheduled-publish
  // report lists clips, not downloads, and an operation already made stays its asker's to read.
  const analyticsAt = {
    organization: readsOnly(analyticsGuard(guard.organization('HasAnalyticsAccess'))),
    network: readsOnly(analyticsGuard(guard.network('networkId', { network: ['HasAnalyticsAccess'] }))),
    program: readsOnly(analyticsGuard(guard.program('programId', 'HasAnalyticsAccess'))),
  };
  const s = routes.startConsumptionSummary;
  const ct = routes.startContentReport;
  const sh = routes.startSharedListeners;
  const sp = routes.scheduledPublishReport;
  return resourceApp()
    .openapi(guarded(s.organization, analyticsAt.organization), async (c) => start(c, 'consumption-summary-report', await organizationLevel(), filtersOf(c.req.valid('query'))))
    .openapi(guarded(s.network, analyticsAt.network), async (c) => start(c, 'consumption-summary-report', await networkLevel(c), filtersOf(c.req.valid('query'))))
    .openapi(guarded(s.program, analyticsAt.program), async (c) => start(c, 'consumption-summary-report', await programLevel(c), filtersOf(c.req.valid('query'))))
    .openapi(guarded(ct.organization, analyticsAt.organization), async (c) => start(c, 'content-report', await organizationLevel(), filtersOf(c.req.valid('query'))))
    .openapi(guarded(ct.network, analyticsAt.network), async (c) => start(c, 'content-report', await networkLevel(c), filtersOf(c.req.valid('query'))))
    .openapi(guarded(sh.network, analyticsAt.network), async (c) => {
      const query = c.req.valid('query');
      const filters = { startDate: query.startDate.trim(), endDate: query.endDate.trim(), timeZoneIanaId: timeZoneOf(query.timeZoneIanaId), targetNetworkIds: query.targetNetworkIds ?? [] };
      const targets = await networkTargets(c.get('deps').store, getAuth(c), filters.targetNetworkIds);
      return start(c, 'shared-listeners-report', await networkLevel(c), filters, targets);
    })
    .openapi(guarded(sh.program, analyticsAt.program), async (c) => {
      const query = c.req.valid('query');
      const filters = { startDate: query.startDate.trim(), endDate: query.endDate.trim(), timeZoneIanaId: timeZoneOf(query.timeZoneIanaId), targetProgramIds: query.targetProgramIds ?? [] };
      const targets = await programTargets(c.get('deps').store, getAuth(c), filters.targetProgramIds);
      return start(c, 'shared-listeners-report', await programLevel(c), filters, targets);
    })
    .openapi(guarded(routes.startClipComparison, analyticsAt.program), async (c) => {
      const body = c.req.valid('json');
      const program = c.get('program');
      // The comparison names its clips: content access on the program, besides analytics.
      if (!mayRead(ENTITY_KINDS.clips.read, flagsForProgram(getAuth(c), program))) throw forbidden();
      const clipIds = [...new Set(body.clipIds)];
      const found = await c.get('deps').store.query<{ id: string }>(`SELECT id::text AS id FROM clips WHERE program_id = $1 AND id = ANY($2::uuid[]) AND NOT deleted`, [program.id, clipIds]);
      if (found.length !== clipIds.length) throw badRequest([fieldError('clipIds', formError('invalid'))]);
      return start(c, 'clip-download-comparison-report', await programLevel(c), { clipIds, days: body.days ?? DEFAULT_COMPARISON_DAYS });
    })
    .openapi(guarded(routes.getReport, guard.member()), async (c) => c.json(await ownReport(c, c.req.valid('param')), 200))
    .openapi(guarded(routes.getReportCsv, guard.member()), async (c) => {
      const operation = await ownReport(c, c.req.valid('param'));
      if (operation.Status !== 'Success' || !operation.Result) throw new AppError(409);
      c.header('content-disposition', `attachment; filename="${reportFileName(operation.Kind, operation.Filters)}"`);
      return c.body(reportCsv(operation.Result), 200, { 'content-type': 'text/csv; charset=utf-8; header=present' });
    })
    .openapi(guarded(routes.listReports, guard.member()), async (c) => {
      const query = c.req.valid('query');
      const auth = getAuth(c);
      const page = pageOf(query);
      const rows = await listReportsOf(c.get('deps').store, auth.organizationId, auth.user.Id, { kind: query.kind, offset: page.offset, pageSize: page.pageSize });
      return c.json({ Items: rows.slice(0, page.pageSize), HasNext: rows.length > page.pageSize, Page: page.page }, 200);
    })
    .openapi(guarded(sp.organization, guard.member()), async (c) => c.json(await scheduledAnswer(c, null, c.req.valid('query')), 200))
    .openapi(guarded(sp.network, guard.network('networkId')), async (c) =>
      c.json(await scheduledAnswer(c, await programsOfNetwork(c.get('deps').store, getAuth(c).organizationId, c.get('row').Id as string), c.req.valid('query')), 200),
    )
    .openapi(guarded(sp.program, guard.program('programId')), async (c) => c.json(await scheduledAnswer(c, [c.get('program').id], c.req.valid('query')), 200));
}
