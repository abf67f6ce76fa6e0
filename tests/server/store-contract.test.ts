// The store contract (STYLE.md habit 3): the PGlite and the PostgreSQL store answer the same SQL
// the same way. The PostgreSQL half fails, not skips, when TEST_DATABASE_URL is missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, migrationFiles } from '../../sync-server/store/migrate.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

describe.each(storeKinds)('store contract on %s', (kind) => {
  let t: TestStore;
  let store: Store;
  beforeAll(async () => {
    t = await openTestStore(kind, { skipMigrations: true });
    store = t.store;
  });
  afterAll(async () => {
    await t?.drop();
  });

  it('reports its kind', () => {
    expect(store.kind).toBe(kind);
  });

  it('applies every migration once, and a second run applies none', async () => {
    const first = await migrate(store);
    expect(first.length).toBe(migrationFiles().length);
    expect(first).toContain('0001_core.sql');
    expect(await migrate(store)).toEqual([]);
    const tables = await store.query<{ table_name: string }>(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name`,
    );
    const names = tables.map((r) => r.table_name);
    for (const table of ['organizations', 'users', 'memberships', 'networks', 'programs', 'playlists', 'clips', 'recordings', 'annotations', 'row_revisions', 'sessions', 'api_keys']) {
      expect(names).toContain(table);
    }
  });

  it('returns bigint values (the row_version sequence) as numbers on both stores', async () => {
    const [a] = await store.query<{ v: number }>(`SELECT nextval('row_version') AS v`);
    const [b] = await store.query<{ v: number }>(`SELECT nextval('row_version') AS v`);
    expect(typeof a!.v).toBe('number');
    expect(b!.v).toBe(a!.v + 1);
    const [count] = await store.query<{ n: number }>(`SELECT count(*) AS n FROM users`);
    expect(count!.n).toBe(0);
  });

  it('binds parameters and round-trips jsonb, booleans and timestamps with milliseconds', async () => {
    const [row] = await store.query<{ j: unknown; b: boolean; t: Date; n: null }>(
      `SELECT $1::jsonb AS j, $2::boolean AS b, $3::timestamptz AS t, $4::text AS n`,
      [JSON.stringify({ Title: 'Ünïcode ✓', Tags: ['a'] }), true, '2025-03-01T10:00:00.123Z', null],
    );
    expect(row!.j).toEqual({ Title: 'Ünïcode ✓', Tags: ['a'] });
    expect(row!.b).toBe(true);
    expect(row!.t).toBeInstanceOf(Date);
    expect(row!.t.toISOString()).toBe('2025-03-01T10:00:00.123Z');
    expect(row!.n).toBeNull();
  });

  it('runs a named statement again with other values, in and out of a transaction (PostgreSQL prepares it per connection)', async () => {
    const sql = `SELECT $1::int + 1 AS n, $2::text AS s`;
    for (let i = 0; i < 12; i++) {
      const [row] = await store.query<{ n: number; s: string }>(sql, [i, `v${i}`], { name: 'contract_named' });
      expect(row).toEqual({ n: i + 1, s: `v${i}` });
    }
    const inTx = await store.tx(async (q) => (await q.query<{ n: number; s: string }>(sql, [41, 'tx'], { name: 'contract_named' }))[0]);
    expect(inTx).toEqual({ n: 42, s: 'tx' });
  });

  it('commits a transaction that resolves and rolls back one that throws', async () => {
    await store.query(`CREATE TABLE IF NOT EXISTS contract_t (k text PRIMARY KEY)`);
    await store.tx(async (q) => {
      await q.query(`INSERT INTO contract_t (k) VALUES ($1)`, ['kept']);
    });
    await expect(
      store.tx(async (q) => {
        await q.query(`INSERT INTO contract_t (k) VALUES ($1)`, ['lost']);
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const rows = await store.query<{ k: string }>(`SELECT k FROM contract_t ORDER BY k`);
    expect(rows.map((r) => r.k)).toEqual(['kept']);
  });

  it('rolls back a transaction whose statement fails (unique violation) with the code 23505', async () => {
    await store.query(`INSERT INTO contract_t (k) VALUES ('dup') ON CONFLICT DO NOTHING`);
    const err = await store
      .tx(async (q) => {
        await q.query(`INSERT INTO contract_t (k) VALUES ('before-dup')`);
        await q.query(`INSERT INTO contract_t (k) VALUES ('dup')`);
      })
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).toBe('23505');
    const rows = await store.query(`SELECT 1 FROM contract_t WHERE k = 'before-dup'`);
    expect(rows).toEqual([]);
  });

  it('runs the statements a transaction sends without waiting one after another, in the order sent, and commits after the last', async () => {
    await store.query(`CREATE TABLE IF NOT EXISTS contract_order (k text PRIMARY KEY)`);
    // The driver may queue statements itself; pg 8 warns that it will stop (DeprecationWarning).
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.message);
    process.on('warning', onWarning);
    try {
      const seen = await store.tx(async (q) => {
        const first = q.query(`INSERT INTO contract_order (k) SELECT 'first' FROM pg_sleep(0.05)`);
        const count = q.query<{ n: number }>(`SELECT count(*)::int AS n FROM contract_order`);
        const second = q.query(`INSERT INTO contract_order (k) VALUES ('second')`);
        void q.query(`INSERT INTO contract_order (k) VALUES ('unawaited')`).catch(() => undefined);
        await Promise.all([first, second]);
        return (await count)[0]!.n;
      });
      expect(seen).toBe(1);
      const rows = await store.query<{ k: string }>(`SELECT k FROM contract_order ORDER BY k`);
      expect(rows.map((r) => r.k)).toEqual(['first', 'second', 'unawaited']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((m) => m.includes('already executing a query'))).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('keeps concurrent transactions apart: 20 increments in parallel all land', async () => {
    await store.query(`CREATE TABLE IF NOT EXISTS contract_counter (id int PRIMARY KEY, n int NOT NULL)`);
    await store.query(`INSERT INTO contract_counter VALUES (1, 0) ON CONFLICT (id) DO UPDATE SET n = 0`);
    await Promise.all(
      Array.from({ length: 20 }, () =>
        store.tx(async (q) => {
          const [row] = await q.query<{ n: number }>(`SELECT n FROM contract_counter WHERE id = 1 FOR UPDATE`);
          await q.query(`UPDATE contract_counter SET n = $1 WHERE id = 1`, [row!.n + 1]);
        }),
      ),
    );
    const [row] = await store.query<{ n: number }>(`SELECT n FROM contract_counter WHERE id = 1`);
    expect(row!.n).toBe(20);
  });

  it('inserts 10,000 rows in one INSERT … SELECT unnest(…) statement', async () => {
    await store.query(`CREATE TABLE IF NOT EXISTS contract_bulk (id int PRIMARY KEY, title text)`);
    const ids = Array.from({ length: 10_000 }, (_, i) => i);
    await store.query(`INSERT INTO contract_bulk SELECT * FROM unnest($1::int[], $2::text[])`, [ids, ids.map((i) => `t${i}`)]);
    const [row] = await store.query<{ n: number }>(`SELECT count(*) AS n FROM contract_bulk`);
    expect(row!.n).toBe(10_000);
  });
});
