// The sync status every tab reads from Dexie (the sync worker writes it under key 'status'),
// combined with the browser's own online flag so 'Offline' shows at once.
import { useEffect, useState } from 'react';
import { db, EMPTY_STATUS, useLiveQuery, type SyncStatus } from '../../db/db.ts';

export function useOnline(): boolean {
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

export function useSyncStatus(): SyncStatus {
  const online = useOnline();
  const row = useLiveQuery(() => db.syncState.get('status'), []);
  // The outbox itself is the truth for "waiting": counted live so a local edit shows at once.
  const pending = useLiveQuery(() => db.outbox.count(), []);
  const conflicts = useLiveQuery(() => db.conflicts.count(), []);
  const attention = useLiveQuery(() => db.needsAttention.count(), []);
  const status = row && row.key === 'status' ? row.value : EMPTY_STATUS;
  return {
    ...status,
    online: online && status.online,
    pendingCount: pending ?? status.pendingCount,
    conflictCount: conflicts ?? status.conflictCount,
    needsAttentionCount: attention ?? status.needsAttentionCount,
  };
}
