// The If-Match / ETag concurrency token of section 7: a row's ETag is its ModifiedAtUtc, quoted;
// a write made on a stale one is answered 412 with the row as it now is. (Bodies, query strings
// and path parameters are read by sync-server/body.ts and the route declarations' schemas.)
import type { Context } from 'hono';
import { AppError } from './errors.ts';

/** The If-Match precondition: null when absent or '*'; the quoted ModifiedAtUtc otherwise. */
export function ifMatch(c: Context): string | null {
  const raw = c.req.header('if-match');
  if (raw === undefined || raw.trim() === '*' || raw.trim() === '') return null;
  return raw.trim().replace(/^W\//, '').replace(/^"|"$/g, '');
}

export function etagOf(row: { ModifiedAtUtc: string }): string {
  return `"${row.ModifiedAtUtc}"`;
}

/** Stale precondition → 412 with the current row (and its ETag). */
export function checkPrecondition(expected: string | null, row: { ModifiedAtUtc: string }): void {
  if (expected === null) return;
  const same = expected === row.ModifiedAtUtc || Date.parse(expected) === Date.parse(row.ModifiedAtUtc);
  if (!same) throw new AppError(412, row, { ETag: etagOf(row) });
}
