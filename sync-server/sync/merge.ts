// Three-way field merge of a stale mutation (ARCHITECTURE.md "ModifiedAtUtc and conflicts").
//
//   base revision ──(their writes, and our own earlier mutations)──> current row
//        └──────────── the stale mutation's fields ("mine") ──────────┘
//
// A field "they" changed is one that changed in some step after the base made by someone else's
// write (steps made by this client's own earlier mutations are skipped: a client that edits a
// row twice offline sends both with the same base and must not conflict with itself).
//   - mine equals current                → nothing to write, no conflict
//   - they did not change it             → write mine
//   - a set field (Tags), both changed   → write base ∪ added − removed, from both sides
//   - both changed to different values   → conflict (not written; the user chooses)
// When the base revision is no longer kept, every field of the mutation that differs from the
// current row is a conflict.
//
// A conflict names the change it is against: the newest revision after the base, not this
// client's own, that changed the field. Not the current row's ModifiedById: this client's own
// writes since (its earlier mutations, or this mutation's merged fields) may be newer, and the
// screen would name the user herself. Without the base revision, the current row's author.

import { changeAuthor, type ChangeAuthor } from '../../src/protocol/change-author.ts';
import { deepEqual } from '../../src/protocol/json-equal.ts';
import type { TheirChange } from '../../src/protocol/sync.ts';

export type Row = Record<string, unknown>;
export type Revision = { modifiedAtUtc: string; row: Row; own: boolean };
export type MergeConflict = { field: string; base: unknown; mine: unknown; theirs: unknown; theirsBy: ChangeAuthor; theirChanges?: TheirChange[] };
export type MergeResult = {
  /** Fields to write on top of the current row (possibly empty). */
  patch: Row;
  conflicts: MergeConflict[];
};

/** Fields that merge as sets of strings rather than conflict. */
export const SET_FIELDS: ReadonlySet<string> = new Set(['Tags']);

/** Bookkeeping fields a mutation never carries meaningfully. */
const IGNORED_FIELDS = new Set(['Id', 'ModifiedAtUtc', 'ModifiedById', 'CreatedAtUtc', 'CreatedById', 'OrganizationId', 'Version', 'PlaylistIds']);

function asStringSet(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** base ∪ (added by either) − (removed by either), in the order: theirs, then mine's additions. */
export function mergeSet(base: unknown, mine: unknown, theirs: unknown): string[] {
  const b = new Set(asStringSet(base));
  const m = asStringSet(mine);
  const t = asStringSet(theirs);
  const removed = new Set([...b].filter((x) => !m.includes(x) || !t.includes(x)));
  const out: string[] = [];
  for (const x of [...t, ...m]) if (!removed.has(x) && !out.includes(x)) out.push(x);
  return out;
}

/** Fields whose value differs between two rows. */
function changedFields(from: Row, to: Row): string[] {
  const keys = new Set([...Object.keys(from), ...Object.keys(to)]);
  return [...keys].filter((k) => !IGNORED_FIELDS.has(k) && !deepEqual(from[k], to[k]));
}

/** The author of a row's last write, as the row records it. */
export function authorOf(row: Row): ChangeAuthor {
  return changeAuthor(row['ModifiedById'], row['ModifiedAtUtc']);
}

/**
 * Fields someone else changed since the base (steps made by the client's own writes skipped),
 * each with the author of the newest such change, in the order of those changes (the last entry
 * is the newest change); null when the base revision is no longer kept.
 */
export function theirChangedFields(baseModifiedAtUtc: string, current: Row, revisions: Revision[]): Map<string, ChangeAuthor> | null {
  const baseIndex = revisions.findIndex((r) => r.modifiedAtUtc === baseModifiedAtUtc);
  if (baseIndex < 0) return null;
  const theirs = new Map<string, ChangeAuthor>();
  const changedBy = (from: Row, to: Row) => {
    const author = authorOf(to);
    for (const f of changedFields(from, to)) {
      theirs.delete(f); // re-inserted last: the map stays in the order of the newest changes
      theirs.set(f, author);
    }
  };
  let prev = revisions[baseIndex]!.row;
  for (const rev of revisions.slice(baseIndex + 1)) {
    if (!rev.own) changedBy(prev, rev.row);
    prev = rev.row;
  }
  // A write after the last kept revision (should not happen: every write is kept) counts as theirs.
  if (current['ModifiedAtUtc'] !== revisions[revisions.length - 1]!.modifiedAtUtc) changedBy(prev, current);
  return theirs;
}

/**
 * @param mine the mutation's fields (a PATCH body)
 * @param baseModifiedAtUtc the row's ModifiedAtUtc the user edited
 * @param current the row as it now is
 * @param revisions the kept revisions of the row, oldest first (the current one included or not)
 */
export function threeWayMerge(mine: Row, baseModifiedAtUtc: string, current: Row, revisions: Revision[]): MergeResult {
  const patch: Row = {};
  const conflicts: MergeConflict[] = [];
  const baseIndex = revisions.findIndex((r) => r.modifiedAtUtc === baseModifiedAtUtc);
  const fields = Object.keys(mine).filter((f) => !IGNORED_FIELDS.has(f));

  if (baseIndex < 0) {
    for (const f of fields) {
      if (!deepEqual(mine[f], current[f])) conflicts.push({ field: f, base: undefined, mine: mine[f], theirs: current[f], theirsBy: authorOf(current) });
    }
    return { patch, conflicts };
  }

  const base = revisions[baseIndex]!.row;
  const theirs = theirChangedFields(baseModifiedAtUtc, current, revisions)!;

  for (const f of fields) {
    if (deepEqual(mine[f], current[f])) continue;
    const theirsBy = theirs.get(f);
    if (!theirsBy) patch[f] = mine[f];
    else if (SET_FIELDS.has(f)) {
      const merged = mergeSet(base[f], mine[f], current[f]);
      if (!deepEqual(merged, current[f])) patch[f] = merged;
    } else conflicts.push({ field: f, base: base[f], mine: mine[f], theirs: current[f], theirsBy });
  }
  return { patch, conflicts };
}
