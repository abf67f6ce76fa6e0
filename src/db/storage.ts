// The browser's storage manager: how much the device holds, and keeping it. Apart from the write
// layer (writes.ts), whose mutation schemas bring zod: the sync client on every signed-in screen
// asks for the estimate, and those screens parse nothing.

/** Asks the browser to keep our storage (at the first local edit), once per page. */
export function requestPersistentStorage(): void {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  if (storage?.persist) {
    storage.persist().catch(() => {
      // The browser said no or cannot tell: the data still lives in best-effort storage.
    });
  }
}

/** navigator.storage.estimate(), or null where the browser has no storage manager. */
export async function storageEstimate(): Promise<{ usage: number; quota: number; persisted: boolean } | null> {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage;
  if (!storage?.estimate) return null;
  const e = await storage.estimate();
  const persisted = storage.persisted ? await storage.persisted() : false;
  return { usage: e.usage ?? 0, quota: e.quota ?? 0, persisted };
}
