// The part of the sync status the store cannot always hold: when the device's storage is full,
// the leader's status row cannot be written, so the leader's sync worker says it to every tab
// over this BroadcastChannel (workers/sync/sync.worker.ts), and a tab that opens asks for it
// (src/features/sync/useSyncStatus.ts).
export const SYNC_STATUS_CHANNEL = 'castaway-sync-status';

export type SyncStatusMessage = { type: 'storageFull'; storageFull: boolean } | { type: 'ask' };
