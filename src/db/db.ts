// The local store (IndexedDB through Dexie); the only module that imports dexie.
//
// Synced tables hold server truth with the user's pending edits re-applied on top (what screens
// show). `shadows` keeps the server's own copy of every row that has pending or conflicting
// edits, so a pulled row can be rebased and the conflict view can show 'theirs'.
//
// Schema upgrades: add a new `.version(n)` entry to SCHEMA_VERSIONS; never drop or rename
// `outbox`, `conflicts` or `needsAttention` (they hold the user's unsent work). A version that
// changes synced tables may clear them and reset the cursor: the next pull refills them.
import { Dexie, liveQuery, type EntityTable, type Table } from 'dexie';
import type { Mutation, MutationResult, SyncEntity, SyncRow } from '../protocol/sync.ts';
import type { FieldError } from '../protocol/errors.ts';
import type { ConflictField } from '../protocol/sync.ts';

// Screens take useLiveQuery from dexie-react-hooks itself: re-exported here, it put React into the
// sync worker, which imports this module.
export { liveQuery };

export type LocalRow = SyncRow & Record<string, unknown>;

/** A queued mutation; `seq` orders the outbox (same-row order is outbox order). */
export type OutboxEntry = Mutation & {
  seq?: number;
  /** Push attempts that ended in a server error (5xx) for this mutation. */
  attempts?: number;
  /** The organization the edit was made in (one local database serves every organization the
   * user switches between; the engine pushes only the current organization's edits). */
  organizationId?: string;
  /** The user whose edit this is (the store's owner when it was made): the engine pushes only
   * its own user's edits, never another user's under the new user's session. */
  userId?: string;
};

export type Shadow = {
  /** `${entity}:${id}` */
  key: string;
  entity: SyncEntity;
  entityId: string;
  /** The server's copy; null when the row does not exist on the server (yet). */
  row: LocalRow | null;
};

export type ConflictEntry = {
  /** the conflicting mutation's id */
  id: string;
  entity: SyncEntity;
  entityId: string;
  mutation: Mutation;
  fields: ConflictField[];
  /** The row as the server had it when the conflict was found (its ModifiedAtUtc is the new base). */
  serverRow: LocalRow;
  createdAt: number;
};

export type NeedsAttentionEntry = {
  id: string;
  entity: SyncEntity;
  entityId: string;
  mutation: Mutation;
  httpStatus: number;
  errors: FieldError[];
  createdAt: number;
};

export type PermissionRow = { key: string; ObjectType: string | null; ObjectId: string | null; Permissions: Record<string, boolean> };

export type SyncStatus = {
  online: boolean;
  pendingCount: number;
  oldestPendingAgeMs: number | null;
  lastSyncedAt: number | null;
  conflictCount: number;
  needsAttentionCount: number;
  /** 'auth': the server answered 401 (the session expired); 'otherUser': this device's store
   * holds another user's data (storeOwner), so nothing is sent or pulled for the signed-in one. */
  paused: 'auth' | 'otherUser' | null;
  /** When the engine computed this status (ms since epoch); null before it ever ran. */
  updatedAt: number | null;
  /** The message of the last failed attempt, for diagnostics; null after a success. */
  lastError: string | null;
  /** The last attempt could not store what it received (or its results): the device's storage is
   * full. Edits cannot be saved and the server's changes not downloaded until space is freed.
   * Written to the store when it can be; every tab hears it over SYNC_STATUS_CHANNEL. */
  storageFull: boolean;
};

export type SyncStateRow =
  | { key: 'status'; value: SyncStatus }
  | { key: 'cursor'; value: string | null }
  | { key: 'clientId'; value: string }
  | { key: 'organizationId'; value: string }
  | { key: 'storagePersistRequested'; value: boolean }
  | { key: 'owner'; value: StoreOwner };

/** The user whose data the local store holds (rows, outbox, conflicts): set when a user's sync
 * first runs on this device, cleared with everything else on log-out (reset.ts). */
export type StoreOwner = { userId: string; name: string; email: string };

export type CastawayDb = Dexie & {
  organizations: EntityTable<LocalRow, 'Id'>;
  networks: EntityTable<LocalRow, 'Id'>;
  programs: EntityTable<LocalRow, 'Id'>;
  playlists: EntityTable<LocalRow, 'Id'>;
  clips: EntityTable<LocalRow, 'Id'>;
  recordings: EntityTable<LocalRow, 'Id'>;
  annotations: EntityTable<LocalRow, 'Id'>;
  permissions: EntityTable<PermissionRow, 'key'>;
  outbox: Table<OutboxEntry, number>;
  shadows: EntityTable<Shadow, 'key'>;
  conflicts: EntityTable<ConflictEntry, 'id'>;
  needsAttention: EntityTable<NeedsAttentionEntry, 'id'>;
  syncState: Table<SyncStateRow, string>;
};

export const SYNCED_TABLES: readonly SyncEntity[] = ['organizations', 'networks', 'programs', 'playlists', 'clips', 'recordings', 'annotations'];

export const SCHEMA_VERSIONS: ReadonlyArray<{ version: number; stores: Record<string, string | null> }> = [
  {
    version: 1,
    stores: {
      organizations: 'Id',
      networks: 'Id, OrganizationId',
      programs: 'Id, OrganizationId, NetworkId',
      playlists: 'Id, OrganizationId, ProgramId',
      clips: 'Id, OrganizationId, ProgramId, ModifiedAtUtc',
      recordings: 'Id, OrganizationId, ProgramId',
      annotations: 'Id, RecordingId',
      permissions: 'key',
      outbox: '++seq, &id, entityId',
      shadows: 'key, entityId',
      conflicts: 'id, entityId',
      needsAttention: 'id, entityId',
      syncState: 'key',
    },
  },
  {
    // Clips: one compound index for "the organization's recently changed clips" in place of the
    // OrganizationId and ModifiedAtUtc indexes (one index fewer to write per clip of a pull, and
    // the home screen reads 8 rows instead of every clip of the organization).
    version: 2,
    stores: { clips: 'Id, ProgramId, [OrganizationId+ModifiedAtUtc]' },
  },
];

export const DEFAULT_DB_NAME = 'castaway';

/**
 * Opens (lazily) a local database. Tests and the simulation give each client its own name.
 * `durability: 'relaxed'` (Chromium): a commit is reported before it reaches the disk, so an OS
 * crash can lose the last commits, never half of one; only for writes the server can give again.
 */
export function openLocalDb(name: string = DEFAULT_DB_NAME, versions = SCHEMA_VERSIONS, options: { durability?: 'relaxed' } = {}): CastawayDb {
  const d = new Dexie(name, options.durability ? { chromeTransactionDurability: options.durability } : {}) as CastawayDb;
  for (const v of versions) d.version(v.version).stores(v.stores);
  return d;
}

/** The browser's database. */
export const db: CastawayDb = openLocalDb();

export type { Mutation, MutationResult, SyncEntity };

/** The organization the store keeps (the sync engine works for, new edits are stamped with); null
 * before the first sync. Written only by sync-store.ts setCurrentOrganization. */
export async function currentOrganization(d: CastawayDb): Promise<string | null> {
  const row = await d.syncState.get('organizationId');
  return row?.key === 'organizationId' ? row.value : null;
}

export const EMPTY_STATUS: SyncStatus = {
  online: true,
  pendingCount: 0,
  oldestPendingAgeMs: null,
  lastSyncedAt: null,
  conflictCount: 0,
  needsAttentionCount: 0,
  paused: null,
  updatedAt: null,
  lastError: null,
  storageFull: false,
};

/** The age of the oldest queued edit at `now` (null: nothing queued). */
export function oldestPendingAge(oldestCreatedAt: number | null | undefined, now: number): number | null {
  return oldestCreatedAt === null || oldestCreatedAt === undefined ? null : Math.max(0, now - oldestCreatedAt);
}
