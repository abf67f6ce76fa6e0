// The client's snapshot calls against the real server (createApp on an in-memory PGlite with a
// small seed), with fetch answered by app.request and the session cookie of a logged-in demo user:
// save, then a restore polled to Success in virtual time; a refused call rejects.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../../sync-server/app.ts';
import { createMemoryBus } from '../../../sync-server/bus.ts';
import { ORG_DEMO, ORG_PODCASTS, seed, seedId } from '../../../sync-server/seed.ts';
import { openTestStore, type TestStore } from '../../../tests/server/test-store.ts';
import { AppClient } from '../../../tests/server/app-client.ts';
import { setApiOrganization, setXsrfToken } from '../../lib/api.ts';
import type { Clock } from '../../domain/polling.ts';
import { isTransient, restoreSnapshot, saveSnapshot, SnapshotCallError } from './snapshot-actions.ts';

describe('snapshot calls from the client', () => {
  let t: TestStore;
  let demo: AppClient;
  const requests: string[] = [];
  let elapsed = 0;
  const clock: Clock = { now: () => elapsed, sleep: async (ms) => void (elapsed += ms) };

  beforeAll(async () => {
    t = await openTestStore('pglite');
    await seed(t.store, { clips: 24 });
    const app = createApp({ store: t.store, bus: createMemoryBus() });
    demo = new AppClient(app);
    await demo.login('demo@example.com');
    setXsrfToken(demo.xsrf);
    vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
      requests.push(`${init.method ?? 'GET'} ${input}`);
      const headers = new Headers(init.headers);
      headers.set('cookie', demo.cookie);
      return app.request(input, { ...init, headers });
    });
  });
  afterAll(async () => {
    vi.unstubAllGlobals();
    setApiOrganization(null);
    await t?.drop();
  });

  it('saves, then restores the saved Title, polling the operation by its Id every 1500 ms', async () => {
    setApiOrganization(ORG_DEMO);
    const clipId = seedId('clip:0');
    const before = ((await demo.get(`/api/v1/clips/${clipId}`, { 'x-organization-id': ORG_DEMO })).body as { Title: string }).Title;
    await saveSnapshot();
    expect((await demo.send('PATCH', `/api/v1/clips/${clipId}`, { json: { Title: 'Changed' }, headers: { 'x-organization-id': ORG_DEMO } })).status).toBe(200);

    requests.length = 0;
    await restoreSnapshot(clock);
    expect(requests[0]).toBe('POST /api/internal/demo-data/restores');
    expect(requests.length).toBeGreaterThan(1);
    expect(elapsed).toBeGreaterThanOrEqual(1500);
    expect(requests.slice(1).every((r) => /^GET \/api\/internal\/demo-data\/restores\/[0-9a-f-]{36}$/.test(r))).toBe(true);
    expect(elapsed % 1500).toBe(0);
    expect(((await demo.get(`/api/v1/clips/${clipId}`, { 'x-organization-id': ORG_DEMO })).body as { Title: string }).Title).toBe(before);
  });

  it('rejects when the server refuses (a Podcasts organization is not a demo organization: 403), which is not worth another try', async () => {
    setApiOrganization(ORG_PODCASTS);
    const refused = await saveSnapshot().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(SnapshotCallError);
    expect(isTransient(refused)).toBe(false);
    await expect(restoreSnapshot(clock)).rejects.toThrow('HTTP 403');
  });

  it('a lost connection or a 5xx while polling is transient', () => {
    expect(isTransient(new SnapshotCallError({ kind: 'error', error: new TypeError('Failed to fetch') }))).toBe(true);
    expect(isTransient(new SnapshotCallError({ kind: 'status', status: 503 }))).toBe(true);
    expect(isTransient(new SnapshotCallError({ kind: 'notFound', status: 404 }))).toBe(false);
    expect(isTransient(new Error('other'))).toBe(false);
  });
});
