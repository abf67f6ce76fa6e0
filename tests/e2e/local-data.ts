// Reads what the browser holds on the device (IndexedDB, Cache Storage) the way DevTools would:
// without the app's code, so a test sees the store itself, not the app's view of it.
import type { Page } from '@playwright/test';

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

/** Ids of the rows of one object store. */
export function indexedDbKeys(page: Page, name: string, store: string): Promise<string[]> {
  return page.evaluate(
    async ([dbName, storeName]) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(dbName);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      if (!db.objectStoreNames.contains(storeName)) {
        db.close();
        return [];
      }
      const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
        const req = db.transaction(storeName).objectStore(storeName).getAllKeys();
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      db.close();
      return keys.map(String);
    },
    [name, store] as const,
  );
}

/** One row of an object store by key (undefined when the database, the store or the row is not there). */
export function indexedDbRow<T = unknown>(page: Page, name: string, store: string, key: string): Promise<T | undefined> {
  return page.evaluate(
    async ([dbName, storeName, rowKey]) => {
      if (!(await indexedDB.databases()).some((d) => d.name === dbName)) return undefined;
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const req = indexedDB.open(dbName);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      if (!db.objectStoreNames.contains(storeName)) {
        db.close();
        return undefined;
      }
      const row = await new Promise<unknown>((resolve, reject) => {
        const req = db.transaction(storeName).objectStore(storeName).get(rowKey);
        req.onsuccess = () => resolve(req.result);
        req.onerror = () => reject(req.error);
      });
      db.close();
      return row as T | undefined;
    },
    [name, store, key] as const,
  );
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
