// The sync status every tab reads from Dexie (the sync worker writes it under key 'status'), or,
// while the store refuses it (a full disk), as the leader last said it (src/lib/heard-status.ts);
// with 'online' from src/lib/connectivity.ts (the browser's flag and the worker's, so 'Offline' shows at once).
import { useLiveQuery } from 'dexie-react-hooks';
import { db, EMPTY_STATUS, oldestPendingAge, type FirstSync, type SyncStatus } from '../../db/db.ts';
import { watchFirstSync } from '../../db/first-sync.ts';
import { sharedState, useShared } from '../../lib/store.ts';
import { newestStatus, useHeardStatus } from '../../lib/heard-status.ts';
import { isCurrentStatus, useOnline } from '../../lib/connectivity.ts';
import { useSession } from '../../lib/session.ts';

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
  // Whose data the store holds: while it is another user's (StoreOwnerGate asks what to do with
  // their unsynced edits) no worker runs for the signed-in user, so the stored status cannot say
  // so; the pause is read from the owner itself, and the waiting edits are not this user's.
  const owner = useLiveQuery(async () => {
    const r = await db.syncState.get('owner');
    return r?.key === 'owner' ? r.value.userId : null;
  }, []);
  const userId = useSession()?.session.User?.Id ?? null;
  const refused = useHeardStatus();
  const status = newestStatus(row && row.key === 'status' ? row.value : undefined, refused) ?? EMPTY_STATUS;
  const otherUser = owner != null && userId !== null && owner !== userId;
  // A retry written before the browser last showed a network (a status from before a restart) is
  // not waiting any more: the worker tries at once and writes a new one.
  const current = isCurrentStatus(status);
  return {
    ...status,
    online,
    paused: otherUser ? 'otherUser' : status.paused,
    // A status stored before this field existed has none.
    storageFull: status.storageFull ?? false,
    serverError: current ? (status.serverError ?? null) : null,
    retryAt: current ? (status.retryAt ?? null) : null,
    pendingCount: pending ?? status.pendingCount,
    oldestPendingAgeMs: oldest === undefined ? status.oldestPendingAgeMs : oldestPendingAge(oldest, Date.now()),
    conflictCount: conflicts ?? status.conflictCount,
    needsAttentionCount: attention ?? status.needsAttentionCount,
  };
}

/** One watch of the store for every component that shows the first download (the organization's
 * gate and the badge): they change in the same render, so the bar never stands beside a badge
 * still saying "All changes saved". */
const firstSyncShared = sharedState<FirstSync | null | undefined>(undefined);
firstSyncShared.onMount = (set) => watchFirstSync(db, set);

/** The first download's progress (src/db/first-sync.ts firstSyncState): undefined while it is
 * read, null when the store is whole or no organization syncs. */
export function useFirstSync(): FirstSync | null | undefined {
  return useShared(firstSyncShared);
}

/** Whether the store holds only part of the organization: a first download (or a rebuild's) has
 * begun and not ended. */
export const downloading = (f: FirstSync | null | undefined): f is FirstSync => f != null && !f.done;
