// Resolving a conflict: the user's choice goes back out as a new mutation on the new base (the
// server row the conflict was found against), in the same transaction that removes the conflict.
// If the row changed again meanwhile, the server merges or reports a new conflict: never silent.
import { db as defaultDb, type CastawayDb, type ConflictEntry } from './db.ts';
import { enqueue } from './writes.ts';
import type { Mutation } from '../protocol/sync.ts';
import { MUTATIONS, mutationDef, mutationKind } from '../mutations/registry.ts';
import { hasPrecondition, type MutationDef } from '../mutations/define.ts';

export class ConflictNotFoundError extends Error {
  constructor(readonly conflictId: string) {
    super(`conflict ${conflictId} no longer exists`);
    this.name = 'ConflictNotFoundError';
  }
}

export type FieldChoice = Record<string, 'mine' | 'theirs'>;

async function resolve(d: CastawayDb, conflictId: string, pick: (c: ConflictEntry) => string[] | 'delete', newId: () => string): Promise<void> {
  await d.transaction('rw', [d.syncState, d.conflicts, d.outbox, d.shadows, d.clips, d.playlists, d.programs, d.recordings, d.annotations, d.networks, d.organizations], async () => {
    const c = await d.conflicts.get(conflictId);
    if (!c) throw new ConflictNotFoundError(conflictId);
    const chosen = pick(c);
    await d.conflicts.delete(conflictId);
    const base = c.serverRow['ModifiedAtUtc'];
    const def = mutationDef(c.mutation.name);
    // The same mutation again on the new base: the delete, or the update with the chosen fields.
    const common = { id: newId(), name: c.mutation.name, base: typeof base === 'string' ? base : null, createdAt: Date.now() };
    let m: Mutation | null = null;
    if (chosen === 'delete') m = { ...common, args: c.mutation.args };
    else if (def?.kind === 'delete' && chosen.length > 0) m = keptWithFieldsBefore(c, chosen, common);
    else if (def && chosen.length > 0) {
      const fields: Record<string, unknown> = {};
      for (const f of c.fields) if (chosen.includes(f.field)) fields[f.field] = f.mine;
      m = { ...common, args: def.withFields(c.mutation.args, fields) as Record<string, unknown> };
    }
    await enqueue(d, c.entity, c.entityId, () => m);
  });
}

/**
 * A delete held over someone else's edit, resolved field by field: the row stays, and the fields
 * the user chose ('mine') go back to what they were when the user deleted it (their change undone),
 * as an update of the row on the new base; the others keep their change. Null when the kind has no
 * update (an annotation) or the delete's arguments do not name the row as its update does.
 */
function keptWithFieldsBefore(c: ConflictEntry, chosen: readonly string[], common: Omit<Mutation, 'name' | 'args'>): Mutation | null {
  const update = MUTATIONS.find((d) => d.entity === c.entity && d.kind === 'update') as MutationDef | undefined;
  const changes = c.fields.find((f) => f.field === 'Deleted')?.theirChanges ?? [];
  const fields = Object.fromEntries(changes.filter((t) => chosen.includes(t.field) && t.base !== undefined).map((t) => [t.field, t.base]));
  const idKey = Object.entries(c.mutation.args).find(([, v]) => v === c.entityId)?.[0];
  if (!update || !idKey || Object.keys(fields).length === 0) return null;
  const args = update.args.safeParse({ [idKey]: c.entityId, fields });
  return args.success ? { ...common, name: update.name, args: args.data as Record<string, unknown> } : null;
}

export function conflictsApi(d: CastawayDb, options: { newId?: () => string } = {}) {
  const newId = options.newId ?? (() => crypto.randomUUID());
  return {
    /** Sends the user's values of every conflicting field (or the delete) again, on the new base. */
    keepMine: (conflictId: string) => resolve(d, conflictId, (c) => (mutationKind(c.mutation) === 'delete' ? 'delete' : c.fields.map((f) => f.field)), newId),
    /** Accepts the server's values: nothing to send, the row shows the server copy. */
    keepTheirs: (conflictId: string) => resolve(d, conflictId, () => [], newId),
    /** Per field: 'mine' fields are sent again on the new base, 'theirs' fields are dropped. Fields
     * not named count as 'theirs'. A delete conflict takes `{ Deleted: 'mine' }` to delete; kept,
     * each field the others changed is theirs, or 'mine': as it was when the user deleted. */
    resolveFields: (conflictId: string, choice: FieldChoice) =>
      resolve(d, conflictId, (c) => {
        if (mutationKind(c.mutation) === 'delete') {
          if (choice['Deleted'] === 'mine') return 'delete';
          return (c.fields.find((f) => f.field === 'Deleted')?.theirChanges ?? []).filter((t) => choice[t.field] === 'mine').map((t) => t.field);
        }
        return c.fields.filter((f) => choice[f.field] === 'mine').map((f) => f.field);
      }, newId),
  };
}

export const { keepMine, keepTheirs, resolveFields } = conflictsApi(defaultDb);

// ── Needs attention ─────────────────────────────────────────────────────────────────────────

export class NeedsAttentionNotFoundError extends Error {
  constructor(readonly itemId: string) {
    super(`needs-attention item ${itemId} no longer exists`);
    this.name = 'NeedsAttentionNotFoundError';
  }
}

export function needsAttentionApi(d: CastawayDb, options: { newId?: () => string } = {}) {
  const newId = options.newId ?? (() => crypto.randomUUID());
  return {
    /** The user has seen the item; their change stays undone. */
    dismiss: async (itemId: string) => {
      await d.needsAttention.delete(itemId);
    },
    /** Sends the same change again (e.g. after a fix elsewhere or regained permission), on the
     * row's current base: a new mutation, so the server does not answer with the stored result. */
    retry: async (itemId: string) => {
      await d.transaction('rw', [d.syncState, d.needsAttention, d.conflicts, d.outbox, d.shadows, d.clips, d.playlists, d.programs, d.recordings, d.annotations, d.networks, d.organizations], async () => {
        const item = await d.needsAttention.get(itemId);
        if (!item) throw new NeedsAttentionNotFoundError(itemId);
        await d.needsAttention.delete(itemId);
        await enqueue(d, item.entity, item.entityId, (_current, base) => ({
          ...item.mutation,
          id: newId(),
          base: mutationDef(item.mutation.name) && hasPrecondition(mutationDef(item.mutation.name)!) ? base : null,
          createdAt: Date.now(),
        }));
      });
    },
  };
}

export const { dismiss: dismissNeedsAttention, retry: retryNeedsAttention } = needsAttentionApi(defaultDb);
