import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openLocalDb } from '../../src/db/db.ts';
import { createWrites } from '../../src/db/writes.ts';
import { applyPullPage, readStatus } from '../../src/db/sync-store.ts';
import { createSyncEngine, MAX_BACKOFF_MS, pullPageSize, type Transport } from './engine.ts';

const ORG = '00000000-0000-4000-8000-000000000001';
const CLIP = '00000000-0000-4000-8000-000000000003';

async function dbWithEdit() {
  const d = openLocalDb(`engine-${Date.now()}-${Math.random()}`);
  await applyPullPage(d, {
    cursor: 'c',
    rows: [{ entity: 'clips', row: { Id: CLIP, OrganizationId: ORG, Title: 'Pilot', ModifiedAtUtc: '2026-01-01T00:00:00.000Z', Version: 1 } }],
    tombstones: [],
    hasMore: false,
    rebuild: false,
    permissions: [],
  });
  await createWrites(d).updateClip(CLIP, { Title: 'Offline' });
  return d;
}

describe('sync engine', () => {
  it('offline: retries back off exponentially, capped at 30 s, and the edit stays queued', async () => {
    const d = await dbWithEdit();
    const delays: number[] = [];
    let pending: (() => void) | null = null;
    const offline: Transport = async () => {
      throw new TypeError('Failed to fetch');
    };
    const engine = createSyncEngine({
      db: d,
      organizationId: ORG,
      transport: offline,
      requestTimeoutMs: 12_345,
      random: () => 1,
      setTimer: (fn, ms) => {
        if (ms !== 12_345) {
          delays.push(ms);
          pending = fn;
        }
        return ms;
      },
      clearTimer: () => undefined,
    });
    await engine.flush();
    for (let i = 0; i < 12; i++) {
      const fire = pending as (() => void) | null;
      pending = null;
      fire?.();
      await engine.idle();
    }
    expect(delays.slice(0, 4)).toEqual([500, 1000, 2000, 4000]);
    expect(Math.max(...delays)).toBe(MAX_BACKOFF_MS);
    expect(await d.outbox.count()).toBe(1);
    expect(await readStatus(d)).toMatchObject({ online: false, pendingCount: 1 });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Offline');
    engine.stop();
  });

  it('a server that keeps failing on one mutation moves it to needs attention after 5 pushes', async () => {
    const d = await dbWithEdit();
    const failing: Transport = async (url) => {
      if (url.includes('xsrf')) return { status: 200, json: async () => ({ XsrfToken: 't' }) };
      return { status: 200, json: async () => ({ results: [] }) };
    };
    const engine = createSyncEngine({ db: d, organizationId: ORG, transport: failing, setTimer: () => null, clearTimer: () => undefined });
    for (let i = 0; i < 5; i++) await engine.flush();
    expect(await d.outbox.count()).toBe(0);
    const [item] = await d.needsAttention.toArray();
    expect(item).toMatchObject({ httpStatus: 500, errors: [{ Code: 'serverError' }] });
    expect((await d.clips.get(CLIP))?.['Title']).toBe('Pilot');
  });
});

describe('pull page sizes', () => {
  it('start at 250 rows and double up to the server maximum of 5,000', () => {
    expect([0, 1, 2, 3, 4, 5, 50].map((p) => pullPageSize(p))).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
  });
});
