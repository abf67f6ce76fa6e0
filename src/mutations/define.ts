// A named mutation: the one definition of a write that works offline, shared by the device and the
// server (ARCHITECTURE.md "Mutations are named"). The device runs `apply` on its local row and
// queues { id, name, args, base }; the server parses `args` with the same schema and runs the
// mutation's server run (sync-server/mutations) inside its transaction, whether the call came
// over REST or in a sync push. Nothing recognises a mutation by its URL.
//
//   kind     base              on a stale base (push)                 local apply
//   create   none              an existing Id: our own lost answer    a new row with defaults
//   update   row ModifiedAtUtc three-way merge of fields(args)        the fields laid over the row
//   delete   row ModifiedAtUtc conflict only over someone else's edit the row gone
//   action   none              last one sent wins                     as the definition says
import type * as z from 'zod';
import type { SyncEntity } from '../protocol/entity-kinds.ts';

export type MutationKind = 'create' | 'update' | 'delete' | 'action';

/** A row as the device and the wire hold it. */
export type Row = Record<string, unknown> & { Id: string };

export type ApplyContext = {
  /** When the user made the edit (ms since epoch): the date of a row made on the device. */
  createdAt: number;
};

export interface MutationDef<N extends string = string, A = unknown> {
  readonly name: N;
  /** The kind of row the mutation writes (or, for an action, belongs to). */
  readonly entity: SyncEntity;
  readonly kind: MutationKind;
  readonly args: z.ZodType<A>;
  /** The Id of that row. */
  rowId(args: A): string;
  /** An update's fields: what the three-way merge compares ("mine"). */
  fields(args: A): Record<string, unknown>;
  /** The same update with other fields (the merge's result, or a conflict resolved field by field). */
  withFields(args: A, fields: Record<string, unknown>): A;
  /** The mutation's effect on the device's copy of the row (null: no row). Pure. */
  apply(row: Row | null, args: A, ctx: ApplyContext): Row | null;
  /** Whether the write is a write of the row itself (a new revision of it); an action such as a
   * saved cut is kept beside the row and leaves it as it was. */
  readonly writesRow: boolean;
}

type Def<N extends string, S extends z.ZodType> = {
  name: N;
  entity: SyncEntity;
  kind: MutationKind;
  args: S;
  rowId: (args: z.infer<S>) => string;
  fields?: (args: z.infer<S>) => Record<string, unknown>;
  withFields?: (args: z.infer<S>, fields: Record<string, unknown>) => z.infer<S>;
  apply: (row: Row | null, args: z.infer<S>, ctx: ApplyContext) => Row | null;
  writesRow?: boolean;
};

export function defineMutation<N extends string, S extends z.ZodType>(def: Def<N, S>): MutationDef<N, z.infer<S>> {
  return {
    ...def,
    fields: def.fields ?? (() => ({})),
    withFields: def.withFields ?? ((args) => args),
    writesRow: def.writesRow ?? def.kind !== 'action',
  } as MutationDef<N, z.infer<S>>;
}

/** Whether a mutation is made on a base (its row's ModifiedAtUtc) the server checks. */
export const hasPrecondition = (def: Pick<MutationDef, 'kind'>) => def.kind === 'update' || def.kind === 'delete';
