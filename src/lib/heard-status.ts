// The sync status as the leader last said it over SYNC_STATUS_CHANNEL, when the store refused to
// hold it (a full disk): every reader of the stored status row (the header, the online flag, the
// session's watch for a 401) lets it stand in for the row while it is the newer. A status the
// store took clears it: the row holds the truth again.
import type { SyncStatus } from '../db/db.ts';
import { SYNC_STATUS_CHANNEL, type SyncStatusMessage } from '../db/sync-status-channel.ts';

let heard: SyncStatus | null = null;
let channel: BroadcastChannel | null = null;
const listeners = new Set<() => void>();

function listen(): void {
  if (channel || typeof BroadcastChannel === 'undefined') return;
  channel = new BroadcastChannel(SYNC_STATUS_CHANNEL);
  channel.onmessage = (ev: MessageEvent<SyncStatusMessage>) => {
    if (ev.data.type !== 'status') return;
    const next = ev.data.stored ? null : ev.data.status;
    if (next === null && heard === null) return;
    heard = next;
    listeners.forEach((l) => l());
  };
  // The leader answers with its last status, if it has published one.
  channel.postMessage({ type: 'ask' } satisfies SyncStatusMessage);
}

export function subscribeHeardStatus(listener: () => void): () => void {
  listeners.add(listener);
  listen();
  return () => listeners.delete(listener);
}

/** The last status the store refused, until one it took. */
export function heardStatus(): SyncStatus | null {
  return heard;
}

/** The status to show: the refused one while it is newer than the stored row. */
export function newestStatus(stored: SyncStatus | undefined, refused: SyncStatus | null): SyncStatus | undefined {
  if (!refused) return stored;
  if (!stored) return refused;
  return (refused.updatedAt ?? 0) > (stored.updatedAt ?? 0) ? refused : stored;
}
