// Starts the sync worker (comlink) for this tab. Every tab starts one; the workers elect a single
// leader with the Web Locks API (workers/sync/sync.worker.ts). The page forwards the signals a
// worker cannot see (visibilitychange) and the online event.
import * as Comlink from 'comlink';
import type { SyncRole, SyncWorkerApi } from '../../workers/sync/sync.worker.ts';
import { storageEstimate } from '../db/storage.ts';
import type { StoreOwner, SyncStatus } from '../db/db.ts';

export type { SyncStatus, SyncRole };
export { storageEstimate };

export type SyncHandle = {
  flush(): Promise<void>;
  /** This tab now shows `organizationId` (sync-worker.ts switchTo). */
  switchTo(organizationId: string): void;
  /** Makes this tab the one that syncs, so the device keeps this tab's organization. */
  claim(): void;
  /** Call after a successful login (as `user`): sync paused by a 401 starts again with the kept outbox. */
  resume(user?: StoreOwner): Promise<void>;
  stop(): void;
};

/** `user`: the signed-in user; the engine syncs only a local store this user owns (src/db/owner.ts). */
export function startSync({ organizationId, user, onRole }: { organizationId: string; user?: StoreOwner; onRole?: (role: SyncRole) => void }): SyncHandle {
  const worker = new Worker(new URL('../../workers/sync/sync.worker.ts', import.meta.url), { type: 'module', name: 'castaway-sync' });
  const api = Comlink.wrap<SyncWorkerApi>(worker);
  void api.start(organizationId, user, onRole ? Comlink.proxy(onRole) : undefined);
  // A follower asks the leader for a cycle now: its fresh status replaces one written before this
  // tab opened (the leader may be waiting out a backoff of up to 30 s), and what waits goes out.
  void api.flush();
  const onVisible = () => {
    if (document.visibilityState === 'visible') void api.flush();
  };
  const onOnline = () => void api.flush();
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('online', onOnline);
  return {
    flush: () => api.flush(),
    switchTo: (id) => void api.switchTo(id),
    claim: () => void api.claim(),
    resume: (user) => api.resume(user),
    stop() {
      document.removeEventListener('visibilitychange', onVisible);
      window.removeEventListener('online', onOnline);
      void api.stop().finally(() => {
        api[Comlink.releaseProxy]();
        worker.terminate();
      });
    },
  };
}
