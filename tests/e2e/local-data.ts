// Reads what the browser holds on the device (IndexedDB, Cache Storage) the way DevTools would:
// without the app's code, so a test sees the store itself, not the app's view of it. A test's
// setup writes the same way (writeStores): rows the sync worker would have recorded.
import type { Page } from '@playwright/test';

/** Puts and deletes rows of an existing IndexedDB database's object stores, in one transaction. */
export function writeStores(page: Page, name: string, changes: Record<string, { put?: unknown[]; delete?: string[] }>): Promise<void> {
  return page.evaluate(
    ([dbName, byStore]) =>
      new Promise<void>((resolve, reject) => {
        const open = indexedDB.open(dbName);
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction(Object.keys(byStore), 'readwrite');
          for (const [store, { put = [], delete: keys = [] }] of Object.entries(byStore)) {
            for (const row of put) tx.objectStore(store).put(row);
            for (const key of keys) tx.objectStore(store).delete(key);
          }
          tx.oncomplete = () => {
            open.result.close();
            resolve();
          };
          tx.onerror = () => reject(tx.error);
        };
      }),
    [name, changes] as const,
  );
}

/** Row counts per object store of an IndexedDB database ({} when it does not exist). */
export function indexedDbCounts(page: Page, name: string): Promise<Record<string, number>> {
  return page.evaluate(async (dbName) => {
    const names = (await indexedDB.databases()).map((d) => d.name);
    if (!names.includes(dbName)) return {};
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(dbName);
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => reject(req.error);
    });
    const out: Record<string, number> = {};
    for (const store of Array.from(db.objectStoreNames)) {
      out[store] = await new Promise<number>((resolve, reject) => {
        const req = db.transaction(store).objectStore(store).count();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
    }
    db.close();
    return out;
  }, name);
}

/**
 * Reads one object store in the page: all its keys (key null) or the row at `key`. A database or
 * store that is not there reads as nothing, and is not created by the look.
 */
function readStore(page: Page, name: string, store: string, key: string | null): Promise<{ keys: string[]; row: unknown }> {
  return page.evaluate(
    async ([dbName, storeName, rowKey]) => {
      const nothing = { keys: [] as string[], row: undefined as unknown };
      if (!(await indexedDB.databases()).some((d) => d.name === dbName)) return nothing;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(dbName);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      try {
        if (!db.objectStoreNames.contains(storeName)) return nothing;
        const objects = db.transaction(storeName).objectStore(storeName);
        const req: IDBRequest = rowKey === null ? objects.getAllKeys() : objects.get(rowKey);
        const result = await new Promise<unknown>((resolve, reject) => {
          req.onsuccess = () => resolve(req.result);
          req.onerror = () => reject(req.error);
        });
        return rowKey === null ? { keys: (result as IDBValidKey[]).map(String), row: undefined } : { keys: [], row: result };
      } finally {
        db.close();
      }
    },
    [name, store, key] as const,
  );
}

/** Ids of the rows of one object store. */
export async function indexedDbKeys(page: Page, name: string, store: string): Promise<string[]> {
  return (await readStore(page, name, store, null)).keys;
}

/** One row of an object store by key (undefined when the database, the store or the row is not there). */
export async function indexedDbRow<T = unknown>(page: Page, name: string, store: string, key: string): Promise<T | undefined> {
  return (await readStore(page, name, store, key)).row as T | undefined;
}

/** Whether the sync worker has completed a sync on this device (it stamps lastSyncedAt in the
 * status row at the end of a cycle): until then a list shows only the pages pulled so far. */
export async function firstSyncDone(page: Page): Promise<boolean> {
  const status = await indexedDbRow<{ value?: { lastSyncedAt?: number | null } }>(page, 'castaway', 'syncState', 'status');
  return typeof status?.value?.lastSyncedAt === 'number';
}

export function cacheNames(page: Page): Promise<string[]> {
  return page.evaluate(() => caches.keys());
}
