// Built feeds kept in a PostgreSQL store (feed_documents, sync-server/api/feeds.ts): a feed built
// by one instance is answered by another sharing the database (or by one restarted) from the kept
// document, without a build; a feed whose inputs changed is built again and its row replaced. On
// PGlite (one instance, whose large writes are slow) a feed is kept in memory only: a restart builds.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { publicPaths } from '../../src/domain/public-urls.ts';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { seed } from '../../sync-server/seed.ts';
import { openStore } from '../../sync-server/store/open.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { MISSING_DATABASE_URL, openScratchPostgres, type StoreKind } from './test-store.ts';

const CLOCK = new Date('2025-06-01T12:00:00.000Z');
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const clean of cleanups.reverse()) await clean();
});

/** Two instances of one store: the first's store and a way to open the second (the same folder
 * after the first is closed, or a second pool on the same database). */
async function instances(kind: StoreKind): Promise<{ first: Store; second: () => Promise<Store> }> {
  if (kind === 'pglite') {
    const dir = mkdtempSync(join(tmpdir(), 'castaway-feed-documents-'));
    const first = await openStore({ dataDir: dir });
    let second: Store | null = null;
    cleanups.push(async () => {
      await second?.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return {
      first,
      second: async () => {
        await first.close();
        second = await openStore({ dataDir: dir });
        return second;
      },
    };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error(MISSING_DATABASE_URL);
  const db = await openScratchPostgres(base, 'castaway_fd');
  let second: Store | null = null;
  cleanups.push(async () => {
    await second?.close();
    await db.drop();
  });
  return {
    first: db.store,
    second: async () => {
      second = await openStore({ databaseUrl: db.url });
      return second;
    },
  };
}

const appOn = (store: Store) => createApp({ store, bus: createMemoryBus(), clock: () => CLOCK });
const get = (app: ReturnType<typeof appOn>, playlistId: string) =>
  app.request(`http://localhost${publicPaths.feed(playlistId)}`, { headers: { 'accept-encoding': 'gzip' } });

/** A store with the demo organization and a public feed of three published episodes (rows as
 * publishing leaves them), the feed built once on it: its id and gzip body. */
async function builtFeed(first: Store): Promise<{ playlistId: string; built: Buffer }> {
  await seed(first, { clips: 1 });
  const one = appOn(first);
  // A public feed with three published episodes, rows as publishing leaves them.
  const playlistId = crypto.randomUUID();
  await first.query(
    `WITH g AS (SELECT id, organization_id FROM programs WHERE NOT deleted ORDER BY id LIMIT 1),
     c AS (
       INSERT INTO clips (id, organization_id, program_id, title, slug, state, publish_state, visibility, data, created_at_utc, modified_at_utc, version)
       SELECT gen_random_uuid(), g.organization_id, g.id, 'Kept episode ' || n, 'kept-' || n, 'Ready', 'Published', 'Public',
         jsonb_build_object('PublishedUtc', '2025-05-0' || n || 'T08:00:00.000Z', 'PublishedDurationSeconds', 600 + n, 'PublishedAudioSizeInBytes', 9600000 + n,
           'DescriptionHtml', '<p>Episode ' || n || ' of a feed long enough to be compressed, as any real one is.</p>',
           'Urls', jsonb_build_object('AudioPublicUrl', '/audio/kept-' || n || '.mp3')),
         now(), now(), next_row_version()
       FROM g, generate_series(1, 3) AS n RETURNING id, organization_id, program_id)
     INSERT INTO playlists (id, organization_id, program_id, title, visibility, clip_ids, data, created_at_utc, modified_at_utc, version)
     SELECT $1, min(organization_id::text)::uuid, min(program_id::text)::uuid, 'Kept feed', 'Public', jsonb_agg(id::text), '{}', now(), now(), next_row_version() FROM c`,
    [playlistId],
  );
  const res = await get(one, playlistId);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-encoding')).toBe('gzip');
  const built = Buffer.from(await res.arrayBuffer());
  expect(gunzipSync(built).toString('utf8').split('<item>')).toHaveLength(4);
  return { playlistId, built };
}

describe('a built feed on PGlite', () => {
  it('is kept in memory only, and built again, the same, after a restart', async () => {
    const { first, second } = await instances('pglite');
    const { playlistId, built } = await builtFeed(first);
    expect(await first.query(`SELECT name FROM feed_documents`)).toEqual([]);
    const again = await get(appOn(await second()), playlistId);
    expect(again.status).toBe(200);
    expect(gunzipSync(Buffer.from(await again.arrayBuffer())).toString('utf8')).toBe(gunzipSync(built).toString('utf8'));
  });
});

describe('a built feed on PostgreSQL', () => {
  it('is kept in the store: another instance answers it without a build, and it is built again when the feed changes', async () => {
    const { first, second } = await instances('postgres');
    const { playlistId, built } = await builtFeed(first);
    const [row] = await first.query<{ name: string; tag: string }>(`SELECT name, tag FROM feed_documents WHERE name = $1`, [`feed:${playlistId}|gzip`]);
    expect(row, 'the built document is kept in the store').toBeDefined();

    const name = `feed:${playlistId}|gzip`;
    const [stored] = await first.query<{ body: Uint8Array }>(`SELECT body FROM feed_documents WHERE name = $1`, [name]);
    expect(Buffer.from(stored!.body).equals(built), 'the kept body is the one sent').toBe(true);

    // Another instance (its memory empty) answers from the row, without a build: a body put in
    // the row under the current tag is what it sends.
    const marker = gzipSync('<?xml version="1.0"?><rss version="2.0"><channel><title>kept</title></channel></rss>');
    await first.query(`UPDATE feed_documents SET body = $2 WHERE name = $1`, [name, marker]);
    const other = await second();
    const two = appOn(other);
    const kept = await get(two, playlistId);
    expect(kept.status).toBe(200);
    expect(kept.headers.get('etag')).toBe(`"${row!.tag}-gz"`);
    expect(Buffer.from(await kept.arrayBuffer()).equals(marker)).toBe(true);

    // A change of the feed's inputs: a new tag, so a build, and the row replaced by it.
    await other.query(`UPDATE playlists SET title = 'Renamed feed', version = next_row_version() WHERE id = $1`, [playlistId]);
    const rebuilt = await get(two, playlistId);
    expect(rebuilt.status).toBe(200);
    const text = gunzipSync(Buffer.from(await rebuilt.arrayBuffer())).toString('utf8');
    expect(text).toContain('<title>Renamed feed</title>');
    expect(text).toContain('<item>');
    const [replaced] = await other.query<{ tag: string; body: Uint8Array }>(`SELECT tag, body FROM feed_documents WHERE name = $1`, [name]);
    expect(replaced!.tag).not.toBe(row!.tag);
    expect(gunzipSync(Buffer.from(replaced!.body)).toString('utf8')).toBe(text);
  });
});
