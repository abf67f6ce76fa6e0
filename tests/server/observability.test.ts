// What an operator watches (issue 35), on both stores:
//   - /healthz answers without the database; /readyz names each failing check (the database
//     refused or too slow, a migration of this build missing, the job runner stopped, the instance
//     draining) with a 503 and no error text, and says ready once all pass;
//   - every request has an id (X-Request-Id, kept when a proxy gave a sane one) carried by its JSON
//     log line and by the line of an error it caused, and no line holds a password, a session
//     cookie, the XSRF token, an API key or a member feed's token;
//   - /metrics counts requests by route pattern (never an id), push and pull sizes, SSE streams,
//     the job queue and database connections, and with a metrics token answers only its bearer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus } from '../../sync-server/bus.ts';
import { createApiKey } from '../../sync-server/auth.ts';
import { ORG_DEMO, seed, seedId } from '../../sync-server/seed.ts';
import { serveDist } from '../../sync-server/static.ts';
import { READINESS_DATABASE_TIMEOUT_MS } from '../../sync-server/observability/health.ts';
import { enqueueJob } from '../../sync-server/jobs/queue.ts';
import { SESSION_SWEEP_JOB } from '../../sync-server/jobs/session-sweep.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { SYNC_PROTOCOL_VERSION } from '../../src/protocol/sync.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';
import { signIn } from '../helpers/sign-in.ts';
import { capturedLog } from '../helpers/captured-log.ts';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/** A metric's value from the exposition text (the first series whose labels include `labels`). */
function metric(text: string, name: string, labels: Record<string, string> = {}): number | null {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-z_]+)(?:\{([^}]*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const have = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(m[3]);
  }
  return null;
}

describe.each(storeKinds)('operations on %s', (kind) => {
  let t: TestStore;
  let app: ReturnType<typeof createApp>;
  let captured: ReturnType<typeof capturedLog>;
  let cookie = '';
  let xsrf = '';
  let clip = '';
  const clipId = () => clip;

  beforeAll(async () => {
    t = await openTestStore(kind);
    await seed(t.store, { clips: 6 });
    clip = (await t.store.query<{ id: string }>(`SELECT id FROM clips WHERE organization_id = $1 AND NOT deleted ORDER BY id LIMIT 1`, [ORG_DEMO]))[0]!.id;
    captured = capturedLog();
    app = createApp({ store: t.store, bus: createMemoryBus(), log: captured.log, jobs: { pollMs: 50 } });
    // As server.ts serves it: the build's catch-all GET route, matched after every route of the API.
    serveDist(app, '/nonexistent');
    ({ cookie, 'x-xsrf-token': xsrf } = await signIn(app.request));
  });
  afterAll(async () => {
    await app?.jobs.stop();
    await t?.drop();
  });

  it('/healthz answers while the job runner is stopped and the database is not asked', async () => {
    const res = await app.request('/healthz');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ Status: 'ok' });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('/healthz: 503 once the embedded database stopped for good (only a restart mends it), the reason neither answered nor logged again', async () => {
    const stopped: Store = { ...t.store, stopped: () => new Error('the embedded database (PGlite) stopped: RuntimeError: unreachable') };
    const dead = createApp({ store: stopped, bus: createMemoryBus(), log: captured.log });
    const probes: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const res = await dead.request('/healthz');
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ Status: 'stopped' });
      probes.push(res.headers.get('x-request-id'));
    }
    // Each probe has its request line and nothing more: the store said the reason once when it
    // stopped (its onStopped, tests/server/pglite-guard.test.ts), and a probe every few seconds
    // must not repeat it.
    const lines = captured.lines.filter((l) => probes.includes(l.requestId ?? null));
    expect(lines).toHaveLength(3);
    expect(lines.map((l) => JSON.stringify(l)).join('\n')).not.toContain('RuntimeError: unreachable');
  });

  it('/readyz: 503 naming the stopped job runner, a missing migration and a draining instance; 200 once all pass', async () => {
    let res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ Status: 'unready', Checks: { Database: 'ok', Migrations: 'ok', Jobs: 'stopped', Shutdown: 'ok' } });

    await app.jobs.start();
    res = await app.request('/readyz');
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({ Status: 'ready', Checks: { Database: 'ok', Migrations: 'ok', Jobs: 'ok', Shutdown: 'ok' } });

    // A migration of this build not yet applied (another instance still migrating).
    const [last] = await t.store.query<{ name: string }>(`SELECT name FROM schema_migrations ORDER BY name DESC LIMIT 1`);
    await t.store.query(`DELETE FROM schema_migrations WHERE name = $1`, [last!.name]);
    res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { Checks: { Migrations: string } }).Checks.Migrations).toBe(`1 of this build's migrations not applied (first: ${last!.name})`);
    await t.store.query(`INSERT INTO schema_migrations (name) VALUES ($1)`, [last!.name]);

    app.ops.draining = true;
    res = await app.request('/readyz');
    expect(res.status).toBe(503);
    expect(((await res.json()) as { Checks: { Shutdown: string } }).Checks.Shutdown).toBe('draining');
    app.ops.draining = false;
    expect((await app.request('/readyz')).status).toBe(200);
  });

  it('/readyz: a database that refuses, refuses the job runner, or does not answer in time is a 503 without its error text; the reason is logged', async () => {
    const refusing: Store = { ...t.store, query: () => Promise.reject(new Error('connect ECONNREFUSED 10.9.8.7:5432')) };
    const down = createApp({ store: refusing, bus: createMemoryBus(), log: captured.log });
    const res = await down.request('/readyz');
    expect(res.status).toBe(503);
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({ Status: 'unready', Checks: { Database: 'unreachable', Migrations: 'unknown' } });
    expect(text).not.toContain('10.9.8.7');
    const logged = captured.lines.find((l) => l.requestId === res.headers.get('x-request-id') && l.msg === 'not ready');
    expect(JSON.stringify(logged)).toContain('ECONNREFUSED 10.9.8.7');

    // A database that answers, but refuses the job runner's claims (a permission, a lock timeout).
    const noClaims: Store = { ...t.store, query: (sql, params) => (sql.includes('UPDATE jobs j SET state') ? Promise.reject(new Error('permission denied for table jobs')) : t.store.query(sql, params)) };
    const idle = createApp({ store: noClaims, bus: createMemoryBus(), log: captured.log, jobs: { pollMs: 50, onError: () => undefined } });
    await idle.jobs.start();
    try {
      await expect.poll(async () => ((await (await idle.request('/readyz')).json()) as { Checks: { Jobs: string } }).Checks.Jobs).toBe('cannot claim jobs');
    } finally {
      await idle.jobs.stop();
    }

    const hanging: Store = { ...t.store, query: () => new Promise(() => undefined) };
    const slow = createApp({ store: hanging, bus: createMemoryBus(), log: captured.log });
    const started = Date.now();
    const late = await slow.request('/readyz');
    expect(late.status).toBe(503);
    expect(((await late.json()) as { Checks: { Database: string } }).Checks.Database).toBe('timed out');
    expect(Date.now() - started).toBeGreaterThanOrEqual(READINESS_DATABASE_TIMEOUT_MS - 50);
  });

  it('gives every request an id, logs one JSON line per request with it, and keeps a proxy’s sane id', async () => {
    const res = await app.request(`/api/v1/clips/${clipId()}`, { headers: { cookie, 'x-organization-id': ORG_DEMO } });
    expect(res.status).toBe(200);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(UUID);
    const line = captured.lines.find((l) => l.requestId === id && l.msg === 'request');
    expect(line).toMatchObject({ level: 30, method: 'GET', route: '/api/v1/clips/:clipId', path: `/api/v1/clips/${clipId()}`, status: 200, userId: seedId('user:demo@example.com') });

    const given = await app.request('/api/v1/reference-data/countries', { headers: { 'x-request-id': 'lb-7f3a.42' } });
    expect(given.headers.get('x-request-id')).toBe('lb-7f3a.42');
    expect(captured.lines.find((l) => l.requestId === 'lb-7f3a.42')).toMatchObject({ route: '/api/v1/reference-data/countries', status: given.status });
    // Probes that pass are logged at debug: a balancer asks every second.
    const probe = await app.request('/healthz', { headers: { 'x-request-id': 'probe-1' } });
    expect(probe.status).toBe(200);
    expect(captured.lines.find((l) => l.requestId === 'probe-1')).toBeUndefined();
    // What no route takes is the build's files (here: none built).
    const screen = await app.request('/some/screen');
    expect(captured.lines.find((l) => l.requestId === screen.headers.get('x-request-id'))).toMatchObject({ route: '/*', path: '/some/screen' });
    // Not an id: spaces, quotes, a tab, too long.
    for (const bad of ['a b', 'a"b', 'id\ttwo', 'x'.repeat(200)]) {
      const replaced = await app.request('/healthz', { headers: { 'x-request-id': bad } });
      expect(replaced.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('logs no password, session cookie, XSRF token, API key or member feed token', async () => {
    const before = captured.raw.length;
    const sessionToken = cookie.split('=')[1]!;
    // A failed sign-in's password, an API key's call, a member feed's token file, a credential in a query.
    await app.request('/api/internal/session/login', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ Email: 'demo@example.com', Password: 'hunter2-secret-guess' }) });
    const { key } = await createApiKey(t.store, { organizationId: ORG_DEMO, userId: seedId('user:demo@example.com'), name: 'logs', now: new Date() });
    expect((await app.request('/api/v1/programs', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    await app.request(`/api/v1/clips/${clipId()}`, { method: 'PATCH', headers: { cookie, 'x-xsrf-token': xsrf, 'x-organization-id': ORG_DEMO, 'content-type': 'application/json' }, body: JSON.stringify({ Title: 'Logged title' }) });
    const memberToken = 'mtok' + 'z'.repeat(40);
    const member = await app.request(`/feeds/${crypto.randomUUID()}/members/${memberToken}.xml`);
    expect(member.status).toBe(404);
    await app.request(`/api/v1/programs?page=2&token=querysecret123&apiKey=querykey456`, { headers: { cookie, 'x-organization-id': ORG_DEMO } });
    const written = captured.raw.slice(before).join('\n');
    expect(captured.raw.length - before).toBeGreaterThanOrEqual(5);
    for (const secret of ['hunter2-secret-guess', sessionToken, xsrf, key, memberToken, 'querysecret123', 'querykey456', 'Logged title']) expect(written, secret).not.toContain(secret);
    expect(written).toContain('/members/[redacted]');
    expect(written).toContain('page=2&token=[redacted]&apiKey=[redacted]');
  });

  it('logs an unhandled error with the request’s id, and answers 500 with that id', async () => {
    const failing: Store = {
      ...t.store,
      query: (sql, params) => (sql.includes('FROM programs') ? Promise.reject(new Error('disk I/O error in programs')) : t.store.query(sql, params)),
      tx: (fn) => t.store.tx(fn),
    };
    const broken = createApp({ store: failing, bus: createMemoryBus(), log: captured.log });
    const res = await broken.request('/api/v1/programs', { headers: { cookie, 'x-organization-id': ORG_DEMO } });
    expect(res.status).toBe(500);
    const id = res.headers.get('x-request-id');
    const error = captured.lines.find((l) => l.requestId === id && l.msg === 'unhandled error');
    expect(error?.level).toBe(50);
    expect(error?.err?.message).toBe('disk I/O error in programs');
    expect(captured.lines.find((l) => l.requestId === id && l.msg === 'request failed')).toMatchObject({ status: 500, route: '/api/v1/programs' });
  });

  it('/metrics: requests by route pattern, push and pull sizes, SSE streams, jobs, connections, process figures; no id in it', async () => {
    const headers = { cookie, 'x-organization-id': ORG_DEMO };
    expect((await app.request(`/api/v1/clips/${clipId()}`, { headers })).status).toBe(200);
    expect((await app.request(`/api/v1/clips/${crypto.randomUUID()}`, { headers })).status).toBe(404);
    const pull = await app.request('/api/sync/pull?limit=3', { headers });
    expect(pull.status).toBe(200);
    const pulledRows = ((await pull.json()) as { rows: unknown[] }).rows.length;
    expect(pulledRows).toBeGreaterThan(0);
    const push = await app.request('/api/sync/push', {
      method: 'POST',
      headers: { ...headers, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
      body: JSON.stringify({
        protocolVersion: SYNC_PROTOCOL_VERSION,
        clientId: crypto.randomUUID(),
        mutations: [{ id: crypto.randomUUID(), name: 'clip.update', args: { clipId: clipId(), fields: { Title: 'Metered' } }, base: null, createdAt: 1 }],
      }),
    });
    expect(push.status, await push.clone().text()).toBe(200);
    await enqueueJob(t.store, 'metrics.example', {}, { runAt: new Date(Date.now() - 60_000) });
    // Two sweeps this app runs (its runner has the kind; 'metrics.example' has no handler anywhere).
    for (let i = 0; i < 2; i++) await enqueueJob(t.store, SESSION_SWEEP_JOB, {});
    await app.jobs.drain();

    const stream = await app.request('/api/sync/events', { headers });
    const reader = stream.body!.getReader();
    await reader.read();
    let text = await (await app.request('/metrics')).text();
    expect(metric(text, 'castaway_sse_connections')).toBe(1);
    await reader.cancel();
    await expect.poll(async () => metric(await (await app.request('/metrics')).text(), 'castaway_sse_connections')).toBe(0);

    const res = await app.request('/metrics');
    expect(res.headers.get('content-type')).toContain('text/plain');
    text = await res.text();
    expect(metric(text, 'castaway_http_requests_total', { method: 'GET', route: '/api/v1/clips/:clipId', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'castaway_http_requests_total', { method: 'GET', route: '/api/v1/clips/:clipId', status: '404' })).toBe(1);
    expect(metric(text, 'castaway_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/clips/:clipId' })).toBeGreaterThanOrEqual(2);
    expect(metric(text, 'castaway_sync_push_mutations_sum')).toBe(1);
    expect(metric(text, 'castaway_sync_push_duration_seconds_count')).toBe(1);
    expect(metric(text, 'castaway_sync_pull_rows_count')).toBe(1);
    expect(metric(text, 'castaway_sync_pull_rows_sum')).toBe(pulledRows);
    const [queued] = await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM jobs WHERE kind = 'metrics.example' AND state = 'queued'`);
    expect(metric(text, 'castaway_jobs', { kind: 'metrics.example', state: 'queued' })).toBe(queued!.n);
    expect(metric(text, 'castaway_jobs_oldest_due_seconds', { kind: 'metrics.example' })).toBeGreaterThanOrEqual(59);
    expect(metric(text, 'castaway_job_runs_total', { kind: SESSION_SWEEP_JOB, outcome: 'done' })).toBe(2);
    expect(metric(text, 'castaway_job_run_duration_seconds_count', { kind: SESSION_SWEEP_JOB })).toBe(2);
    expect(metric(text, 'castaway_db_connections', { state: 'max' })).toBe(kind === 'pglite' ? 1 : 10);
    expect(metric(text, 'castaway_db_connections', { state: 'total' })).toBeGreaterThanOrEqual(1);
    expect(metric(text, 'castaway_process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(text).not.toMatch(UUID);
  });

  it('/metrics with CASTAWAY_METRICS_TOKEN: 401 without it, with another, or with a session; 200 with it', async () => {
    const guarded = createApp({ store: t.store, bus: createMemoryBus(), log: captured.log, metricsToken: 'scrape-token-123' });
    expect((await guarded.request('/metrics')).status).toBe(401);
    expect((await guarded.request('/metrics', { headers: { authorization: 'Bearer scrape-token-124' } })).status).toBe(401);
    expect((await guarded.request('/metrics', { headers: { cookie } })).status).toBe(401);
    const ok = await guarded.request('/metrics', { headers: { authorization: 'Bearer scrape-token-123' } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('castaway_http_requests_total');
  });
});
