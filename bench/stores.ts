// The stores a benchmark measures on: PGlite in a temporary data folder (a benchmark's data is
// larger than an in-memory PGlite holds comfortably), and a scratch PostgreSQL database made from
// the server bench/postgres.ts finds; each disposed of (folder removed, database dropped) after.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStore } from '../sync-server/store/open.ts';
import type { Store } from '../sync-server/store/store.ts';
import { openScratchPostgres } from '../tests/server/test-store.ts';
import { NO_POSTGRES, postgresUrl } from './postgres.ts';

export type BenchStore = { store: Store; dispose: () => Promise<void> };

export async function openBenchPglite(prefix: string): Promise<BenchStore> {
  const dir = mkdtempSync(join(tmpdir(), `${prefix}-`));
  const store = await openStore({ dataDir: join(dir, 'pglite') });
  return {
    store,
    dispose: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export async function openBenchPostgres(prefix: string): Promise<BenchStore> {
  const base = postgresUrl();
  if (base === null) throw new Error(NO_POSTGRES);
  const { store, drop } = await openScratchPostgres(base, prefix.replace(/[^a-z0-9_]/g, '_'));
  return { store, dispose: drop };
}
