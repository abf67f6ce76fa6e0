// PostgreSQL may end idle connections at any time (a restart, a failover, an administrator's
// pg_terminate_backend). The server must carry on: the pool replaces them and no uncaught
// 'error' event stops the process.
import { afterAll, beforeAll, expect, test } from 'vitest';
import pg from 'pg';
import { openTestStore, type TestStore } from './test-store.ts';

let t: TestStore;
beforeAll(async () => {
  t = await openTestStore('postgres');
});
afterAll(async () => {
  await t.drop();
});

test('the store keeps answering after PostgreSQL terminates its idle connections', async () => {
  // Open several pooled connections so some sit idle in the pool.
  await Promise.all(Array.from({ length: 4 }, () => t.store.query('SELECT pg_sleep(0.05)')));
  const [{ db }] = (await t.store.query<{ db: string }>('SELECT current_database() AS db')) as [{ db: string }];

  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const killed = await admin.query(
    'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [db],
  );
  await admin.end();
  expect(killed.rowCount).toBeGreaterThan(0);

  // Give the pool a moment to hear about the closed sockets, then use the store again.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const rows = await t.store.query<{ one: number }>('SELECT 1 AS one');
  expect(rows).toEqual([{ one: 1 }]);
});

test('a statement whose connection the database ends under it runs again on a fresh one, and a transaction begins after', async () => {
  const [{ db }] = (await t.store.query<{ db: string }>('SELECT current_database() AS db')) as [{ db: string }];
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  // The first run of the statement is ended by the administrator while it sleeps.
  const answer = t.store.query<{ one: number }>(`SELECT 1 AS one, 'ended-under-it' AS tag FROM pg_sleep(0.4)`);
  let terminated = 0;
  for (let i = 0; i < 50 && terminated === 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    const r = await admin.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND query LIKE '%ended-under-it%' AND pid <> pg_backend_pid()`,
      [db],
    );
    terminated = r.rowCount ?? 0;
  }
  await admin.end();
  expect(terminated).toBe(1);
  expect(await answer).toEqual([{ one: 1, tag: 'ended-under-it' }]);
  expect(await t.store.tx((q) => q.query<{ two: number }>('SELECT 2 AS two'))).toEqual([{ two: 2 }]);
});

test('a transaction whose connection the database ends while it holds it fails with the database’s error, the process carries on and nothing of it is stored', async () => {
  await t.store.query(`CREATE TABLE IF NOT EXISTS resilience_t (k text PRIMARY KEY)`);
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  const failure = await t.store
    .tx(async (q) => {
      await q.query(`INSERT INTO resilience_t (k) VALUES ('in the ended transaction')`);
      const [{ pid }] = (await q.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
      await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      // The driver hears of the ended connection on its own (an 'error' event) before this asks.
      await new Promise((resolve) => setTimeout(resolve, 300));
      await q.query('SELECT 1');
    })
    .catch((err: unknown) => err);
  await admin.end();
  expect(failure).toBeInstanceOf(Error);
  expect(await t.store.query(`SELECT k FROM resilience_t`)).toEqual([]);
  expect(await t.store.tx((q) => q.query<{ three: number }>('SELECT 3 AS three'))).toEqual([{ three: 3 }]);
});

test('a transaction in which a statement nobody waited for failed is not reported as committed: PostgreSQL rolled it back', async () => {
  await t.store.query(`CREATE TABLE IF NOT EXISTS resilience_t (k text PRIMARY KEY)`);
  const failure = await t.store
    .tx(async (q) => {
      await q.query(`INSERT INTO resilience_t (k) VALUES ('before the failure')`);
      void q.query(`SELECT 1 / 0`).catch(() => undefined);
    })
    .catch((err: unknown) => err);
  expect(String(failure)).toContain('rolled back at COMMIT');
  expect(await t.store.query(`SELECT k FROM resilience_t WHERE k = 'before the failure'`)).toEqual([]);
});
