// One running Castaway server: the app (createApp) plus the built PWA on one port. main.ts uses
// it for `npm start`; the HTTP tests start it on a random port.
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { createMemoryBus, type ChangeBus } from './bus.ts';
import { serveDist } from './static.ts';
import type { Store } from './store/store.ts';

export type RunningServer = { url: string; port: number; close: () => Promise<void> };

export function startServer(options: {
  store: Store;
  distDir: string;
  port?: number;
  bus?: ChangeBus;
  secureCookies?: boolean;
}): Promise<RunningServer> {
  const app = createApp({ store: options.store, bus: options.bus ?? createMemoryBus(), secureCookies: options.secureCookies });
  serveDist(app, options.distDir);
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 8787 }, (info: AddressInfo) => {
      resolve({
        url: `http://localhost:${info.port}`,
        port: info.port,
        close: () => new Promise<void>((done) => server.close(() => done())),
      });
    });
    server.on('error', reject);
  });
}
