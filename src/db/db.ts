// The local store (IndexedDB through Dexie); the only module that imports dexie.
//
// Synced tables hold server truth with the user's pending edits re-applied on top (what screens
// show). `shadows` keeps the server's own copy of every row that has pending or conflicting
// edits, so a pulled row can be rebased and the conflict view can show 'theirs'.
//
// Schema upgrades: add a new `.version(n)` entry to SCHEMA_VERSIONS; never drop or rename
// `outbox`, `conflicts` or `needsAttention` (they hold the user's unsent work). A version that
// changes synced tables may clear them and reset the cursor: the next pull refills them.
import { Dexie, liveQuery, type EntityTable, type Table, type Transaction } from 'dexie';
import type { LegacyMutation, Mutation, MutationResult, SyncEntity, SyncRow } from '../protocol/sync.ts';
import { SYNC_ENTITIES } from '../protocol/entity-kinds.ts';
import { fromLegacy } from '../mutations/legacy.ts';
import type { FieldError } from '../protocol/errors.ts';
import type { ConflictField } from '../protocol/sync.ts';

// Screens take useLiveQuery from dexie-react-hooks itself: re-exported here, it put React into the
// sync worker, which imports this module.
export { liveQuery };

export type LocalRow = SyncRow & Record<string, unknown>;

/** A queued named mutation (src/mutations) with the row it names; `seq` orders the outbox
 * (same-row order is outbox order). */
export type OutboxEntry = Mutation & {
  /** The row the mutation names (its definition's entity and rowId(args)), kept for the indexes. */
  entity: SyncEntity;
  entityId: string;
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
  /** The HTTP status of the server's last error (5xx, 408, 429) while the engine waits to retry:
   * the server is unavailable, not refusing the edits (they stay queued). Null otherwise. */
  serverError?: number | null;
  /** When the next attempt after a failure is due (ms since epoch); null when none is waiting. */
  retryAt?: number | null;
};

export type SyncStateRow =
  | { key: 'status'; value: SyncStatus }
  | { key: 'cursor'; value: string | null }
  | { key: 'clientId'; value: string }
  | { key: 'organizationId'; value: string }
  | { key: 'storagePersistRequested'; value: boolean }
  | { key: 'owner'; value: StoreOwner }
  | { key: 'firstSync'; value: FirstSync }
  /** When a pull last brought the caller other permissions than the device held (sync-store.ts). */
  | { key: 'permissionsChangedAt'; value: number };

/** The first download of an organization to this device (or the download again after a rebuild),
 * page by page: until `done`, the store holds part of the organization, and nothing computed from
 * it is final. `total` is what the server said the pull brings (null from a server that does not
 * say); `received`, the rows stored so far (changes made meanwhile can make it pass `total`).
 * Kept across reloads: a download cut off goes on where it stopped, still counted. A store synced
 * before this record existed has none, and is whole. */
export type FirstSync = { received: number; total: number | null; done: boolean };

/** The user whose data the local store holds (rows, outbox, conflicts): set when a user's sync
 * first runs on this device, cleared with everything else on log-out (reset.ts). */
export type StoreOwner = { userId: string; name: string; email: string };

/** A table per synced kind (src/protocol/entity-kinds.ts), then the sync's own. */
export type CastawayDb = Dexie & { [E in SyncEntity]: EntityTable<LocalRow, 'Id'> } & {
  permissions: EntityTable<PermissionRow, 'key'>;
  outbox: Table<OutboxEntry, number>;
  shadows: EntityTable<Shadow, 'key'>;
  conflicts: EntityTable<ConflictEntry, 'id'>;
  needsAttention: EntityTable<NeedsAttentionEntry, 'id'>;
  syncState: Table<SyncStateRow, string>;
};

/** Every synced kind's local table (src/protocol/entity-kinds.ts). */
export const SYNCED_TABLES: readonly SyncEntity[] = SYNC_ENTITIES;

/** A mutation queued by a release before mutations were named (protocol version 1). */
type StoredLegacy = LegacyMutation & Record<string, unknown>;

/** A version 1 mutation as its named mutation; null when it names no change of this release. */
function upgraded(m: StoredLegacy): Mutation | null {
  return 'name' in m ? (m as unknown as Mutation) : fromLegacy(m);
}

/**
 * Version 3: the outbox, conflicts and needs-attention items hold named mutations. The entries the
 * earlier release queued (API calls) are converted where they lie, so an outbox written before the
 * upgrade still flushes after it. An entry that names no change of this release (none that release
 * could make) is not dropped: it becomes an item in needs attention, which says so.
 */
async function toNamedMutations(tx: Transaction): Promise<void> {
  const unknown: NeedsAttentionEntry[] = [];
  await tx.table('outbox').toCollection().modify((stored: OutboxEntry | StoredLegacy, ref: { value: unknown }) => {
    if ('name' in stored) return;
    const entry = stored as StoredLegacy & { seq?: number };
    const named = upgraded(entry);
    if (named) {
      const { method: _m, path: _p, body: _b, baseModifiedAtUtc: _base, ...rest } = entry;
      ref.value = { ...rest, ...named };
      return;
    }
    unknown.push({
      id: entry.id,
      entity: entry.entity,
      entityId: entry.entityId,
      mutation: { id: entry.id, name: 'unknown', args: { method: entry.method, path: entry.path, body: entry.body }, base: entry.baseModifiedAtUtc, createdAt: entry.createdAt },
      httpStatus: 400,
      errors: [{ Field: 'name', Code: 'invalid', Message: 'This change was made by an earlier version of the studio and cannot be sent' }],
      createdAt: Date.now(),
    });
    delete (ref as { value?: unknown }).value;
  });
  for (const table of ['conflicts', 'needsAttention']) {
    await tx.table(table).toCollection().modify((item: { mutation: StoredLegacy }) => {
      const named = upgraded(item.mutation);
      if (named) item.mutation = named as unknown as StoredLegacy;
    });
  }
  if (unknown.length > 0) await tx.table('needsAttention').bulkPut(unknown);
}

export const SCHEMA_VERSIONS: ReadonlyArray<{ version: number; stores: Record<string, string | null>; upgrade?: (tx: Transaction) => Promise<void> }> = [
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
  { version: 3, stores: {}, upgrade: toNamedMutations },
];

export const DEFAULT_DB_NAME = 'castaway';

/**
 * Opens (lazily) a local database. Tests and the simulation give each client its own name.
 * `durability: 'relaxed'` (Chromium): a commit is reported before it reaches the disk, so an OS
 * crash can lose the last commits, never half of one; only for writes the server can give again.
 */
export function openLocalDb(name: string = DEFAULT_DB_NAME, versions = SCHEMA_VERSIONS, options: { durability?: 'relaxed' } = {}): CastawayDb {
  const d = new Dexie(name, options.durability ? { chromeTransactionDurability: options.durability } : {}) as CastawayDb;
  for (const v of versions) {
    const version = d.version(v.version).stores(v.stores);
    if (v.upgrade) version.upgrade(v.upgrade);
  }
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
  serverError: null,
  retryAt: null,
};

/** The age of the oldest queued edit at `now` (null: nothing queued). */
export function oldestPendingAge(oldestCreatedAt: number | null | undefined, now: number): number | null {
  return oldestCreatedAt === null || oldestCreatedAt === undefined ? null : Math.max(0, now - oldestCreatedAt);
}
