// Test stores for the server suites: a fresh in-memory PGlite, or a fresh PostgreSQL database
// made from TEST_DATABASE_URL (a role that may CREATE DATABASE). Without TEST_DATABASE_URL the
// PostgreSQL suites FAIL with this message rather than skip: CI must run both stores.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { migrate } from '../../sync-server/store/migrate.ts';
import { openStore } from '../../sync-server/store/open.ts';
import { openPgliteStore } from '../../sync-server/store/pglite.ts';
import { PG_TEMPLATE_NAME, PGLITE_TEMPLATE } from '../pglite-template.ts';
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
    const template = skip ? null : migratedTemplate();
    // From the migrated data folder the run's global set-up dumped (tests/pglite-template.ts):
    // PGlite's initdb is 3 s of CPU per store on these machines, over 20 s when they are loaded,
    // and the server suites open dozens of stores. migrate() then finds nothing to do (or applies
    // what a stale template lacks).
    const store = template ? await openPgliteStore('memory://', { loadDataDir: template }) : await openStore({ dataDir: 'memory://', skipMigrations: skip });
    if (template) await migrate(store);
    t = { store, drop: () => store.close() };
  } else {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error(MISSING_DATABASE_URL);
    t = await openScratchPostgres(base, 'castaway_t', skip);
  }
  if (options.migratedBefore !== undefined) await migrate(t.store, { before: options.migratedBefore });
  return t;
}

/** The migrated PostgreSQL database of this run (tests/pglite-template.ts), or null. Only a plain
 *  identifier is trusted: the name is spliced into CREATE DATABASE. */
function postgresTemplate(): string | null {
  if (!existsSync(PG_TEMPLATE_NAME)) return null;
  const name = readFileSync(PG_TEMPLATE_NAME, 'utf8').trim();
  return /^castaway_tpl_[0-9a-f]+$/.test(name) ? name : null;
}

let template: Blob | null | undefined;

/** The migrated PGlite data folder of this run, read once per process; null when there is none. */
function migratedTemplate(): Blob | null {
  if (template === undefined) template = existsSync(PGLITE_TEMPLATE) ? new Blob([readFileSync(PGLITE_TEMPLATE)]) : null;
  return template;
}

/** A new database made from `base` (a role that may CREATE DATABASE), opened as a store;
 *  `drop` closes it and drops the database. Shared by the test suites and bench:server. */
export async function openScratchPostgres(base: string, prefix: string, skipMigrations = false): Promise<TestStore & { url: string }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  // A copy of the run's migrated database when vitest's global set-up made one (and this store
  // wants migrations): migrate() below then finds nothing to do.
  const template = skipMigrations ? null : postgresTemplate();
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    const copied = template !== null && (await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`).then(() => true, () => false));
    // No template, or it went away (another run in this tree ended and dropped its own): an empty
    // database, which openStore migrates.
    if (!copied) await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
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
