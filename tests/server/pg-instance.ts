// One server instance of several on one PostgreSQL database, in the test's process: its own store
// connections (or the given store), its own LISTEN/NOTIFY bus and job runner, served over loopback,
// as instances behind a balancer are; they share only the database and the blob folder.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp, type AppDeps } from '../../sync-server/app.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { openStore } from '../../sync-server/store/open.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { createPgBus, type PgBus } from '../../sync-server/sync/pg-bus.ts';

export type PgInstance = { app: ReturnType<typeof createApp>; bus: PgBus; store: Store; base: string; close(): Promise<void> };

/** Starts an instance on `databaseUrl` with blobs in `blobDir`; `store`: one the caller owns and closes. */
export async function startPgInstance(databaseUrl: string, blobDir: string, options: { store?: Store; deps?: Partial<AppDeps> } = {}): Promise<PgInstance> {
  const store = options.store ?? (await openStore({ databaseUrl }));
  const bus = createPgBus(databaseUrl);
  await bus.ready;
  const app = createApp({ store, bus, blobs: fsBlobStore(blobDir), ...options.deps, jobs: { databaseUrl, ...options.deps?.jobs } });
  await app.jobs.start();
  const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    app,
    bus,
    store,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      server.close();
      await app.jobs.stop();
      await bus.close();
      if (!options.store) await store.close();
    },
  };
}
