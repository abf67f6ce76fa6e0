// `npm run cluster -- --instances 3 [--port 8787]`: several server instances on one PostgreSQL
// behind a small load balancer (scripts/load-balancer.ts), for demos and the cluster tests. Every
// instance shares the database (rows, sessions, throttles, jobs, upload records and locks, pokes by
// LISTEN/NOTIFY) and one data folder (upload bytes and blobs; set CASTAWAY_S3_BUCKET to keep both
// in object storage instead). The first instance starts alone, so only it migrates and seeds the
// demo; the others start once it serves.
//
// PostgreSQL: DATABASE_URL, or the local cluster of scripts/start-postgres.sh with a database
// `castaway_cluster` made in it.
import { spawn, spawnSync, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startBalancer, type Balancer } from './load-balancer.ts';

const repoRoot = resolve(import.meta.dirname, '..');
const START_MS = 180_000;

export type Instance = {
  index: number;
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  /** Everything it printed so far. */
  output(): string;
};

export type Cluster = {
  url: string;
  instances: Instance[];
  balancer: Balancer;
  /** Starts instance `index` again (after it was killed), on a new port the balancer then uses. */
  restart(index: number): Promise<Instance>;
  close(): Promise<void>;
};

export type ClusterOptions = {
  instances: number;
  databaseUrl: string;
  dataDir: string;
  port?: number;
  /** More environment for every instance (tests: CASTAWAY_DEMO_CLIPS, CASTAWAY_JOB_LEASE_MS…). */
  env?: NodeJS.ProcessEnv;
  /** Each line an instance prints, with its index (the CLI prefixes and prints them). */
  onLine?: (index: number, line: string) => void;
};

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  mkdirSync(options.dataDir, { recursive: true });
  const all = new Set<ChildProcess>();
  const instances: Instance[] = [];

  const inherited = { ...process.env, ...options.env };
  function launch(index: number): Promise<Instance> {
    const env: NodeJS.ProcessEnv = {
      ...inherited,
      DATABASE_URL: options.databaseUrl,
      CASTAWAY_DATA_DIR: options.dataDir,
      PORT: '0',
      // The cluster is for tests and demos: the demo is written into its PostgreSQL unless the
      // caller says CASTAWAY_DEMO=0 (sync-server/first-run.ts keeps it out of a configured one).
      CASTAWAY_DEMO: inherited.CASTAWAY_DEMO ?? '1',
      // The balancer runs on loopback and adds X-Forwarded-For: each client is counted as itself.
      CASTAWAY_TRUSTED_PROXIES: '127.0.0.1,::1',
      // With blobs in S3, each instance keeps its own read cache (a cache belongs to one process).
      ...(inherited.CASTAWAY_S3_BUCKET && !inherited.CASTAWAY_S3_CACHE_DIR ? { CASTAWAY_S3_CACHE_DIR: join(options.dataDir, `s3-cache-${index}`) } : {}),
    };
    const child = spawn(process.execPath, ['--import', 'tsx', 'sync-server/main.ts'], { cwd: repoRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    all.add(child);
    let output = '';
    let partial = '';
    let serving = false;
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => {
      all.delete(child);
      done(code);
    }));
    return new Promise<Instance>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`instance ${index} did not start in ${START_MS} ms:\n${output}`)), START_MS);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const lines = (partial + chunk.toString()).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) options.onLine?.(index, line);
        const port = /Castaway Studio on http:\/\/localhost:(\d+)\//.exec(output)?.[1];
        if (port && !serving) {
          serving = true;
          clearTimeout(timer);
          ok({ index, url: `http://127.0.0.1:${port}`, child, exited, output: () => output });
        }
      };
      child.stdout!.on('data', read);
      child.stderr!.on('data', read);
      void exited.then((code) => {
        clearTimeout(timer);
        fail(new Error(`instance ${index} exited (${code}) before serving:\n${output}`));
      });
    });
  }

  try {
    instances.push(await launch(0));
    instances.push(...(await Promise.all(Array.from({ length: options.instances - 1 }, (_, i) => launch(i + 1)))));
  } catch (e) {
    for (const child of all) child.kill('SIGKILL');
    throw e;
  }
  const balancer = await startBalancer({ backends: instances.map((i) => i.url), ...(options.port === undefined ? {} : { port: options.port }) });

  return {
    url: balancer.url,
    instances,
    balancer,
    async restart(index) {
      const again = await launch(index);
      instances[index] = again;
      balancer.backends[index] = { url: again.url, ready: false };
      await balancer.check();
      return again;
    },
    async close() {
      await balancer.close();
      await Promise.all(
        [...all].map((child) => new Promise<void>((done) => {
          const hard = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.once('exit', () => {
            clearTimeout(hard);
            done();
          });
          child.kill('SIGTERM');
        })),
      );
    },
  };
}

/** DATABASE_URL, or a `castaway_cluster` database in the local cluster of start-postgres.sh. */
async function clusterDatabase(): Promise<string> {
  if (process.env.DATABASE_URL) return process.env.DATABASE_URL;
  let local: string;
  try {
    local = execFileSync('bash', ['scripts/start-postgres.sh'], { cwd: repoRoot, encoding: 'utf8' }).trim().split('\n').pop()!;
  } catch {
    throw new Error('The cluster needs PostgreSQL: set DATABASE_URL, or install postgresql for scripts/start-postgres.sh.');
  }
  const url = new URL(local);
  url.pathname = '/castaway_cluster';
  const admin = new pg.Client({ connectionString: local });
  await admin.connect();
  try {
    const found = await admin.query(`SELECT 1 FROM pg_database WHERE datname = 'castaway_cluster'`);
    if (found.rowCount === 0) await admin.query(`CREATE DATABASE castaway_cluster`);
  } finally {
    await admin.end();
  }
  return url.toString();
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { instances: { type: 'string', default: '3' }, port: { type: 'string', default: process.env.PORT ?? '8787' } } });
  const count = Number(values.instances);
  const port = Number(values.port);
  if (!Number.isInteger(count) || count < 1 || count > 16) throw new Error(`--instances must be a whole number from 1 to 16 (got "${values.instances}")`);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be a port number (got "${values.port}")`);
  // Built once here: each instance would otherwise build the PWA at the same time.
  if (!process.env.CASTAWAY_DIST_DIR && !existsSync(join(repoRoot, 'dist', 'index.html'))) {
    if (spawnSync('npm', ['run', 'build:web'], { cwd: repoRoot, stdio: 'inherit' }).status !== 0) throw new Error('The web app build failed.');
  }
  const databaseUrl = await clusterDatabase();
  const cluster = await startCluster({
    instances: count,
    port,
    databaseUrl,
    dataDir: process.env.CASTAWAY_DATA_DIR ?? join(repoRoot, '.data', 'cluster'),
    onLine: (index, line) => console.log(`[${index}] ${line}`),
  });
  console.log(`\nCastaway Studio cluster on ${cluster.url.replace('127.0.0.1', 'localhost')}/ (${count} instances on ${new URL(databaseUrl).host}${new URL(databaseUrl).pathname}):`);
  for (const i of cluster.instances) console.log(`  instance ${i.index}: ${i.url} (pid ${i.child.pid})`);
  const stop = () => void cluster.close().finally(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

if (process.argv[1] && resolve(process.argv[1]) === import.meta.filename) {
  main().catch((err: unknown) => {
    console.error('The cluster could not start:', err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
