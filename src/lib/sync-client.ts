// Starts the sync worker (comlink) for this tab. Every tab starts one; the workers elect a single
// leader with the Web Locks API (workers/sync/sync.worker.ts). The page forwards the signals a
// worker cannot see (visibilitychange) and the online event.
import * as Comlink from 'comlink';
import type { SyncWorkerApi } from '../../workers/sync/sync.worker.ts';
import { storageEstimate } from '../db/writes.ts';
import type { SyncStatus } from '../db/db.ts';

export type { SyncStatus };
export { storageEstimate };

export type SyncHandle = {
  flush(): Promise<void>;
  /** Call after a successful login: sync paused by a 401 starts again with the kept outbox. */
  resume(): Promise<void>;
  stop(): void;
};

export function startSync({ organizationId }: { organizationId: string }): SyncHandle {
  const worker = new Worker(new URL('../../workers/sync/sync.worker.ts', import.meta.url), { type: 'module', name: 'castaway-sync' });
  const api = Comlink.wrap<SyncWorkerApi>(worker);
  void api.start(organizationId);
  const onVisible = () => {
    if (document.visibilityState === 'visible') void api.flush();
  };
  const onOnline = () => void api.flush();
  document.addEventListener('visibilitychange', onVisible);
  window.addEventListener('online', onOnline);
  return {
    flush: () => api.flush(),
    resume: () => api.resume(),
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
