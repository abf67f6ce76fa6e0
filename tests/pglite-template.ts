// Vitest's global set-up (vitest.config.ts): one migrated PGlite data folder per run, dumped to
// PGLITE_TEMPLATE, which tests/server/test-store.ts loads for each in-memory store instead of
// running initdb and every migration again (initdb alone is about 3 s of CPU on these machines,
// over 20 s when they are loaded, and the server suites open dozens of stores).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { migrate } from '../sync-server/store/migrate.ts';
import { pgliteStoreOf } from '../sync-server/store/pglite.ts';

export const PGLITE_TEMPLATE = resolve('.cache', 'pglite-migrated.tar');

export default async function setup(): Promise<() => void> {
  rmSync(PGLITE_TEMPLATE, { force: true });
  const db = await PGlite.create();
  await migrate(pgliteStoreOf(db));
  const dump = await db.dumpDataDir('none');
  await db.close();
  mkdirSync(dirname(PGLITE_TEMPLATE), { recursive: true });
  writeFileSync(PGLITE_TEMPLATE, new Uint8Array(await dump.arrayBuffer()));
  return () => rmSync(PGLITE_TEMPLATE, { force: true });
}
