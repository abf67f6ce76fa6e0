// A TCP proxy that drops connections, for the resumable-upload test and bench:upload: every
// connection is cut after it has carried `cutEveryBytes` bytes towards the server, and/or every
// connection alive is cut each `cutEveryMs` (a link that drops every minute, scaled down).
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type FlakyProxy = { url: string; cuts: () => number; close: () => Promise<void> };

export async function startFlakyProxy(target: { host: string; port: number }, options: { cutEveryBytes?: number; cutEveryMs?: number }): Promise<FlakyProxy> {
  let cuts = 0;
  const live = new Set<Socket>();
  const cut = (client: Socket, upstream: Socket) => {
    if (client.destroyed && upstream.destroyed) return;
    cuts++;
    client.destroy();
    upstream.destroy();
  };
  const server = createServer((client) => {
    const upstream = connect(target.port, target.host);
    let sent = 0;
    live.add(client);
    const pair = () => cut(client, upstream);
    (client as Socket & { cut?: () => void }).cut = pair;
    client.on('data', (chunk: Buffer) => {
      if (options.cutEveryBytes !== undefined && sent + chunk.length >= options.cutEveryBytes) {
        // Deliver part of the chunk, then drop the link mid-request.
        upstream.write(chunk.subarray(0, Math.max(0, options.cutEveryBytes - sent)), () => pair());
        sent = options.cutEveryBytes;
        client.pause();
        return;
      }
      sent += chunk.length;
      if (!upstream.write(chunk)) client.pause();
    });
    upstream.on('drain', () => client.resume());
    upstream.on('data', (chunk: Buffer) => {
      if (!client.write(chunk)) upstream.pause();
    });
    client.on('drain', () => upstream.resume());
    const end = () => {
      live.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  const timer = options.cutEveryMs === undefined ? null : setInterval(() => {
    for (const s of live) (s as Socket & { cut?: () => void }).cut?.();
  }, options.cutEveryMs);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    cuts: () => cuts,
    close: async () => {
      if (timer) clearInterval(timer);
      for (const s of live) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
