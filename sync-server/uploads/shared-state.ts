// What @tus/server keeps of an upload, kept in the database so that every instance behind a load
// balancer sees the same uploads (migrations/0490_tus_uploads.sql): the upload records (its
// "configstore") and the locks that let one request at a time write to an upload. @tus/server's
// defaults keep both in one process (MemoryLocker) or in files beside the bytes.
//
// A lock is a lease in tus_locks, renewed while its request runs, so the lock of an instance that
// died lapses by itself. tus asks a holder to let go when another request wants the upload (a
// client resuming after its link dropped, while the server still holds the half-open PATCH): here
// the waiter sets release_requested and the holder sees it at its next renewal; a holder in the
// same process is asked at once.
import { randomUUID } from 'node:crypto';
import { ERRORS, type KvStore, type Lock, type Locker, type RequestRelease, type Upload } from '@tus/server';
import type { Queryable } from '../store/store.ts';

export type UploadLockOptions = {
  /** How long a lock lives without renewal (an instance killed mid-PATCH frees it after this). */
  leaseMs?: number;
  /** How often a holder renews its lease and looks for a request to let go. */
  renewMs?: number;
  /** How often a waiter tries again. */
  pollMs?: number;
  /** How long a waiter waits before giving up (tus answers 500 with ERR_LOCK_TIMEOUT). */
  acquireTimeoutMs?: number;
};

const DEFAULTS: Required<UploadLockOptions> = { leaseMs: 10_000, renewMs: 500, pollMs: 100, acquireTimeoutMs: 30_000 };

/** The upload records of @tus/server, one row per upload (the JSON it would write to a file), and
 *  every record at once for the sweep. */
export type UploadRecords = Required<KvStore<Upload>> & { all(): Promise<Upload[]> };

export function dbUploadRecords(q: Queryable): UploadRecords {
  return {
    async get(id) {
      const [row] = await q.query<{ info: Upload }>(`SELECT info FROM tus_uploads WHERE id = $1`, [id]);
      return row?.info;
    },
    async set(id, upload) {
      await q.query(
        `INSERT INTO tus_uploads (id, info) VALUES ($1, $2::jsonb)
         ON CONFLICT (id) DO UPDATE SET info = EXCLUDED.info, updated_at = now()`,
        [id, JSON.stringify(upload)],
      );
    },
    async delete(id) {
      await q.query(`DELETE FROM tus_uploads WHERE id = $1`, [id]);
    },
    async list() {
      return (await q.query<{ id: string }>(`SELECT id FROM tus_uploads ORDER BY id`)).map((r) => r.id);
    },
    async all() {
      return (await q.query<{ info: Upload }>(`SELECT info FROM tus_uploads ORDER BY id`)).map((r) => r.info);
    },
  };
}

/** Locks held by this process, by upload id: a waiter here asks its holder to let go directly. */
type LocalHolders = Map<string, { holder: string; ask: RequestRelease }>;

/** tus's Locker, and locks that wait longer than its writes' (a hand-over waits for another instance's). */
export type DbUploadLocker = Locker & { newLockWaiting(id: string, acquireTimeoutMs: number): Lock };

export function dbUploadLocker(q: Queryable, options: UploadLockOptions = {}): DbUploadLocker {
  const o = { ...DEFAULTS, ...options };
  const local: LocalHolders = new Map();
  return {
    newLock: (id) => new DbLock(q, id, o, local),
    newLockWaiting: (id, acquireTimeoutMs) => new DbLock(q, id, { ...o, acquireTimeoutMs }, local),
  };
}

class DbLock implements Lock {
  private readonly holder = randomUUID();
  private renewal: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly q: Queryable,
    private readonly id: string,
    private readonly o: Required<UploadLockOptions>,
    private readonly local: LocalHolders,
  ) {}

  async lock(signal: AbortSignal, requestRelease: RequestRelease): Promise<void> {
    const deadline = Date.now() + this.o.acquireTimeoutMs;
    for (;;) {
      // Taken when free or when the holder's lease has lapsed; the database's clock decides, so
      // instances with skewed clocks agree.
      const taken = await this.q.query(
        `INSERT INTO tus_locks (id, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
         ON CONFLICT (id) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at, release_requested = false
           WHERE tus_locks.expires_at < now()
         RETURNING holder`,
        [this.id, this.holder, this.o.leaseMs],
      );
      if (taken.length > 0) {
        this.hold(requestRelease);
        return;
      }
      await this.q.query(`UPDATE tus_locks SET release_requested = true WHERE id = $1 AND NOT release_requested`, [this.id]);
      void this.local.get(this.id)?.ask();
      if (signal.aborted || Date.now() >= deadline) throw ERRORS.ERR_LOCK_TIMEOUT;
      await new Promise((resolve) => setTimeout(resolve, this.o.pollMs));
    }
  }

  private hold(requestRelease: RequestRelease): void {
    let asked = false;
    const askOnce = () => {
      if (asked) return;
      asked = true;
      void requestRelease();
    };
    this.local.set(this.id, { holder: this.holder, ask: askOnce });
    this.renewal = setInterval(() => {
      this.q
        .query<{ release_requested: boolean }>(
          `UPDATE tus_locks SET expires_at = now() + $3 * interval '1 millisecond' WHERE id = $1 AND holder = $2 RETURNING release_requested`,
          [this.id, this.holder, this.o.leaseMs],
        )
        .then((rows) => {
          // Asked to let go, or the lease lapsed and another request holds the upload now.
          if (rows.length === 0 || rows[0]!.release_requested) askOnce();
        })
        // A failed renewal is tried again at the next tick; the lease outlives several of them.
        .catch(() => undefined);
    }, this.o.renewMs);
    this.renewal.unref?.();
  }

  async unlock(): Promise<void> {
    clearInterval(this.renewal);
    if (this.local.get(this.id)?.holder === this.holder) this.local.delete(this.id);
    await this.q.query(`DELETE FROM tus_locks WHERE id = $1 AND holder = $2`, [this.id, this.holder]);
  }
}

/** Runs fn holding the upload's lock of `name` (not the one tus takes for writes: a hand-over must not
 *  cancel a client's HEAD), waiting up to `acquireTimeoutMs` for another instance's run of it. */
export async function withUploadLock<T>(locker: DbUploadLocker, name: string, acquireTimeoutMs: number, fn: () => Promise<T>): Promise<T> {
  const lock = locker.newLockWaiting(name, acquireTimeoutMs);
  await lock.lock(new AbortController().signal, () => undefined);
  try {
    return await fn();
  } finally {
    await lock.unlock();
  }
}
