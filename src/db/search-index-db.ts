// The offline search index, kept on the device (issue 32: "persisted so a reload does not rebuild
// it from scratch"). Its own small database, 'castaway-search', as the reports and user names have
// theirs: the index is derived from the synced store, never synced itself. One record, the index of
// the organization the store keeps, with the store's cursor when it was saved: keeping another
// organization's index replaces it, and log-out clears this database with every other 'castaway…'
// one (reset.ts), so nothing of a user outlives them here.
//
// Also the change feed the index follows: Dexie's 'storagemutated' event, which Dexie raises in
// every tab and worker of the origin (over a BroadcastChannel) after a transaction commits, with
// the primary keys each table's writes touched. Pulls (sync-store.ts applyPull), push results,
// local edits (writes.ts) and resets all arrive through it, with no edit of the code that writes.
import { Dexie, type EntityTable, type IntervalTree, type IntervalTreeNode } from 'dexie';

export type SavedSearchIndex = {
  /** The one key: 'current'. */
  key: string;
  organizationId: string;
  /** The serialized index (workers/search/index-core.ts serialize). */
  json: string;
  /** Its format (INDEX_FORMAT): another format is rebuilt, not loaded. */
  format: number;
  /** The local store's cursor when it was saved (the pull watermark the index has seen). */
  cursor: string | null;
  savedAt: number;
};

type SearchIndexDb = Dexie & { indexes: EntityTable<SavedSearchIndex, 'key'> };

export const SEARCH_INDEX_DB_NAME = 'castaway-search';
const KEY = 'current';

export function openSearchIndexDb(name: string = SEARCH_INDEX_DB_NAME): SearchIndexDb {
  const d = new Dexie(name) as SearchIndexDb;
  d.version(1).stores({ indexes: 'key' });
  return d;
}

/** The saved index of `organizationId`; undefined when none is saved, or another organization's. */
export async function loadSavedIndex(d: SearchIndexDb, organizationId: string): Promise<SavedSearchIndex | undefined> {
  const saved = await d.indexes.get(KEY);
  return saved && saved.organizationId.toLowerCase() === organizationId.toLowerCase() ? saved : undefined;
}

export async function saveIndex(d: SearchIndexDb, saved: Omit<SavedSearchIndex, 'key'>): Promise<void> {
  await d.indexes.put({ key: KEY, ...saved });
}

export async function clearSavedIndex(d: SearchIndexDb): Promise<void> {
  await d.indexes.clear();
}

/** What a committed transaction changed in one table of a database: the primary keys written or
 * deleted, or 'all' when Dexie reports a range (a clear, a range delete, a large bulk write). */
export type TableChange = { table: string; keys: string[] | 'all' };

function keysOf(tree: IntervalTree): string[] | 'all' {
  const keys: string[] = [];
  const stack: IntervalTreeNode[] = [];
  if ('from' in tree) stack.push(tree);
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (typeof node.from !== 'string' || node.from !== node.to) return 'all';
    keys.push(node.from);
    if (node.l) stack.push(node.l);
    if (node.r) stack.push(node.r);
  }
  return keys;
}

/**
 * Calls `listener` after each commit to database `dbName` (in this context or any other of the
 * origin) with the tables it changed. Returns the unsubscribe function.
 */
export function onStoreChanged(dbName: string, listener: (changes: TableChange[]) => void): () => void {
  const prefix = `idb://${dbName}/`;
  const handler = (parts: Record<string, IntervalTree>) => {
    const changes: TableChange[] = [];
    for (const [part, tree] of Object.entries(parts)) {
      if (!part.startsWith(prefix)) continue;
      const rest = part.slice(prefix.length);
      // The primary key's part is 'table/' (an index's is 'table/index', deletions 'table/:dels').
      if (!rest.endsWith('/') || rest.indexOf('/') !== rest.length - 1) continue;
      changes.push({ table: rest.slice(0, -1), keys: keysOf(tree) });
    }
    if (changes.length > 0) listener(changes);
  };
  Dexie.on('storagemutated', handler);
  return () => Dexie.on('storagemutated').unsubscribe(handler);
}
