// The sync status every tab reads from Dexie (the sync worker writes it under key 'status'),
// with 'online' from src/lib/connectivity.ts (the browser's flag and the worker's, so 'Offline' shows at once).
import { useSyncExternalStore } from 'react';
import { db, EMPTY_STATUS, oldestPendingAge, useLiveQuery, type SyncStatus } from '../../db/db.ts';
import { SYNC_STATUS_CHANNEL, type SyncStatusMessage } from '../../db/sync-status-channel.ts';
import { useOnline } from '../../lib/connectivity.ts';

// What the sync leader last said about the device's storage (null: nothing heard yet, the stored
// status stands). One channel per tab, opened by the first screen that shows the status.
let heardStorageFull: boolean | null = null;
let statusChannel: BroadcastChannel | null = null;
const storageListeners = new Set<() => void>();

function subscribeStorageFull(listener: () => void): () => void {
  storageListeners.add(listener);
  if (!statusChannel && typeof BroadcastChannel !== 'undefined') {
    statusChannel = new BroadcastChannel(SYNC_STATUS_CHANNEL);
    statusChannel.onmessage = (ev: MessageEvent<SyncStatusMessage>) => {
      if (ev.data.type !== 'storageFull' || ev.data.storageFull === heardStorageFull) return;
      heardStorageFull = ev.data.storageFull;
      storageListeners.forEach((l) => l());
    };
    statusChannel.postMessage({ type: 'ask' } satisfies SyncStatusMessage);
  }
  return () => storageListeners.delete(listener);
}

function useHeardStorageFull(): boolean | null {
  return useSyncExternalStore(subscribeStorageFull, () => heardStorageFull);
}

export function useSyncStatus(): SyncStatus {
  const online = useOnline();
  const row = useLiveQuery(() => db.syncState.get('status'), []);
  // The outbox itself is the truth for "waiting": counted live so a local edit shows at once.
  const pending = useLiveQuery(() => db.outbox.count(), []);
  const conflicts = useLiveQuery(() => db.conflicts.count(), []);
  const attention = useLiveQuery(() => db.needsAttention.count(), []);
  // The oldest pending edit's age from the outbox at this render, not from when the status was
  // written (an offline start writes none; an edit queued since is not in it).
  const oldest = useLiveQuery(async () => (await db.outbox.orderBy('seq').first())?.createdAt ?? null, []);
  const heardFull = useHeardStorageFull();
  const status = row && row.key === 'status' ? row.value : EMPTY_STATUS;
  return {
    ...status,
    online,
    // A status stored before this field existed has none.
    storageFull: heardFull ?? status.storageFull ?? false,
    pendingCount: pending ?? status.pendingCount,
    oldestPendingAgeMs: oldest === undefined ? status.oldestPendingAgeMs : oldestPendingAge(oldest, Date.now()),
    conflictCount: conflicts ?? status.conflictCount,
    needsAttentionCount: attention ?? status.needsAttentionCount,
  };
}
