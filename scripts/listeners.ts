// `npm run listeners -- --days N [--org <id>] [--per-day K] [--seed S] [--url <origin>]`
//
// Replays realistic listening over the last N days (sync-server/analytics/listeners.ts): podcast
// apps and browsers, probes, partial and repeated ranges, HEADs and bots, listeners in several
// countries and time zones, for the published clips of the demo organizations (or --org).
//
// Without --url: into the store `npm start` uses (PGlite in .data, or DATABASE_URL), through the
// public audio endpoint's recorder with back-dated times, then counted and rolled up. PGlite is
// one process's: stop the server first (with DATABASE_URL it may keep running).
// With --url: the same requests sent to a running server's public audio URLs, for the clips its
// demo feeds list. The server stamps them with its own clock and the connection's address, so they
// all land now, from 127.0.0.1 (country ZZ): a way to exercise the endpoint, not to fill history.
import { parseArgs } from 'node:util';
import { planListening, replayListening, type ListenedClip } from '../sync-server/analytics/listeners.ts';
import { geoTable } from '../sync-server/analytics/geo.ts';
import { ORG_DEMO, ORG_PODCASTS, PROGRAMS, seedId } from '../sync-server/seed.ts';
import { openStore } from '../sync-server/store/open.ts';
import { publicPaths } from '../src/domain/public-urls.ts';

const USAGE = 'usage: npm run listeners -- --days N [--org <organization id>]... [--per-day K] [--seed S] [--url http://127.0.0.1:8787]';

const { values } = parseArgs({
  options: {
    days: { type: 'string', default: '90' },
    org: { type: 'string', multiple: true },
    'per-day': { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    url: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const whole = (name: string, text: string, min: number): number => {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) {
    console.error(`--${name} must be a whole number of at least ${min} (got "${text}")\n${USAGE}`);
    process.exit(2);
  }
  return n;
};
const days = whole('days', values.days, 1);
const perDay = whole('per-day', values['per-day'], 1);
const seed = whole('seed', values.seed, 0);
const organizationIds = values.org ?? [ORG_DEMO, ORG_PODCASTS];

if (values.url) await overHttp(values.url);
else {
  const store = await openStore({ databaseUrl: process.env.DATABASE_URL || undefined });
  try {
    const result = await replayListening(store, { organizationIds, days, perDay, seed });
    if (result.clips === 0) console.log('No published clips with public audio in those organizations (seed the demo with `npm start` or `npm run seed`).');
    else console.log(`${result.events} requests for ${result.clips} clips over ${days} days recorded; ${result.downloads} downloads counted and rolled up in ${result.seconds.toFixed(1)} s.`);
  } finally {
    await store.close();
  }
}

/** The demo's published episodes as its public feeds list them, then the plan's requests sent. */
async function overHttp(origin: string): Promise<void> {
  const started = performance.now();
  const clips: ListenedClip[] = [];
  for (const p of PROGRAMS.filter((x) => organizationIds.includes(x.org))) {
    const res = await fetch(new URL(publicPaths.feed(seedId(`playlist:${p.key}:feed`)), origin));
    if (!res.ok) continue;
    const xml = await res.text();
    for (const item of xml.split('<item>').slice(1)) {
      const enclosure = /<enclosure url="([^"]+)" length="(\d+)"/.exec(item);
      const id = enclosure && /\/audio\/([0-9a-f-]{36})\./.exec(enclosure[1]!)?.[1];
      if (!enclosure || !id) continue;
      const pubDate = /<pubDate>([^<]+)<\/pubDate>/.exec(item)?.[1];
      const path = new URL(enclosure[1]!.replace(/&amp;/g, '&'), origin);
      clips.push({ id, organizationId: p.org, programId: seedId(`program:${p.key}`), path: path.pathname, sizeBytes: Number(enclosure[2]) || 30 * 60 * 16_000, bytesPerSecond: 16_000, publishedMs: pubDate ? Date.parse(pubDate) : 0 });
    }
  }
  if (clips.length === 0) {
    console.log(`No episodes in the demo's public feeds at ${origin}.`);
    return;
  }
  const events = planListening(clips, await geoTable(), { days, perDay, seed });
  const byId = new Map(clips.map((c) => [c.id, c]));
  const statuses = new Map<number, number>();
  let next = 0;
  const worker = async () => {
    while (next < events.length) {
      const e = events[next++]!;
      const clip = byId.get(e.clipId!)!;
      const url = new URL(clip.path + (e.source === 'feed' ? '?src=feed' : ''), origin);
      const headers: Record<string, string> = {};
      if (e.userAgent) headers['user-agent'] = e.userAgent;
      if (e.rangeHeader) headers['range'] = e.rangeHeader;
      if (e.source === 'page' || e.source === 'embed') headers['referer'] = new URL(e.source === 'page' ? publicPaths.programPage(clip.programId) : publicPaths.embed(clip.id), origin).href;
      const res = await fetch(url, { method: e.method, headers });
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      // Read what the listener would have read, then hang up.
      const reader = res.body?.getReader();
      let read = 0;
      while (reader && read < e.bytesSent) {
        const chunk = await reader.read();
        if (chunk.done) break;
        read += chunk.value.byteLength;
      }
      await reader?.cancel();
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  const answered = [...statuses].map(([s, n]) => `${n} × ${s}`).join(', ');
  console.log(`${events.length} requests for ${clips.length} episodes sent to ${origin} in ${((performance.now() - started) / 1000).toFixed(1)} s (${answered}); the server counts them at its next counting run (within a minute).`);
}
