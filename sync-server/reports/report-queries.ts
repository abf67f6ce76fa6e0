// The reads of the reports (sync-server/reports/report-job.ts): counted_downloads (0460) filtered by
// what a report asks, and the clips table for the scheduled-publish report.
//
// Reports read counted_downloads rather than the hourly rollups because their filters (the clip's
// duration, the download's source, the listener) are not in the rollups. A download belongs to the
// local date of the UTC HOUR it was counted in, exactly the rule of the analytics API
// (analytics-api-queries.ts), so a report's totals equal the analytics totals of the same range in
// the same time zone, also in zones whose offset is not whole hours.
import type { ReportFilters } from '../../src/domain/reports.ts';
import type { Queryable } from '../store/store.ts';

/** Which downloads: the organization's, or those of some programs. */
export type ReportScope = { kind: 'organization' } | { kind: 'programs'; programIds: string[] };

/** Local dates (YYYY-MM-DD, both included) in an IANA time zone. */
export type DateRange = { startDate: string; endDate: string; timeZone: string };

/** SQL parameters added in order, each named by its placeholder. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * A SELECT of the counted_downloads rows (alias d) of the organization in the scope and range that
 * pass the filters (duration of the clip, source). The caller selects from it.
 */
function downloadsWhere(p: Params, organizationId: string, scope: ReportScope, range: DateRange, filters: ReportFilters): string {
  const org = p.add(organizationId);
  const start = p.add(range.startDate);
  const end = p.add(range.endDate);
  const tz = p.add(range.timeZone);
  const hour = `(date_trunc('hour', d.counted_at_utc AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
  const where = [
    `d.organization_id = ${org}`,
    // Coarse bounds an hour either side (the index's range), then the hour's local date decides.
    `d.counted_at_utc >= (${start}::date::timestamp AT TIME ZONE ${tz}) - interval '1 hour'`,
    `d.counted_at_utc < ((${end}::date + 1)::timestamp AT TIME ZONE ${tz}) + interval '1 hour'`,
    `(${hour} AT TIME ZONE ${tz})::date BETWEEN ${start}::date AND ${end}::date`,
  ];
  if (scope.kind === 'programs') where.push(`d.program_id = ANY(${p.add(scope.programIds)}::uuid[])`);
  if (filters.source) where.push(`d.source = ${p.add(filters.source)}`);
  let join = '';
  if (filters.durationSecondsFrom !== undefined || filters.durationSecondsTo !== undefined) {
    // A clip without a duration passes no duration filter.
    join = ` JOIN clips dc ON dc.id = d.clip_id`;
    if (filters.durationSecondsFrom !== undefined) where.push(`(dc.data->>'DurationSeconds')::float8 >= ${p.add(filters.durationSecondsFrom)}`);
    if (filters.durationSecondsTo !== undefined) where.push(`(dc.data->>'DurationSeconds')::float8 <= ${p.add(filters.durationSecondsTo)}`);
  }
  return `SELECT d.* FROM counted_downloads d${join} WHERE ${where.join(' AND ')}`;
}

export type ProgramDownloads = { programId: string; program: string | null; network: string | null; clipIds: string[]; audio: number; video: number };

/** consumption-summary-report: per program, its downloads by media type and the clips downloaded. */
export async function downloadsByProgram(q: Queryable, organizationId: string, scope: ReportScope, range: DateRange, filters: ReportFilters): Promise<ProgramDownloads[]> {
  const p = new Params();
  const rows = await q.query<{ program_id: string; program: string | null; network: string | null; clip_ids: string[]; audio: number; video: number }>(
    `SELECT g.program_id::text AS program_id, pr.name AS program, n.name AS network, g.clip_ids, g.audio, g.video FROM
       (SELECT d.program_id, array_agg(DISTINCT d.clip_id::text) AS clip_ids,
               (count(*) FILTER (WHERE d.media_type = 'Audio'))::float8 AS audio, (count(*) FILTER (WHERE d.media_type = 'Video'))::float8 AS video
        FROM (${downloadsWhere(p, organizationId, scope, range, filters)}) d GROUP BY d.program_id) g
     LEFT JOIN programs pr ON pr.id = g.program_id LEFT JOIN networks n ON n.id = pr.network_id`,
    p.values,
  );
  return rows.map((r) => ({ programId: r.program_id, program: r.program, network: r.network, clipIds: r.clip_ids, audio: Number(r.audio), video: Number(r.video) }));
}

/** content-report: downloads per clip (the clips of the scope with any). */
export async function downloadsByClip(q: Queryable, organizationId: string, scope: ReportScope, range: DateRange, filters: ReportFilters): Promise<Map<string, number>> {
  const p = new Params();
  const rows = await q.query<{ clip_id: string; n: number }>(
    `SELECT d.clip_id::text AS clip_id, count(*)::float8 AS n FROM (${downloadsWhere(p, organizationId, scope, range, filters)}) d GROUP BY d.clip_id`,
    p.values,
  );
  return new Map(rows.map((r) => [r.clip_id, Number(r.n)]));
}

export type ClipRow = { id: string; programId: string; program: string; title: string | null; visibility: string; publishedUtc: string | null; durationSeconds: number | null };

/** The clips (not deleted) of some programs, of the visibilities and durations asked, by program name then title. */
export async function clipsOf(q: Queryable, organizationId: string, programIds: string[], filters: ReportFilters): Promise<ClipRow[]> {
  const p = new Params();
  const where = [`c.organization_id = ${p.add(organizationId)}`, `c.program_id = ANY(${p.add(programIds)}::uuid[])`, `NOT c.deleted`];
  if (filters.clipVisibilityFilter && filters.clipVisibilityFilter.length > 0) where.push(`c.visibility = ANY(${p.add(filters.clipVisibilityFilter)}::text[])`);
  if (filters.durationSecondsFrom !== undefined) where.push(`(c.data->>'DurationSeconds')::float8 >= ${p.add(filters.durationSecondsFrom)}`);
  if (filters.durationSecondsTo !== undefined) where.push(`(c.data->>'DurationSeconds')::float8 <= ${p.add(filters.durationSecondsTo)}`);
  const rows = await q.query<{ id: string; program_id: string; program: string; title: string | null; visibility: string; published: string | null; duration: number | null }>(
    `SELECT c.id::text AS id, c.program_id::text AS program_id, pr.name AS program, c.title, c.visibility, c.data->>'PublishedUtc' AS published,
            (c.data->>'DurationSeconds')::float8 AS duration
     FROM clips c JOIN programs pr ON pr.id = c.program_id WHERE ${where.join(' AND ')}
     ORDER BY pr.name, pr.id, c.title NULLS LAST, c.id`,
    p.values,
  );
  return rows.map((r) => ({
    id: r.id,
    programId: r.program_id,
    program: r.program,
    title: r.title,
    visibility: r.visibility,
    publishedUtc: r.published,
    durationSeconds: r.duration === null ? null : Number(r.duration),
  }));
}

/**
 * shared-listeners-report: the listeners of the source scope, of the target scope, and of both. A
 * listener is one listener hash on one UTC day (the hash's salt rotates at midnight UTC).
 */
export async function sharedListeners(
  q: Queryable,
  organizationId: string,
  source: ReportScope,
  target: ReportScope,
  range: DateRange,
): Promise<{ listeners: number; targetListeners: number; shared: number }> {
  const p = new Params();
  // One pass: every (hash, UTC day) of either side, grouped once (a hash aggregate), marked by the
  // side(s) it was seen on. (A join of the two sides' distinct listeners was planned as a nested
  // loop: 2 minutes on PostgreSQL for 30,000 listeners a side.)
  const side = (scope: ReportScope, isSource: boolean) =>
    `SELECT d.listener_hash, (d.counted_at_utc AT TIME ZONE 'UTC')::date AS day, ${isSource} AS s, ${!isSource} AS t FROM (${downloadsWhere(p, organizationId, scope, range, {})}) d`;
  const [row] = await q.query<{ listeners: number; target: number; shared: number }>(
    `SELECT (count(*) FILTER (WHERE s))::float8 AS listeners, (count(*) FILTER (WHERE t))::float8 AS target, (count(*) FILTER (WHERE s AND t))::float8 AS shared
     FROM (SELECT listener_hash, day, bool_or(s) AS s, bool_or(t) AS t FROM (${side(source, true)} UNION ALL ${side(target, false)}) b GROUP BY listener_hash, day) l`,
    p.values,
  );
  return { listeners: Number(row?.listeners ?? 0), targetListeners: Number(row?.target ?? 0), shared: Number(row?.shared ?? 0) };
}

/**
 * clip-download-comparison-report: one clip's downloads on each day since its publish, day n being
 * [published + (n − 1) × 24 h, published + n × 24 h), for days 1..days.
 */
export async function downloadsByDaySincePublish(q: Queryable, organizationId: string, clipId: string, publishedUtc: string, days: number): Promise<Map<number, number>> {
  const rows = await q.query<{ day: number; n: number }>(
    `SELECT (floor(extract(epoch FROM counted_at_utc - $3::timestamptz) / 86400) + 1)::int AS day, count(*)::float8 AS n
     FROM counted_downloads WHERE organization_id = $1 AND clip_id = $2 AND counted_at_utc >= $3::timestamptz AND counted_at_utc < $3::timestamptz + $4 * interval '1 day'
     GROUP BY 1`,
    [organizationId, clipId, publishedUtc, days],
  );
  return new Map(rows.map((r) => [Number(r.day), Number(r.n)]));
}

export type ScheduledClip = {
  id: string;
  title: string | null;
  programId: string;
  program: string;
  networkId: string | null;
  network: string | null;
  visibility: string;
  scheduledVisibility: string;
  visibleAtUtc: string;
  visibleAtLocal: string;
  visibleAtEpoch: number;
};

const SCHEDULED_ORDER: Record<string, string> = {
  visibleAt: 'at ASC, c.title ASC NULLS LAST, c.id',
  '-visibleAt': 'at DESC, c.title ASC NULLS LAST, c.id',
  title: 'c.title ASC NULLS LAST, at ASC, c.id',
  '-title': 'c.title DESC NULLS LAST, at ASC, c.id',
  program: 'pr.name ASC, at ASC, c.id',
  '-program': 'pr.name DESC, at ASC, c.id',
};

/**
 * The clips of some programs scheduled to become visible (ScheduledVisibility with VisibleAtUtc) on
 * a local date of the range; one page (pageSize + 1 rows read, to know whether one follows).
 */
export async function scheduledClips(
  q: Queryable,
  organizationId: string,
  programIds: string[],
  range: DateRange,
  options: { titleFilter?: string | undefined; visibilities?: string[] | undefined; networkFilter?: string | undefined; sortBy: string; offset: number; pageSize: number },
): Promise<ScheduledClip[]> {
  const p = new Params();
  const tz = p.add(range.timeZone);
  const where = [
    `c.organization_id = ${p.add(organizationId)}`,
    `c.program_id = ANY(${p.add(programIds)}::uuid[])`,
    `NOT c.deleted`,
    `c.data->>'ScheduledVisibility' IS NOT NULL`,
    `c.data->>'VisibleAtUtc' IS NOT NULL`,
  ];
  const local = `((c.data->>'VisibleAtUtc')::timestamptz AT TIME ZONE ${tz})`;
  where.push(`${local}::date BETWEEN ${p.add(range.startDate)}::date AND ${p.add(range.endDate)}::date`);
  // Contains, in any letter case (strpos: the caller's % and _ are text, not patterns).
  if (options.titleFilter) where.push(`strpos(lower(coalesce(c.title, '')), lower(${p.add(options.titleFilter)})) > 0`);
  if (options.networkFilter) where.push(`strpos(lower(coalesce(n.name, '')), lower(${p.add(options.networkFilter)})) > 0`);
  if (options.visibilities && options.visibilities.length > 0) where.push(`c.data->>'ScheduledVisibility' = ANY(${p.add(options.visibilities)}::text[])`);
  const order = SCHEDULED_ORDER[options.sortBy] ?? SCHEDULED_ORDER['visibleAt']!;
  const rows = await q.query<{
    id: string;
    title: string | null;
    program_id: string;
    program: string;
    network_id: string | null;
    network: string | null;
    visibility: string;
    scheduled: string;
    at_text: string;
    local: string;
    epoch: number;
  }>(
    `SELECT c.id::text AS id, c.title, c.program_id::text AS program_id, pr.name AS program, pr.network_id::text AS network_id, n.name AS network, c.visibility,
            c.data->>'ScheduledVisibility' AS scheduled, c.data->>'VisibleAtUtc' AS at_text,
            to_char(${local}, 'YYYY-MM-DD"T"HH24:MI:SS') AS local, extract(epoch FROM (c.data->>'VisibleAtUtc')::timestamptz)::float8 AS epoch,
            (c.data->>'VisibleAtUtc')::timestamptz AS at
     FROM clips c JOIN programs pr ON pr.id = c.program_id LEFT JOIN networks n ON n.id = pr.network_id
     WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT ${options.pageSize + 1} OFFSET ${options.offset}`,
    p.values,
  );
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    programId: r.program_id,
    program: r.program,
    networkId: r.network_id,
    network: r.network,
    visibility: r.visibility,
    scheduledVisibility: r.scheduled,
    visibleAtUtc: r.at_text,
    visibleAtLocal: r.local,
    visibleAtEpoch: Number(r.epoch),
  }));
}
