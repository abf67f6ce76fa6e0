// Test stores for the server suites: a fresh in-memory PGlite, or a fresh PostgreSQL database
// made from TEST_DATABASE_URL (a role that may CREATE DATABASE). Without TEST_DATABASE_URL the
// PostgreSQL suites FAIL with this message rather than skip: CI must run both stores.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '../../sync-server/store/migrate.ts';
import { openStore } from '../../sync-server/store/open.ts';
import type { Store } from '../../sync-server/store/store.ts';

export type StoreKind = 'pglite' | 'postgres';
export const storeKinds: StoreKind[] = ['pglite', 'postgres'];

export const MISSING_DATABASE_URL =
  'TEST_DATABASE_URL is not set: the PostgreSQL suite needs it. Start PostgreSQL with ' +
  '`export TEST_DATABASE_URL=$(bash scripts/start-postgres.sh)` (npm test does this).';

export type TestStore = { store: Store; drop: () => Promise<void> };

/**
 * A fresh, migrated store of the given kind; `drop` closes it (and drops the database).
 * `skipMigrations`: none applied. `migratedBefore`: only the migrations whose names sort before
 * it, a store as the release before that migration left it (for the tests of its upgrade).
 */
export async function openTestStore(kind: StoreKind, options: { skipMigrations?: boolean; migratedBefore?: string } = {}): Promise<TestStore> {
  const skip = (options.skipMigrations ?? false) || options.migratedBefore !== undefined;
  let t: TestStore;
  if (kind === 'pglite') {
    const store = await openStore({ dataDir: 'memory://', skipMigrations: skip });
    t = { store, drop: () => store.close() };
  } else {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error(MISSING_DATABASE_URL);
    t = await openScratchPostgres(base, 'castaway_t', skip);
  }
  if (options.migratedBefore !== undefined) await migrate(t.store, { before: options.migratedBefore });
  return t;
}

/** A new database made from `base` (a role that may CREATE DATABASE), opened as a store;
 *  `drop` closes it and drops the database. Shared by the test suites and bench:server. */
export async function openScratchPostgres(base: string, prefix: string, skipMigrations = false): Promise<TestStore & { url: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const store = await openStore({ databaseUrl: url.toString(), skipMigrations });
  return {
    store,
    url: url.toString(),
    drop: async () => {
      await store.close();
      const cleanup = new pg.Client({ connectionString: base });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}
