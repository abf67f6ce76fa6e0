// Whether the app can reach the server, as one flag for every screen: the browser's own online
// flag (so 'Offline' shows the moment the device drops) AND the sync worker's last word on the
// network (it writes online = false when a request fails for want of a network). The browser flag
// alone is not enough: it stays true on a captive portal or a dead Wi-Fi, and after a reload it
// can read true before the browser has probed the link, while the worker's failed pull is proof.
//
// The worker's word counts only when it is newer than the browser's last sign of a network: this
// page's start or its last 'online' event. A status stored before the browser closed (offline
// then) would otherwise read "Offline" after a restart, online, until the worker wrote again; a
// worker that fails again now writes a newer status within its first attempt.
//
// The page also looks once itself as it starts (probeNetwork): its worker needs a few hundred
// milliseconds to start and fail, and until then a phone in a tunnel showed its home without
// 'Offline' (bench:app's warm offline start: the badge came 300–450 ms after the heading).
import { useEffect, useState } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { db, type SyncStatus } from '../db/db.ts';
import { newestStatus, useHeardStatus } from './heard-status.ts';
import { getShared, setShared, sharedState, useShared } from './store.ts';
import { probedOfflineAt } from './network-probe.ts';

/** When the browser last showed a network: this page's start, then each 'online' event. */
const networkSeenAt = sharedState(Date.now());
if (typeof window !== 'undefined') window.addEventListener('online', () => setShared(networkSeenAt, Date.now()));

/** Whether a status the sync worker wrote is current: written since the browser last showed a
 * network (`seenAt`). Older, its online flag and retry time say nothing about now. */
export function isCurrentStatus(status: Pick<SyncStatus, 'updatedAt'> | null | undefined, seenAt: number = getShared(networkSeenAt)): boolean {
  return status?.updatedAt != null && status.updatedAt >= seenAt;
}

/** Whether the app can reach the server now, from the browser's flag, a current worker status and
 * the page's own look (`offlineAt`): of the last two, the newer decides. */
export function reachable(browserOnline: boolean, status: Pick<SyncStatus, 'updatedAt' | 'online'> | null | undefined, seenAt: number = getShared(networkSeenAt), offlineAt: number | null = getShared(probedOfflineAt)): boolean {
  if (!browserOnline) return false;
  const worker = isCurrentStatus(status, seenAt) ? status : null;
  if (offlineAt !== null && offlineAt >= seenAt && (worker?.updatedAt == null || worker.updatedAt < offlineAt)) return false;
  return worker?.online !== false;
}

function useBrowserOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    // Read again now: the flag may have changed between the first render and this effect.
    setOnline(navigator.onLine);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, []);
  return online;
}

/** The last answer any mounted useOnline gave (the sync badge is always mounted), for code that is
 * not a component: a saved edit's toast says "kept on this device" when the server is out of
 * reach although the browser's flag reads online (a dead Wi-Fi, a captive portal). */
const lastReachable = sharedState(true);
export function reachableNow(): boolean {
  return (typeof navigator === 'undefined' || navigator.onLine) && getShared(lastReachable);
}

export function useOnline(): boolean {
  const browser = useBrowserOnline();
  const seenAt = useShared(networkSeenAt);
  const offlineAt = useShared(probedOfflineAt);
  const stored = useLiveQuery(async () => {
    const row = await db.syncState.get('status');
    return row && row.key === 'status' ? row.value : null;
  }, []);
  // A status the store refused (a full disk) stands in while it is the newer.
  const refused = useHeardStatus();
  const online = reachable(browser, newestStatus(stored ?? undefined, refused), seenAt, offlineAt);
  useEffect(() => setShared(lastReachable, online), [online]);
  return online;
}
