// The reads behind the rest of section 7's analytics calls (sync-server/api/analytics-insights.ts):
// a clip's consumption curve (from its raw download events), a program's clips at a glance (from
// the hourly clip rollups), how current the numbers are, each local day's unique listeners (the
// reach estimate's job, reach-estimate.ts), and the custom player names (their setting, and the
// apps grouping relabelled by them).
import { addRange, deliveredRange, thresholdBytes } from '../../src/domain/iab-counting.ts';
import {
  consumptionCurve,
  customPlayerName,
  GLANCE_DAYS,
  MAX_GLANCE_CLIPS,
  type ConsumptionCurve,
  type CustomPlayerName,
  type DownloadMediaType,
  type DownloadSource,
  type ReachDay,
} from '../../src/domain/analytics.ts';
import type { Queryable } from '../store/store.ts';
import type { AnalyticsScope, Group, LocalRange } from './analytics-api-queries.ts';
import { agentFacts } from './counting-agents.ts';
import { COUNTING_JOB } from './counting.ts';

// ── Consumption ──────────────────────────────────────────────────────────────────────────────

export type ClipConsumption = { sizeBytes: number | null; durationSeconds: number | null; events: number; curve: ConsumptionCurve | null };

/**
 * One clip's consumption curve over all its raw events (download_events, kept by the recorder):
 * GET answers that delivered bytes (deliveredRange: probes and HEAD left out), bots left out
 * (agentFacts, as the counting job), the ad-free file left out (another file, another size), of
 * one source or all. Each listener hash's ranges are joined (a hash is one listener on one UTC
 * day: salts rotate at midnight), and mapped onto the clip's published file as it is now.
 */
export async function clipConsumption(q: Queryable, organizationId: string, clipId: string, source: DownloadSource | null): Promise<ClipConsumption> {
  const [clip] = await q.query<{ size: number | null; duration: number | null }>(
    `SELECT (data->>'PublishedAudioSizeInBytes')::float8 AS size, (data->>'PublishedDurationSeconds')::float8 AS duration FROM clips WHERE id = $1 AND organization_id = $2`,
    [clipId, organizationId],
  );
  const sizeBytes = clip?.size ?? null;
  const durationSeconds = clip?.duration ?? null;
  const where = `organization_id = $1 AND clip_id = $2 AND method = 'GET' AND status BETWEEN 200 AND 299 AND bytes_sent > 0 AND NOT ad_free
                 AND ($3::text IS NULL OR coalesce(source, 'unknown') = $3)`;
  // Bots, by user agent (a clip has few distinct ones), decided as the counting job decides.
  const agents = await q.query<{ user_agent: string; n: number }>(`SELECT coalesce(user_agent, '') AS user_agent, count(*)::float8 AS n FROM download_events WHERE ${where} GROUP BY 1`, [
    organizationId,
    clipId,
    source,
  ]);
  const events = agents.reduce((n, a) => n + Number(a.n), 0);
  const bots = agents.map((a) => a.user_agent).filter((ua) => agentFacts(ua).excluded);
  // Per listener hash, its requests as [status, Range header, first byte asked, bytes sent], all as
  // ONE JSON text (PGlite builds rows field by field; see counting.ts readEvents). The hash itself
  // is not needed, only the grouping; the Range header is sent only where it can be a size probe
  // (bytes=0-0 or 0-1 deliver at most 2 bytes): 200,000 requests are ~5 MB of JSON, not ~20.
  const [row] = await q.query<{ listeners: string | null }>(
    `SELECT json_agg(r)::text AS listeners FROM (
       SELECT json_agg(json_build_array(status, CASE WHEN bytes_sent <= 2 THEN range_header END, range_start, bytes_sent)) AS r
         FROM download_events WHERE ${where} AND NOT (coalesce(user_agent, '') = ANY($4::text[]))
        GROUP BY listener_hash) s`,
    [organizationId, clipId, source, bots],
  );
  if (sizeBytes === null || sizeBytes <= 0 || durationSeconds === null || durationSeconds <= 0) return { sizeBytes, durationSeconds, events, curve: null };
  const listeners = row?.listeners ? (JSON.parse(row.listeners) as Array<Array<[number, string | null, number | null, number]>>) : [];
  const unions: number[][] = [];
  for (const requests of listeners) {
    let union: number[] = [];
    for (const [status, rangeHeader, rangeStart, bytesSent] of requests) {
      const range = deliveredRange({ method: 'GET', status, rangeHeader, rangeStart: rangeStart === null ? null : Number(rangeStart), bytesSent: Number(bytesSent) });
      if (range) union = addRange(union, range[0], range[1]);
    }
    unions.push(union);
  }
  const curve = consumptionCurve(unions, { sizeBytes, durationSeconds, thresholdBytes: thresholdBytes({ sizeBytes, durationSeconds }) });
  return { sizeBytes, durationSeconds, events, curve };
}

// ── Glance ───────────────────────────────────────────────────────────────────────────────────

export type ClipGlance = { clipId: string; title: string | null; publishedUtc: string | null; total: number; lastDays: number; firstDays: number | null; firstDaysComplete: boolean };

/**
 * The program's clips (those named, else its newest MAX_GLANCE_CLIPS) with their downloads: all,
 * in the GLANCE_DAYS local days ending today (today included), and in the GLANCE_DAYS local days
 * from the day it was published (null: not published). An hour belongs to the local date it starts
 * in, as in every analytics answer (analytics-api-queries.ts). Clips named that are not the
 * program's (or deleted) are left out.
 */
export async function clipsGlance(q: Queryable, organizationId: string, programId: string, clipIds: string[] | null, timeZone: string, now: Date): Promise<ClipGlance[]> {
  const rows = await q.query<{ id: string; title: string | null; published: string | null; total: number; last_days: number; first_days: number | null; first_complete: boolean }>(
    `WITH c AS (
       SELECT id, title, (data->>'PublishedUtc')::timestamptz AS published, created_at_utc FROM clips
        WHERE organization_id = $1 AND program_id = $2 AND NOT deleted AND ($3::uuid[] IS NULL OR id = ANY($3::uuid[]))
        ORDER BY created_at_utc DESC, id LIMIT ${MAX_GLANCE_CLIPS}
     ), d AS (SELECT ($5::timestamptz AT TIME ZONE $4)::date AS today)
     SELECT c.id::text AS id, c.title, to_char(c.published AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS published,
            coalesce(sum(h.downloads), 0)::float8 AS total,
            coalesce(sum(h.downloads) FILTER (WHERE (h.hour_utc AT TIME ZONE $4)::date BETWEEN d.today - ${GLANCE_DAYS - 1} AND d.today), 0)::float8 AS last_days,
            CASE WHEN c.published IS NULL THEN NULL ELSE coalesce(sum(h.downloads) FILTER (
              WHERE (h.hour_utc AT TIME ZONE $4)::date BETWEEN (c.published AT TIME ZONE $4)::date AND (c.published AT TIME ZONE $4)::date + ${GLANCE_DAYS - 1}), 0)::float8 END AS first_days,
            coalesce((c.published AT TIME ZONE $4)::date + ${GLANCE_DAYS - 1} < d.today, false) AS first_complete
       FROM c CROSS JOIN d LEFT JOIN download_hours_clip h ON h.clip_id = c.id AND h.organization_id = $1
      GROUP BY c.id, c.title, c.published, c.created_at_utc, d.today
      ORDER BY c.created_at_utc DESC, c.id`,
    [organizationId, programId, clipIds, timeZone, now.toISOString()],
  );
  return rows.map((r) => ({
    clipId: r.id,
    title: r.title,
    publishedUtc: r.published,
    total: Number(r.total),
    lastDays: Number(r.last_days),
    firstDays: r.first_days === null ? null : Number(r.first_days),
    firstDaysComplete: r.first_complete,
  }));
}

// ── Progress ─────────────────────────────────────────────────────────────────────────────────

export type AnalyticsProgress = {
  rawEventsPending: number;
  downloadsPending: number;
  countedThroughUtc: string | null;
  oldestPendingEventUtc: string | null;
  countingRunning: boolean;
};

/** Past this many, "how many are left" is said as this many (counting further would cost more than it tells). */
export const PROGRESS_CAP = 1_000_000;

/**
 * How current the organization's numbers are: its raw events the counting job has not read yet,
 * its counted downloads not yet in the rollups, the time of the newest raw event counted (of any
 * organization: the job reads them in one order), the time of its oldest event not yet counted,
 * and whether the counting job is running now.
 */
export async function analyticsProgress(q: Queryable, organizationId: string): Promise<AnalyticsProgress> {
  const [cursor] = await q.query<{ last: number }>(`SELECT last_event_id::float8 AS last FROM counting_cursor WHERE name = 'downloads'`);
  const last = cursor?.last ?? 0;
  const [raw] = await q.query<{ n: number; oldest: string | null }>(
    `SELECT count(*)::int AS n, to_char(min(at_utc) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS oldest
       FROM (SELECT at_utc FROM download_events WHERE id > $1 AND organization_id = $2 LIMIT $3) s`,
    [last, organizationId, PROGRESS_CAP],
  );
  const [through] = await q.query<{ at: string | null }>(
    `SELECT to_char(at_utc AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS at FROM download_events WHERE id <= $1 ORDER BY id DESC LIMIT 1`,
    [last],
  );
  const [org] = await q.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM counted_downloads WHERE id > (SELECT last_id FROM analytics_rollup_cursor WHERE name = 'downloads') AND organization_id = $1 LIMIT $2) s`,
    [organizationId, PROGRESS_CAP],
  );
  const [running] = await q.query<{ running: boolean }>(
    `SELECT EXISTS (SELECT 1 FROM jobs WHERE kind = $1 AND state = 'running' AND locked_until > now()) AS running`,
    [COUNTING_JOB],
  );
  return {
    rawEventsPending: raw?.n ?? 0,
    downloadsPending: org?.n ?? 0,
    countedThroughUtc: through?.at ?? null,
    oldestPendingEventUtc: raw?.oldest ?? null,
    countingRunning: running?.running === true,
  };
}

// ── Reach ────────────────────────────────────────────────────────────────────────────────────

/** The scope's filter on counted_downloads ($1 organization, $5 the ids). */
function scopeFilter(scope: AnalyticsScope, params: unknown[], alias = ''): string {
  if (scope.kind === 'organization') return '';
  params.push(scope.kind === 'programs' ? scope.programIds : scope.clipIds);
  return scope.kind === 'programs' ? ` AND ${alias}program_id = ANY($5::uuid[])` : ` AND ${alias}clip_id = ANY($5::uuid[])`;
}

/**
 * Each local day of the range that had downloads: its unique listener hashes and its downloads,
 * from counted_downloads (a download's day: the local date of its counted_at_utc).
 */
export async function reachDays(q: Queryable, scope: AnalyticsScope, range: LocalRange): Promise<ReachDay[]> {
  const params: unknown[] = [scope.organizationId, range.startDate, range.endDate, range.timeZone];
  const where = scopeFilter(scope, params);
  const rows = await q.query<{ day: string; listeners: number; downloads: number }>(
    `SELECT to_char((counted_at_utc AT TIME ZONE $4)::date, 'YYYY-MM-DD') AS day, count(DISTINCT listener_hash)::int AS listeners, count(*)::int AS downloads
       FROM counted_downloads
      WHERE organization_id = $1${where}
        AND counted_at_utc >= ($2::date::timestamp AT TIME ZONE $4) AND counted_at_utc < (($3::date + 1)::timestamp AT TIME ZONE $4)
      GROUP BY 1 ORDER BY 1`,
    params,
  );
  return rows.map((r) => ({ date: r.day, listeners: Number(r.listeners), downloads: Number(r.downloads) }));
}

// ── Custom player names ──────────────────────────────────────────────────────────────────────

export async function readCustomPlayerNames(q: Queryable, organizationId: string): Promise<{ names: CustomPlayerName[]; modifiedAtUtc: string | null }> {
  const [row] = await q.query<{ names: CustomPlayerName[]; modified: string }>(
    `SELECT names, to_char(modified_at_utc AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS modified FROM analytics_custom_player_names WHERE organization_id = $1`,
    [organizationId],
  );
  return { names: row?.names ?? [], modifiedAtUtc: row?.modified ?? null };
}

export async function writeCustomPlayerNames(q: Queryable, organizationId: string, names: CustomPlayerName[], userId: string, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO analytics_custom_player_names (organization_id, names, modified_at_utc, modified_by) VALUES ($1, $2::jsonb, $3, $4)
     ON CONFLICT (organization_id) DO UPDATE SET names = excluded.names, modified_at_utc = excluded.modified_at_utc, modified_by = excluded.modified_by`,
    [organizationId, JSON.stringify(names), at.toISOString(), userId],
  );
}

/**
 * The apps grouping with the organization's custom player names applied, at read time, so they
 * name downloads counted before the names were set too. counted_downloads keeps the app the user
 * agent was recognised as, not the user agent: each download's user agent is that of the raw
 * event that opened its window (same clip, listener hash and time), so names apply while the raw
 * events are kept. A download whose user agent contains an entry's text moves from its app to the
 * entry's name (the first entry that matches). Cost: one look-up per download of the range (only
 * when the organization has names, only for the apps grouping).
 */
export async function applyCustomPlayerNames(q: Queryable, scope: AnalyticsScope, range: LocalRange, mediaType: DownloadMediaType | null, groups: Group[]): Promise<Group[]> {
  const { names } = await readCustomPlayerNames(q, scope.organizationId);
  if (names.length === 0) return groups;
  const params: unknown[] = [scope.organizationId, range.startDate, range.endDate, range.timeZone];
  const where = scopeFilter(scope, params, 'cd.');
  params.push(mediaType, names.map((n) => `%${n.UserAgentContains.trim().toLowerCase().replace(/[\\%_]/g, (m) => `\\${m}`)}%`));
  const media = `$${params.length - 1}`;
  const patterns = `$${params.length}`;
  // The hour a download is rolled up under, and that hour's local date: as the rollups and the
  // other groupings (analytics-api-queries.ts) place it.
  const hour = `(date_trunc('hour', cd.counted_at_utc AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')`;
  const rows = await q.query<{ app: string; user_agent: string; n: number }>(
    `SELECT cd.app, e.user_agent, count(*)::float8 AS n
       FROM counted_downloads cd
       JOIN LATERAL (SELECT user_agent FROM download_events e
                      WHERE e.organization_id = cd.organization_id AND e.clip_id = cd.clip_id AND e.listener_hash = cd.listener_hash
                        AND e.at_utc >= cd.counted_at_utc AND e.at_utc < cd.counted_at_utc + interval '1 millisecond' LIMIT 1) e ON true
      WHERE cd.organization_id = $1${where}
        AND cd.counted_at_utc >= ($2::date::timestamp AT TIME ZONE $4) - interval '1 hour' AND cd.counted_at_utc < (($3::date + 1)::timestamp AT TIME ZONE $4) + interval '1 hour'
        AND (${hour} AT TIME ZONE $4)::date BETWEEN $2::date AND $3::date
        AND (${media}::text IS NULL OR cd.media_type = ${media}::text)
        AND lower(e.user_agent) LIKE ANY (${patterns}::text[])
      GROUP BY 1, 2`,
    params,
  );
  const byKey = new Map(groups.map((g) => [g.key, { ...g }]));
  for (const row of rows) {
    const name = customPlayerName(names, row.user_agent);
    if (name === null || name === row.app) continue;
    const n = Number(row.n);
    const from = byKey.get(row.app);
    if (from) from.downloads -= n;
    const to = byKey.get(name) ?? { key: name, label: name, downloads: 0, programId: null };
    to.downloads += n;
    byKey.set(name, to);
  }
  return [...byKey.values()].filter((g) => g.downloads > 0);
}
