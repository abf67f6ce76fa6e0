// What a failed IndexedDB write was, for the screens (src/lib/local-write.ts) and the sync engine
// (workers/sync/engine.ts): one reading of the browser's errors. Dexie keeps the browser's error
// as `inner` (a commit the browser refuses arrives as an AbortError around the QuotaExceededError).

/** The names an error carries down its chain (`inner` for Dexie, `cause` for the rest). */
export function errorNames(error: unknown): string[] {
  const out: string[] = [];
  let e: unknown = error;
  for (let depth = 0; depth < 5 && typeof e === 'object' && e !== null; depth++) {
    const { name, inner, cause } = e as { name?: unknown; inner?: unknown; cause?: unknown };
    if (typeof name === 'string') out.push(name);
    e = inner ?? cause;
  }
  return out;
}

/** The device's storage is full: the browser refused the write for its quota. */
export function isStorageFull(error: unknown): boolean {
  return errorNames(error).includes('QuotaExceededError');
}
