// A cookie-keeping client over app.request (no sockets), and the seeded app it talks to, for the
// server suites.
import { expect } from 'vitest';
import { createApp, type AppDeps } from '../../sync-server/app.ts';
import { fsBlobStore } from '../../sync-server/audio/blob-store.ts';
import { createMemoryBus, type Change } from '../../sync-server/bus.ts';
import { ORG_DEMO, seed } from '../../sync-server/seed.ts';
import { SYNC_PROTOCOL_VERSION } from '../../src/protocol/sync.ts';
import type { Store } from '../../sync-server/store/store.ts';
import { openTestStore, type StoreKind, type TestStore } from './test-store.ts';

export type Reply = { status: number; headers: Headers; text: string; body: unknown };

/** A mutation as a test queues it: base null (made from nothing stored) unless given. */
export type QueuedMutation = { name: string; args: unknown; base?: string | null; createdAt?: number };

/** One result of a push, loosely typed so a suite can read whichever parts its case gives. */
export type PushOutcome = {
  status: string;
  httpStatus?: number;
  errors?: Array<{ Field: string; Code?: string; Message?: string; MessageKey?: string }>;
  fields?: Array<{ field: string; mine?: unknown; theirs?: unknown }>;
  [other: string]: unknown;
};

export class AppClient {
  cookie = '';
  xsrf = '';
  organizationId: string | null = null;
  constructor(readonly app: ReturnType<typeof createApp>) {}

  /** A client signed in as `email` (the demo password unless given), acting in `organizationId`. */
  static async signedIn(app: ReturnType<typeof createApp>, email: string, organizationId: string | null = ORG_DEMO, password?: string): Promise<AppClient> {
    const client = new AppClient(app);
    await client.login(email, password);
    client.organizationId = organizationId;
    return client;
  }

  async send(
    method: string,
    path: string,
    options: { json?: unknown; raw?: string; headers?: Record<string, string>; xsrf?: boolean } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (this.cookie) headers.cookie = this.cookie;
    if (this.organizationId) headers['x-organization-id'] = this.organizationId;
    if (options.xsrf !== false && this.xsrf && method !== 'GET') headers['x-xsrf-token'] = this.xsrf;
    let body: string | undefined;
    if (options.json !== undefined) body = JSON.stringify(options.json);
    if (options.raw !== undefined) body = options.raw;
    if (body !== undefined) headers['content-type'] = 'application/json';
    Object.assign(headers, options.headers);
    const response = await this.app.request(path, { method, headers, ...(body !== undefined ? { body } : {}) });
    const setCookie = response.headers.getSetCookie().find((c) => c.startsWith('castaway_session='));
    if (setCookie) this.cookie = setCookie.split(';')[0]!.endsWith('=') ? '' : setCookie.split(';')[0]!;
    const text = await response.text();
    let parsed: unknown = undefined;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  get = (path: string, headers?: Record<string, string>) => this.send('GET', path, headers ? { headers } : {});
  patch = (path: string, json: unknown, headers?: Record<string, string>) => this.send('PATCH', path, { json, ...(headers ? { headers } : {}) });
  post = (path: string, json: unknown, headers?: Record<string, string>) => this.send('POST', path, { json, ...(headers ? { headers } : {}) });
  delete = (path: string, headers?: Record<string, string>) => this.send('DELETE', path, headers ? { headers } : {});

  /** `mutations` pushed as one device's batch, the way the sync worker sends its outbox. */
  push = (mutations: QueuedMutation[], clientId: string = crypto.randomUUID()) =>
    this.post('/api/sync/push', {
      protocolVersion: SYNC_PROTOCOL_VERSION,
      clientId,
      mutations: mutations.map((m) => ({ id: crypto.randomUUID(), name: m.name, args: m.args, base: m.base ?? null, createdAt: m.createdAt ?? Date.now() })),
    });

  /** One mutation pushed: the push itself must be answered 200; its result. */
  async pushOne(name: string, args: unknown, base: string | null = null): Promise<PushOutcome> {
    const reply = await this.push([{ name, args, base }]);
    expect(reply.status, reply.text).toBe(200);
    return (reply.body as { results: PushOutcome[] }).results[0]!;
  }

  async login(email: string, password = 'castaway-demo'): Promise<void> {
    const reply = await this.post('/api/internal/session/login', { Email: email, Password: password });
    expect(reply.status, reply.text).toBe(200);
    const xsrf = await this.get('/api/internal/session/xsrf');
    expect(xsrf.status).toBe(200);
    this.xsrf = (xsrf.body as { XsrfToken: string }).XsrfToken;
  }
}

export function fields(reply: Reply): Array<[string, string]> {
  const body = reply.body as { Errors: Array<{ Field: string; Code: string }> };
  return body.Errors.map((e) => [e.Field, e.Code]);
}

/** The server's clock in a test: it stands still until the test moves it. */
export type TestClock = { now: Date; advance: (ms: number) => Date };

/** A clock the test moves by hand, from 2025-06-01T12:00:00.000Z. */
export function testClock(): TestClock {
  const clock: TestClock = {
    now: new Date('2025-06-01T12:00:00.000Z'),
    advance(ms) {
      clock.now = new Date(clock.now.getTime() + ms);
      return clock.now;
    },
  };
  return clock;
}

export type SeededApp = { app: ReturnType<typeof createApp>; changes: Change[]; clock: TestClock };

/**
 * The API suites' app on `store`: the small deterministic demo seed (48 clips), a memory bus whose
 * pokes are recorded in `changes`, and a clock that starts at 2025-06-01T12:00:00.000Z.
 */
export async function seededApp(store: Store): Promise<SeededApp> {
  await seed(store, { clips: 48 });
  const changes: Change[] = [];
  const bus = createMemoryBus();
  bus.subscribe((c) => changes.push(c));
  const clock = testClock();
  return { app: createApp({ store, bus, clock: () => clock.now }), changes, clock };
}

export type DemoApp = { test: TestStore; app: ReturnType<typeof createApp>; api: AppClient; changes: Change[] };

/**
 * The usual start of a suite over one capability: a store of `kind` with the demo seeded at
 * `clips`, the app on it (a memory bus whose pokes are recorded in `changes`, the real clock; its
 * blobs in the folder `blobDir` when given, for a suite that stores audio or reads the files) and
 * a client signed in as `email` and working in the demo organization. The caller drops `test` (and
 * removes `blobDir`) after its suite.
 */
export async function demoApp(kind: StoreKind, options: { clips: number; email?: string; blobDir?: string }): Promise<DemoApp> {
  const test = await openTestStore(kind);
  await seed(test.store, { clips: options.clips });
  const changes: Change[] = [];
  const bus = createMemoryBus();
  bus.subscribe((c) => void changes.push(c));
  const app = createApp({ store: test.store, bus, ...(options.blobDir ? { blobs: fsBlobStore(options.blobDir) } : {}) });
  const api = await AppClient.signedIn(app, options.email ?? 'demo@example.com');
  return { test, app, api, changes };
}

/**
 * A second app on the same store, with a blob store of its own (a racing one: another instance or
 * a job acting at a chosen moment of this app's job), given to `run` and closed after it. Its jobs
 * run when `run` drains them, so a test decides which app runs a queued job.
 */
export async function withAnotherApp<T>(deps: Omit<AppDeps, 'bus'>, run: (other: ReturnType<typeof createApp>) => Promise<T>): Promise<T> {
  const other = createApp({ ...deps, bus: createMemoryBus() });
  try {
    return await run(other);
  } finally {
    await other.downloads.close();
  }
}
