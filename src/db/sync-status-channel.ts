// The sync status the store cannot always hold: when the device's storage is full the leader's
// status row cannot be written, so the leader's sync worker (workers/sync/sync.worker.ts) sends
// every status it publishes to every tab over this BroadcastChannel, saying whether the store
// took it, and a tab that opens asks for the last one. Tabs read the stored row as before and
// let a status the store refused stand in for it while it is the newer (src/lib/heard-status.ts).
import type { SyncStatus } from './db.ts';

export const SYNC_STATUS_CHANNEL = 'castaway-sync-status';

export type SyncStatusMessage = { type: 'status'; status: SyncStatus; stored: boolean } | { type: 'ask' };
