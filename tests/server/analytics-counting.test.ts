// The counting rules, table-driven: a fixed list of raw requests, each with the downloads it must
// make WRITTEN BY HAND from the IAB Tech Lab Podcast Measurement Technical Guidelines (v2.1/v2.2
// text paraphrased per row), not from the code. The requests go through the real recorder
// (sync-server/publishing/downloads.ts: salts, hashes, IPv6 /64) and the real counting job
// (sync-server/analytics/counting.ts) on PGlite and PostgreSQL: once all at once, once with the job run after
// every request (windows stored and loaded between runs), and again (a re-run counts nothing twice).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { downloadRecorder } from '../../sync-server/publishing/downloads.ts';
import { countDownloads } from '../../sync-server/analytics/counting.ts';
import { HEADER_ALLOWANCE_BYTES } from '../../src/domain/iab-counting.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const ORG = randomUUID();
const PROGRAM = randomUUID();
/** 60 minutes at 8,000 B/s: a minute is 480,000 bytes; with the header allowance the threshold is
 *  65,536 + 480,000 = 545,536 bytes. */
const EPISODE = randomUUID();
const EPISODE_SIZE = 28_800_000;
/** 30 seconds, 240,000 bytes: shorter than a minute, so only the whole file counts. */
const SHORT = randomUUID();
const SHORT_SIZE = 240_000;

const UA = {
  apple: 'AppleCoreMedia/1.0.0.20E252 (iPhone; U; CPU OS 16_4_1 like Mac OS X; en_us)',
  overcast: 'Overcast/3.0 (+http://overcast.fm/; iOS podcast app)',
  spotify: 'Spotify/8.8.12 Android/33 (SM-G991B)',
  pocketCasts: 'Pocket Casts/7.40 (Android 14; Pixel 8)',
  chrome: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36',
  googlebot: 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  spotifyCrawler: 'Spotify/1.0',
  watch: 'atc/1.0 watchOS/9.4 model/Watch6,1 hwp/t8301 build/20T248 (6; dt:251) AMS/1',
};

type Req = {
  /** Who (the listener is address + user agent; never stored). */
  who: string;
  at: string;
  address: string;
  ua: string | null;
  method?: 'GET' | 'HEAD';
  status?: number;
  /** The Range header and the bytes then sent (a 206 starts at its range's first byte). */
  range?: [number, number];
  sent: number;
  clip?: string;
  source?: string | null;
  /** Downloads this request makes (0 or 1), by hand from the guidelines. */
  counts: 0 | 1;
  /** The rule, paraphrased. */
  rule: string;
};

const FULL = EPISODE_SIZE;
const T0 = '2026-03-10T10:00:00.000Z';
const at = (iso: string, plusMinutes: number) => new Date(Date.parse(iso) + plusMinutes * 60_000).toISOString();

const REQUESTS: Req[] = [
  // Listener A: one address, one app, whole-file downloads.
  { who: 'A', at: T0, address: '203.0.113.10', ua: UA.apple, sent: FULL, source: 'feed', counts: 1, rule: 'a whole-file download by a listener (IP + user agent) is a download' },
  { who: 'A', at: at(T0, 120), address: '203.0.113.10', ua: UA.apple, sent: FULL, source: 'feed', counts: 0, rule: 'the same listener, same episode, within 24 hours: de-duplicated, one download' },
  { who: 'A', at: at(T0, 23 * 60 + 59), address: '203.0.113.10', ua: UA.apple, sent: FULL, source: 'feed', counts: 0, rule: 'still within the 24 hours from the first request, though on the next calendar day: not a calendar day, a rolling 24 hours' },
  { who: 'A', at: at(T0, 24 * 60 + 1), address: '203.0.113.10', ua: UA.apple, sent: FULL, source: 'feed', counts: 1, rule: 'more than 24 hours after the first request: a new download' },
  // Listener B: ranges that together pass one minute, by their union.
  { who: 'B', at: T0, address: '198.51.100.7', ua: UA.overcast, status: 206, range: [0, 299_999], sent: 300_000, counts: 0, rule: 'a partial request of 300,000 bytes is less than one minute of audio (480,000) plus the header: not yet' },
  { who: 'B', at: at(T0, 5), address: '198.51.100.7', ua: UA.overcast, status: 206, range: [0, 299_999], sent: 300_000, counts: 0, rule: 'the same bytes again: the bytes delivered are the union of ranges (300,000), not their sum (600,000)' },
  { who: 'B', at: at(T0, 10), address: '198.51.100.7', ua: UA.overcast, status: 206, range: [300_000, 599_999], sent: 300_000, counts: 1, rule: 'the union is now 600,000 bytes: one minute of audio plus the header delivered, a download' },
  { who: 'B', at: at(T0, 30), address: '198.51.100.7', ua: UA.overcast, status: 206, range: [600_000, 28_799_999], sent: 28_200_000, counts: 0, rule: 'the rest of the file within 24 hours: the same download' },
  // Listener C: overlapping ranges that miss one minute; probes and HEAD add nothing.
  { who: 'C', at: T0, address: '198.51.100.8', ua: UA.chrome, status: 206, range: [0, 1], sent: 2, source: 'embed', counts: 0, rule: 'a bytes=0-1 probe is not a download and delivers no audio' },
  { who: 'C', at: at(T0, 1), address: '198.51.100.8', ua: UA.chrome, method: 'HEAD', sent: 0, source: 'embed', counts: 0, rule: 'a HEAD request delivers no audio' },
  { who: 'C', at: at(T0, 2), address: '198.51.100.8', ua: UA.chrome, status: 206, range: [0, 199_999], sent: 200_000, source: 'embed', counts: 0, rule: '200,000 bytes: less than one minute' },
  { who: 'C', at: at(T0, 3), address: '198.51.100.8', ua: UA.chrome, status: 206, range: [100_000, 399_999], sent: 300_000, source: 'embed', counts: 0, rule: 'overlapping ranges: union 400,000 bytes (the sum would be 500,000), still less than a minute plus the header' },
  { who: 'C', at: at(T0, 4), address: '198.51.100.8', ua: UA.chrome, status: 416, sent: 0, source: 'embed', counts: 0, rule: 'an error answer delivers nothing' },
  { who: 'C', at: at(T0, 25 * 60), address: '198.51.100.8', ua: UA.chrome, status: 206, range: [400_000, 599_999], sent: 200_000, source: 'embed', counts: 0, rule: 'after 24 hours a new window: the bytes of the earlier one do not carry over (200,000 is not a minute)' },
  // Bots and crawlers, and the Apple Watch pre-download.
  { who: 'bot', at: T0, address: '66.249.66.1', ua: UA.googlebot, sent: FULL, counts: 0, rule: 'known bots and crawlers are filtered out' },
  { who: 'crawler', at: T0, address: '35.186.1.1', ua: UA.spotifyCrawler, sent: FULL, counts: 0, rule: 'podcast platform crawlers fetching for ingestion are not listeners' },
  { who: 'watch', at: T0, address: '203.0.113.77', ua: UA.watch, sent: FULL, counts: 0, rule: 'Apple watchOS pre-download of an episode the phone also fetched: filtered' },
  { who: 'nobody', at: T0, address: '203.0.113.78', ua: UA.apple, status: 304, sent: 0, counts: 0, rule: 'a 304 (not modified) delivers no bytes' },
  // IPv6: two addresses in one /64 are one listener; another /64 is another.
  { who: 'F', at: T0, address: '2001:db8:abcd:12::1', ua: UA.spotify, sent: FULL, source: 'api', counts: 1, rule: 'IPv6 addresses are truncated to their first 64 bits before de-duplication' },
  { who: 'F', at: at(T0, 60), address: '2001:db8:abcd:12:ffff:ffff:ffff:ffff', ua: UA.spotify, sent: FULL, source: 'api', counts: 0, rule: 'another address in the same /64 with the same user agent, within 24 hours: the same listener' },
  { who: 'F2', at: at(T0, 60), address: '2001:db8:abcd:13::1', ua: UA.spotify, sent: FULL, source: 'api', counts: 1, rule: 'an address in another /64: another listener' },
  // Two user agents behind one address are two listeners.
  { who: 'G1', at: T0, address: '192.0.2.55', ua: UA.apple, sent: FULL, source: null, counts: 1, rule: 'a listener is the combination of IP address and user agent' },
  { who: 'G2', at: at(T0, 1), address: '192.0.2.55', ua: UA.spotify, sent: FULL, source: null, counts: 1, rule: 'the same address with another user agent: another listener, another download' },
  // Across midnight UTC (the recorder's salt changes at midnight).
  { who: 'H', at: '2026-03-10T23:50:00.000Z', address: '192.0.2.99', ua: UA.pocketCasts, status: 206, range: [0, 299_999], sent: 300_000, counts: 0, rule: '300,000 bytes before midnight: not yet a minute' },
  { who: 'H', at: '2026-03-11T00:10:00.000Z', address: '192.0.2.99', ua: UA.pocketCasts, status: 206, range: [300_000, 599_999], sent: 300_000, counts: 1, rule: 'after midnight, within 24 hours of the first request: the same listener; the union passes one minute' },
  { who: 'H', at: '2026-03-11T20:00:00.000Z', address: '192.0.2.99', ua: UA.pocketCasts, sent: FULL, counts: 0, rule: 'within 24 hours of the window\'s first request (23:50): de-duplicated' },
  { who: 'H', at: '2026-03-11T23:51:00.000Z', address: '192.0.2.99', ua: UA.pocketCasts, sent: FULL, counts: 1, rule: 'more than 24 hours after 23:50 the day before: a new download' },
  { who: 'I', at: '2026-03-10T23:30:00.000Z', address: '192.0.2.100', ua: UA.apple, sent: FULL, counts: 1, rule: 'a whole-file download before midnight' },
  { who: 'I', at: '2026-03-11T00:30:00.000Z', address: '192.0.2.100', ua: UA.apple, sent: FULL, counts: 0, rule: 'the same listener after midnight, within 24 hours: not counted again (a calendar-day count would count it)' },
  // A file shorter than a minute must be delivered whole.
  { who: 'J', at: T0, address: '192.0.2.120', ua: UA.apple, clip: SHORT, status: 206, range: [0, 199_999], sent: 200_000, counts: 0, rule: 'a 30-second file: part of it is not a download' },
  { who: 'J', at: at(T0, 1), address: '192.0.2.120', ua: UA.apple, clip: SHORT, status: 206, range: [200_000, SHORT_SIZE - 1], sent: SHORT_SIZE - 200_000, counts: 1, rule: 'the whole 30-second file delivered: a download' },
  { who: 'J', at: at(T0, 2), address: '192.0.2.120', ua: UA.apple, sent: FULL, counts: 1, rule: 'the same listener, another episode: de-duplication is per episode' },
];

async function seed(t: TestStore): Promise<void> {
  const stamp = '2026-01-01T00:00:00Z';
  await t.store.query(`INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version) VALUES ($1, $1, 'Org', 'Podcaster', $2, $2, 1)`, [ORG, stamp]);
  for (const [id, size, duration] of [[EPISODE, EPISODE_SIZE, 3600], [SHORT, SHORT_SIZE, 30]] as const) {
    await t.store.query(
      `INSERT INTO clips (id, organization_id, program_id, state, publish_state, visibility, data, created_at_utc, modified_at_utc, version)
       VALUES ($1, $2, $3, 'Ready', 'Published', 'Public', $4::jsonb, $5, $5, 1)`,
      [id, ORG, PROGRAM, JSON.stringify({ PublishedAudioSizeInBytes: size, PublishedDurationSeconds: duration, MediaType: 'Audio' }), stamp],
    );
  }
}

function record(recorder: ReturnType<typeof downloadRecorder>, r: Req): void {
  const status = r.status ?? 200;
  recorder.record({
    at: new Date(r.at),
    clipId: r.clip ?? EPISODE,
    organizationId: ORG,
    programId: PROGRAM,
    method: r.method ?? 'GET',
    status,
    rangeHeader: r.range ? `bytes=${r.range[0]}-${r.range[1]}` : null,
    rangeStart: r.range && status === 206 ? r.range[0] : null,
    rangeEnd: r.range && status === 206 ? r.range[1] : null,
    bytesSent: r.sent,
    userAgent: r.ua,
    source: r.source ?? null,
    adFree: false,
    address: r.address,
  });
}

type Counted = { listener_hash: string; clip_id: string; counted_at_utc: string; app: string; device: string; os: string; country: string; source: string; media_type: string };

const readCounted = (t: TestStore) =>
  t.store.query<Counted>(
    `SELECT listener_hash, clip_id, to_char(counted_at_utc AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS counted_at_utc, app, device, os, country, source, media_type FROM counted_downloads ORDER BY id`,
  );

describe.each(storeKinds)('counting downloads by the IAB rules (recorder + job) on %s', (kind) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(kind);
    await seed(t);
  });
  afterAll(async () => {
    await t.drop();
  });
  beforeEach(async () => {
    await t.store.exec(`DELETE FROM download_events; DELETE FROM download_salts; DELETE FROM counted_downloads; DELETE FROM counting_windows; UPDATE counting_cursor SET last_event_id = 0;`);
    // The rows above are written for a threshold of 545,536 bytes: keep them honest if the allowance changes.
    expect(HEADER_ALLOWANCE_BYTES + 480_000).toBe(545_536);
  });

  it('counts the table in two runs, writes nothing more when run again, and carries the dimensions', async () => {
    // Split after H's request at 23:50: the second run finds H's window among those it loads at
    // once (a catch-up, preloadAbove 0), the first looks windows up per batch.
    const split = REQUESTS.findIndex((r) => r.who === 'H') + 1;
    const recorder = downloadRecorder(t.store);
    for (const r of REQUESTS.slice(0, split)) record(recorder, r);
    await recorder.flush();
    const first = await countDownloads(t.store, { batch: 7 });
    for (const r of REQUESTS.slice(split)) record(recorder, r);
    await recorder.close();
    const second = await countDownloads(t.store, { batch: 5, preloadAbove: 0 });
    const total = REQUESTS.reduce((n, r) => n + r.counts, 0);
    expect(first.downloads).toBe(REQUESTS.slice(0, split).reduce((n, r) => n + r.counts, 0));
    expect(first.downloads + second.downloads).toBe(total);
    expect(await countDownloads(t.store)).toEqual({ events: 0, downloads: 0 });
    // A run that died after counting but before writing its windows: the next replays the events
    // into the windows and counts none of them again; A's request 24 h 02 min after T0 then finds
    // the window its 24 h 01 min request opened (one download in 24 hours).
    await t.store.exec(`DELETE FROM counting_windows; UPDATE counting_cursor SET last_event_id = 0 WHERE name = 'windows';`);
    expect(await countDownloads(t.store, { batch: 6 })).toEqual({ events: 0, downloads: 0 });
    const again = downloadRecorder(t.store);
    record(again, { ...REQUESTS[0]!, at: at(T0, 24 * 60 + 2) });
    await again.close();
    expect(await countDownloads(t.store)).toEqual({ events: 1, downloads: 0 });
    const rows = await readCounted(t);
    expect(rows).toHaveLength(total);
    // A download belongs to the hour of its window's first request, by hand: A at T0 and 24 h 01 min
    // later; B at T0 (its first range); F and F2; G1 and G2; H at 23:50 (not 00:10, when it
    // passed) and 23:51 the next day; I at 23:30; J's short clip at T0 and its episode at T0 + 2 min.
    expect(rows.map((r) => r.counted_at_utc).sort()).toEqual(
      [T0, at(T0, 24 * 60 + 1), T0, T0, at(T0, 60), T0, at(T0, 1), '2026-03-10T23:50:00.000Z', '2026-03-11T23:51:00.000Z', '2026-03-10T23:30:00.000Z', T0, at(T0, 2)].sort(),
    );
    // One listener_hash per listener within a window, another for another listener.
    expect(new Set(rows.map((r) => `${r.listener_hash}|${r.clip_id}|${r.counted_at_utc}`)).size).toBe(total);
    const a = rows.find((r) => r.counted_at_utc === T0 && r.app === 'Apple Podcasts' && r.source === 'feed');
    expect(a).toMatchObject({ device: 'Mobile', os: 'iOS', country: 'ZZ', media_type: 'Audio', clip_id: EPISODE });
    expect(rows.filter((r) => r.source === 'api')).toHaveLength(2); // F and F2
    expect(rows.filter((r) => r.source === 'unknown')).toHaveLength(8); // no source: B, G1, G2, H ×2, I, J ×2
    expect(rows.filter((r) => r.app === 'Spotify' && r.os === 'Android')).toHaveLength(3); // F, F2, G2
    expect(rows.filter((r) => r.clip_id === SHORT)).toHaveLength(1);
  });

  it('counts the same when the job runs after every request (windows stored between runs)', async () => {
    const recorder = downloadRecorder(t.store);
    for (const r of REQUESTS) {
      record(recorder, r);
      await recorder.flush();
      const run = await countDownloads(t.store);
      expect(run.downloads, `${r.who} at ${r.at}: ${r.rule}`).toBe(r.counts);
    }
    await recorder.close();
    expect((await readCounted(t)).length).toBe(REQUESTS.reduce((n, r) => n + r.counts, 0));
  });
});
