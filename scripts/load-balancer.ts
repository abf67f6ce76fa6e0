// A small load balancer for `npm run cluster` and the cluster tests: round robin over the instances
// whose /readyz answers 200, through http-proxy-3 (a maintained rewrite of http-proxy that streams
// bodies both ways, so uploads and server-sent events pass as they come). It adds X-Forwarded-For,
// which the instances believe because the cluster lists the balancer in CASTAWAY_TRUSTED_PROXIES.
// Not a production balancer: one process, no TLS; in front of a real deployment use the platform's.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createProxyServer } from 'http-proxy-3';

export type Backend = { url: string; ready: boolean };

export type Balancer = {
  url: string;
  backends: Backend[];
  /** Checks every backend's /readyz now (the loop does it every `checkEveryMs`). */
  check(): Promise<void>;
  close(): Promise<void>;
};

/** Methods a refused connection may be retried for on another instance: no body was consumed. */
const RETRYABLE = new Set(['GET', 'HEAD', 'OPTIONS']);

export async function startBalancer(options: { backends: string[]; port?: number; host?: string; checkEveryMs?: number }): Promise<Balancer> {
  const backends: Backend[] = options.backends.map((url) => ({ url, ready: false }));
  const proxy = createProxyServer({ xfwd: true });
  let turn = 0;

  function pick(exclude: Set<Backend>): Backend | undefined {
    const ready = backends.filter((b) => b.ready && !exclude.has(b));
    if (ready.length === 0) return undefined;
    return ready[turn++ % ready.length];
  }

  function unavailable(res: ServerResponse, status: number, message: string): void {
    if (!res.headersSent) res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '1' });
    res.end(JSON.stringify({ Message: message }));
  }

  function forward(req: IncomingMessage, res: ServerResponse, tried: Set<Backend>): void {
    const backend = pick(tried);
    if (!backend) return unavailable(res, 503, 'No instance is ready');
    tried.add(backend);
    proxy.web(req, res, { target: backend.url }, (err) => {
      // The instance is gone (killed, restarting): out of the rotation until /readyz answers again.
      const refused = (err as NodeJS.ErrnoException).code === 'ECONNREFUSED';
      if (refused) backend.ready = false;
      if (refused && RETRYABLE.has(req.method ?? '') && !res.headersSent) return forward(req, res, tried);
      unavailable(res, 502, `The instance did not answer (${(err as NodeJS.ErrnoException).code ?? err.message})`);
    });
  }

  async function check(): Promise<void> {
    await Promise.all(
      backends.map(async (b) => {
        try {
          b.ready = (await fetch(`${b.url}/readyz`, { signal: AbortSignal.timeout(2000) })).ok;
        } catch {
          b.ready = false;
        }
      }),
    );
  }

  const server = createServer((req, res) => forward(req, res, new Set()));
  await check();
  const timer = setInterval(() => void check(), options.checkEveryMs ?? 1000);
  timer.unref();
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    backends,
    check,
    async close() {
      clearInterval(timer);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      proxy.close();
    },
  };
}
