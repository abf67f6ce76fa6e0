// Demo listening: realistic requests for the published audio of an organization's clips over the
// last N days, handed to the same recorder the public audio endpoint calls (back-dated), then
// counted and rolled up by the real jobs, so that the analytics screens have numbers to show.
// Used by `npm run listeners` (scripts/listeners.ts) and, for 90 days, by the 'demo.listeners'
// job a fresh `npm start` enqueues after seeding the demo (sync-server/main.ts).
//
//   plan (pure, deterministic for a seed)                          replay
//   listeners: country ─ real address in the geo table's ranges     events in time order
//              time zone, app or browser (real user agents)    ──> downloadRecorder.record ──> flush
//   days: weekly shape × trend × noise ──> sessions                 ──> countDownloads ──> rollUpDownloads
//         local hour (mornings, evenings) ─ listener ─ episode
//         (newer and just-released episodes more often)
//   session ──> requests the app makes: a whole GET; a `bytes=0-1` probe and ranges; a stream cut
//               short (some below one minute); HEAD first; a return later that day; and bots
//
// The seeded clips were all published in January 2025, before any window: the newest of them get
// release dates spread over the window (the bump a new episode gets needs a release to follow),
// the rest are the back catalogue. A clip really published inside the window keeps its date.
import type { AppDeps } from '../app.ts';
import { logOf } from '../observability/log.ts';
import * as z from 'zod';
import { mulberry32 } from '../audio/demo-tone.ts';
import { defineJob, type JobHandlers } from '../jobs/runner.ts';
import { enqueueJob } from '../jobs/queue.ts';
import type { Queryable, Store } from '../store/store.ts';
import { downloadRecorder, type DownloadEvent } from '../publishing/downloads.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { FALLBACK_BYTES_PER_SECOND } from '../../src/domain/iab-counting.ts';
import { countDownloads } from './counting.ts';
import { rollUpDownloads } from './analytics-rollup.ts';
import { geoTable, type GeoTable } from './geo.ts';

export const DEMO_LISTENERS_JOB = 'demo.listeners';

/** What a fresh `npm start` makes: a few thousand downloads over 90 days (a few seconds of CPU, in
 *  the background), across both demo organizations. */
export const DEMO_LISTENING = { perDay: 40, seed: 20250106 } as const;

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A published clip as the generator reads it. */
export type ListenedClip = {
  id: string;
  organizationId: string;
  programId: string;
  /** The public path of its audio (the --url mode asks for it). */
  path: string;
  sizeBytes: number;
  bytesPerSecond: number;
  publishedMs: number;
};

export type ListeningOptions = {
  days: number;
  /** Listening sessions on an average day (downloads come out a little below: some are too short). */
  perDay: number;
  seed: number;
  /** The end of the window (default now). */
  now?: Date;
};

type Behaviour = 'download' | 'apple' | 'stream' | 'speaker' | 'bot';
type Agent = { ua: string; weight: number; behaviour: Behaviour; source: string | null; head?: boolean };

/** Real user agents, weighted roughly as podcast hosts report their shares. */
const AGENTS: Agent[] = [
  { ua: 'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4_1 like Mac OS X; en_us)', weight: 24, behaviour: 'apple', source: 'feed' },
  { ua: 'AppleCoreMedia/1.0.0.22A3354 (iPhone; U; CPU OS 18_0 like Mac OS X; en_gb)', weight: 10, behaviour: 'apple', source: 'feed' },
  { ua: 'Podcasts/1.1.0 (Macintosh; OS X 14.4.1; 23E224) AppleCoreMedia/1.0.0.23E224', weight: 3, behaviour: 'apple', source: 'feed' },
  { ua: 'AppleCoreMedia/1.0.0.21L227 (iPad; U; CPU OS 17_4 like Mac OS X; de_de)', weight: 3, behaviour: 'apple', source: 'feed' },
  { ua: 'Spotify/8.9.38 iOS/17.4.1 (iPhone15,2)', weight: 9, behaviour: 'download', source: 'feed' },
  { ua: 'Spotify/8.9.36 Android/34 (SM-S918B)', weight: 8, behaviour: 'download', source: 'feed' },
  { ua: 'Overcast/3.0 (+http://overcast.fm/; iOS podcast app)', weight: 4, behaviour: 'download', source: 'feed' },
  { ua: 'Pocket Casts/7.61 (Android 14; Pixel 8)', weight: 4, behaviour: 'download', source: 'feed' },
  { ua: 'Castro 2024.4/1412 Like iTunes', weight: 2, behaviour: 'download', source: 'feed' },
  { ua: 'AntennaPod/3.4.0', weight: 2, behaviour: 'download', source: 'feed', head: true },
  { ua: 'PodcastAddict/v5 (+https://podcastaddict.com/; Android podcast app; Android 13)', weight: 3, behaviour: 'download', source: 'feed', head: true },
  { ua: 'CastBox/9.12.1-240401011 (Linux;Android 12) ExoPlayerLib/2.19.1', weight: 1, behaviour: 'stream', source: 'feed' },
  { ua: 'AlexaMediaPlayer/2.1.4676.0 (Linux;Android 5.1.1) ExoPlayerLib/1.5.9', weight: 2, behaviour: 'speaker', source: 'feed' },
  { ua: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36', weight: 6, behaviour: 'stream', source: 'page' },
  { ua: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15', weight: 3, behaviour: 'stream', source: 'embed' },
  { ua: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1', weight: 3, behaviour: 'stream', source: 'page' },
  { ua: 'Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36', weight: 3, behaviour: 'stream', source: 'web' },
  { ua: 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', weight: 1, behaviour: 'stream', source: 'embed' },
];

/** Crawlers that fetch episodes with no listener behind them (the counting job leaves them out). */
const BOTS: Agent[] = [
  { ua: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)', weight: 3, behaviour: 'bot', source: null },
  { ua: 'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)', weight: 2, behaviour: 'bot', source: null },
  { ua: 'Spotify/1.0', weight: 2, behaviour: 'bot', source: 'feed' },
  { ua: 'iTMS', weight: 1, behaviour: 'bot', source: 'feed' },
  { ua: 'Overcast/1.0 Podcast Sync (3 subscribers; feed-id=2771; +http://overcast.fm/)', weight: 1, behaviour: 'bot', source: 'feed' },
];

/** Where listeners are, and the UTC offsets (hours) of their time zones (no summer time: a demo). */
const COUNTRIES: Array<{ cc: string; weight: number; offsets: number[] }> = [
  { cc: 'US', weight: 32, offsets: [-5, -5, -6, -7, -8] },
  { cc: 'GB', weight: 11, offsets: [0] },
  { cc: 'DE', weight: 9, offsets: [1] },
  { cc: 'CA', weight: 5, offsets: [-5, -8] },
  { cc: 'AU', weight: 4, offsets: [10, 8] },
  { cc: 'FR', weight: 4, offsets: [1] },
  { cc: 'BR', weight: 4, offsets: [-3] },
  { cc: 'IN', weight: 4, offsets: [5.5] },
  { cc: 'NL', weight: 3, offsets: [1] },
  { cc: 'ES', weight: 3, offsets: [1] },
  { cc: 'MX', weight: 3, offsets: [-6] },
  { cc: 'JP', weight: 2, offsets: [9] },
  { cc: 'IE', weight: 2, offsets: [0] },
  { cc: 'SE', weight: 2, offsets: [1] },
  { cc: 'ZA', weight: 1, offsets: [2] },
  { cc: 'NZ', weight: 1, offsets: [12] },
];

/** Listening by local hour: the commute, lunch, the way home and the evening. */
const HOURS = [1, 0.5, 0.3, 0.2, 0.3, 1, 3, 6, 7, 5, 3.5, 3, 3.5, 3, 3, 3, 4, 5.5, 5, 4, 3.5, 3, 2.5, 1.5];
/** By UTC weekday (Sunday first): weekdays more than weekends. */
const WEEKDAYS = [0.72, 1.1, 1.15, 1.1, 1.05, 0.95, 0.78];

/** Index into weights, by a uniform number in [0, 1). */
function pickBy(cumulative: number[], u: number): number {
  const x = u * cumulative[cumulative.length - 1]!;
  let lo = 0;
  let hi = cumulative.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cumulative[mid]! > x) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

function cumulate(weights: number[]): number[] {
  let sum = 0;
  return weights.map((w) => (sum += w));
}

type Listener = { address: string; offsetHours: number; agent: Agent };

/**
 * The requests of N days of listening to `clips`, in time order. Pure: the same clips, geo table
 * and options give the same events.
 */
export function planListening(clips: ListenedClip[], geo: GeoTable, options: ListeningOptions): DownloadEvent[] {
  const rand = mulberry32(options.seed);
  const endMs = (options.now ?? new Date()).getTime();
  const startMs = endMs - options.days * DAY_MS;
  if (clips.length === 0 || options.days <= 0 || options.perDay <= 0) return [];

  // Releases: clips published in the window keep their date; the newest others are spread over it.
  const ordered = [...clips].sort((a, b) => a.publishedMs - b.publishedMs || (a.id < b.id ? -1 : 1));
  const before = ordered.filter((c) => c.publishedMs < startMs);
  const spread = Math.min(Math.floor(before.length * 0.4), Math.round(options.days * 3));
  const release = new Map<string, number>();
  before.forEach((c, i) => {
    const k = i - (before.length - spread);
    // The back catalogue: a day apart, before the window.
    if (k < 0) release.set(c.id, startMs - (before.length - spread - i) * DAY_MS);
    else release.set(c.id, Math.floor((startMs + ((k + 0.5) / spread) * (endMs - startMs)) / DAY_MS) * DAY_MS + 5 * HOUR_MS);
  });
  for (const c of ordered) if (c.publishedMs >= startMs) release.set(c.id, c.publishedMs);
  const programs = [...new Set(clips.map((c) => c.programId))].sort();
  const programPull = new Map(programs.map((p) => [p, 0.4 + rand() * 1.2]));
  const clipPull = new Map(ordered.map((c) => [c.id, (0.7 + rand() * 0.6) * programPull.get(c.programId)!]));

  // Listeners: a pool that comes back day after day (a few heavy listeners, many occasional ones).
  const poolSize = Math.max(40, Math.round(options.perDay * 4));
  const countryCum = cumulate(COUNTRIES.map((c) => c.weight));
  const agentCum = cumulate(AGENTS.map((a) => a.weight));
  const homes = Array.from({ length: poolSize }, () => COUNTRIES[pickBy(countryCum, rand())]!);
  const addresses = new Map<string, string[]>();
  for (const c of COUNTRIES) {
    const n = homes.filter((h) => h === c).length;
    if (n > 0) addresses.set(c.cc, geo.addressesIn(c.cc, n, (k) => Math.floor(rand() * k)));
  }
  const listeners: Listener[] = homes.map((home) => ({
    // A country the table does not know (no database): a documentation address, counted as ZZ.
    address: addresses.get(home.cc)!.pop() ?? `203.0.113.${1 + Math.floor(rand() * 250)}`,
    offsetHours: home.offsets[Math.floor(rand() * home.offsets.length)]!,
    agent: AGENTS[pickBy(agentCum, rand())]!,
  }));
  const listenerCum = cumulate(listeners.map((_, i) => 1 / (1 + i) ** 0.6));
  const hourCum = cumulate(HOURS);
  const botCum = cumulate(BOTS.map((b) => b.weight));
  const botAddresses = geo.addressesIn('US', 6, (k) => Math.floor(rand() * k));

  const events: DownloadEvent[] = [];
  const request = (at: number, clip: ListenedClip, l: { address: string; agent: Agent }, r: Partial<DownloadEvent>) => {
    if (at > endMs || at < startMs) return;
    events.push({
      at: new Date(at),
      clipId: clip.id,
      organizationId: clip.organizationId,
      programId: clip.programId,
      method: 'GET',
      status: 200,
      rangeHeader: null,
      rangeStart: null,
      rangeEnd: null,
      bytesSent: 0,
      userAgent: l.agent.ua,
      source: l.agent.source,
      adFree: false,
      address: l.address,
      ...r,
    });
  };
  const range = (start: number, end: number, sent = end - start + 1) => ({ status: 206, rangeHeader: `bytes=${start}-${end}`, rangeStart: start, rangeEnd: end, bytesSent: sent });

  /** The requests one sitting makes: from `from` (bytes), listening `seconds`. */
  function sitting(at: number, clip: ListenedClip, l: Listener, from: number, seconds: number): number {
    const size = clip.sizeBytes;
    const want = Math.min(size - from, Math.round(seconds * clip.bytesPerSecond));
    if (want <= 0) return from;
    switch (l.agent.behaviour) {
      case 'download': {
        // The whole file at once, now and then a dropped connection (a partial 200).
        if (l.agent.head) request(at, clip, l, { method: 'HEAD' });
        const sent = rand() < 0.05 ? Math.round(size * (0.2 + rand() * 0.7)) : size;
        request(at + 1_000, clip, l, { bytesSent: sent });
        return sent;
      }
      case 'apple': {
        // A probe for the size, then ranges as the player buffers ahead.
        if (from === 0) request(at, clip, l, range(0, 1));
        let pos = from;
        let t = at + 500;
        const chunk = 3_000_000 + Math.floor(rand() * 3_000_000);
        while (pos < from + want) {
          const end = Math.min(size - 1, pos + chunk - 1);
          request(t, clip, l, range(pos, end));
          pos = end + 1;
          t += Math.round((chunk / clip.bytesPerSecond) * 800);
        }
        return pos;
      }
      case 'stream':
      case 'speaker': {
        // One open-ended range, closed when the listener stops; a browser now and then seeks ahead.
        request(at, clip, l, { ...range(from, size - 1, want), rangeHeader: `bytes=${from}-` });
        if (l.agent.behaviour === 'stream' && rand() < 0.2 && from + want < size) {
          const seek = Math.min(size - 1, from + want + Math.floor(rand() * (size - from - want)));
          const more = Math.min(size - seek, Math.round(60 * clip.bytesPerSecond * rand() * 4));
          request(at + seconds * 1000, clip, l, { ...range(seek, size - 1, Math.max(1, more)), rangeHeader: `bytes=${seek}-` });
        }
        return from + want;
      }
      case 'bot':
        return from;
    }
  }

  for (let d = 0; d < options.days; d++) {
    const dayStart = startMs + d * DAY_MS;
    const weekday = new Date(dayStart + DAY_MS / 2).getUTCDay();
    const trend = 0.8 + (0.35 * d) / Math.max(1, options.days - 1);
    const sessions = Math.round(options.perDay * WEEKDAYS[weekday]! * trend * (0.85 + rand() * 0.3));
    // Episodes on this day: more for the newer, a bump for a just-released one, none before release.
    const dayEnd = dayStart + DAY_MS;
    const weights = ordered.map((c) => {
      const released = release.get(c.id)!;
      if (released > dayEnd) return 0;
      const age = Math.max(0, (dayStart - released) / DAY_MS);
      return clipPull.get(c.id)! * (0.05 + 4 * Math.exp(-age / 1.5) + 1 / (1 + age / 7));
    });
    const clipCum = cumulate(weights);
    if (clipCum[clipCum.length - 1]! <= 0) continue;
    for (let s = 0; s < sessions; s++) {
      const l = listeners[pickBy(listenerCum, rand())]!;
      const clip = ordered[pickBy(clipCum, rand())]!;
      // The listener's local hour, placed on this UTC day.
      const localHour = pickBy(hourCum, rand()) + rand();
      let at = dayStart + ((((localHour - l.offsetHours) % 24) + 24) % 24) * HOUR_MS;
      const released = release.get(clip.id)!;
      if (at < released) at = released + rand() * 3 * HOUR_MS;
      // How long they listen: mostly a good part of the episode, some under a minute.
      const durationSeconds = clip.sizeBytes / clip.bytesPerSecond;
      const short = rand() < 0.12;
      const seconds = short ? 10 + rand() * 45 : durationSeconds * (0.15 + rand() * 0.85);
      const stopped = sitting(at, clip, l, 0, seconds);
      // Some come back later that day and go on where they stopped (the same download).
      if (rand() < 0.15 && stopped < clip.sizeBytes) sitting(at + (1 + rand() * 5) * HOUR_MS, clip, l, stopped, durationSeconds * rand() * 0.5);
    }
    // Crawlers: through the day, whole files and HEADs.
    const bots = Math.round(options.perDay * 0.12 * (0.7 + rand() * 0.6));
    for (let b = 0; b < bots; b++) {
      const agent = BOTS[pickBy(botCum, rand())]!;
      const clip = ordered[pickBy(clipCum, rand())]!;
      const at = Math.max(dayStart + rand() * DAY_MS, release.get(clip.id)!);
      const who = { agent, address: botAddresses[b % Math.max(1, botAddresses.length)] ?? '203.0.113.250' };
      request(at, clip, who, rand() < 0.3 ? { method: 'HEAD' } : { bytesSent: clip.sizeBytes });
    }
  }
  return events.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The organizations' published clips whose audio is public, oldest first. */
export async function publishedClips(q: Queryable, organizationIds: string[]): Promise<ListenedClip[]> {
  const rows = await q.query<{ id: string; organization_id: string; program_id: string; data: Record<string, unknown> }>(
    `SELECT id, organization_id, program_id, data FROM clips
      WHERE organization_id = ANY($1::uuid[]) AND NOT deleted AND program_id IS NOT NULL
        AND publish_state = 'Published' AND visibility IN ('Public', 'Unlisted')
      ORDER BY id`,
    [organizationIds],
  );
  return rows.map((r) => {
    const d = r.data;
    const size = typeof d['PublishedAudioSizeInBytes'] === 'number' && d['PublishedAudioSizeInBytes'] > 0 ? d['PublishedAudioSizeInBytes'] : null;
    const duration = typeof d['PublishedDurationSeconds'] === 'number' && d['PublishedDurationSeconds'] > 0 ? d['PublishedDurationSeconds'] : null;
    // The demo's files are seconds long: an episode of 20-60 minutes at 128 kbit/s is modelled
    // instead (the counting job then uses the same fallback rate for its one-minute threshold).
    const modelled = size === null ? Math.round((20 + (parseInt(r.id.slice(0, 4), 16) % 41)) * 60 * FALLBACK_BYTES_PER_SECOND) : size;
    const urls = (d['Urls'] ?? {}) as Record<string, unknown>;
    const fileName = typeof d['UploadedAudioFileName'] === 'string' ? d['UploadedAudioFileName'] : 'episode.mp3';
    const path = typeof urls['AudioPublicUrl'] === 'string' ? urls['AudioPublicUrl'] : publicPaths.audio(r.id, fileName.slice(fileName.lastIndexOf('.') + 1) || 'mp3');
    return {
      id: r.id,
      organizationId: r.organization_id,
      programId: r.program_id,
      path,
      sizeBytes: modelled,
      bytesPerSecond: size !== null && duration !== null ? size / duration : FALLBACK_BYTES_PER_SECOND,
      publishedMs: typeof d['PublishedUtc'] === 'string' ? Date.parse(d['PublishedUtc']) : 0,
    };
  });
}

export type ListeningResult = { clips: number; events: number; downloads: number; seconds: number };

/**
 * Plans N days of listening to the organizations' published clips, records the requests through
 * the public audio endpoint's recorder (skipping those at or before `after`: a job resumed), then
 * counts and rolls them up.
 */
export async function replayListening(store: Store, options: ListeningOptions & { organizationIds: string[]; after?: Date; geo?: GeoTable }): Promise<ListeningResult> {
  const started = performance.now();
  const clips = await publishedClips(store, options.organizationIds);
  if (clips.length === 0) return { clips: 0, events: 0, downloads: 0, seconds: (performance.now() - started) / 1000 };
  const geo = options.geo ?? (await geoTable());
  const after = options.after?.getTime() ?? -Infinity;
  const events = planListening(clips, geo, options).filter((e) => e.at.getTime() > after);
  // The recorder drops a batch it could not write (right for live traffic); a replay stops instead.
  let failed: unknown = null;
  const recorder = downloadRecorder(store, { geo: async () => geo, onError: (err) => void (failed ??= err) });
  for (const e of events) recorder.record(e);
  await recorder.close();
  if (failed !== null) throw failed;
  const counted = await countDownloads(store);
  await rollUpDownloads(store);
  return { clips: clips.length, events: events.length, downloads: counted.downloads, seconds: (performance.now() - started) / 1000 };
}

const DemoListenersPayload = z.object({
  organizationIds: z.array(z.string()),
  days: z.number().int().positive(),
  perDay: z.number().positive(),
  seed: z.number().int(),
  /** The window's end: the moment the demo was seeded (a retry plans the same window). */
  until: z.string(),
});
type DemoListenersPayload = z.infer<typeof DemoListenersPayload>;

/** Queues the demo's listening (main.ts, after seeding an empty store): once, as a durable job. */
export async function enqueueDemoListeners(q: Queryable, payload: Omit<DemoListenersPayload, 'until'> & { until: Date }): Promise<void> {
  await enqueueJob(q, DEMO_LISTENERS_JOB, { ...payload, until: payload.until.toISOString() }, { singletonKey: DEMO_LISTENERS_JOB, maxAttempts: 3 });
}

export function demoListenersJobs(deps: Pick<AppDeps, 'store' | 'log'>): JobHandlers {
  return {
    [DEMO_LISTENERS_JOB]: defineJob({
      payload: DemoListenersPayload,
      run: async (p) => {
        // A retry (the instance stopped half way) goes on after the last request an earlier
        // attempt recorded: the plan is the same, so nothing is recorded twice.
        const [last] = await deps.store.query<{ at: string | null }>(`SELECT max(at_utc)::text AS at FROM download_events WHERE at_utc < $1::timestamptz`, [p.until]);
        const result = await replayListening(deps.store, {
          organizationIds: p.organizationIds,
          days: p.days,
          perDay: p.perDay,
          seed: p.seed,
          now: new Date(p.until),
          ...(last?.at ? { after: new Date(last.at) } : {}),
        });
        logOf(deps).info({ events: result.events, days: p.days, downloads: result.downloads, seconds: Math.round(result.seconds * 10) / 10 }, 'demo listening made');
      },
    }),
  };
}
