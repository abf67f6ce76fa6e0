// Migration 0400: clip URLs under the placeholder origin 'https://listen.castaway.example' become
// site-relative paths (src/domain/public-urls.ts), with a new Version and a revision so devices
// pull them; other URLs are left as they are.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrate } from '../../sync-server/store/migrate.ts';
import { openTestStore, type TestStore } from '../server/test-store.ts';

const ORG = '7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const PROGRAM = '0b8f6a34-9c1d-4e0f-8b7a-2d7f3c9e1b10';
const OLD = '5f0c9c1e-8e8a-4c55-a1a4-2f0f5b6f2a01';
const KEPT = '5f0c9c1e-8e8a-4c55-a1a4-2f0f5b6f2a02';
let t: TestStore;

beforeAll(async () => {
  t = await openTestStore('pglite', { migratedBefore: '0400' });
  const at = '2026-01-01T00:00:00.000Z';
  await t.store.query(`INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version) VALUES ($1, $1, 'Org', 'Podcaster', $2, $2, 1)`, [ORG, at]);
  const clip = (id: string, slug: string, urls: Record<string, unknown>) =>
    t.store.query(
      `INSERT INTO clips (id, organization_id, program_id, slug, state, publish_state, visibility, data, created_at_utc, modified_at_utc, version)
       VALUES ($1, $2, $3, $6, 'Ready', 'Published', 'Public', $4::jsonb, $5, $5, 10)`,
      [id, ORG, PROGRAM, JSON.stringify({ Urls: urls }), at, slug],
    );
  await clip(OLD, 'monday-1', { EmbedUrl: `https://listen.castaway.example/embed/${OLD}`, ShowPageUrl: 'https://listen.castaway.example/news/monday-1', AudioPrivateUrl: `/api/media/clips/${OLD}/audio`, ImagePublicUrl: 'https://listen.castaway.example/images/x' });
  await clip(KEPT, 'monday', { EmbedUrl: `/embed/${KEPT}`, ShowPageUrl: `/shows/${PROGRAM}/monday`, EmbedShareLinkOverrideUrl: 'https://example.com/ep' });
  await migrate(t.store);
}, 60_000);

afterAll(async () => {
  await t?.drop();
});

it('rewrites the placeholder origin to paths, with a new Version and a revision whose undo holds the old Urls', async () => {
  const rows = await t.store.query<{ id: string; version: number; urls: Record<string, unknown> }>(`SELECT id, version::int AS version, data->'Urls' AS urls FROM clips ORDER BY id`);
  const old = rows.find((r) => r.id === OLD)!;
  expect(old.urls).toEqual({ EmbedUrl: `/embed/${OLD}`, ShowPageUrl: `/shows/${PROGRAM}/monday-1`, AudioPrivateUrl: `/api/media/clips/${OLD}/audio`, ImagePublicUrl: '/images/x' });
  expect(old.version).not.toBe(10);
  const [revision] = await t.store.query<{ undo: { Urls: Record<string, unknown> } }>(`SELECT undo FROM row_revisions WHERE id = $1 AND version = $2`, [OLD, old.version]);
  expect(revision!.undo.Urls['EmbedUrl']).toBe(`https://listen.castaway.example/embed/${OLD}`);
  const kept = rows.find((r) => r.id === KEPT)!;
  expect(kept.version).toBe(10);
  expect(kept.urls['EmbedShareLinkOverrideUrl']).toBe('https://example.com/ep');
});
