// Pokes: GET /api/sync/events streams a 'poke' after each committed write of the caller's
// organization; with PostgreSQL the bus crosses server instances through LISTEN/NOTIFY.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { addUser, api, login, startServer, type Server } from './harness.ts';
import { createPgBus } from '../../sync-server/sync/pg-bus.ts';
import { createApp } from '../../sync-server/app.ts';
import { MISSING_DATABASE_URL, openScratchPostgres } from '../server/test-store.ts';
import type { Change } from '../../sync-server/bus.ts';
import { sha256 } from '../../sync-server/auth.ts';
import { SSE_CREDENTIALS_RECHECK_MS } from '../../sync-server/api/sync.ts';
import { readUntil } from '../helpers/sse.ts';

let server: Server;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** Everything the stream still sends until it ends. */
async function readToEnd(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return text;
    text += decoder.decode(value);
  }
}

/** A new user's ready stream, and another user who writes in the same organization. */
async function listenerAndWriter(name: string) {
  await addUser(server, `${name}@example.com`);
  await addUser(server, `${name}-writer@example.com`);
  const cookie = await login(server, `${name}@example.com`);
  const writer = await login(server, `${name}-writer@example.com`);
  const res = await server.app.request('/api/sync/events', { headers: { cookie, 'x-organization-id': server.organizationId } });
  const reader = res.body!.getReader();
  await readUntil(reader, 'event: ready');
  return { cookie, writer, reader };
}

describe('server-sent pokes', () => {
  it('a write in the organization pokes a connected client with its Version', async () => {
    await addUser(server, 'poke@example.com');
    const cookie = await login(server, 'poke@example.com');
    const res = await server.app.request('/api/sync/events', { headers: { cookie, 'x-organization-id': server.organizationId } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    await readUntil(reader, 'event: ready');
    const created = await api(server, cookie, 'POST', '/v1/programs', { Name: 'Poked' });
    const text = await readUntil(reader, 'event: poke');
    expect(text).toContain(`"version":${created.json!['Version']}`);
    await reader.cancel();
  });

  it("a pull says how far it brings the device: at or past a poke's Version, none of which it then needs again", async () => {
    await addUser(server, 'poke-pull@example.com');
    const cookie = await login(server, 'poke-pull@example.com');
    const headers = { cookie, 'x-organization-id': server.organizationId };
    const res = await server.app.request('/api/sync/events', { headers });
    const reader = res.body!.getReader();
    await readUntil(reader, 'event: ready');
    const created = await api(server, cookie, 'POST', '/v1/programs', { Name: 'Pulled up to' });
    const poke = await readUntil(reader, 'event: poke');
    const version = Number(/"version":(\d+)/.exec(poke)![1]);
    expect(version).toBe(created.json!['Version']);
    // Pages of one row: every page says the Version its cursor stands at, the last one at least the poke's.
    const reached: number[] = [];
    let cursor = '';
    for (;;) {
      const page = (await (await server.app.request(`/api/sync/pull?limit=1${cursor ? `&cursor=${cursor}` : ''}`, { headers })).json()) as { cursor: string; hasMore: boolean; upToVersion: number };
      reached.push(page.upToVersion);
      expect(page.cursor.startsWith(`${page.upToVersion}.`)).toBe(true);
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(reached.length).toBeGreaterThan(1);
    expect(reached).toEqual([...reached].sort((a, b) => a - b));
    expect(reached.at(-1)).toBeGreaterThanOrEqual(version);
    await reader.cancel();
  });

  it('a stream closes when its session signs out, and hears nothing after', async () => {
    const { cookie, writer, reader } = await listenerAndWriter('poke-out');
    expect((await api(server, cookie, 'POST', '/internal/session/logout')).status).toBe(204);
    await api(server, writer, 'POST', '/v1/programs', { Name: 'After the sign-out' });
    // The stream ends at once (well before a keep-alive, 25 s), with no poke in it.
    const rest = await Promise.race([readToEnd(reader), new Promise<null>((r) => setTimeout(() => r(null), 3_000))]);
    expect(rest, 'the stream ended').not.toBeNull();
    expect(rest).not.toContain('event: poke');
  });

  it('a stream whose session ended elsewhere (another instance, an expiry) closes at its next poke, unsent', async () => {
    const { cookie, writer, reader } = await listenerAndWriter('poke-elsewhere');
    // Signed out on another instance: the row is gone, this instance was not told.
    await server.store.query(`DELETE FROM sessions WHERE token_hash = $1`, [sha256(decodeURIComponent(cookie.split('=')[1]!))]);
    await new Promise((r) => setTimeout(r, SSE_CREDENTIALS_RECHECK_MS + 200));
    await api(server, writer, 'POST', '/v1/programs', { Name: 'Written while signed out elsewhere' });
    const rest = await Promise.race([readToEnd(reader), new Promise<null>((r) => setTimeout(() => r(null), 3_000))]);
    expect(rest, 'the stream ended').not.toBeNull();
    expect(rest).not.toContain('event: poke');
  });

  it('events need a session: 401 without one', async () => {
    const res = await server.app.request('/api/sync/events');
    expect(res.status).toBe(401);
  });
});

describe('PostgreSQL LISTEN/NOTIFY bus', () => {
  it('a change published by one instance reaches the subscribers of another', async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error(MISSING_DATABASE_URL);
    const one = createPgBus(url);
    const two = createPgBus(url);
    await Promise.all([one.ready, two.ready]);
    const heard = new Promise<Change>((resolve) => two.subscribe(resolve));
    one.publish({ organizationId: '00000000-0000-4000-8000-00000000000a', version: 42 });
    expect(await heard).toEqual({ organizationId: '00000000-0000-4000-8000-00000000000a', version: 42 });
    await Promise.all([one.close(), two.close()]);
  });

  it('a write through one server instance pokes a client connected to another, over the same PostgreSQL database', async () => {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error(MISSING_DATABASE_URL);
    const db = await openScratchPostgres(base, 'castaway_poke');
    const buses = [createPgBus(db.url), createPgBus(db.url)];
    try {
      await Promise.all(buses.map((b) => b.ready));
      // Two instances of the server, as two processes behind a load balancer: one store, a bus each.
      const shared = await startServer({ store: db.store });
      const [one, two] = buses.map((bus) => ({ ...shared, app: createApp({ store: db.store, bus }) }));
      await addUser(shared, 'two-instances@example.com');
      const cookie = await login(one!, 'two-instances@example.com');
      const res = await two!.app.request('/api/sync/events', { headers: { cookie, 'x-organization-id': shared.organizationId } });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      await readUntil(reader, 'event: ready');
      const created = await api(one!, cookie, 'POST', '/v1/programs', { Name: 'Written on one, poked on two' });
      expect(created.status).toBe(201);
      const text = await readUntil(reader, 'event: poke');
      expect(text).toContain(`"version":${created.json!['Version']}`);
      await reader.cancel();
    } finally {
      await Promise.all(buses.map((b) => b.close()));
      await db.drop();
    }
  });

  it('after the database ends its listening connection, the bus listens again and pokes every client once', async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) throw new Error(MISSING_DATABASE_URL);
    const one = createPgBus(url);
    const two = createPgBus(url);
    await Promise.all([one.ready, two.ready]);
    const heard: Change[] = [];
    two.subscribe((c) => heard.push(c));
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    // Both buses' listening connections end, as in a database restart.
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'castaway-change-bus'`);
    await admin.end();
    await vi.waitFor(() => expect(heard.some((c) => c.organizationId === null)).toBe(true), { timeout: 10_000, interval: 50 });
    // And changes published afterwards travel again.
    await vi.waitFor(
      () => {
        one.publish({ organizationId: '00000000-0000-4000-8000-00000000000b', version: 43 });
        expect(heard).toContainEqual({ organizationId: '00000000-0000-4000-8000-00000000000b', version: 43 });
      },
      { timeout: 10_000, interval: 200 },
    );
    await Promise.all([one.close(), two.close()]);
  });
});

describe('a pull from the start on PostgreSQL', () => {
  it('says on its first page how many rows it brings: what its pages then bring, without the clips of a program the caller may not read', async () => {
    const base = process.env.TEST_DATABASE_URL;
    if (!base) throw new Error(MISSING_DATABASE_URL);
    const db = await openScratchPostgres(base, 'castaway_pull_total');
    try {
      const pgServer = await startServer({ store: db.store });
      await pgServer.newOrganization();
      await addUser(pgServer, 'total-owner@example.com');
      const owner = await login(pgServer, 'total-owner@example.com');
      const seen = (await api(pgServer, owner, 'POST', '/v1/programs', { Name: 'Seen' })).json!['Id'] as string;
      const hidden = (await api(pgServer, owner, 'POST', '/v1/programs', { Name: 'Hidden' })).json!['Id'] as string;
      for (let i = 0; i < 3; i++) await api(pgServer, owner, 'POST', `/v1/programs/${seen}/clips`, { Title: `Seen ${i}` });
      await api(pgServer, owner, 'POST', `/v1/programs/${hidden}/clips`, { Title: 'Hidden' });
      const gone = (await api(pgServer, owner, 'POST', `/v1/programs/${seen}/clips`, { Title: 'Deleted' })).json!['Id'] as string;
      expect((await api(pgServer, owner, 'DELETE', `/v1/clips/${gone}`)).status).toBe(204);
      await addUser(pgServer, 'total-reader@example.com', [{ ObjectType: 'Program', ObjectId: seen, Permissions: { HasContentAccess: true } }]);
      const reader = await login(pgServer, 'total-reader@example.com');
      const counts: number[] = [];
      let total: number | undefined;
      let cursor = '';
      for (let page = 0; page < 20; page++) {
        const body = (await api(pgServer, reader, 'GET', `/sync/pull?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json as unknown as { cursor: string; rows: unknown[]; hasMore: boolean; total?: number };
        if (page === 0) total = body.total;
        else expect(body.total).toBeUndefined();
        counts.push(body.rows.length);
        cursor = body.cursor;
        if (!body.hasMore) break;
      }
      // The organization, the program it may read, its three live clips.
      expect(total).toBe(1 + 1 + 3);
      expect(counts.reduce((a, b) => a + b, 0)).toBe(total);
    } finally {
      await db.drop();
    }
  });
});
