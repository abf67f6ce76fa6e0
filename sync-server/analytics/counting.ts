// The counting job: raw download events (download_events, 0401) in, downloads as the IAB Podcast
// Measurement Technical Guidelines v2.2 count them out (counted_downloads, 0460), incrementally,
// never at request time. The rules are src/domain/iab-counting.ts; the user agents' facts
// counting-agents.ts.
//
//   download_events (id > cursor) ──batch of BATCH events, in id order──┐
//        ├─ not GET / not 2xx / nothing sent / bytes=0-1 probe ──> skipped (deliveredRange)
//        ├─ bot, podcast crawler, Apple Watch pre-download ──────> skipped (agentFacts)
//        └─ applyRequest: the listener's open window (today's hash, else yesterday's), or a new one
//              └─ its union of ranges passes header + one minute ──> one counted_downloads row
//   one transaction per batch: counted rows + changed windows (counting_windows) + the cursor
//
// Exactly once: a batch's downloads, its windows and the cursor commit together, so a run that
// dies re-reads the batch from the old cursor and old windows (a re-run writes nothing twice). A
// window keeps its ranges while it can still change (24 hours from its first request) and counts
// on the request that makes it pass; later requests in its 24 hours find it counted.
//
// Ids are read up to the highest committed one: on PostgreSQL an INSERT still in flight may hold a
// lower id than one already committed, so the job first takes a SHARE lock on download_events for
// an instant (it waits for inserts in flight, then lets the recorder go on) and counts up to the
// max id it then sees.
//
// Spikes and anomalies (v2.2: abnormal request volume from one source, e.g. one hash asking for
// hundreds of episodes an hour, is to be monitored and removed): `countBatch` is where such a rule
// would hold back a window's download before it is written; none is applied yet.
import * as z from 'zod';
import type { AppDeps } from '../app.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import type { Queryable, Store } from '../store/store.ts';
import { applyRequest, deliveredRange, thresholdBytes, WINDOW_MS, windowKey, type CountingWindow } from '../../src/domain/iab-counting.ts';
import { agentFacts, type AgentFacts } from './counting-agents.ts';
import { enqueueRollup } from './analytics-rollup.ts';

export const COUNTING_JOB = 'analytics.count-downloads';

/** Raw events read per transaction. */
const BATCH = 20_000;
/** How often the recurring job runs. */
const EVERY_MS = 60_000;

type EventRow = {
  id: number;
  at_ms: number;
  clip_id: string;
  organization_id: string;
  program_id: string;
  status: number;
  range_header: string | null;
  range_start: number | null;
  bytes_sent: number;
  user_agent: string | null;
  source: string | null;
  listener_hash: string;
  listener_hash_previous: string | null;
  country: string | null;
};

type ClipFacts = { threshold: number; mediaType: 'Audio' | 'Video' };

type CountedRow = {
  organization_id: string;
  program_id: string;
  clip_id: string;
  counted_at_utc: string;
  listener_hash: string;
  media_type: string;
  app: string;
  device: string;
  os: string;
  country: string;
  source: string;
};

const VIDEO_EXT = /\.(mp4|m4v|mov|webm)(\?|$)/i;

export type CountingResult = { events: number; downloads: number };

/** State one run keeps between its batches (and drops if another instance moved the cursor). */
type RunState = {
  windows: Map<string, CountingWindow>;
  /** Windows changed since they were last written. */
  dirty: Map<string, CountingWindow>;
  /** The latest request time seen. */
  latestMs: number;
  looked: Set<string>;
  /** Every window that can matter to this run is in `windows` (a catch-up loaded them at once). */
  preloaded: boolean;
  clips: Map<string, ClipFacts>;
  agents: Map<string, AgentFacts>;
};

/** A run with more events than this to read loads the windows of the 24 hours before its first
 *  event at once, instead of looking up each batch's listeners (a catch-up: after a restart, a
 *  replay, the bench); the minute's tick, with few events, looks them up. */
const PRELOAD_ABOVE = 50_000;

/**
 * Windows are written every this many batches (and at the end of a run), with the 'windows'
 * cursor, not with every batch: most windows a catch-up makes are closed before the next write and
 * need not be written at all. A run that dies between two writes is safe: the next one replays the
 * events from the 'windows' cursor into the windows without counting them again (they are at or
 * before the 'downloads' cursor), so the windows come back as they were.
 */
const FLUSH_WINDOWS_EVERY = 10;

/** Counts every raw event not yet counted; returns how many were read and downloads written. */
export async function countDownloads(store: Store, options: { batch?: number; preloadAbove?: number } = {}): Promise<CountingResult> {
  const batch = options.batch ?? BATCH;
  const upTo = await store.tx(async (q) => {
    if (store.kind === 'postgres') await q.query(`LOCK TABLE download_events IN SHARE MODE`);
    const [row] = await q.query<{ max: number | null }>(`SELECT max(id)::float8 AS max FROM download_events`);
    return row?.max ?? 0;
  });
  const state: RunState = { windows: new Map(), looked: new Set(), preloaded: false, clips: new Map(), agents: new Map(), dirty: new Map(), latestMs: 0 };
  await store.query(
    `INSERT INTO counting_cursor (name, last_event_id) SELECT 'windows', last_event_id FROM counting_cursor WHERE name = 'downloads' ON CONFLICT (name) DO NOTHING`,
  );
  await preloadWindows(store, state, upTo, options.preloadAbove ?? PRELOAD_ABOVE);
  const result: CountingResult = { events: 0, downloads: 0 };
  /** Events up to here are applied to state.windows; the windows cursor this run last saw or wrote. */
  let position: number | null = null;
  let windowsSeen: number | null = null;
  let sinceFlush = 0;
  /**
   * The next batch's events, read while this batch counts and writes: on PostgreSQL the read runs
   * on another connection (and the database's own process), so reading overlaps counting. Events
   * up to upTo never change (the lock above waited for every insert below it to commit), so a read
   * made outside the batch's transaction is the same read. Kept only for the range it was made for.
   */
  let ahead: { from: number; to: number; events: Promise<EventRow[]> } | null = null;
  const readAhead = (from: number, to: number) => {
    const events = readEvents(store, store.kind, from, to);
    events.catch(() => undefined); // a failed read-ahead is read again in its batch
    ahead = { from, to, events };
  };
  for (;;) {
    const step = await store.tx(async (q) => {
      const cursors = await q.query<{ name: string; last: number }>(`SELECT name, last_event_id::float8 AS last FROM counting_cursor WHERE name IN ('downloads', 'windows') ORDER BY name FOR UPDATE`);
      const countedThrough = cursors.find((c) => c.name === 'downloads')?.last ?? 0;
      const windowsThrough = Math.min(countedThrough, cursors.find((c) => c.name === 'windows')?.last ?? countedThrough);
      if (windowsSeen !== null && windowsThrough !== windowsSeen) {
        // Another run wrote windows between our batches: what we keep in memory is stale.
        state.windows.clear();
        state.looked.clear();
        state.dirty.clear();
        state.preloaded = false;
        position = null;
      }
      if (position === null) position = windowsThrough;
      windowsSeen = windowsThrough;
      if (position >= upTo) return null;
      const from = position;
      const to = Math.min(upTo, from + batch);
      const prefetched: Promise<EventRow[]> | null = ahead && ahead.from === from && ahead.to === to ? ahead.events : null;
      ahead = null;
      const events = (await prefetched?.catch(() => null)) ?? (await readEvents(q, store.kind, from, to));
      if (store.kind === 'postgres' && to < upTo) readAhead(to, Math.min(upTo, to + batch));
      // Events up to countedThrough were counted by an earlier run: replayed into the windows only.
      const counted = await countBatch(q, state, events, from, to, countedThrough);
      if (to > countedThrough) await q.query(`UPDATE counting_cursor SET last_event_id = $1 WHERE name = 'downloads'`, [to]);
      sinceFlush++;
      if (to >= upTo || sinceFlush >= FLUSH_WINDOWS_EVERY) {
        await writeWindows(q, state);
        await q.query(`UPDATE counting_cursor SET last_event_id = $1 WHERE name = 'windows'`, [to]);
        windowsSeen = to;
        sinceFlush = 0;
      }
      position = to;
      return counted;
    });
    if (!step) break;
    result.events += step.events;
    result.downloads += step.downloads;
  }
  if (result.events === 0) return result;
  // Windows two days old can change nothing (a request matches a window within 24 h of its start).
  await store.query(`DELETE FROM counting_windows WHERE started_at_utc < (SELECT max(at_utc) FROM download_events) - interval '48 hours'`);
  return result;
}

async function countBatch(q: Queryable, state: RunState, events: EventRow[], from: number, to: number, countedThrough: number): Promise<CountingResult> {
  await loadClips(q, state, events);
  await loadWindows(q, state, events);
  const counted: CountedRow[] = [];
  for (const e of events) {
    state.latestMs = Math.max(state.latestMs, e.at_ms);
    const range = deliveredRange({ method: 'GET', status: e.status, rangeHeader: e.range_header, rangeStart: e.range_start, bytesSent: e.bytes_sent });
    if (!range) continue;
    const ua = e.user_agent ?? '';
    let agent = state.agents.get(ua);
    if (!agent) {
      if (state.agents.size > 50_000) state.agents.clear();
      agent = agentFacts(ua);
      state.agents.set(ua, agent);
    }
    if (agent.excluded) continue;
    const clip = state.clips.get(e.clip_id)!;
    const applied = applyRequest(state.windows, {
      atMs: e.at_ms,
      clipId: e.clip_id,
      listenerHash: e.listener_hash,
      previousListenerHash: e.listener_hash_previous,
      range,
      thresholdBytes: clip.threshold,
    });
    if (applied.changed) state.dirty.set(windowKey(applied.window.listenerHash, e.clip_id), applied.window);
    if (!applied.counted || e.id <= countedThrough) continue;
    // (Spike and anomaly rules would hold the download back here: see the header.)
    counted.push({
      organization_id: e.organization_id,
      program_id: e.program_id,
      clip_id: e.clip_id,
      counted_at_utc: new Date(applied.window.startMs).toISOString(),
      listener_hash: applied.window.listenerHash,
      media_type: clip.mediaType,
      app: agent.app,
      device: agent.device,
      os: agent.os,
      // Looked up by the recorder before hashing (sync-server/analytics/geo.ts); null before 0462.
      country: e.country ?? 'ZZ',
      source: e.source ?? 'unknown',
    });
  }
  if (counted.length > 0) {
    await q.query(
      `INSERT INTO counted_downloads (organization_id, program_id, clip_id, counted_at_utc, listener_hash, media_type, app, device, os, country, source)
       SELECT * FROM json_to_recordset($1::json) AS x(organization_id uuid, program_id uuid, clip_id uuid, counted_at_utc timestamptz, listener_hash text,
                                                       media_type text, app text, device text, os text, country text, source text)`,
      [JSON.stringify(counted)],
    );
  }
  return { events: Math.max(0, to - Math.max(from, countedThrough)), downloads: counted.length };
}

/** The windows changed since the last write that can still be joined (those closed more than an hour
 *  before the latest request can change nothing more: left out), and memory let go of the rest. */
async function writeWindows(q: Queryable, state: RunState): Promise<void> {
  const horizon = state.latestMs - WINDOW_MS - 3_600_000;
  const ws = [...state.dirty.values()].filter((w) => w.startMs > horizon);
  state.dirty.clear();
  if (ws.length > 0) {
    await q.query(
      `INSERT INTO counting_windows (listener_hash, clip_id, started_at_utc, ranges, counted)
       SELECT x->>0, (x->>1)::uuid, to_timestamp((x->>2)::float8 / 1000), ARRAY(SELECT json_array_elements_text(x->3)::bigint), (x->>4)::boolean
         FROM json_array_elements($1::json) AS x
       ON CONFLICT (listener_hash, clip_id) DO UPDATE SET started_at_utc = excluded.started_at_utc, ranges = excluded.ranges, counted = excluded.counted`,
      [JSON.stringify(ws.map((w) => [w.listenerHash, w.clipId, w.startMs, w.ranges, w.counted]))],
    );
  }
  if (state.windows.size > 200_000) {
    for (const [key, w] of state.windows) if (w.startMs < horizon) state.windows.delete(key);
  }
}

/** Which events a batch reads: those that can count (GET, 2xx, bytes sent, a clip), in id order. */
const COUNTABLE = `FROM download_events
      WHERE id > $1 AND id <= $2 AND method = 'GET' AND status BETWEEN 200 AND 299 AND bytes_sent > 0
        AND clip_id IS NOT NULL AND organization_id IS NOT NULL AND program_id IS NOT NULL`;

/**
 * The batch's events that can count, in id order, read the way each store reads fastest:
 *   - PGlite as ONE JSON text, parsed here: PGlite turns rows into objects field by field, which
 *     made reading 4–5 times slower than the counting itself (bench:analytics);
 *   - PostgreSQL as plain rows: node-postgres parses text rows faster than the server builds and
 *     the client parses one JSON document (200,000 events in batches of 20,000 at load 9–12:
 *     33,000–40,000 events/s as rows against 14,000–19,000 as JSON).
 */
export async function readEvents(q: Queryable, kind: Store['kind'], from: number, to: number): Promise<EventRow[]> {
  if (kind === 'postgres') {
    return q.query<EventRow>(
      `SELECT id::float8 AS id, extract(epoch FROM at_utc)::float8 * 1000 AS at_ms, clip_id, organization_id, program_id, status, range_header,
              range_start::float8 AS range_start, bytes_sent::float8 AS bytes_sent, user_agent, source, listener_hash, listener_hash_previous, country
         ${COUNTABLE} ORDER BY id`,
      [from, to],
    );
  }
  const [row] = await q.query<{ events: string | null }>(
    `SELECT json_agg(json_build_array(id, extract(epoch FROM at_utc) * 1000, clip_id, organization_id, program_id, status, range_header,
                                      range_start, bytes_sent, user_agent, source, listener_hash, listener_hash_previous, country) ORDER BY id)::text AS events
       ${COUNTABLE}`,
    [from, to],
  );
  if (!row?.events) return [];
  const tuples = JSON.parse(row.events) as EventTuple[];
  return tuples.map((t) => ({
    id: Number(t[0]),
    at_ms: Number(t[1]),
    clip_id: t[2],
    organization_id: t[3],
    program_id: t[4],
    status: t[5],
    range_header: t[6],
    range_start: t[7] === null ? null : Number(t[7]),
    bytes_sent: Number(t[8]),
    user_agent: t[9],
    source: t[10],
    listener_hash: t[11],
    listener_hash_previous: t[12],
    country: t[13],
  }));
}

type EventTuple = [number, number, string, string, string, number, string | null, number | null, number, string | null, string | null, string, string | null, string | null];

/** The clips' thresholds and media types, read once per run. */
async function loadClips(q: Queryable, state: RunState, events: EventRow[]): Promise<void> {
  const missing = [...new Set(events.map((e) => e.clip_id))].filter((id) => !state.clips.has(id));
  if (missing.length === 0) return;
  const rows = await q.query<{ id: string; size: number | null; duration: number | null; media_type: string | null; url: string | null }>(
    `SELECT id, (data->>'PublishedAudioSizeInBytes')::float8 AS size, (data->>'PublishedDurationSeconds')::float8 AS duration,
            data->>'MediaType' AS media_type, data->'Urls'->>'AudioPublicUrl' AS url
       FROM clips WHERE id = ANY($1::uuid[])`,
    [missing],
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of missing) {
    const r = byId.get(id);
    // A clip deleted since (no row): the fallback threshold, audio.
    state.clips.set(id, {
      threshold: thresholdBytes({ sizeBytes: r?.size ?? null, durationSeconds: r?.duration ?? null }),
      mediaType: r && (r.media_type === 'AudioAndVideo' || VIDEO_EXT.test(r.url ?? '')) ? 'Video' : 'Audio',
    });
  }
}

/** The stored windows of the batch's listeners (under today's and yesterday's hash) not yet in memory. */
async function loadWindows(q: Queryable, state: RunState, events: EventRow[]): Promise<void> {
  if (state.preloaded) return;
  const hashes: string[] = [];
  const clips: string[] = [];
  const want = (hash: string | null, clip: string) => {
    if (hash === null) return;
    const key = windowKey(hash, clip);
    if (state.looked.has(key)) return;
    state.looked.add(key);
    hashes.push(hash);
    clips.push(clip);
  };
  for (const e of events) {
    want(e.listener_hash, e.clip_id);
    want(e.listener_hash_previous, e.clip_id);
  }
  if (state.looked.size > 1_000_000) state.looked.clear(); // looked up again next batch: harmless
  if (hashes.length === 0) return;
  keepWindows(state, await q.query<{ windows: string | null }>(`${WINDOWS_JSON} JOIN unnest($1::text[], $2::uuid[]) AS k(h, c) ON w.listener_hash = k.h AND w.clip_id = k.c`, [hashes, clips]));
}

/** Windows as one JSON text (see readEvents). */
const WINDOWS_JSON = `SELECT json_agg(json_build_array(w.listener_hash, w.clip_id, extract(epoch FROM w.started_at_utc) * 1000, w.ranges, w.counted))::text AS windows FROM counting_windows w`;

function keepWindows(state: RunState, rows: Array<{ windows: string | null }>): void {
  const json = rows[0]?.windows;
  if (!json) return;
  for (const [hash, clipId, startMs, ranges, counted] of JSON.parse(json) as Array<[string, string, number, number[], boolean]>) {
    const key = windowKey(hash, clipId);
    if (!state.windows.has(key)) state.windows.set(key, { listenerHash: hash, clipId, startMs: Number(startMs), ranges: ranges.map(Number), counted });
  }
}

/** A catch-up (PRELOAD_ABOVE): the windows started in the 24 hours before the run's first event. */
async function preloadWindows(store: Store, state: RunState, upTo: number, above: number): Promise<void> {
  // From the windows cursor: the run starts there (replaying what a died run had not written).
  const [cursor] = await store.query<{ last: number }>(`SELECT min(last_event_id)::float8 AS last FROM counting_cursor WHERE name IN ('downloads', 'windows')`);
  const from = cursor?.last ?? 0;
  if (upTo - from <= above) return;
  await store.tx(async (q) => {
    const [first] = await q.query<{ at: string | null }>(`SELECT min(at_utc)::text AS at FROM download_events WHERE id > $1 AND id <= $2`, [from, from + BATCH]);
    if (!first?.at) return;
    keepWindows(state, await q.query<{ windows: string | null }>(`${WINDOWS_JSON} WHERE w.started_at_utc > $1::timestamptz - interval '24 hours'`, [first.at]));
    state.preloaded = true;
  });
}

/** The recurring job (registered in createApp): counts what the recorder wrote since its last run. */
export function countingJobs(deps: AppDeps): JobHandlers {
  return {
    [COUNTING_JOB]: defineJob({
      payload: z.object({}),
      everyMs: EVERY_MS,
      run: async () => {
        // New downloads are rolled up at once rather than at the rollup's next minute.
        if ((await countDownloads(deps.store)).downloads > 0) await enqueueRollup(deps.store);
      },
    }),
  };
}
