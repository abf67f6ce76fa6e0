// The analytics API's reads (sync-server/api/analytics-api.ts): the hourly rollups of migration
// 0465 bucketed by local time in SQL.
//
// Time zones: rollups are UTC hours; an hour belongs to the local date (and local day, week, month)
// in which it starts, `(hour_utc AT TIME ZONE tz)`, so a day in America/Los_Angeles is that day
// there and has 23 or 25 hours across a DST change. Zones whose offset is not whole hours
// (Asia/Kolkata +05:30, Australia/Adelaide +09:30, Asia/Kathmandu +05:45) are approximated: the
// UTC hour that straddles local midnight goes whole to the day it starts in (its downloads up to
// 45 minutes off in time), as hourly rollups cannot split it.
import { DOWNLOAD_MEDIA_TYPES, type AnalyticsGrouping, type AnalyticsInterval, type DownloadMediaType } from '../../src/domain/analytics.ts';
import { COUNTRIES } from '../reference/countries.ts';
import { formatUtcOffset } from '../reference/time-zones.ts';
import type { Queryable } from '../store/store.ts';

/** Which downloads a query covers: the organization's, or those of some programs, or of some clips. */
export type AnalyticsScope = { organizationId: string } & ({ kind: 'organization' } | { kind: 'programs'; programIds: string[] } | { kind: 'clips'; clipIds: string[] });

/** Local dates (YYYY-MM-DD, both included) in an IANA time zone. */
export type LocalRange = { startDate: string; endDate: string; timeZone: string };

export type Point = { Start: string; Downloads: number };

// $1 organization, $2 first local date, $3 last local date, $4 time zone, $5 the scope's ids.
// The coarse bounds (an hour either side) let the primary keys' ranges be used; the local date of
// each hour then decides exactly.
const COARSE_RANGE = (column: string) =>
  `${column} >= ($2::date::timestamp AT TIME ZONE $4) - interval '1 hour' AND ${column} < (($3::date + 1)::timestamp AT TIME ZONE $4) + interval '1 hour'`;
const IN_RANGE = (column: string) => `${COARSE_RANGE(column)} AND (${column} AT TIME ZONE $4)::date BETWEEN $2::date AND $3::date`;

/** The scope's hour rows (hour_utc, local: its local time, media_type, downloads) in the range, and the parameters. */
function hourRows(scope: AnalyticsScope, range: LocalRange): { sql: string; params: unknown[] } {
  const params: unknown[] = [scope.organizationId, range.startDate, range.endDate, range.timeZone];
  let from: string;
  if (scope.kind === 'organization') from = `download_hours_org WHERE organization_id = $1`;
  else if (scope.kind === 'programs') {
    params.push(scope.programIds);
    from = `download_hours_program WHERE organization_id = $1 AND program_id = ANY($5::uuid[])`;
  } else {
    params.push(scope.clipIds);
    from = `download_hours_clip WHERE organization_id = $1 AND clip_id = ANY($5::uuid[])`;
  }
  // The local time once per row (OFFSET 0 keeps the planner from copying the expression into the
  // filter and the grouping: a third of a series' time on PostgreSQL).
  return {
    sql: `SELECT hour_utc, local, media_type, downloads FROM (SELECT hour_utc, hour_utc AT TIME ZONE $4 AS local, media_type, downloads FROM ${from} AND ${COARSE_RANGE('hour_utc')} OFFSET 0) r
          WHERE local::date BETWEEN $2::date AND $3::date`,
    params,
  };
}

/** '2025-03-09T00:00:00' at epoch seconds → '2025-03-09T00:00:00-08:00'. */
function localStart(local: string, epochSeconds: number): string {
  const offsetMinutes = Math.round((Date.parse(`${local}Z`) - epochSeconds * 1000) / 60_000);
  return `${local}${formatUtcOffset(offsetMinutes)}`;
}

/**
 * Every bucket of the range with its downloads per media type (0 where none). Day, week and month
 * buckets are local calendar ones (date_trunc on local time); hour buckets are the UTC hours whose
 * local date is in the range, shown at their local time.
 */
export async function downloadSeries(q: Queryable, scope: AnalyticsScope, range: LocalRange, interval: AnalyticsInterval): Promise<Map<DownloadMediaType, Point[]>> {
  const { sql: rows, params } = hourRows(scope, range);
  const unit = `'${interval}'`; // one of ANALYTICS_INTERVALS, validated: never the caller's text
  const sql =
    interval === 'hour'
      ? `WITH h AS (SELECT hour_utc AS bucket, media_type, sum(downloads)::bigint AS n FROM (${rows}) r GROUP BY 1, 2),
              s AS (SELECT g AS bucket FROM generate_series(
                      date_trunc('hour', (($2::date::timestamp AT TIME ZONE $4) - interval '1 hour') AT TIME ZONE 'UTC') AT TIME ZONE 'UTC',
                      (($3::date + 1)::timestamp AT TIME ZONE $4) + interval '1 hour', interval '1 hour') g
                    WHERE (g AT TIME ZONE $4)::date BETWEEN $2::date AND $3::date)
         SELECT to_char(s.bucket AT TIME ZONE $4, 'YYYY-MM-DD"T"HH24:MI:SS') AS local, extract(epoch FROM s.bucket)::float8 AS epoch, h.media_type, coalesce(h.n, 0)::float8 AS n
         FROM s LEFT JOIN h ON h.bucket = s.bucket ORDER BY s.bucket`
      : `WITH h AS (SELECT date_trunc(${unit}, local) AS bucket, media_type, sum(downloads)::bigint AS n FROM (${rows}) r GROUP BY 1, 2),
              s AS (SELECT g AS bucket FROM generate_series(date_trunc(${unit}, $2::date::timestamp), $3::date::timestamp, interval '1 ${interval}') g)
         SELECT to_char(s.bucket, 'YYYY-MM-DD"T"HH24:MI:SS') AS local, extract(epoch FROM s.bucket AT TIME ZONE $4)::float8 AS epoch, h.media_type, coalesce(h.n, 0)::float8 AS n
         FROM s LEFT JOIN h ON h.bucket = s.bucket ORDER BY s.bucket`;
  const result = await q.query<{ local: string; epoch: number; media_type: string | null; n: number }>(sql, params);
  const series = new Map<DownloadMediaType, Point[]>(DOWNLOAD_MEDIA_TYPES.map((t) => [t, []]));
  let last: string | null = null;
  for (const row of result) {
    const start = localStart(row.local, Number(row.epoch));
    if (start !== last) {
      for (const points of series.values()) points.push({ Start: start, Downloads: 0 });
      last = start;
    }
    const points = row.media_type === null ? undefined : series.get(row.media_type as DownloadMediaType);
    if (points) points[points.length - 1]!.Downloads += Number(row.n);
  }
  return series;
}

/** The sum of the series of every media type, point by point. */
export function totalSeries(series: Map<DownloadMediaType, Point[]>): Point[] {
  const [first, ...rest] = [...series.values()];
  return (first ?? []).map((p, i) => ({ Start: p.Start, Downloads: rest.reduce((sum, s) => sum + (s[i]?.Downloads ?? 0), p.Downloads) }));
}

export type Group = { key: string; label: string; downloads: number; programId: string | null };

const mediaFilter = (column: string, mediaType: DownloadMediaType | null) =>
  mediaType === null ? '' : ` AND ${column} = '${DOWNLOAD_MEDIA_TYPES.find((t) => t === mediaType)!}'`;

const COUNTRY_NAMES = new Map(COUNTRIES.map((c) => [c.Code, c.Name]));

/** Downloads in the range at the scope (of one media type, or all). */
export async function totalDownloads(q: Queryable, scope: AnalyticsScope, range: LocalRange, mediaType: DownloadMediaType | null): Promise<number> {
  const { sql, params } = hourRows(scope, range);
  const [row] = await q.query<{ n: number }>(`SELECT coalesce(sum(downloads), 0)::float8 AS n FROM (${sql}${mediaFilter('media_type', mediaType)}) r`, params);
  return Number(row?.n ?? 0);
}

/**
 * Every group of the grouping at the scope with its downloads (unsorted, unfiltered; the caller
 * sorts, filters by label and keeps what the caller may see). Programs and clips come from the
 * program and clip hour tables; a dimension from the program dimension table, or, at clip scope
 * (a clip, a playlist), from the counted downloads of those clips themselves.
 */
export async function groups(q: Queryable, scope: AnalyticsScope, range: LocalRange, grouping: AnalyticsGrouping, mediaType: DownloadMediaType | null): Promise<Group[]> {
  const params: unknown[] = [scope.organizationId, range.startDate, range.endDate, range.timeZone];
  const ids = scope.kind === 'programs' ? scope.programIds : scope.kind === 'clips' ? scope.clipIds : null;
  if (ids) params.push(ids);
  const media = mediaFilter('media_type', mediaType);
  let sql: string;
  if (grouping === 'programs') {
    const from =
      scope.kind === 'clips'
        ? `download_hours_clip WHERE organization_id = $1 AND clip_id = ANY($5::uuid[])`
        : `download_hours_program WHERE organization_id = $1${scope.kind === 'programs' ? ` AND program_id = ANY($5::uuid[])` : ''}`;
    sql = `SELECT g.key::text AS key, p.name AS label, g.key::text AS program_id, g.n FROM
             (SELECT program_id AS key, sum(downloads)::float8 AS n FROM ${from} AND ${IN_RANGE('hour_utc')}${media} GROUP BY 1) g
           LEFT JOIN programs p ON p.id = g.key`;
  } else if (grouping === 'clips') {
    const where =
      scope.kind === 'organization' ? '' : scope.kind === 'programs' ? ` AND program_id = ANY($5::uuid[])` : ` AND clip_id = ANY($5::uuid[])`;
    sql = `SELECT g.key::text AS key, c.title AS label, g.program_id::text AS program_id, g.n FROM
             (SELECT clip_id AS key, (array_agg(program_id))[1] AS program_id, sum(downloads)::float8 AS n
              FROM download_hours_clip WHERE organization_id = $1${where} AND ${IN_RANGE('hour_utc')}${media} GROUP BY 1) g
           LEFT JOIN clips c ON c.id = g.key`;
  } else if (scope.kind === 'clips') {
    const column = { apps: 'app', devices: 'device', os: 'os', countries: 'country', sources: 'source' }[grouping];
    const hour = `(date_trunc('hour', counted_at_utc AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
    sql = `SELECT ${column} AS key, NULL AS label, NULL AS program_id, count(*)::float8 AS n FROM counted_downloads
           WHERE organization_id = $1 AND clip_id = ANY($5::uuid[])
             AND counted_at_utc >= ($2::date::timestamp AT TIME ZONE $4) - interval '1 hour' AND counted_at_utc < (($3::date + 1)::timestamp AT TIME ZONE $4) + interval '1 hour'
             AND (${hour} AT TIME ZONE $4)::date BETWEEN $2::date AND $3::date${media}
           GROUP BY 1`;
  } else {
    sql = `SELECT value AS key, NULL AS label, NULL AS program_id, sum(downloads)::float8 AS n FROM download_hours_dimension
           WHERE organization_id = $1${scope.kind === 'programs' ? ` AND program_id = ANY($5::uuid[])` : ''} AND dimension = '${grouping}'
             AND ${IN_RANGE('hour_utc')}${media} GROUP BY 1`;
  }
  const rows = await q.query<{ key: string; label: string | null; program_id: string | null; n: number }>(sql, params);
  return rows.map((r) => ({
    key: r.key,
    label: r.label ?? (grouping === 'countries' ? (COUNTRY_NAMES.get(r.key) ?? (r.key === 'ZZ' ? 'Unknown' : r.key)) : grouping === 'clips' ? '(untitled)' : r.key),
    downloads: Number(r.n),
    programId: r.program_id,
  }));
}
