// SSE fan-out at scale (issue 35): 1,000 devices connected by server-sent events to a 3-instance
// cluster (scripts/cluster.ts) on one PostgreSQL; a write on one instance must reach every device,
// through LISTEN/NOTIFY to the other instances, within a p95 of 150 ms. Each device is its own
// session, as 1,000 phones are; they connect to the instances in turn (what a round-robin balancer
// does; the clients here are in this process, so the balancer's own process is left out).
//
// The floor, measured in the same run: the same clients on a bare Node server (three processes,
// as the cluster has) that writes one event to every open stream when told, with no database,
// no session and no bus. Its p95 is what this machine takes to deliver 1,000 events at all; the
// ratio says how much the studio adds.
//
// BENCH_FANOUT_CLIENTS (default 1000) and BENCH_FANOUT_WRITES (default 20) size it.
import { fork, type ChildProcess } from 'node:child_process';
import { request, type IncomingMessage } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startCluster } from '../scripts/cluster.ts';
import { createSession, SESSION_COOKIE, XSRF_HEADER } from '../sync-server/auth.ts';
import { ORG_DEMO, seedId } from '../sync-server/seed.ts';
import { openScratchPostgres } from '../tests/server/test-store.ts';
import { NO_POSTGRES, postgresUrl } from './postgres.ts';
import { line, percentile } from './report.ts';
import { sized } from './tiny.ts';

const CLIENTS = Number(process.env.BENCH_FANOUT_CLIENTS ?? sized(1000, 30));
const WRITES = Number(process.env.BENCH_FANOUT_WRITES ?? sized(20, 2));
const TARGET_P95_MS = 150;
const INSTANCES = 3;
if (!(Number.isInteger(CLIENTS) && CLIENTS > 0 && Number.isInteger(WRITES) && WRITES > 0)) throw new Error('BENCH_FANOUT_CLIENTS and BENCH_FANOUT_WRITES must be whole numbers');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One device's stream: calls `onEvent(data)` for each event it gets, with its arrival time. */
type Device = { close(): void };

function connect(url: string, headers: Record<string, string>, onEvent: (event: string, data: string, at: number) => void): Promise<Device> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { ...headers, accept: 'text/event-stream' }, agent: false }, (res: IncomingMessage) => {
      if (res.statusCode !== 200) return reject(new Error(`${url}: ${res.statusCode}`));
      res.setEncoding('utf8');
      let buffer = '';
      let ready = false;
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
          const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
          if (event === 'ready' && !ready) {
            ready = true;
            resolve({ close: () => req.destroy() });
          } else onEvent(event, data, at);
        }
      });
      res.on('error', () => undefined);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Connects `count` devices, a few hundred at a time (the accept queues of three processes). */
async function connectAll(count: number, target: (i: number) => { url: string; headers: Record<string, string> }, onEvent: (device: number, event: string, data: string, at: number) => void): Promise<Device[]> {
  const devices: Device[] = [];
  for (let start = 0; start < count; start += 200) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(200, count - start) }, (_, k) => {
        const i = start + k;
        const t = target(i);
        return connect(t.url, t.headers, (event, data, at) => onEvent(i, event, data, at));
      }),
    );
    devices.push(...batch);
  }
  return devices;
}

function summarize(name: string, latencies: number[], expected: number): { p95: number } {
  if (latencies.length !== expected) console.log(`bench: warning: ${name}: ${latencies.length} of ${expected} deliveries arrived`);
  const p50 = percentile(latencies, 50);
  const p95 = percentile(latencies, 95);
  line(`${name}_p50`, p50, 'ms');
  line(`${name}_p95`, p95, 'ms');
  line(`${name}_max`, Math.max(...latencies), 'ms');
  return { p95 };
}

/** The studio: 3 instances, CLIENTS sessions, WRITES writes each on the next instance. */
async function studioFanout(): Promise<number> {
  const base = postgresUrl();
  if (base === null) throw new Error(NO_POSTGRES);
  const db = await openScratchPostgres(base, 'castaway_fanout');
  const dataDir = await mkdtemp(join(tmpdir(), 'castaway-fanout-'));
  const cluster = await startCluster({
    instances: INSTANCES,
    databaseUrl: db.url,
    dataDir,
    env: { NODE_ENV: 'test', CASTAWAY_DEMO_CLIPS: '50', CASTAWAY_DIST_DIR: join(dataDir, 'no-dist'), LOG_LEVEL: 'warn' },
  });
  const devices: Device[] = [];
  try {
    const demo = seedId('user:demo@example.com');
    const sessions: Array<{ token: string; xsrfToken: string }> = [];
    for (let i = 0; i < CLIENTS; i++) sessions.push(await createSession(db.store, demo, new Date()));
    const writer = sessions[0]!;
    const writerHeaders = { cookie: `${SESSION_COOKIE}=${writer.token}`, [XSRF_HEADER]: writer.xsrfToken, 'x-organization-id': ORG_DEMO, 'content-type': 'application/json' };

    // The newest version each device has heard of, and when; a write's latency for a device is the
    // arrival of the first poke at or past the write's version, from the moment the write was sent.
    const heard: Array<Array<{ version: number; at: number }>> = Array.from({ length: CLIENTS }, () => []);
    const started = performance.now();
    devices.push(
      ...(await connectAll(
        CLIENTS,
        (i) => ({ url: `${cluster.instances[i % INSTANCES]!.url}/api/sync/events`, headers: { cookie: `${SESSION_COOKIE}=${sessions[i]!.token}`, 'x-organization-id': ORG_DEMO } }),
        (device, event, data, at) => {
          if (event === 'poke') heard[device]!.push({ version: (JSON.parse(data) as { version: number }).version, at });
        },
      )),
    );
    line('fanout_connect_all', performance.now() - started, 'ms');
    await sleep(1000);

    const latencies: number[] = [];
    for (let w = 0; w < WRITES; w++) {
      const instance = cluster.instances[w % INSTANCES]!;
      const sentAt = performance.now();
      const res = await fetch(`${instance.url}/api/v1/programs`, { method: 'POST', headers: writerHeaders, body: JSON.stringify({ Name: `Fan-out ${w}` }) });
      if (res.status !== 201) throw new Error(`write answered ${res.status}: ${await res.text()}`);
      const { Version } = (await res.json()) as { Version: number };
      // Every device's poke, or 5 s.
      const until = performance.now() + 5000;
      while (performance.now() < until && heard.some((h) => !h.some((x) => x.version >= Version))) await sleep(5);
      const these: number[] = [];
      for (const h of heard) {
        const first = h.find((x) => x.version >= Version);
        if (first) these.push(first.at - sentAt);
      }
      latencies.push(...these);
      console.log(`bench: (write ${w + 1} on instance ${w % INSTANCES}${w > 0 && (w - 1) % 2 === 1 ? ', 5 s after the last' : ''}: p50 ${percentile(these, 50).toFixed(0)} ms, p95 ${percentile(these, 95).toFixed(0)} ms, ${these.length} of ${CLIENTS})`);
      for (const h of heard) h.length = 0;
      // Writes apart, as people make them (and past the streams' 5 s credential re-check, half the time).
      await sleep(250 + (w % 2) * 5000);
    }
    return summarize(`fanout_studio_${CLIENTS}_clients_${INSTANCES}_instances`, latencies, CLIENTS * WRITES).p95;
  } finally {
    for (const d of devices) d.close();
    await cluster.close();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** The floor: three bare Node processes holding the same streams, each told to write one event. */
async function floorFanout(): Promise<number> {
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  for (let i = 0; i < INSTANCES; i++) {
    const child = fork(join(import.meta.dirname, 'fanout-floor-server.mjs'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    urls.push(await new Promise<string>((resolve) => child.once('message', (m) => resolve(String(m)))));
  }
  const devices: Device[] = [];
  try {
    const arrivals: number[][] = Array.from({ length: CLIENTS }, () => []);
    devices.push(...(await connectAll(CLIENTS, (i) => ({ url: `${urls[i % INSTANCES]}/events`, headers: {} }), (device, event, _data, at) => {
      if (event === 'poke') arrivals[device]!.push(at);
    })));
    await sleep(1000);
    const latencies: number[] = [];
    for (let w = 0; w < WRITES; w++) {
      for (const a of arrivals) a.length = 0;
      const sentAt = performance.now();
      // Told over HTTP, as an instance hears a NOTIFY: one message to each process.
      await Promise.all(urls.map((u) => fetch(`${u}/send`, { method: 'POST' })));
      const until = performance.now() + 5000;
      while (performance.now() < until && arrivals.some((a) => a.length === 0)) await sleep(5);
      for (const a of arrivals) if (a[0] !== undefined) latencies.push(a[0] - sentAt);
      await sleep(250);
    }
    return summarize(`fanout_floor_bare_node_${CLIENTS}_clients`, latencies, CLIENTS * WRITES).p95;
  } finally {
    for (const d of devices) d.close();
    for (const c of children) c.kill();
  }
}

const floorP95 = await floorFanout();
const studioP95 = await studioFanout();
line('fanout_p95_vs_target', TARGET_P95_MS / Math.max(studioP95, 1e-6), 'x');
line('fanout_p95_vs_floor', studioP95 / Math.max(floorP95, 1e-6), 'x (studio p95 / bare-Node p95; lower is better)');
process.exit(0);
