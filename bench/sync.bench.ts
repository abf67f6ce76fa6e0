// Sync benchmarks (issue 4). Prints `bench: <metric> = <number> <unit>` and the ratio to target.
// Runs in Node: the local store is fake-indexeddb (NOT Chromium's IndexedDB; the in-browser
// figure needs the Playwright harness), the server is createApp on PGlite, and on PostgreSQL
// when TEST_DATABASE_URL or DATABASE_URL is set.
//   npm run bench:sync
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { addUser, api, login, makeClient, startServer, type Server } from '../tests/sync/harness.ts';
import { bulkInsert } from '../sync-server/rows.ts';
import { openLocalDb } from '../src/db/db.ts';
import { applyPullPage } from '../src/db/sync-store.ts';

function line(metric: string, value: number, unit: string, target?: { value: number; better: 'lower' | 'higher' }) {
  let out = `bench: ${metric} = ${value.toFixed(value < 10 ? 2 : 0)} ${unit}`;
  if (target) {
    const ratio = target.better === 'lower' ? value / target.value : target.value / value;
    out += `  (target ${target.better === 'lower' ? '≤' : '≥'} ${target.value} ${unit}; ratio to target ${ratio.toFixed(2)}, ${ratio <= 1 ? 'met' : 'not met'})`;
  }
  console.log(out);
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function seedLarge(server: Server, userId: string, clips: number): Promise<void> {
  const now = new Date();
  const programs = Array.from({ length: 10 }, () => randomUUID());
  await server.store.tx(async (q) => {
    await bulkInsert(q, 'program', server.organizationId, programs.map((id, i) => ({ id, createdById: userId, createdAt: now, modifiedAt: now, fields: { Name: `Program ${i}`, NetworkId: null, Slug: null } })));
    const rows = Array.from({ length: clips }, (_, i) => ({
      id: randomUUID(),
      createdById: userId,
      createdAt: now,
      modifiedAt: now,
      fields: { ProgramId: programs[i % programs.length], Title: `Clip ${i}`, State: 'Ready', PublishState: 'Published', Visibility: 'Public', Description: 'x'.repeat(200), Tags: ['news', 'talk'], Season: 1, Episode: i },
    }));
    await bulkInsert(q, 'clip', server.organizationId, rows);
    await bulkInsert(q, 'playlist', server.organizationId, programs.map((pid, i) => ({
      id: randomUUID(), createdById: userId, createdAt: now, modifiedAt: now,
      fields: { ProgramId: pid, Title: `Feed ${i}`, Slug: null, Visibility: 'Public', ClipIds: rows.filter((r) => r.fields.ProgramId === pid).slice(0, 100).map((r) => r.id) },
    })));
  });
}

async function initialSync(server: Server) {
  const userId = await addUser(server, `bench-init@example.com`);
  await seedLarge(server, userId, 10_000);
  const cookie = await login(server, 'bench-init@example.com');
  const c = makeClient(server, 'init', cookie, { engine: { pullLimit: 5000 } });
  const t0 = performance.now();
  await c.engine.flush();
  const total = performance.now() - t0;
  const clips = await c.db.clips.toArray();
  // The same rows through a raw Dexie bulkPut into a fresh database, for the ratio.
  const raw = openLocalDb(`bench-raw-${Date.now()}`);
  const t1 = performance.now();
  await raw.clips.bulkPut(clips);
  const rawMs = performance.now() - t1;
  // Local apply alone (the pulled pages stored), to separate it from server time.
  const page = (await api(server, cookie, 'GET', '/sync/pull?limit=5000')).json as never;
  const local = openLocalDb(`bench-local-${Date.now()}`);
  const t2 = performance.now();
  await applyPullPage(local, page);
  const applyMs = performance.now() - t2;
  line('initial sync of 10,000 clips, pull + store (Node, fake-indexeddb)', total, 'ms', { value: 1500, better: 'lower' });
  line('store of one 5,000-row pulled page (fake-indexeddb)', applyMs, 'ms');
  line('raw Dexie bulkPut of the 10,000 clips (fake-indexeddb)', rawMs, 'ms');
  line('initial sync / raw bulkPut', total / rawMs, 'x', { value: 1.5, better: 'lower' });
  for (const d of [c.db, raw, local]) {
    d.close();
    await d.delete();
  }
}

async function flushOffline(server: Server) {
  await server.newOrganization();
  await addUser(server, 'bench-flush@example.com');
  const cookie = await login(server, 'bench-flush@example.com');
  const program = await api(server, cookie, 'POST', '/v1/programs', { Name: 'Bench' });
  const pid = program.json!['Id'] as string;
  const c = makeClient(server, 'flush', cookie);
  await seedLarge(server, (await server.store.query<{ id: string }>(`SELECT id FROM users WHERE email = 'bench-flush@example.com'`))[0]!.id, 1000);
  await c.engine.flush();
  const clips = (await c.db.clips.toArray()).slice(0, 1000);
  for (const [i, clip] of clips.entries()) await c.writes.updateClip(clip.Id, { Title: `Edited ${i}` });
  const t0 = performance.now();
  await c.engine.flush();
  const ms = performance.now() - t0;
  const left = await c.db.outbox.count();
  line('flush of 1,000 offline edits after reconnecting (PGlite)', ms, 'ms', { value: 2000, better: 'lower' });
  if (left !== 0) console.log(`bench: warning: ${left} edits still queued`);
  void pid;
  c.db.close();
  await c.db.delete();
}

async function applyRate(server: Server, label: string, target: number) {
  await server.newOrganization();
  const userId = await addUser(server, `bench-rate-${label}@example.com`);
  await seedLarge(server, userId, 2000);
  const cookie = await login(server, `bench-rate-${label}@example.com`);
  const ids = (await server.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1`, [server.organizationId])).map((r) => r.id);
  const xsrf = ((await (await server.app.request('/api/internal/session/xsrf', { headers: { cookie } })).json()) as { XsrfToken: string }).XsrfToken;
  const headers = { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json', 'x-organization-id': server.organizationId };
  const clientId = randomUUID();
  const batches = 10;
  const t0 = performance.now();
  for (let b = 0; b < batches; b++) {
    const mutations = ids.slice(b * 200, b * 200 + 200).map((id) => ({
      id: randomUUID(), entity: 'clips', entityId: id, method: 'PATCH', path: `/v1/clips/${id}`, body: { Title: `Rate ${b}` }, baseModifiedAtUtc: null, createdAt: Date.now(),
    }));
    const res = await server.app.request('/api/sync/push', { method: 'POST', headers, body: JSON.stringify({ protocolVersion: 1, clientId, mutations }) });
    if (res.status !== 200) throw new Error(`push ${res.status}`);
  }
  const perSecond = (batches * 200) / ((performance.now() - t0) / 1000);
  line(`server apply rate (${label})`, perSecond, 'mutations/s', { value: target, better: 'higher' });
}

async function editToVisible(server: Server) {
  await server.newOrganization();
  await addUser(server, 'bench-a@example.com');
  await addUser(server, 'bench-b@example.com');
  const ca = await login(server, 'bench-a@example.com');
  const program = await api(server, ca, 'POST', '/v1/programs', { Name: 'Latency' });
  const clip = await api(server, ca, 'POST', `/v1/programs/${program.json!['Id']}/clips`, { Title: 'start' });
  const clipId = clip.json!['Id'] as string;
  const a = makeClient(server, 'a', ca);
  const b = makeClient(server, 'b', await login(server, 'bench-b@example.com'));
  await a.engine.flush();
  await b.engine.flush();
  // B is poked by the bus exactly as the SSE stream would; A flushes right after the edit.
  const org = server.organizationId;
  const unsubscribe = server.bus.subscribe((change) => {
    if (change.organizationId === org) void b.engine.nudge();
  });
  const samples: number[] = [];
  for (let i = 0; i < 60; i++) {
    const title = `edit ${i}`;
    const t0 = performance.now();
    await a.writes.updateClip(clipId, { Title: title });
    await a.engine.flush();
    for (;;) {
      if ((await b.db.clips.get(clipId))?.['Title'] === title) break;
      await new Promise((r) => setTimeout(r, 1));
    }
    samples.push(performance.now() - t0);
  }
  unsubscribe();
  line('edit-to-visible latency between two clients p50 (in process)', pct(samples, 50), 'ms');
  line('edit-to-visible latency between two clients p95 (in process)', pct(samples, 95), 'ms', { value: 150, better: 'lower' });
}

const pglite = await startServer();
await initialSync(pglite);
await flushOffline(pglite);
await applyRate(pglite, 'PGlite', 5000);
await editToVisible(pglite);
await pglite.close();

const pgUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL;
if (pgUrl) {
  const { default: pg } = await import('pg');
  const name = `castaway_bench_${Date.now()}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(pgUrl);
  url.pathname = `/${name}`;
  const server = await startServer({ databaseUrl: url.toString() });
  await applyRate(server, 'PostgreSQL', 10_000);
  await server.close();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
} else {
  console.log('bench: server apply rate (PostgreSQL) not measured: set TEST_DATABASE_URL or DATABASE_URL');
}
