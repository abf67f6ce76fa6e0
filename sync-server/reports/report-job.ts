// Reports as operations (section 4 "Report generation"): a row of report_operations (0470) made by
// the durable job reports.make, never in the request.
//
//   POST ──row Busy + job, one transaction──> 202 ReportOperation {Status: Busy, Progress: 0}
//   job: the report in parts (the range by PART_DAYS days, or target by target, or clip by clip),
//        Progress after each ──> Success with the result (Columns, Rows, Totals)
//        a time zone the database does not know ──> Failed at once, with the reason
//        any other error: tried again (the runner's backoff); the last attempt failed ──> Failed
//
// What each kind counts is written in src/domain/reports.ts.
import { logOf } from '../observability/log.ts';
import { randomUUID } from 'node:crypto';
import * as z from 'zod';
import {
  DEFAULT_COMPARISON_DAYS,
  REPORT_COLUMNS,
  clipComparisonColumn,
  sharedPercent,
  totalsRow,
  type ReportCell,
  type ReportFilters,
  type ReportKind,
  type ReportLevel,
  type ReportResult,
  type ReportStatus,
} from '../../src/domain/reports.ts';
import type { ReportOperation, ReportOperationSummary } from '../../src/protocol/api/reports.ts';
import type { AppDeps } from '../app.ts';
import { enqueueJob } from '../jobs/queue.ts';
import { applePremiumLinkState, isPremiumClip, premiumClipLinking } from '../../src/domain/directories.ts';
import { appleInEffect, feedClips, premiumOf } from '../directories/premium.ts';
import { loadRow } from '../rows.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { Queryable, Store } from '../store/store.ts';
import { clipsOf, downloadsByClip, downloadsByDaySincePublish, downloadsByProgram, sharedListeners, type DateRange, type ReportScope } from './report-queries.ts';

export const REPORT_JOB = 'reports.make';

/**
 * Days of the range read per statement (Progress moves after each). A week: on PGlite a statement
 * holds the one connection every request waits for, and a week of 300,000 downloads in 90 days
 * reads in about a quarter of a second there.
 */
export const PART_DAYS = 7;
/** Reports are kept this long, then deleted when a new one is started. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;
const DAY_MS = 86_400_000;

/** What the starter could read when it was started: programs whose clips it lists. */
export type ReportAccess = { clipProgramIds: string[] };

/** A shared-listeners target: a network (its programs) or a program, with its name. */
export type ReportTarget = { id: string; name: string; programIds: string[] };

export type StartReport = {
  organizationId: string;
  userId: string;
  kind: ReportKind;
  level: ReportLevel;
  levelId: string | null;
  levelName: string | null;
  scope: ReportScope;
  filters: ReportFilters;
  access: ReportAccess;
  /** shared-listeners-report only. */
  targets?: ReportTarget[];
  at: Date;
};

/** Makes the operation and its job (in the caller's transaction); returns the operation, Busy. */
export async function startReport(q: Queryable, input: StartReport): Promise<ReportOperation> {
  const id = randomUUID();
  await q.query(`DELETE FROM report_operations WHERE created_at_utc < $1`, [new Date(input.at.getTime() - KEEP_MS).toISOString()]);
  const scope = { ...input.scope, ...(input.targets ? { targets: input.targets } : {}) };
  await q.query(
    `INSERT INTO report_operations (id, organization_id, user_id, kind, level, level_id, level_name, scope, filters, access, status, created_at_utc)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8::jsonb, $9::jsonb, $10::jsonb, 'Busy', $11)`,
    [
      id,
      input.organizationId,
      input.userId,
      input.kind,
      input.level,
      input.levelId,
      input.levelName,
      JSON.stringify(scope),
      JSON.stringify(input.filters),
      JSON.stringify(input.access),
      input.at.toISOString(),
    ],
  );
  await enqueueJob(q, REPORT_JOB, { operationId: id }, { maxAttempts: 3 });
  return { ...summaryOf({ ...rowBase(id, input), status: 'Busy', progress: 0, failure_reason: null, finished: null }), Result: null };
}

type Row = {
  id: string;
  organization_id: string;
  kind: ReportKind;
  level: ReportLevel;
  level_id: string | null;
  level_name: string | null;
  scope: ReportScope & { targets?: ReportTarget[] };
  filters: ReportFilters;
  access: ReportAccess;
  status: ReportStatus;
  progress: number;
  failure_reason: string | null;
  result: ReportResult | null;
  created: string;
  finished: string | null;
};

const rowBase = (id: string, input: StartReport) => ({
  id,
  organization_id: input.organizationId,
  kind: input.kind,
  level: input.level,
  level_id: input.levelId,
  level_name: input.levelName,
  scope: input.scope,
  filters: input.filters,
  access: input.access,
  created: input.at.toISOString(),
});

const COLUMNS = `id::text AS id, organization_id::text AS organization_id, kind, level, level_id::text AS level_id, level_name, scope, filters, access, status, progress,
  failure_reason, to_char(created_at_utc AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created,
  to_char(finished_at_utc AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS finished`;

function summaryOf(row: Omit<Row, 'result'>): ReportOperationSummary {
  return {
    Id: row.id,
    Kind: row.kind,
    Status: row.status,
    Progress: row.status === 'Success' ? 100 : Number(row.progress),
    Level: row.level,
    LevelId: row.level_id,
    LevelName: row.level_name,
    Filters: row.filters,
    CreatedAtUtc: row.created,
    FinishedAtUtc: row.finished,
    FailureReason: row.status === 'Failed' ? (row.failure_reason ?? 'The report could not be made') : null,
  };
}

/** The operation as its starter sees it (null: none of theirs of this kind in this organization). */
export async function readReport(q: Queryable, organizationId: string, userId: string, kind: ReportKind, id: string): Promise<ReportOperation | null> {
  const [row] = await q.query<Row>(`SELECT ${COLUMNS}, result FROM report_operations WHERE id = $1 AND organization_id = $2 AND user_id = $3 AND kind = $4`, [
    id,
    organizationId,
    userId,
    kind,
  ]);
  if (!row) return null;
  return { ...summaryOf(row), Result: row.status === 'Success' ? row.result : null };
}

/** The starter's reports, newest first, one page (pageSize + 1 read: whether another follows). */
export async function listReportsOf(
  q: Queryable,
  organizationId: string,
  userId: string,
  options: { kind?: ReportKind | undefined; offset: number; pageSize: number },
): Promise<ReportOperationSummary[]> {
  const params: unknown[] = [organizationId, userId];
  if (options.kind) params.push(options.kind);
  const rows = await q.query<Row>(
    `SELECT ${COLUMNS} FROM report_operations WHERE organization_id = $1 AND user_id = $2${options.kind ? ' AND kind = $3' : ''}
     ORDER BY created_at_utc DESC, id DESC LIMIT ${options.pageSize + 1} OFFSET ${options.offset}`,
    params,
  );
  return rows.map(summaryOf);
}

// ── Making a report ──────────────────────────────────────────────────────────────────────────

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (day: number) => new Date(day * DAY_MS).toISOString().slice(0, 10);

/** The range in parts of PART_DAYS days. */
function partsOf(range: DateRange): DateRange[] {
  const first = dayNumber(range.startDate);
  const last = dayNumber(range.endDate);
  const parts: DateRange[] = [];
  for (let from = first; from <= last; from += PART_DAYS) parts.push({ ...range, startDate: dateOf(from), endDate: dateOf(Math.min(last, from + PART_DAYS - 1)) });
  return parts;
}

type Progress = (done: number, of: number) => Promise<void>;

function rangeOf(filters: ReportFilters): DateRange {
  return { startDate: filters.startDate!, endDate: filters.endDate!, timeZone: filters.timeZoneIanaId ?? 'UTC' };
}

async function consumptionSummary(q: Queryable, row: Row, progress: Progress): Promise<ReportResult> {
  const byProgram = new Map<string, { program: string | null; network: string | null; clips: Set<string>; audio: number; video: number }>();
  const parts = partsOf(rangeOf(row.filters));
  for (const [i, part] of parts.entries()) {
    for (const p of await downloadsByProgram(q, row.organization_id, row.scope, part, row.filters)) {
      const entry = byProgram.get(p.programId) ?? { program: p.program, network: p.network, clips: new Set<string>(), audio: 0, video: 0 };
      for (const id of p.clipIds) entry.clips.add(id);
      entry.audio += p.audio;
      entry.video += p.video;
      byProgram.set(p.programId, entry);
    }
    await progress(i + 1, parts.length);
  }
  const rows: ReportCell[][] = [...byProgram]
    .map(([id, e]) => [id, e.program ?? '(deleted program)', e.network, e.clips.size, e.audio, e.video, e.audio + e.video])
    .sort((a, b) => (b[6] as number) - (a[6] as number) || String(a[1]).localeCompare(String(b[1])));
  const columns = [...REPORT_COLUMNS['consumption-summary-report']];
  return { Columns: columns, Rows: rows, Totals: totalsRow(columns, rows) };
}

async function programIdsOf(q: Queryable, row: Row): Promise<string[]> {
  if (row.scope.kind === 'programs') return row.scope.programIds;
  return (await q.query<{ id: string }>(`SELECT id::text AS id FROM programs WHERE organization_id = $1 AND NOT deleted`, [row.organization_id])).map((r) => r.id);
}

async function contentReport(q: Queryable, row: Row, progress: Progress): Promise<ReportResult> {
  const downloads = new Map<string, number>();
  const parts = partsOf(rangeOf(row.filters));
  for (const [i, part] of parts.entries()) {
    for (const [clipId, n] of await downloadsByClip(q, row.organization_id, row.scope, part, row.filters)) downloads.set(clipId, (downloads.get(clipId) ?? 0) + n);
    await progress(i + 1, parts.length);
  }
  const readable = new Set(row.access.clipProgramIds);
  const rows: ReportCell[][] = [];
  // Clips of programs whose clips the starter may read, one row each; of the others (analytics
  // access only), one row per program with the downloads of its matching clips.
  const hidden = new Map<string, { name: string; downloads: number }>();
  for (const clip of await clipsOf(q, row.organization_id, await programIdsOf(q, row), row.filters)) {
    const n = downloads.get(clip.id) ?? 0;
    if (readable.has(clip.programId)) {
      rows.push([clip.programId, clip.program, clip.id, clip.title?.trim() ? clip.title : 'Untitled clip', clip.visibility, clip.publishedUtc, clip.durationSeconds, n]);
    } else {
      const entry = hidden.get(clip.programId) ?? { name: clip.program, downloads: 0 };
      entry.downloads += n;
      hidden.set(clip.programId, entry);
    }
  }
  for (const [id, e] of hidden) rows.push([id, e.name, null, null, null, null, null, e.downloads]);
  const columns = [...REPORT_COLUMNS['content-report']];
  return { Columns: columns, Rows: rows, Totals: totalsRow(columns, rows) };
}

async function sharedListenersReport(q: Queryable, row: Row, progress: Progress): Promise<ReportResult> {
  const targets = row.scope.targets ?? [];
  const rows: ReportCell[][] = [];
  for (const [i, target] of targets.entries()) {
    const counts = await sharedListeners(q, row.organization_id, row.scope, { kind: 'programs', programIds: target.programIds }, rangeOf(row.filters));
    rows.push([target.id, target.name, counts.listeners, counts.targetListeners, counts.shared, sharedPercent(counts.shared, counts.listeners)]);
    await progress(i + 1, targets.length);
  }
  // No totals: listeners of several targets overlap, so their sum means nothing.
  return { Columns: [...REPORT_COLUMNS['shared-listeners-report']], Rows: rows, Totals: null };
}

async function clipComparison(q: Queryable, row: Row, progress: Progress, at: Date): Promise<ReportResult> {
  const days = row.filters.days ?? DEFAULT_COMPARISON_DAYS;
  const ids = row.filters.clipIds ?? [];
  const clips = await q.query<{ id: string; title: string | null; published: string | null }>(
    `SELECT id::text AS id, title, data->>'PublishedUtc' AS published FROM clips WHERE organization_id = $1 AND id = ANY($2::uuid[])`,
    [row.organization_id, ids],
  );
  const byId = new Map(clips.map((c) => [c.id, c]));
  const columns = [...REPORT_COLUMNS['clip-download-comparison-report']];
  const perClip: Array<Array<number | null>> = [];
  for (const [i, id] of ids.entries()) {
    const clip = byId.get(id);
    columns.push(clipComparisonColumn(id, clip?.title ?? null));
    const published = clip?.published ?? null;
    const counts = published ? await downloadsByDaySincePublish(q, row.organization_id, id, published, days) : new Map<number, number>();
    perClip.push(
      Array.from({ length: days }, (_, d) => {
        // Day d+1 starts at published + d days: no number before it has started.
        if (!published || Date.parse(published) + d * DAY_MS > at.getTime()) return null;
        return counts.get(d + 1) ?? 0;
      }),
    );
    await progress(i + 1, ids.length);
  }
  const rows: ReportCell[][] = Array.from({ length: days }, (_, d) => [d + 1, ...perClip.map((cells) => cells[d] ?? null)]);
  return { Columns: columns, Rows: rows, Totals: totalsRow(columns, rows) };
}

/** Each premium clip of the playlist with its linking state (src/domain/directories.ts), the link
 * and the Apple settings in effect read as they are when the report is made. */
async function appleLinkingReport(q: Queryable, row: Row, progress: Progress, at: Date): Promise<ReportResult> {
  const playlistId = row.filters.playlistId ?? '';
  const playlist = await loadRow(q, 'playlist', row.organization_id, playlistId);
  const program = playlist ? await loadRow(q, 'program', row.organization_id, String(playlist['ProgramId'])) : null;
  const columns = [...REPORT_COLUMNS['apple-premium-linking-report']];
  if (!playlist || !program || playlist.Deleted) return { Columns: columns, Rows: [], Totals: null };
  const link = applePremiumLinkState((await premiumOf(q, playlistId))?.apple_linked === true, await appleInEffect(q, row.organization_id, program));
  const ids = (playlist['ClipIds'] as string[] | undefined) ?? [];
  const byId = await feedClips(q, row.organization_id, ids);
  const rows: ReportCell[][] = [];
  for (const id of ids) {
    const clip = byId.get(id);
    if (!clip || clip.Deleted || !isPremiumClip(clip)) continue;
    const title = typeof clip.Title === 'string' && clip.Title.trim() ? clip.Title : 'Untitled clip';
    rows.push([id, title, clip.Visibility, clip.PublishState ?? null, premiumClipLinking(clip, link, at)]);
  }
  await progress(1, 1);
  return { Columns: columns, Rows: rows, Totals: null };
}

/** Why a report fails without another try: the caller's own input the database refuses. */
class ReportRefused extends Error {}

async function makeReport(deps: Pick<AppDeps, 'store' | 'clock'>, id: string, signal: AbortSignal): Promise<void> {
  const store: Store = deps.store;
  const [row] = await store.query<Row>(`SELECT ${COLUMNS} FROM report_operations WHERE id = $1`, [id]);
  if (!row || row.status !== 'Busy') return; // deleted, or a run before this one finished it
  const progress: Progress = async (done, of) => {
    if (signal.aborted) throw new Error('the report job lost its lease');
    // Below 100 until the result is stored: 100 means Success.
    await store.query(`UPDATE report_operations SET progress = $2 WHERE id = $1 AND status = 'Busy'`, [id, Math.min(99, Math.floor((done / Math.max(1, of)) * 100))]);
  };
  const at = deps.clock ? deps.clock() : new Date();
  let result: ReportResult;
  try {
    if (row.kind === 'consumption-summary-report') result = await consumptionSummary(store, row, progress);
    else if (row.kind === 'content-report') result = await contentReport(store, row, progress);
    else if (row.kind === 'shared-listeners-report') result = await sharedListenersReport(store, row, progress);
    else if (row.kind === 'apple-premium-linking-report') result = await appleLinkingReport(store, row, progress, at);
    else result = await clipComparison(store, row, progress, at);
  } catch (err) {
    // A zone ICU knows but this database's time zone data does not (checked against the reference
    // list when started): trying again cannot help.
    if (err instanceof Error && /time zone .* not recognized/i.test(err.message)) throw new ReportRefused('The time zone is not known to the database');
    throw err;
  }
  await store.query(`UPDATE report_operations SET status = 'Success', progress = 100, result = $2::jsonb, finished_at_utc = now() WHERE id = $1 AND status = 'Busy'`, [
    id,
    JSON.stringify(result),
  ]);
}

async function fail(store: Store, id: string, reason: string): Promise<void> {
  await store.query(`UPDATE report_operations SET status = 'Failed', failure_reason = $2, finished_at_utc = now() WHERE id = $1 AND status = 'Busy'`, [id, reason]);
}

/** The job (registered in createApp). */
export function reportJobs(deps: Pick<AppDeps, 'store' | 'clock' | 'log'>): JobHandlers {
  return {
    [REPORT_JOB]: defineJob({
      payload: z.object({ operationId: z.uuid() }),
      run: async (payload, job) => {
        try {
          await makeReport(deps, payload.operationId, job.signal);
        } catch (err) {
          if (err instanceof ReportRefused) return fail(deps.store, payload.operationId, err.message);
          throw err;
        }
      },
      giveUp: async (payload, error) => {
        logOf(deps).error({ err: error, operationId: payload.operationId }, 'report failed');
        await fail(deps.store, payload.operationId, 'The report could not be made: please try again');
      },
    }),
  };
}
