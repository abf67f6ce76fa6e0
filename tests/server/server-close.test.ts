// Stopping the server's HTTP listener (closeHttpServer, used by startServer's close and so by
// SIGTERM in main.ts), on loopback with Node's own client: a kept-alive connection whose response
// is still going out when the stop begins is closed once that response has ended, not left until
// its keep-alive timeout (the upload bench's server took 63 s to stop, one run in two), and a
// request that never ends is cut after the grace.
import { createServer, request, Agent, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { closeHttpServer } from '../../sync-server/server.ts';

const servers: Server[] = [];
const agent = new Agent({ keepAlive: true });

afterEach(() => {
  for (const s of servers.splice(0)) s.closeAllConnections();
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  // As startServer sets it: far longer than this test waits.
  server.keepAliveTimeout = 60_000;
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/** GETs / over the kept-alive agent; calls `onFirstBytes` when the response's first bytes arrive. */
function get(port: number, onFirstBytes: () => void = () => {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/', agent }, (res: IncomingMessage) => {
      let body = '';
      res.setEncoding('utf8');
      res.once('data', onFirstBytes);
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve(body));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const within = <T>(p: Promise<T>, ms: number) => Promise.race([p.then(() => 'closed' as const), new Promise<'still open'>((r) => setTimeout(() => r('still open'), ms))]);

it('a connection whose response is still going out when the stop begins is closed once it has ended, long before its keep-alive timeout', async () => {
  const { server, port } = await listen((_req, res) => {
    res.write('first half, ');
    setTimeout(() => res.end('second half'), 300);
  });
  let closing: Promise<void> | null = null;
  const body = await get(port, () => (closing = closeHttpServer(server, 60_000)));
  // The response in flight was answered whole.
  expect(body).toBe('first half, second half');
  expect(closing).not.toBeNull();
  // Node's close() alone leaves this connection open for its 60 s keep-alive timeout.
  expect(await within(closing!, 20_000)).toBe('closed');
});

it('a request that never ends is cut after the grace, and the stop ends', async () => {
  let asked = () => {};
  const arrived = new Promise<void>((resolve) => (asked = resolve));
  const { server, port } = await listen(() => asked());
  const answer = get(port).then(
    () => 'answered',
    (e: Error) => e.message,
  );
  await arrived;
  expect(await within(closeHttpServer(server, 200), 20_000)).toBe('closed');
  expect(await answer).toBe('socket hang up');
});
