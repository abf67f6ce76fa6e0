// Migration 0605 on a store as the release before it left it, with rows: the intro lengths of the
// side table clip_published_intro move onto their clips' rows as PublishedIntroSeconds, each such
// clip with a new Version, a later ModifiedAtUtc and a revision whose undo takes the field away (so
// devices pull it); a clip whose length was 0 or that had none is left as it was, and the side table
// is gone. Migration 0630 queues the job that gives rows their version's outro
// (published-intro.test.ts runs it) where any clip has audio, and nowhere else. On PGlite and
// PostgreSQL.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../sync-server/store/migrate.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

const AT = '2026-01-01T10:00:00.000Z';

describe.each(storeKinds)('migration 0605: a clip’s published intro onto its row (%s)', (kind) => {
  let t: TestStore;
  const org = randomUUID();
  const program = randomUUID();
  const behindIntro = randomUUID();
  const zeroIntro = randomUUID();
  const noIntro = randomUUID();
  const editor = randomUUID();
  /** Each clip's Version before the upgrade (from the store's own sequence, as every write takes one). */
  const before = new Map<string, number>();

  beforeAll(async () => {
    t = await openTestStore(kind, { migratedBefore: '0605' });
    const { store } = t;
    await store.query(`INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version) VALUES ($1, $1, 'FM', 'Podcaster', $2, $2, 1)`, [org, AT]);
    for (const [id, title] of [[behindIntro, 'Behind'], [zeroIntro, 'Zero'], [noIntro, 'None']] as const) {
      const [made] = await store.query<{ version: number }>(
        `INSERT INTO clips (id, organization_id, program_id, slug, state, publish_state, visibility, data, created_at_utc, modified_at_utc, modified_by_id, version)
         VALUES ($1, $2, $3, NULL, 'Ready', 'Published', 'Public', $4::jsonb, $5, $5, $6, next_row_version()) RETURNING version::int AS version`,
        [id, org, program, JSON.stringify({ Title: title, DurationSeconds: 24.5, Urls: { AudioPrivateUrl: `/api/media/clips/${id}/audio?v=a` } }), AT, editor],
      );
      before.set(id, made!.version);
    }
    await store.query(`INSERT INTO clip_published_intro (clip_id, intro_seconds) VALUES ($1, 12.5), ($2, 0)`, [behindIntro, zeroIntro]);
    await migrate(store);
  }, 120_000);

  afterAll(async () => {
    await t?.drop();
  });

  type ClipRow = { id: string; version: number; modified_at_utc: Date; modified_by_id: string | null; data: Record<string, unknown> };
  const clip = async (id: string) =>
    (await t.store.query<ClipRow>(`SELECT id, version::int AS version, modified_at_utc, modified_by_id, data FROM clips WHERE id = $1`, [id]))[0]!;

  it('a clip behind an intro carries its length, with a new Version, a later ModifiedAtUtc and a revision that undoes it', async () => {
    const row = await clip(behindIntro);
    expect(row.data['PublishedIntroSeconds']).toBe(12.5);
    // The rest of the row as it was.
    expect(row.data).toMatchObject({ Title: 'Behind', DurationSeconds: 24.5, Urls: { AudioPrivateUrl: `/api/media/clips/${behindIntro}/audio?v=a` } });
    expect(row.version).toBeGreaterThan(Math.max(...before.values()));
    expect(new Date(row.modified_at_utc).getTime()).toBeGreaterThan(new Date(AT).getTime());
    // Written by the upgrade, not by the clip's last editor.
    expect(row.modified_by_id).toBeNull();
    const revisions = await t.store.query<{ version: number; undo: unknown; organization_id: string }>(`SELECT version::int AS version, undo, organization_id FROM row_revisions WHERE entity = 'clip' AND id = $1`, [behindIntro]);
    expect(revisions).toEqual([{ version: row.version, undo: { PublishedIntroSeconds: null }, organization_id: org }]);
  });

  it('a clip whose intro was 0, or that had none, is left as it was; the side table is gone', async () => {
    for (const id of [zeroIntro, noIntro]) {
      const row = await clip(id);
      expect(row.data['PublishedIntroSeconds']).toBeUndefined();
      expect(row.version).toBe(before.get(id));
      expect(row.modified_by_id).toBe(editor);
    }
    expect(await t.store.query(`SELECT 1 FROM row_revisions WHERE id = ANY($1::uuid[])`, [[zeroIntro, noIntro]])).toEqual([]);
    const table = await t.store.query(`SELECT 1 FROM information_schema.tables WHERE table_name = 'clip_published_intro'`);
    expect(table).toEqual([]);
  });
});

describe.each(storeKinds)('migration 0630: the published outro’s job queued (%s)', (kind) => {
  let t: TestStore | null = null;
  afterAll(async () => {
    await t?.drop();
  });

  it('is queued once where a clip has audio, and not where none has', async () => {
    t = await openTestStore(kind, { migratedBefore: '0630' });
    const { store } = t;
    const queued = () => store.query(`SELECT payload, state FROM jobs WHERE kind = 'clip.recordPublishedOutros'`);
    const org = randomUUID();
    await store.query(`INSERT INTO organizations (id, organization_id, name, provider, created_at_utc, modified_at_utc, version) VALUES ($1, $1, 'FM', 'Podcaster', $2, $2, 1)`, [org, AT]);
    const id = randomUUID();
    await store.query(
      `INSERT INTO clips (id, organization_id, program_id, slug, state, publish_state, visibility, data, created_at_utc, modified_at_utc, version)
       VALUES ($1, $2, $3, NULL, 'Ready', 'Published', 'Public', $4::jsonb, $5, $5, next_row_version())`,
      [id, org, randomUUID(), JSON.stringify({ Urls: { AudioPrivateUrl: `/api/media/clips/${id}/audio?v=a` } }), AT],
    );
    await migrate(store);
    expect(await queued()).toEqual([{ payload: {}, state: 'queued' }]);
    await t.drop();
    // A store whose clips have no audio (here: none at all).
    t = await openTestStore(kind, { migratedBefore: '0630' });
    await migrate(t.store);
    expect(await t.store.query(`SELECT 1 FROM jobs WHERE kind = 'clip.recordPublishedOutros'`)).toEqual([]);
  }, 120_000);
});
