// Webhooks survive a crash (issue 33): the real server as `npm start` runs it (`node --import tsx
// sync-server/main.ts`) on a PostgreSQL database of its own, spoken to over loopback only, with a
// receiver on 127.0.0.1 that deduplicates by the webhook-id header and is slow to answer. Edits
// are made, the server is killed with SIGKILL while the receiver holds a delivery unanswered, and
// started again: every event the log holds reaches the receiver, none is lost, a repeat is only
// ever of the same id and body (the one in flight at the kill), and each clip's edits arrive in
// the order they were made.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ORG_DEMO } from '../../sync-server/seed.ts';
import { overHttp, signIn } from '../helpers/sign-in.ts';
import { MISSING_DATABASE_URL, openScratchPostgres, type TestStore } from './test-store.ts';
import { startServerProcess, type ServerProcess } from '../helpers/server-process.ts';

const START_MS = 180_000;

type Delivery = { id: string; body: string; type: string; clipId: string | null; title: unknown };

let db: TestStore & { url: string };
let dataDir: string;
const running = new Set<ChildProcess>();
let receiverServer: http.Server;
let receiverUrl = '';
/** Every request, in the order it came (repeats too). */
const deliveries: Delivery[] = [];
/** Called with each request before it is answered; may hold the answer back. */
let onRequest: (d: Delivery) => Promise<void> = async () => {};

beforeAll(async () => {
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error(MISSING_DATABASE_URL);
  db = await openScratchPostgres(base, 'castaway_webhooks_crash');
  dataDir = await mkdtemp(join(tmpdir(), 'castaway-webhooks-crash-'));
  receiverServer = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const json = JSON.parse(body) as { type: string; data: { id: string | null; row: Record<string, unknown> | null } };
      const d: Delivery = { id: String(req.headers['webhook-id']), body, type: json.type, clipId: json.data.id, title: json.data.row?.['Title'] };
      deliveries.push(d);
      // Slow, as a receiver doing real work is: the server has a delivery in flight most of the time.
      void onRequest(d)
        .then(() => new Promise((r) => setTimeout(r, 40)))
        .then(() => {
          if (!res.destroyed) res.writeHead(200).end('ok');
        });
    });
  });
  await new Promise<void>((resolve) => receiverServer.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiverServer.address() as AddressInfo).port}/hook`;
}, 120_000);

afterAll(async () => {
  for (const child of running) child.kill('SIGKILL');
  receiverServer?.closeAllConnections();
  await new Promise((resolve) => receiverServer?.close(resolve));
  await db?.drop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

function startServer(): Promise<ServerProcess> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: db.url,
    CASTAWAY_DEMO: '1',
    CASTAWAY_DEMO_CLIPS: '24',
    CASTAWAY_DEMO_LISTENER_DAYS: '0',
    CASTAWAY_DATA_DIR: dataDir,
    CASTAWAY_DIST_DIR: join(dataDir, 'no-dist'),
    CASTAWAY_WEBHOOK_ALLOW_LOOPBACK: '1',
    // A dead instance's jobs are taken up soon (the webhook's own lease is at least the delivery timeout and 5 s).
    CASTAWAY_JOB_LEASE_MS: '3000',
    PORT: '0',
  };
  for (const name of ['CASTAWAY_BLOB_DIR', 'CASTAWAY_UPLOAD_DIR', 'CASTAWAY_S3_BUCKET']) delete env[name];
  return startServerProcess(env, running, START_MS);
}

async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs: number): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

it('kill -9 mid-delivery: after the restart every event arrives, none lost, a repeat only of the same id, in order per clip', async () => {
  const first = await startServer();
  const call = async (base: string, method: string, path: string, json?: unknown) => {
    const session = await signIn(overHttp(base));
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { ...session, 'x-organization-id': ORG_DEMO, ...(json !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(json !== undefined ? { body: JSON.stringify(json) } : {}),
    });
    const text = await res.text();
    return { status: res.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const made = await call(first.base, 'POST', '/api/v1/webhooks', { Url: receiverUrl, EventTypes: ['ClipUpdated'] });
  expect(made.status, made.text).toBe(201);
  const webhookId = (made.body as { Id: string }).Id;
  const clips = ((await call(first.base, 'GET', '/api/v1/clips?pageSize=4')).body as { Items: Array<{ Id: string }> }).Items.map((c) => c.Id);
  expect(clips).toHaveLength(4);

  // The first request waits for the edits to be made; the sixth is held unanswered while the server
  // is killed: it was sent and never recorded.
  let edited!: () => void;
  const gate = new Promise<void>((resolve) => (edited = resolve));
  let killed!: Delivery;
  const dead = new Promise<void>((resolve) => {
    onRequest = async (d) => {
      await gate;
      if (deliveries.length !== 6) return;
      killed = d;
      first.child.kill('SIGKILL');
      await first.exited;
      resolve();
    };
  });
  const session = await signIn(overHttp(first.base));
  for (let round = 1; round <= 4; round++) {
    for (const id of clips) {
      const res = await fetch(`${first.base}/api/v1/clips/${id}`, {
        method: 'PATCH',
        headers: { ...session, 'x-organization-id': ORG_DEMO, 'content-type': 'application/json' },
        body: JSON.stringify({ Title: `Round ${round}` }),
      });
      expect(res.status).toBe(200);
    }
  }
  edited();
  await dead;
  onRequest = async () => {};
  const atKill = deliveries.length;
  expect(atKill).toBe(6);

  const second = await startServer();
  try {
    // One more round on the new instance.
    for (const id of clips) expect((await call(second.base, 'PATCH', `/api/v1/clips/${id}`, { Title: 'Round 5' })).status).toBe(200);
    const events = async () =>
      db.store.query<{ id: string; status: string; entity_id: string }>(`SELECT id, status, entity_id FROM webhook_events WHERE webhook_id = $1 ORDER BY seq`, [webhookId]);
    // (The demo's own jobs may change other clips meanwhile: their events count as any other, and
    // only these four clips' are counted.)
    const logged = await until(
      'every event delivered',
      async () => {
        const all = await events();
        const mine = all.filter((e) => clips.includes(e.entity_id));
        return mine.length === 20 && all.every((e) => e.status === 'Succeeded') && all;
      },
      120_000,
    );
    // Nothing lost: each event of the log reached the receiver.
    const received = new Set(deliveries.map((d) => d.id));
    expect(logged.filter((e) => !received.has(e.id))).toEqual([]);
    expect(new Set(deliveries.filter((d) => clips.includes(d.clipId!)).map((d) => d.id)).size).toBe(20);
    // Repeats only of one id with its own body: the delivery in flight at the kill.
    const repeats = deliveries.filter((d, i) => deliveries.findIndex((x) => x.id === d.id) !== i);
    expect(repeats.length).toBeGreaterThanOrEqual(1);
    for (const r of repeats) {
      expect(r.id).toBe(killed.id);
      expect(r.body).toBe(killed.body);
    }
    // In order per clip: first arrivals of each clip's events go Round 1 … Round 5.
    const firsts = deliveries.filter((d, i) => deliveries.findIndex((x) => x.id === d.id) === i);
    for (const id of clips) expect(firsts.filter((d) => d.clipId === id).map((d) => d.title)).toEqual(['Round 1', 'Round 2', 'Round 3', 'Round 4', 'Round 5']);
    expect(deliveries.every((d) => d.type === 'ClipUpdated')).toBe(true);
  } finally {
    second.child.kill('SIGTERM');
    await second.exited;
  }
}, 600_000);
