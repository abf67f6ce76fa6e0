// The sync status every tab reads from Dexie (the sync worker writes it under key 'status'),
// with 'online' from src/lib/connectivity.ts (the browser's flag and the worker's, so 'Offline' shows at once).
import { db, EMPTY_STATUS, useLiveQuery, type SyncStatus } from '../../db/db.ts';
import { useOnline } from '../../lib/connectivity.ts';

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
    online,
    pendingCount: pending ?? status.pendingCount,
    conflictCount: conflicts ?? status.conflictCount,
    needsAttentionCount: attention ?? status.needsAttentionCount,
  };
}
