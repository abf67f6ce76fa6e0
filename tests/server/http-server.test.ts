// The server as `npm start` runs it (startServer: API + built PWA on one port), over real HTTP
// with fetch, on PGlite and PostgreSQL: the curl walk-through of issue 2 (log in, fetch the XSRF
// token, PATCH a clip's Title, GET it back with a new ModifiedAtUtc, a stale If-Match gets 412
// and the current row) and the static app with its SPA fallback and no-cache shell.
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, seedId } from '../../sync-server/seed.ts';
import { KEEP_ALIVE_TIMEOUT_MS, startServer, type RunningServer } from '../../sync-server/server.ts';
import { ClipSchema } from '../../src/protocol/entities.ts';
import { openTestStore, storeKinds, type TestStore } from './test-store.ts';

describe.each(storeKinds)('HTTP server on %s', (kind) => {
  let t: TestStore;
  let server: RunningServer;
  let dist: string;
  let cookie = '';
  let xsrf = '';

  async function call(method: string, path: string, init: { body?: unknown; headers?: Record<string, string> } = {}) {
    const headers: Record<string, string> = { ...init.headers };
    if (cookie) headers.cookie = cookie;
    if (xsrf && method !== 'GET') headers['x-xsrf-token'] = xsrf;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(server.url + path, {
      method,
      headers,
      body: init.body === undefined ? null : JSON.stringify(init.body),
      redirect: 'manual',
    });
    const set = response.headers.getSetCookie().find((c) => c.startsWith('castaway_session='));
    if (set) cookie = set.split(';')[0]!;
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) as unknown };
  }

  beforeAll(async () => {
    t = await openTestStore(kind);
    await seed(t.store, { clips: 24 });
    dist = mkdtempSync(join(tmpdir(), 'castaway-dist-'));
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Castaway Studio</title>');
    writeFileSync(join(dist, 'sw.js'), 'self.addEventListener("install", () => {});');
    writeFileSync(join(dist, 'assets', 'app-1234.js'), 'console.log("app")');
    server = await startServer({ store: t.store, distDir: dist, port: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await t?.drop();
    rmSync(dist, { recursive: true, force: true });
  });

  it('logs in, fetches the XSRF token, PATCHes a Title, reads it back with a new ModifiedAtUtc, and gets 412 for a stale If-Match', async () => {
    const login = await call('POST', '/api/internal/session/login', { body: { Email: 'demo@example.com', Password: 'castaway-demo' } });
    expect(login.status).toBe(200);
    expect(cookie).toMatch(/^castaway_session=/);
    xsrf = ((await call('GET', '/api/internal/session/xsrf')).json() as { XsrfToken: string }).XsrfToken;
    expect(xsrf.length).toBeGreaterThan(20);

    const list = (await call('GET', `/api/v1/programs/${seedId('program:morning')}/clips?page=1&pageSize=50`)).json() as { Items: unknown[] };
    // Not one the demo seeds mid-publish: the running server's publishing job changes that row
    // (PublishState, Version) between the reads below.
    const clip = list.Items.map((item) => ClipSchema.parse(item)).find((c) => c.PublishState !== 'Publishing' && c.PublishState !== 'Unpublishing')!;
    expect(clip).toBeDefined();
    const first = await call('GET', `/api/v1/clips/${clip.Id}`);
    const etag = first.headers.get('etag')!;
    expect(etag).toBe(`"${clip.ModifiedAtUtc}"`);

    const patched = await call('PATCH', `/api/v1/clips/${clip.Id}`, { body: { Title: 'Over real HTTP' }, headers: { 'if-match': etag } });
    expect(patched.status).toBe(200);
    const back = await call('GET', `/api/v1/clips/${clip.Id}`);
    const row = ClipSchema.parse(back.json());
    expect(row.Title).toBe('Over real HTTP');
    expect(row.ModifiedAtUtc).not.toBe(clip.ModifiedAtUtc);
    expect(back.headers.get('etag')).toBe(`"${row.ModifiedAtUtc}"`);

    const stale = await call('PATCH', `/api/v1/clips/${clip.Id}`, { body: { Title: 'Stale' }, headers: { 'if-match': etag } });
    expect(stale.status).toBe(412);
    expect(ClipSchema.parse(stale.json())).toEqual(row);

    const noXsrf = await fetch(`${server.url}/api/v1/clips/${clip.Id}`, {
      method: 'PATCH',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ Title: 'No token' }),
    });
    expect(noXsrf.status).toBe(403);
  });

  it('keeps an idle connection longer than a load balancer does (65 s, not Node\'s 5 s), and says so to the client', async () => {
    // Clients read the hint and close their idle connections first, so a request never goes out
    // on a connection the server is closing (ECONNRESET).
    const res = await call('GET', '/api/internal/session/xsrf');
    expect(KEEP_ALIVE_TIMEOUT_MS).toBeGreaterThan(60_000);
    expect(res.headers.get('keep-alive')).toBe(`timeout=${KEEP_ALIVE_TIMEOUT_MS / 1000}`);
  });

  it('answers bad bodies with 4xx and a body, never 5xx', async () => {
    const clip = ClipSchema.parse(((await call('GET', '/api/v1/clips?pageSize=1')).json() as { Items: unknown[] }).Items[0]);
    for (const raw of ['{', 'null', '"text"', '{"Title": {"nested": 1}}', '{"Episode": "7"}']) {
      const response = await fetch(`${server.url}/api/v1/clips/${clip.Id}`, {
        method: 'PATCH',
        headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
        body: raw,
      });
      expect(response.status, raw).toBe(400);
      expect(((await response.json()) as { Errors: unknown[] }).Errors.length, raw).toBeGreaterThan(0);
    }
  });

  it('serves the built app: files, the SPA fallback for routes, no-cache for index.html and sw.js, 404 for missing assets and /api paths', async () => {
    const index = await fetch(`${server.url}/`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(await index.text()).toContain('<title>Castaway Studio</title>');
    const route = await fetch(`${server.url}/programs/123/clips`);
    expect(route.status).toBe(200);
    expect(await route.text()).toContain('Castaway Studio');
    const sw = await fetch(`${server.url}/sw.js`);
    expect(sw.headers.get('cache-control')).toBe('no-cache');
    expect(sw.headers.get('content-type')).toContain('javascript');
    const asset = await fetch(`${server.url}/assets/app-1234.js`);
    expect(asset.headers.get('cache-control')).toContain('immutable');
    expect((await fetch(`${server.url}/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/unknown`)).status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/unknown`)).status).toBe(404);
    expect((await fetch(`${server.url}/..%2f..%2fetc%2fpasswd`)).status).not.toBe(500);
  });

  // Last: the server answers 413 before reading the whole body and closes that connection.
  it('answers an oversized body with 413 and a body naming the limit', async () => {
    const clip = ClipSchema.parse(((await call('GET', '/api/v1/clips?pageSize=1')).json() as { Items: unknown[] }).Items[0]);
    const huge = await fetch(`${server.url}/api/v1/clips/${clip.Id}`, {
      method: 'PATCH',
      headers: { cookie, 'x-xsrf-token': xsrf, 'content-type': 'application/json' },
      body: JSON.stringify({ Description: 'z'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.status).toBe(413);
    expect(((await huge.json()) as { Errors: Array<{ Code: string }> }).Errors[0]!.Code).toBe('payloadTooLarge');
  });
});
