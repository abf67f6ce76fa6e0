// Who made a change, and when: the server names it for each conflicting field (from a revision's
// ModifiedById and ModifiedAtUtc, sync-server/sync/merge.ts) and the conflict screen reads it back
// (src/features/sync/conflict-authors.ts), from the field or, for results stored before fields
// were named, the server row. One reading for both ends. No zod here: the conflict-author prefetch
// runs on the signed-in first screen, which does not load the wire schemas.

/** null where the record does not say (no ModifiedById, or an empty one). */
export type ChangeAuthor = { byId: string | null; atUtc: string | null };

/** A change's author from a record's values: only non-empty strings name someone or a time. */
export function changeAuthor(byId: unknown, atUtc: unknown): ChangeAuthor {
  return { byId: typeof byId === 'string' && byId !== '' ? byId : null, atUtc: typeof atUtc === 'string' && atUtc !== '' ? atUtc : null };
}
