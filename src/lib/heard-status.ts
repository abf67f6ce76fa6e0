// The sync status as the leader last said it over SYNC_STATUS_CHANNEL, when the store refused to
// hold it (a full disk): every reader of the stored status row (the header, the online flag, the
// session's watch for a 401) lets it stand in for the row while it is the newer. A status the
// store took clears it: the row holds the truth again.
import type { SyncStatus } from '../db/db.ts';
import { SYNC_STATUS_CHANNEL, type SyncStatusMessage } from '../db/sync-status-channel.ts';
import { getShared, setShared, sharedState, subscribeShared, useShared } from './store.ts';

const heard = sharedState<SyncStatus | null>(null);
// The channel opens when someone first listens (a screen or the session's watch), not at import.
heard.onMount = () => listen();
let channel: BroadcastChannel | null = null;

function listen(): void {
  if (channel || typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel(SYNC_STATUS_CHANNEL);
  channel.onmessage = (ev: MessageEvent<SyncStatusMessage>) => {
    if (ev.data.type !== 'status') return;
    const next = ev.data.stored ? null : ev.data.status;
    setShared(heard, next);
  };
  // The leader answers with its last status, if it has published one.
  channel.postMessage({ type: 'ask' } satisfies SyncStatusMessage);
}

export function subscribeHeardStatus(listener: () => void): () => void {
  return subscribeShared(heard, listener);
}

/** The last status the store refused, until one it took. */
export function heardStatus(): SyncStatus | null {
  return getShared(heard);
}

/** heardStatus in a component, re-rendered when it changes. */
export function useHeardStatus(): SyncStatus | null {
  return useShared(heard);
}

/** The status to show: the refused one while it is newer than the stored row. */
export function newestStatus(stored: SyncStatus | undefined, refused: SyncStatus | null): SyncStatus | undefined {
  if (!refused) return stored;
  if (!stored) return refused;
  return (refused.updatedAt ?? 0) > (stored.updatedAt ?? 0) ? refused : stored;
}
