// One running Castaway server: the app (createApp) plus the built PWA on one port, and the app's
// job runner (audio processing, sweeps: sync-server/jobs). main.ts uses it for `npm start`; the
// HTTP tests start it on a random port.
import type { Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { createMemoryBus, type ChangeBus } from './bus.ts';
import type { JobRunner, JobRunnerSettings } from './jobs/runner.ts';
import type { BlobStore } from './audio/blob-store.ts';
import { serveDist } from './static.ts';
import type { Store } from './store/store.ts';
import type { Logger } from './observability/log.ts';
import type { TrustedProxies } from './client-address.ts';

/**
 * How long an idle kept-alive connection stays open. Node's default (5 s) races clients: a client
 * that reuses a connection just as the server closes it gets a reset, not an answer (an e2e request
 * after a few quiet seconds failed with ECONNRESET on a loaded machine), and a load balancer that
 * keeps connections to its instances for 60 s (AWS's default) turns that race into 502s. Longer
 * than the balancer's idle time, so the balancer, not the instance, closes them.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/**
 * How long a stopping server lets the requests in flight end before it cuts their connections: an
 * upload's chunk cut then is resumed by its client (tus), and a process manager's stop timeout
 * (Kubernetes: 30 s) is not reached.
 */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * Stops accepting connections and resolves once every connection is closed. Node closes the idle
 * kept-alive connections only at close(): one whose response was still going out then (a download
 * whose last bytes were being flushed) stayed open until its keep-alive timeout, 65 s, and so did
 * the stop (the upload bench's server, one run in two). So connections are closed as soon as they
 * are idle, and the ones still busy after `graceMs` are cut.
 */
export function closeHttpServer(server: HttpServer, graceMs: number = SHUTDOWN_GRACE_MS): Promise<void> {
  return new Promise((done) => {
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => server.closeAllConnections(), graceMs);
    server.close(() => {
      clearInterval(idle);
      clearTimeout(cut);
      done();
    });
  });
}

export type RunningServer = { url: string; port: number; jobs: JobRunner; close: () => Promise<void> };

export async function startServer(options: {
  store: Store;
  distDir: string;
  port?: number;
  bus?: ChangeBus;
  secureCookies?: boolean;
  /** CASTAWAY_TRUSTED_PROXIES, parsed (client-address.ts). */
  trustedProxies?: TrustedProxies | null;
  /** The job runner's settings; with PostgreSQL, `databaseUrl` lets it hear new jobs at once. */
  jobs?: JobRunnerSettings;
  log?: Logger;
  /** GET /metrics only with this bearer token (CASTAWAY_METRICS_TOKEN). */
  metricsToken?: string | undefined;
  /** The blob store (main.ts: the one the environment configures, shared with the seed). */
  blobs?: BlobStore;
}): Promise<RunningServer> {
  const app = createApp({
    store: options.store,
    bus: options.bus ?? createMemoryBus(),
    secureCookies: options.secureCookies,
    trustedProxies: options.trustedProxies,
    jobs: options.jobs,
    log: options.log,
    metricsToken: options.metricsToken,
    blobs: options.blobs,
  });
  serveDist(app, options.distDir);
  // Work left in flight by the last run resumes before the first request is answered.
  await app.jobs.start();
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: app.fetch, port: options.port ?? 8787 }, (info: AddressInfo) => {
      resolve({
        url: `http://localhost:${info.port}`,
        port: info.port,
        jobs: app.jobs,
        close: async () => {
          // Out of the load balancer's rotation first (/readyz answers 503), then no new connections.
          app.ops.draining = true;
          await closeHttpServer(server as HttpServer);
          await app.jobs.stop();
          await app.downloads.close();
        },
      });
    });
    // serve() makes a plain HTTP/1.1 server here (no createServer option asks for HTTP/2).
    const http1 = server as HttpServer;
    http1.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
    // Node requires headersTimeout above keepAliveTimeout, or it closes a kept connection whose
    // next request's headers arrive in between.
    http1.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
    server.on('error', (err) => {
      void app.jobs.stop();
      reject(err);
    });
  });
}
