// The uploads' shared state (sync-server/uploads/shared-state.ts) on both stores: records any
// instance can read, and write locks that work across instances. Two lockers on one store stand for
// two instances (each keeps only its own holders in memory).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, Upload } from '@tus/server';
import { dbUploadLocker, dbUploadRecords, withUploadLock } from '../../sync-server/uploads/shared-state.ts';
import { openTestStore, storeKinds, type TestStore } from '../server/test-store.ts';

const fast = { leaseMs: 600, renewMs: 50, pollMs: 20, acquireTimeoutMs: 3000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const never = () => new AbortController().signal;

describe.each(storeKinds)('uploads shared state on %s', (kind) => {
  let t: TestStore;
  beforeAll(async () => {
    t = await openTestStore(kind);
  });
  afterAll(() => t?.drop());

  it('records: set, get, list, all and delete; another instance reads what one wrote', async () => {
    const one = dbUploadRecords(t.store);
    const other = dbUploadRecords(t.store);
    const upload = new Upload({ id: 'rec-1', offset: 0, size: 10, metadata: { userId: 'u1', filename: 'a.mp3' }, creation_date: new Date().toISOString() });
    await one.set('rec-1', upload);
    await one.set('rec-1', Object.assign(upload, { offset: 4 }));
    expect(await other.get('rec-1')).toMatchObject({ id: 'rec-1', offset: 4, size: 10, metadata: { userId: 'u1', filename: 'a.mp3' } });
    expect(await other.list()).toContain('rec-1');
    expect((await other.all()).find((u) => u.id === 'rec-1')).toMatchObject({ offset: 4, size: 10 });
    await other.delete('rec-1');
    expect(await one.get('rec-1')).toBeUndefined();
    expect(await one.list()).not.toContain('rec-1');
    // Deleting what is gone is not an error (a sweep racing a DELETE).
    await expect(one.delete('rec-1')).resolves.toBeUndefined();
  });

  it('a lock held on one instance is released on request from another, then taken there', async () => {
    // A lease far longer than the waiter's patience: it gets the lock only if the holder let go.
    const long = { ...fast, leaseMs: 60_000, acquireTimeoutMs: 10_000 };
    const a = dbUploadLocker(t.store, long);
    const b = dbUploadLocker(t.store, long);
    const held = a.newLock('up-1');
    let asked = 0;
    await held.lock(never(), async () => {
      asked++;
      await held.unlock();
    });
    const wanted = b.newLock('up-1');
    await wanted.lock(never(), () => undefined);
    expect(asked).toBe(1);
    const [row] = await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM tus_locks WHERE id = 'up-1'`);
    expect(row!.n).toBe(1);
    await wanted.unlock();
    const [after] = await t.store.query<{ n: number }>(`SELECT count(*)::int AS n FROM tus_locks WHERE id = 'up-1'`);
    expect(after!.n).toBe(0);
  });

  it('a waiter on the same instance asks the holder directly', async () => {
    // No renewal and no lapse within the waiter's patience: only a direct request frees it.
    const a = dbUploadLocker(t.store, { ...fast, leaseMs: 60_000, renewMs: 60_000, acquireTimeoutMs: 10_000 });
    const held = a.newLock('up-2');
    let asked = 0;
    await held.lock(never(), () => {
      asked++;
      return held.unlock();
    });
    const wanted = a.newLock('up-2');
    await wanted.lock(never(), () => undefined);
    expect(asked).toBe(1);
    await wanted.unlock();
  });

  it('the lock of an instance that died lapses at its lease; until then waiters wait', async () => {
    // What a killed instance leaves: a row nobody renews.
    await t.store.query(`INSERT INTO tus_locks (id, holder, expires_at) VALUES ('up-3', 'dead', now() + interval '800 milliseconds')`);
    const b = dbUploadLocker(t.store, fast);
    const started = Date.now();
    const wanted = b.newLock('up-3');
    await wanted.lock(never(), () => undefined);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    const [row] = await t.store.query<{ holder: string; release_requested: boolean }>(`SELECT holder, release_requested FROM tus_locks WHERE id = 'up-3'`);
    expect(row!.holder).not.toBe('dead');
    expect(row!.release_requested).toBe(false);
    await wanted.unlock();
  });

  it('a holder that does not let go makes the waiter time out with ERR_LOCK_TIMEOUT; its renewals keep the lock', async () => {
    const a = dbUploadLocker(t.store, fast);
    const b = dbUploadLocker(t.store, { ...fast, acquireTimeoutMs: 1500 });
    const held = a.newLock('up-4');
    await held.lock(never(), () => undefined);
    await expect(b.newLock('up-4').lock(never(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    // A lock's own wait (a hand-over's) is its own, whatever the locker's default.
    await expect(dbUploadLocker(t.store, { ...fast, acquireTimeoutMs: 60_000 }).newLockWaiting('up-4', 700).lock(never(), () => undefined)).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    // 1.5 s is over twice the lease: only the renewals kept it.
    const [row] = await t.store.query<{ live: boolean }>(`SELECT expires_at > now() AS live FROM tus_locks WHERE id = 'up-4'`);
    expect(row!.live).toBe(true);
    await held.unlock();
  });

  it('withUploadLock runs one instance\'s work at a time, in any number of instances', async () => {
    const lockers = [dbUploadLocker(t.store, fast), dbUploadLocker(t.store, fast), dbUploadLocker(t.store, fast)];
    let inside = 0;
    let most = 0;
    await Promise.all(
      lockers.flatMap((l) => [1, 2].map(() =>
        withUploadLock(l, 'hand-over:x', 10_000, async () => {
          inside++;
          most = Math.max(most, inside);
          await sleep(30);
          inside--;
        }),
      )),
    );
    expect(most).toBe(1);
  });
});
