import { resolve } from 'node:path';
import { migrate } from './migrate.ts';
import { openPgliteStore } from './pglite.ts';
import { openPostgresStore } from './postgres.ts';
import type { OpenStoreOptions, Store } from './store.ts';

/** The default data folder: CASTAWAY_DATA_DIR, else `.data/pglite` under the working directory. */
export function defaultDataDir(): string {
  return resolve(process.env.CASTAWAY_DATA_DIR ?? '.data', 'pglite');
}

/** Opens PostgreSQL when a URL is given, PGlite otherwise, and applies the migrations. */
export async function openStore(options: OpenStoreOptions = {}): Promise<Store> {
  const store = options.databaseUrl
    ? await openPostgresStore(options.databaseUrl)
    : await openPgliteStore(options.dataDir ?? defaultDataDir(), { onStopped: options.onStopped });
  if (!options.skipMigrations) await migrate(store);
  return store;
}
