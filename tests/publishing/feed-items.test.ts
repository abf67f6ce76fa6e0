// Feed items rendered on write (sync-server/feeds/feed-items.ts, feed_items): a feed built from the
// stored items is exactly the feed rendered from scratch (feedContent + buildRss, from the rows),
// before the job has run (items missing or stale: rendered at build time) and after it (items
// read from the store by an instance that keeps nothing in memory), after edits of a clip, the
// program (its Explicit flag, which items default to), the playlist, and a clip's media; for two
// origins (the items are stored without one); with a clip whose text holds the origin marker and
// one whose link is a path that leaves the origin (neither stored with XML). Writes go through the
// API (their changes announced on the bus enqueue the job) or, for media, as the publishing and
// image jobs write rows and announce them. PGlite and PostgreSQL.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playlistHasPublicFeed } from '../../src/domain/feed.ts';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { createApp } from '../../sync-server/app.ts';
import { writeAudioRow } from '../../sync-server/audio/clip-rows.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { FEED_ITEMS_JOB, ITEM_ORIGIN, feedContent, feedValidators } from '../../sync-server/feeds/feed-data.ts';
import { organizationChangesHandled } from '../../sync-server/bus.ts';
import { buildRss } from '../../sync-server/feeds/rss.ts';
import { ORG_DEMO, seed } from '../../sync-server/seed.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { AppClient } from '../server/app-client.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';

const CLOCK = new Date('2025-06-01T12:00:00.000Z');
const ORIGINS = ['http://localhost', 'https://podcasts.example.com:8443'];

describe.each(storeKinds)('feed items stored on write (%s)', (kind) => {
  let t: TestStore;
  let store: Store;
  const bus = createMemoryBus();
  let app: ReturnType<typeof createApp>;
  let api: AppClient;
  let programId: string;
  let playlistId: string;
  const clipIds: string[] = [];

  beforeAll(async () => {
    t = await openTestStore(kind);
    store = t.store;
    await seed(store, { clips: 1 });
    app = createApp({ store, bus, clock: () => CLOCK });
    api = new AppClient(app);
    await api.login('demo@example.com');
    api.organizationId = ORG_DEMO;
  }, 120_000);
  afterAll(async () => {
    await app?.jobs.stop();
    await app?.downloads.close();
    await t?.drop();
  });

  /** Publishing's fields on a clip, written as the publishing job writes them, and announced. */
  async function publishRow(clipId: string, n: number, extra: Record<string, unknown> = {}): Promise<void> {
    const data = {
      PublishedUtc: `2025-05-0${n}T08:00:00.000Z`,
      PublishedAudioSizeInBytes: 9_600_000 + n,
      PublishedDurationSeconds: 600 + n,
      Chapters: n === 1 ? [{ StartSeconds: 0, Title: 'Intro' }] : [],
      ...extra,
    };
    const urls = { AudioPublicUrl: publicPaths.audio(clipId, 'mp3'), ShowPageUrl: publicPaths.clipPage(programId, `ep-${n}`), TranscriptPublicUrl: n === 1 ? `/transcripts/${clipId}.vtt` : null };
    const [row] = await store.query<{ version: string }>(
      `UPDATE clips SET state = 'Ready', publish_state = 'Published', visibility = 'Public', slug = $2,
         data = data || $3::jsonb || jsonb_build_object('Urls', coalesce(data->'Urls', '{}') || $4::jsonb), version = next_row_version() WHERE id = $1 RETURNING version::text`,
      [clipId, `ep-${n}`, JSON.stringify(data), JSON.stringify(urls)],
    );
    bus.publish({ organizationId: ORG_DEMO, version: Number(row!.version) });
  }

  /** The announced changes' job enqueued (a turn of the event loop later, committed), then run. */
  async function settle(): Promise<void> {
    // A job the drain runs (unpublishing) writes and announces again: until none is queued.
    for (let round = 0; round < 5; round++) {
      await organizationChangesHandled(bus);
      await app.jobs.drain();
      await organizationChangesHandled(bus);
      const [queued] = await store.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE state = 'queued' AND run_at <= now()`);
      if (queued!.n === 0) return;
    }
    throw new Error('jobs still queued after five rounds');
  }

  /** The feed as a new instance answers it (nothing in memory: stored items or rows). What an
   * instance keeps is kept per store object, so a copy of the store is a new instance's; one app
   * serves them all (its routes read the store from deps on each request). */
  let freshDeps: { store: Store; bus: ReturnType<typeof createMemoryBus>; clock: () => Date } | null = null;
  let fresh: ReturnType<typeof createApp> | null = null;
  async function served(origin: string): Promise<string> {
    // Not the document another instance built (PostgreSQL keeps one: feed_documents): a build.
    await store.query(`DELETE FROM feed_documents`);
    if (!freshDeps) freshDeps = { store, bus: createMemoryBus(), clock: () => CLOCK };
    freshDeps.store = { ...store };
    fresh ??= createApp(freshDeps);
    const res = await fresh.request(`${origin}${publicPaths.feed(playlistId)}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(res.status).toBe(200);
    return gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8');
  }

  /** The feed rendered from scratch: the rows (feedContent never reads stored items), on an
   * instance with nothing in memory. */
  async function scratch(origin: string): Promise<string> {
    const q = { ...store };
    const v = await feedValidators(q, playlistId, CLOCK, origin, playlistHasPublicFeed);
    expect(v).not.toBeNull();
    const { channel, items } = await feedContent(q, v!, origin, { now: CLOCK, feedPath: publicPaths.feed(playlistId), block: false });
    return buildRss(channel, items);
  }

  /** The stored items that are current (their clip's Version), and of them those with XML. */
  async function current(): Promise<{ rows: number; xml: number }> {
    const [n] = await store.query<{ rows: number; xml: number }>(
      `SELECT count(*)::int AS rows, count(f.xml)::int AS xml FROM feed_items f JOIN clips c ON c.id = f.clip_id AND c.version = f.clip_version WHERE c.program_id = $1`,
      [programId],
    );
    return n!;
  }

  /** Built from whatever is stored (stale or current), from memory, and from scratch: the same. */
  async function same(label: string): Promise<string> {
    let last = '';
    for (const origin of ORIGINS) {
      const expected = await scratch(origin);
      expect(expected, label).toContain('<item>');
      expect(await served(origin), `${label}: a new instance, ${origin}`).toBe(expected);
      // This instance: what it keeps in memory (rows, items, documents) is as good.
      const res = await app.request(`${origin}${publicPaths.feed(playlistId)}`, { headers: { 'accept-encoding': 'gzip' } });
      expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString('utf8'), `${label}: this instance, ${origin}`).toBe(expected);
      // The marker only where a clip's own text holds it (the third's description, twice).
      expect(expected.split(ITEM_ORIGIN).length - 1).toBe(expected.includes('<title>Three</title>') ? 2 : 0);
      last = expected;
    }
    return last;
  }

  it('builds the feed from scratch’s bytes before and after items are stored, through edits of a clip, the program, the playlist and media', async () => {
    const program = await api.post('/api/v1/programs', { Name: 'Stored items show', Description: 'Items kept', Explicit: false, OwnerEmail: 'owner@example.com' });
    expect(program.status, program.text).toBe(201);
    programId = (program.body as { Id: string }).Id;
    const playlist = await api.post(`/api/v1/programs/${programId}/playlists`, { Title: 'Every episode', Visibility: 'Public', Description: 'All of them' });
    expect(playlist.status, playlist.text).toBe(201);
    playlistId = (playlist.body as { Id: string }).Id;
    const fields = [
      { Title: 'One & only <first>', DescriptionHtml: '<p>First, with <b>bold</b></p>', ContentRating: 'Clean', Episode: 1, Season: 1 },
      { Title: 'Two', Description: 'No rating: the show’s Explicit flag decides' },
      // Text holding the marker: stored without XML, rendered at build time.
      { Title: 'Three', Description: `Not a link: ${ITEM_ORIGIN}/audio/x.mp3` },
      { Title: 'Four' },
    ];
    for (const f of fields) {
      const made = await api.post(`/api/v1/programs/${programId}/clips`, f);
      expect(made.status, made.text).toBe(201);
      clipIds.push((made.body as { Id: string }).Id);
    }
    // The fourth's link a path to another host ("//…", which the API refuses and an older row may
    // hold): not the same URL for every origin, so not stored with XML.
    for (const [i, id] of clipIds.entries()) await publishRow(id, i + 1, i === 3 ? { RssLinkOverride: '//elsewhere.example/four' } : {});
    expect((await api.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: clipIds })).status).toBe(204);

    // Nothing stored yet: rendered at build time, and the build asks for the job.
    await store.query(`DELETE FROM jobs WHERE kind = $1`, [FEED_ITEMS_JOB]);
    expect(await current()).toEqual({ rows: 0, xml: 0 });
    const first = await same('nothing stored');
    expect(first.split('<item>')).toHaveLength(5);
    expect(await store.query(`SELECT state FROM jobs WHERE kind = $1`, [FEED_ITEMS_JOB])).toEqual([{ state: 'queued' }]);
    await settle();
    // Every clip stored; the two whose XML depends on the origin in another way, without XML.
    expect(await current()).toEqual({ rows: 4, xml: 2 });
    await same('all stored');

    // A new instance reads the stored XML: what the store holds is what it sends.
    await store.query(`UPDATE feed_items SET xml = replace(xml, '<title>Two</title>', '<title>Two (from the store)</title>') WHERE clip_id = $1`, [clipIds[1]]);
    expect(await served(ORIGINS[0]!)).toContain('<title>Two (from the store)</title>');
    await store.query(`UPDATE feed_items SET clip_version = 0 WHERE clip_id = $1`, [clipIds[1]]);
    bus.publish({ organizationId: ORG_DEMO, version: 0 });
    await settle();
    expect(await current()).toEqual({ rows: 4, xml: 2 });

    // A clip edited (a named mutation through the API): stale until the job, right throughout.
    expect((await api.patch(`/api/v1/clips/${clipIds[0]}`, { Title: 'One, renamed' })).status).toBe(200);
    expect((await current()).rows).toBe(3);
    expect(await same('clip edited, item stale')).toContain('<title>One, renamed</title>');
    await settle();
    expect(await current()).toEqual({ rows: 4, xml: 2 });
    await same('clip edited, stored');

    // The program made Explicit: the unrated clips' items change (a new context), the rated not.
    expect((await api.patch(`/api/v1/programs/${programId}`, { Explicit: true })).status).toBe(200);
    const explicit = await same('program explicit, items of the old context');
    expect(explicit.match(/<itunes:explicit>true<\/itunes:explicit>/g)?.length).toBe(4); // the channel and three unrated
    await settle();
    expect(await current()).toEqual({ rows: 4, xml: 2 });
    await same('program explicit, stored');

    // The playlist reordered and a clip left out, renamed: the items stay, the feed follows.
    expect((await api.patch(`/api/v1/playlists/${playlistId}/clips`, { ClipIds: [clipIds[3], clipIds[1], clipIds[0]] })).status).toBe(204);
    expect((await api.patch(`/api/v1/playlists/${playlistId}`, { Title: 'Fewer episodes' })).status).toBe(200);
    const reordered = await same('playlist edited');
    expect(reordered.split('<item>')).toHaveLength(4);
    await settle();
    await same('playlist edited, settled');

    // Media: a new published version (size, duration, another file type) and artwork, as the
    // publishing and image jobs write them.
    const written = await writeAudioRow(
      { store, bus, clock: () => CLOCK },
      { entity: 'clip', organizationId: ORG_DEMO, id: clipIds[1]! },
      {
        State: 'Ready',
        fields: { PublishedAudioSizeInBytes: 1234, PublishedDurationSeconds: 99.6 },
        urls: { AudioPublicUrl: publicPaths.audio(clipIds[1]!, 'm4a'), ImagePublicUrl: `/images/clip/${clipIds[1]}/1` },
      },
      { userId: null },
    );
    expect(written).toBe('written');
    const media = await same('media, item stale');
    expect(media).toContain('length="1234" type="audio/x-m4a"');
    expect(media).toContain(`<itunes:image href="https://podcasts.example.com:8443/images/clip/${clipIds[1]}/1"/>`);
    await settle();
    expect(await current()).toEqual({ rows: 4, xml: 2 });
    await same('media, stored');

    // A clip made Private (and unpublished by its job): its stored item says so, and the feed
    // leaves it out.
    expect((await api.patch(`/api/v1/clips/${clipIds[0]}`, { Visibility: 'Private' })).status).toBe(200);
    await settle();
    expect((await current()).rows).toBe(4);
    expect((await same('clip private')).split('<item>')).toHaveLength(3);
  }, 120_000);
});
