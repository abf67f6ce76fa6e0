// A server of a spec's own, on a free port with its own data folder, for specs whose changes would
// disturb the specs that share the run's server (a snapshot restore rewrites a whole organization).
// It serves the same build (CASTAWAY_DIST_DIR, or dist/) and seeds the demo on start.
//
// Twenty specs have one. Migrating an empty embedded store and seeding the demo is most of a
// start (15–29 s each in the clean-clone CI on the loaded two-core machine), and it is the same
// work for every spec asking for the same demo: the first to ask makes a template of it once per
// run (a server started on its own folder, stopped once seeded), and every spec's server starts on
// a copy of that folder, where it finds the store migrated and seeded.
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

/** What a server seeds on an empty store depends on these alone (main.ts); the rest of a spec's
 *  environment (an SMTP_URL) does not change the data, so specs differing only there share a template. */
const SEEDING = ['CASTAWAY_DEMO', 'CASTAWAY_DEMO_CLIPS', 'CASTAWAY_DEMO_LISTENER_DAYS'] as const;

function serverEnv(port: number, dataDir: string, extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), CASTAWAY_DATA_DIR: dataDir, NODE_ENV: 'test', ...extra };
  delete env.CASTAWAY_BLOB_DIR;
  delete env.DATABASE_URL;
  return env;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Starts the server and resolves once it answers; one that exits first fails the start at once. */
async function serve(env: NodeJS.ProcessEnv, baseURL: string): Promise<ChildProcess> {
  const server = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], { env, stdio: 'ignore' });
  let exited: string | null = null;
  server.once('exit', (code, signal) => (exited = `the server on ${baseURL} exited (${signal ?? code}) before answering`));
  for (const deadline = Date.now() + OWN_SERVER_START_MS; ; await sleep(500)) {
    if (exited) throw new Error(exited);
    if ((await fetch(`${baseURL}/api/internal/session`).catch(() => null))?.status === 200) return server;
    if (Date.now() > deadline) {
      server.kill('SIGTERM');
      throw new Error(`the server on ${baseURL} did not answer in ${OWN_SERVER_START_MS / 1000} s`);
    }
  }
}

/**
 * The data folder of a store migrated and seeded with `extra`'s demo, made once per run by whichever
 * spec asks first (across Playwright's worker processes: the folder's creation is the claim) and
 * waited for by the others.
 */
async function seededTemplate(extra: NodeJS.ProcessEnv): Promise<string> {
  const key = JSON.stringify(SEEDING.map((name) => extra[name] ?? null));
  const root = join(process.env.E2E_DATA_DIR ?? tmpdir(), 'own-server-templates');
  mkdirSync(root, { recursive: true });
  const dir = join(root, createHash('sha256').update(key).digest('hex').slice(0, 16));
  const data = join(dir, 'data');
  const ready = join(dir, 'ready');
  const failed = join(dir, 'failed');
  let claimed = true;
  try {
    mkdirSync(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    claimed = false;
  }
  if (claimed) {
    try {
      const port = await freePort();
      const server = await serve(serverEnv(port, data, extra), `http://localhost:${port}`);
      // Stopped as an operator stops it (SIGTERM: main.ts closes the store and exits 0 once it has),
      // so the folder is whole; one that has not stopped in 60 s is killed and the template failed.
      const exit = new Promise<number | null>((resolve) => server.once('exit', (code) => resolve(code)));
      server.kill('SIGTERM');
      const code = await Promise.race([exit, sleep(60_000).then(() => 'hung' as const)]);
      if (code === 'hung') server.kill('SIGKILL');
      if (code !== 0) throw new Error(`the template's server ${code === 'hung' ? 'did not stop in 60 s' : `exited with ${code} when stopped`}`);
      writeFileSync(ready, key);
    } catch (e) {
      writeFileSync(failed, e instanceof Error ? e.message : String(e));
      throw e;
    }
    return data;
  }
  for (const deadline = Date.now() + OWN_SERVER_START_MS; !existsSync(ready); await sleep(250)) {
    if (existsSync(failed)) throw new Error(`the demo's template failed: ${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`the demo's template was not made in ${OWN_SERVER_START_MS / 1000} s`);
  }
  return data;
}

/** `extra`: more of the server's environment (an SMTP_URL, a smaller demo). */
export async function startOwnServer(prefix: string, extra: NodeJS.ProcessEnv = {}): Promise<OwnServer> {
  const template = await seededTemplate(extra);
  const work = mkdtempSync(join(tmpdir(), prefix));
  const dataDir = join(work, 'data');
  cpSync(template, dataDir, { recursive: true });
  const port = await freePort();
  const baseURL = `http://localhost:${port}`;
  const server = await serve(serverEnv(port, dataDir, extra), baseURL);
  return {
    baseURL,
    stop() {
      if (server.pid) process.kill(server.pid, 'SIGTERM');
      rmSync(work, { recursive: true, force: true });
    },
  };
}
