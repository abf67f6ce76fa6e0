// A server of a spec's own, on a free port with its own data folder, for specs whose changes would
// disturb the specs that share the run's server (a snapshot restore rewrites a whole organization).
// It serves the same build (CASTAWAY_DIST_DIR, or dist/) and seeds the demo on start.
import { expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

export type OwnServer = { baseURL: string; stop(): void };

/** Seeding 2,000 clips takes ~40 s on an idle two-core machine and several times that when other
 *  servers start beside it (the run's own, another spec's): callers give beforeAll this long. */
export const OWN_SERVER_START_MS = 240_000;

/** `extra`: more of the server's environment (an SMTP_URL, a smaller demo). */
export async function startOwnServer(prefix: string, extra: NodeJS.ProcessEnv = {}): Promise<OwnServer> {
  const work = mkdtempSync(join(tmpdir(), prefix));
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), CASTAWAY_DATA_DIR: join(work, 'data'), NODE_ENV: 'test', ...extra };
  delete env.CASTAWAY_BLOB_DIR;
  delete env.DATABASE_URL;
  const server = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], { env, stdio: 'ignore' });
  await expect
    .poll(async () => (await fetch(`${baseURL}/api/internal/session`).catch(() => null))?.status ?? 0, { timeout: OWN_SERVER_START_MS, intervals: [500] })
    .toBe(200);
  return {
    baseURL,
    stop() {
      if (server.pid) process.kill(server.pid, 'SIGTERM');
      rmSync(work, { recursive: true, force: true });
    },
  };
}
