// Whether the app can reach the server, as one flag for every screen: the browser's own online
// flag (so 'Offline' shows the moment the device drops) AND the sync worker's last word on the
// network (it writes online = false when a request fails for want of a network). The browser flag
// alone is not enough: it stays true on a captive portal or a dead Wi-Fi, and after a reload it
// can read true before the browser has probed the link, while the worker's failed pull is proof.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../db/db.ts';
import { heardStatus, newestStatus, subscribeHeardStatus } from './heard-status.ts';

function useBrowserOnline(): boolean {
  const [online, setOnline] = useState(() => navigator.onLine);
  useEffect(() => {
    const up = () => setOnline(true);
    const down = () => setOnline(false);
    window.addEventListener('online', up);
    window.addEventListener('offline', down);
    return () => {
      window.removeEventListener('online', up);
      window.removeEventListener('offline', down);
    };
  }, []);
  return online;
}

export function useOnline(): boolean {
  const browser = useBrowserOnline();
  const stored = useLiveQuery(async () => {
    const row = await db.syncState.get('status');
    return row && row.key === 'status' ? row.value : null;
  }, []);
  // A status the store refused (a full disk) stands in while it is the newer.
  const refused = useSyncExternalStore(subscribeHeardStatus, heardStatus);
  const worker = newestStatus(stored ?? undefined, refused)?.online;
  return browser && worker !== false;
}
