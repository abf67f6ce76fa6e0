// Whose change a conflict is against, for its wording: a field's author as the server names it,
// and whether that is the signed-in user herself (her own edit on another device). Shared by the
// conflict screen (src/features/sync) and the screens that say a row is in conflict.
import type { ConflictEntry } from '../db/db.ts';
import type { ConflictField } from '../protocol/sync.ts';
import { changeAuthor, type ChangeAuthor } from '../protocol/change-author.ts';

/**
 * Who made the change a field conflicts with, and when: the field's own author as the server
 * names it. Not the server row's last writer, which may be this user (her other fields of the
 * same edit merged and were written); that is only the fallback for conflicts stored before the
 * server named each field's author.
 */
export function fieldAuthor(conflict: Pick<ConflictEntry, 'serverRow'>, field: ConflictField): ChangeAuthor {
  return field.theirsById !== undefined
    ? changeAuthor(field.theirsById, field.theirsAtUtc)
    : changeAuthor(conflict.serverRow['ModifiedById'], conflict.serverRow['ModifiedAtUtc']);
}

/** Whether a change was made by the signed-in user herself (on another device: the server does not
 * count this device's own earlier writes as a conflict, sync-server/sync/merge.ts). Ids compare
 * without case: the server and the users cache do not agree on it. */
export function isOwnChange(author: ChangeAuthor, userId: string | null | undefined): boolean {
  return author.byId !== null && typeof userId === 'string' && userId !== '' && author.byId.toLowerCase() === userId.toLowerCase();
}

/**
 * Who the conflicts of a row (or one conflict) are against, for the wording: 'own' when every
 * conflicting field is the user's own edit on another device ("You changed this clip on another
 * device"), 'others' when any is someone else's (or an author the server did not name), 'none'
 * without conflicts.
 */
export function conflictOrigin(conflicts: readonly Pick<ConflictEntry, 'serverRow' | 'fields'>[], userId: string | null | undefined): 'own' | 'others' | 'none' {
  const authors = conflicts.flatMap((c) => c.fields.map((f) => fieldAuthor(c, f)));
  if (authors.length === 0) return 'none';
  return authors.every((a) => isOwnChange(a, userId)) ? 'own' : 'others';
}

