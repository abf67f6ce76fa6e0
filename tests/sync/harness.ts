// The real server (createApp on an in-process PGlite) and fake-indexeddb clients running the sync
// engine against it, for the sync tests, the simulation and the benchmark.
import 'fake-indexeddb/auto';
import { randomUUID } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { createApp } from '../../sync-server/app.ts';
import { createMemoryBus, type ChangeBus } from '../../sync-server/bus.ts';
import { openStore } from '../../sync-server/store/open.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { hashPassword } from '../../sync-server/passwords.ts';
import { insertRow } from '../../sync-server/rows.ts';
import { openLocalDb, type CastawayDb } from '../../src/db/db.ts';
import { createWrites, type Writes } from '../../src/db/writes.ts';
import { conflictsApi } from '../../src/db/conflicts.ts';
import { createSyncEngine, type EngineOptions, type SyncEngine, type Transport } from '../../workers/sync/engine.ts';
import { allPermissions, type PermissionEntry } from '../../src/domain/permissions.ts';

export const PASSWORD = 'correct horse battery staple';
export const ALL_FLAGS = allPermissions();

export type Server = {
  store: Store;
  bus: ChangeBus;
  app: ReturnType<typeof createApp>;
  /** The organization of the current test (newOrganization() makes a fresh one). */
  organizationId: string;
  newOrganization(): Promise<string>;
  /** A server restart: a new app (no in-memory state survives); with a data folder the store is
   * closed and opened again from disk too (an in-memory store cannot be reopened). */
  restart(): Promise<void>;
  close(): Promise<void>;
};

export async function startServer(options: { dataDir?: string; databaseUrl?: string; store?: Store } = {}): Promise<Server> {
  // `store`: one the caller opened (tests/server/test-store.ts: either kind, dropped by the caller).
  const store = options.store ?? (await openStore({ dataDir: options.dataDir ?? 'memory://', databaseUrl: options.databaseUrl }));
  const bus = createMemoryBus();
  const server: Server = {
    store,
    bus,
    app: createApp({ store, bus }),
    organizationId: '',
    async newOrganization() {
      const organizationId = randomUUID();
      const now = new Date();
      await server.store.tx(async (q) => {
        await insertRow(q, 'organization', organizationId, { organizationId, userId: null, now }, { Name: 'Castaway FM', IsDemoOrganization: false, Provider: 'Podcaster' });
      });
      server.organizationId = organizationId;
      return organizationId;
    },
    async restart() {
      const dataDir = options.dataDir;
      if (dataDir && !dataDir.startsWith('memory://') && !options.databaseUrl) {
        await server.store.close();
        server.store = await openStore({ dataDir });
      }
      // The bus is in-memory state too: a restarted process has a new one. Keeping the old one
      // kept every earlier app's change handlers subscribed, each queueing its own jobs per push.
      server.bus = createMemoryBus();
      server.app = createApp({ store: server.store, bus: server.bus });
    },
    close: () => server.store.close(),
  };
  await server.newOrganization();
  return server;
}

let passwordHash: string | null = null;

/** A user with the given permission entries (default: Organization scope, every flag). */
export async function addUser(server: Server, email: string, permissions?: PermissionEntry[]): Promise<string> {
  passwordHash ??= await hashPassword(PASSWORD);
  const id = randomUUID();
  const now = new Date();
  await server.store.query(
    `INSERT INTO users (id, email, name, first_name, password_hash, created_at_utc, modified_at_utc, version)
     VALUES ($1, $2, $3, $3, $4, $5, $5, next_row_version())`,
    [id, email, email.split('@')[0], passwordHash, now],
  );
  await server.store.query(
    `INSERT INTO memberships (organization_id, user_id, permissions, created_at_utc, modified_at_utc, version)
     VALUES ($1, $2, $3, $4, $4, next_row_version())`,
    [server.organizationId, id, JSON.stringify(permissions ?? [{ ObjectType: 'Organization', ObjectId: server.organizationId, Permissions: ALL_FLAGS }]), now],
  );
  return id;
}

export async function setPermissions(server: Server, userId: string, permissions: PermissionEntry[]): Promise<void> {
  await server.store.query(`UPDATE memberships SET permissions = $3, version = next_row_version() WHERE organization_id = $1 AND user_id = $2`, [
    server.organizationId,
    userId,
    JSON.stringify(permissions),
  ]);
}

/** Logs in over the API; returns the cookie header value. */
export async function login(server: Server, email: string): Promise<string> {
  const res = await server.app.request('/api/internal/session/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ Email: email, Password: PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`login ${email}: ${res.status} ${await res.text()}`);
  const cookie = res.headers.get('set-cookie');
  if (!cookie) throw new Error('no session cookie');
  return cookie.split(';')[0]!;
}

/** A direct API call as a signed-in user (XSRF fetched once per call). */
export async function api(server: Server, cookie: string, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const headers: Record<string, string> = { cookie, 'x-organization-id': server.organizationId, ...extra };
  if (method !== 'GET') {
    const x = await server.app.request('/api/internal/session/xsrf', { headers: { cookie } });
    headers['x-xsrf-token'] = ((await x.json()) as { XsrfToken: string }).XsrfToken;
  }
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await server.app.request(`/api${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null, etag: res.headers.get('etag') };
}

/** A request body as JSON text, decoded when the engine sent it gzip-compressed. */
export function requestText(init: Parameters<Transport>[1]): string {
  if (init.body === undefined) return '';
  if (typeof init.body === 'string') return init.body;
  if (init.headers['content-encoding'] !== 'gzip') throw new Error('a body of bytes that does not say it is gzip');
  return gunzipSync(init.body).toString('utf8');
}

/** A transport straight into the server's app (the current one: restarts swap it). */
export function appTransport(server: Server, cookie: () => string): Transport {
  return async (url, init) => {
    const res = await server.app.request(url, { method: init.method, headers: { ...init.headers, cookie: cookie() }, ...(init.body !== undefined ? { body: init.body } : {}) });
    return res;
  };
}

export type Client = {
  name: string;
  db: CastawayDb;
  writes: Writes;
  conflicts: ReturnType<typeof conflictsApi>;
  engine: SyncEngine;
  cookie: string;
};

let dbCounter = 0;

export function makeClient(
  server: Server,
  name: string,
  cookie: string,
  options: { transport?: Transport; dbName?: string; engine?: Partial<EngineOptions> } = {},
): Client {
  const db = openLocalDb(options.dbName ?? `client-${name}-${process.pid}-${dbCounter++}-${Date.now()}`);
  const client: Client = {
    name,
    db,
    cookie,
    writes: createWrites(db),
    conflicts: conflictsApi(db),
    engine: null as unknown as SyncEngine,
  };
  client.engine = createSyncEngine({
    db,
    organizationId: server.organizationId,
    transport: options.transport ?? appTransport(server, () => client.cookie),
    baseBackoffMs: 1,
    maxBackoffMs: 5,
    ...options.engine,
  });
  return client;
}

/** Fields of a row that the comparison of client and server ignores (derived or local-only). */
export function comparable(row: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!row) return row;
  const { PlaylistIds: _p, ...rest } = row;
  return rest;
}
