// What a failed IndexedDB write was, for the screens (src/lib/local-write.ts) and the sync engine
// (workers/sync/engine.ts): one reading of the browser's errors. Dexie keeps the browser's error
// as `inner` (a commit the browser refuses arrives as an AbortError around the QuotaExceededError).

/** The names an error carries down its chain: `inner` for Dexie, `cause` for the rest, and the
 * browser's errors of each failed request that Dexie's BulkError and ModifyError keep in `failures`. */
export function errorNames(error: unknown, depth = 0): string[] {
  if (depth > 5 || typeof error !== 'object' || error === null) return [];
  const { name, inner, cause, failures } = error as { name?: unknown; inner?: unknown; cause?: unknown; failures?: unknown };
  const out = typeof name === 'string' ? [name] : [];
  const each = Array.isArray(failures) ? failures : typeof failures === 'object' && failures !== null ? Object.values(failures) : [];
  for (const next of [inner ?? cause, ...each.slice(0, 5)]) out.push(...errorNames(next, depth + 1));
  return out;
}

/** The device's storage is full: the browser refused the write for its quota. */
export function isStorageFull(error: unknown): boolean {
  return errorNames(error).includes('QuotaExceededError');
}
