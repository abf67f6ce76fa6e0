// A TCP proxy that drops connections, for the resumable-upload test and bench:upload: every
// connection is cut after it has carried `cutEveryBytes` bytes towards the server, and/or every
// connection alive is cut each `cutEveryMs` (a link that drops every minute, scaled down).
import { createServer, connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export type FlakyProxy = { url: string; cuts: () => number; upstreamBytes: () => number; close: () => Promise<void> };

export type FlakyOptions = {
  cutEveryBytes?: number;
  cutEveryMs?: number;
  /** Upload bandwidth of each connection (a real uplink, so a large file takes long enough to be cut). */
  bytesPerSecond?: number;
};

export async function startFlakyProxy(target: { host: string; port: number }, options: FlakyOptions): Promise<FlakyProxy> {
  let cuts = 0;
  let upstreamBytes = 0;
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
    const opened = Date.now();
    live.add(client);
    const pair = () => cut(client, upstream);
    (client as Socket & { cut?: () => void }).cut = pair;
    client.on('data', (chunk: Buffer) => {
      if (options.cutEveryBytes !== undefined && sent + chunk.length >= options.cutEveryBytes) {
        // Deliver part of the chunk, then drop the link mid-request.
        const part = chunk.subarray(0, Math.max(0, options.cutEveryBytes - sent));
        upstreamBytes += part.length;
        upstream.write(part, () => pair());
        sent = options.cutEveryBytes;
        client.pause();
        return;
      }
      sent += chunk.length;
      upstreamBytes += chunk.length;
      if (!upstream.write(chunk)) client.pause();
      if (options.bytesPerSecond !== undefined) {
        const ahead = (sent / options.bytesPerSecond) * 1000 - (Date.now() - opened);
        if (ahead > 5) {
          client.pause();
          setTimeout(() => client.resume(), ahead);
        }
      }
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
    upstreamBytes: () => upstreamBytes,
    close: async () => {
      if (timer) clearInterval(timer);
      for (const s of live) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
