// Equality of two JSON values of the wire, as the sync sees it: the server's merge (which fields
// changed since a base) and its revisions (which fields a write changed) compare with this.

/** Deep equality of JSON values; undefined and null are alike (an absent field reads as null). */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  const ak = Object.keys(ao).filter((k) => ao[k] !== undefined);
  const bk = Object.keys(bo).filter((k) => bo[k] !== undefined);
  // The same keys on both sides (counted, then each of a's found in b): comparing a's keys alone
  // took {a: null} for {b: 'x'}, since b's missing `a` reads as null.
  return ak.length === bk.length && ak.every((k) => bo[k] !== undefined && deepEqual(ao[k], bo[k]));
}
