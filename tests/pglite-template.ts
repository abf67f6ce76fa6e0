// Vitest's global set-up (vitest.config.ts): one migrated store of each kind per run, which
// tests/server/test-store.ts copies for each test store instead of migrating again.
//   - PGlite: a migrated data folder dumped to PGLITE_TEMPLATE, loaded by each in-memory store
//     (initdb alone is about 3 s of CPU on these machines, over 20 s when they are loaded, and the
//     server suites open dozens of stores).
//   - PostgreSQL (when TEST_DATABASE_URL is set): a migrated database whose name is written to
//     PG_TEMPLATE_NAME; each scratch database is made with CREATE DATABASE … TEMPLATE it, a file
//     copy, instead of running every migration's DDL again.
import { randomBytes } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import pg from 'pg';
import { migrate } from '../sync-server/store/migrate.ts';
import { openStore } from '../sync-server/store/open.ts';
import { openPglite } from '../sync-server/store/pglite.ts';

export const PGLITE_TEMPLATE = resolve('.cache', 'pglite-migrated.tar');
export const PG_TEMPLATE_NAME = resolve('.cache', 'pg-template-name');

export default async function setup(): Promise<() => Promise<void>> {
  rmSync(PGLITE_TEMPLATE, { force: true });
  rmSync(PG_TEMPLATE_NAME, { force: true });
  mkdirSync(dirname(PGLITE_TEMPLATE), { recursive: true });
  // Guarded as every store is: a backend that stops while migrating fails the set-up, not hangs it.
  const { db, store } = await openPglite('memory://');
  await migrate(store);
  const dump = await db.dumpDataDir('none');
  await store.close();
  writeFileSync(PGLITE_TEMPLATE, new Uint8Array(await dump.arrayBuffer()));

  const base = process.env.TEST_DATABASE_URL;
  const pgTemplate = base ? await migratedPostgres(base) : null;
  if (pgTemplate) writeFileSync(PG_TEMPLATE_NAME, pgTemplate);
  return async () => {
    rmSync(PGLITE_TEMPLATE, { force: true });
    rmSync(PG_TEMPLATE_NAME, { force: true });
    if (base && pgTemplate) await adminQuery(base, `DROP DATABASE IF EXISTS ${pgTemplate} WITH (FORCE)`);
  };
}

/** A migrated database made from `base`; its name. The store is closed before returning: CREATE
 *  DATABASE … TEMPLATE refuses a template anyone is connected to. */
async function migratedPostgres(base: string): Promise<string> {
  const name = `castaway_tpl_${randomBytes(6).toString('hex')}`;
  await adminQuery(base, `CREATE DATABASE ${name}`);
  const url = new URL(base);
  url.pathname = `/${name}`;
  const store = await openStore({ databaseUrl: url.toString() });
  await store.close();
  return name;
}

async function adminQuery(base: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
