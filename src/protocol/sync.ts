// The sync wire: push (a batch of queued mutations) and pull (rows above a cursor), shared by the
// sync server (validation) and the sync worker (types). See ARCHITECTURE.md "Mutations are API
// calls with a precondition" and "Pull and poke".
//
// Protocol version history:
//   2 — mutations are named (src/mutations): { id, name, args, base, createdAt }. A server of this
//       release still takes version 1 pushes, converting each call to its named mutation.
//   1 — first version: push results applied | merged | conflict | rejected; pull by Version with
//       a cursor that also fingerprints the caller's permissions (a change → rebuild). Conflict
//       fields later gained optional theirsById/theirsAtUtc (older peers ignore or omit them).
//       A push may ask for applied rows as patches (`patches: true`); a server that does not
//       know the flag answers whole rows, which such a client takes as well.
//       Transport, not the protocol: answers come compressed as Accept-Encoding asks, and a push
//       may go gzip-compressed once the server's answers offer it (Accept-Encoding: gzip on the
//       answer, RFC 7694; sync-server/compress.ts). A server that does not offer is never sent one.
//       A pull from the start (no cursor, or a rebuild) later gained an optional `total` on its
//       first page, for the first download's progress; a client that gets none shows no count.
//       A page with more after it later also names the next page's cursor in a response header
//       (PULL_NEXT_CURSOR_HEADER), so a client can ask for that page before reading this one; a
//       client that does not read the header waits for the body's cursor, as before.
import * as z from 'zod';
import { FieldErrorSchema } from './errors.ts';
import { SYNC_ENTITIES, type SyncEntity as SyncEntityName } from './entity-kinds.ts';

export const SYNC_PROTOCOL_VERSION = 2;

/**
 * Most mutations one push may carry; the client sends the oldest first, as many as fit the
 * server's JSON body limit (errors.ts JSON_BODY_LIMIT_BYTES), fewer after a push timed out. Each
 * push has a fixed cost (session, idempotency lookup, transaction, commit): bench:sync's apply
 * rate with pushes of 500 against 200 was ~+50% on PostgreSQL with 4 clients (7,300–8,900 →
 * 11,100–11,350 /s) and ~+25% on PGlite. A push of 500 clip title edits answers ~1 MB as whole
 * rows, ~103 KB as patches (PushRequest.patches).
 */
export const PUSH_BATCH_MAX = 500;
/** Rows per pull page: default and most. */
export const PULL_LIMIT_DEFAULT = 1000;
export const PULL_LIMIT_MAX = 5000;

/** Local table names, one per synced entity kind (src/protocol/entity-kinds.ts). */
export const SyncEntity = z.enum(SYNC_ENTITIES as [SyncEntityName, ...SyncEntityName[]]);
export type SyncEntity = SyncEntityName;

/** A wire row (PascalCase fields, as the REST API returns it); always has an Id. */
export const SyncRowSchema = z.looseObject({ Id: z.string() });
export type SyncRow = z.infer<typeof SyncRowSchema>;

/** A row's ModifiedAtUtc as a mutation's base. */
const BaseSchema = z
  .string()
  .max(40)
  .regex(/^[0-9T:.+Z-]+$/, 'must be an ISO-8601 timestamp');

/**
 * A queued named mutation (src/mutations): its id (made on the device; the server answers a
 * repeated id with the stored result), the mutation's name and arguments (checked by the named
 * mutation's own schema), and its base: the row's ModifiedAtUtc when the user made the edit
 * (null for creates and actions).
 */
export const MutationSchema = z.object({
  id: z.uuid(),
  name: z.string().min(1).max(64),
  args: z.record(z.string(), z.unknown()),
  base: BaseSchema.nullable(),
  createdAt: z.number(),
});
export type Mutation = z.infer<typeof MutationSchema>;

export const MutationMethod = z.enum(['POST', 'PATCH', 'PUT', 'DELETE']);
export type MutationMethod = z.infer<typeof MutationMethod>;

/**
 * A queued mutation as protocol version 1 sent it (and devices of that release stored it): the
 * API call itself. Read only to convert (src/mutations/legacy.ts): a device's outbox upgraded by
 * its new release, and pushes of a device still running the earlier release.
 */
export const LegacyMutationSchema = z.object({
  id: z.uuid(),
  entity: SyncEntity,
  entityId: z.string().min(1).max(100),
  method: MutationMethod,
  path: z.string().max(500),
  body: z.record(z.string(), z.unknown()).nullable(),
  baseModifiedAtUtc: BaseSchema.nullable(),
  createdAt: z.number(),
});
export type LegacyMutation = z.infer<typeof LegacyMutationSchema>;

export const PushRequestSchema = z.object({
  /** 2: named mutations; 1: API calls (devices of the earlier release), converted on arrival. */
  protocolVersion: z.union([z.literal(1), z.literal(SYNC_PROTOCOL_VERSION)]),
  /** Stable id of the browser profile's local database; the server uses it to tell the caller's
   * own earlier writes from other people's when merging. */
  clientId: z.uuid(),
  /** Each is checked on its own: one bad entry is rejected, not the batch. */
  mutations: z.array(z.unknown()).min(1).max(PUSH_BATCH_MAX),
  /** Answer an applied write with the fields it changed (RowPatch) where the server can, not the
   * whole row: the client holds the row it was written over. */
  patches: z.boolean().optional(),
});
export type PushRequest = Omit<z.infer<typeof PushRequestSchema>, 'mutations'> & { mutations: Mutation[] };

/** A field someone else changed since the base of a delete: its value then and now. */
export const TheirChangeSchema = z.object({ field: z.string(), base: z.unknown(), theirs: z.unknown() });
export type TheirChange = z.infer<typeof TheirChangeSchema>;

export const ConflictFieldSchema = z.object({
  field: z.string(),
  /** undefined when the base revision is no longer kept */
  base: z.unknown(),
  mine: z.unknown(),
  theirs: z.unknown(),
  /** Who made the change `theirs` comes from, and when (its revision's ModifiedById and
   * ModifiedAtUtc): not always the row's last writer, which may be this client merging its other
   * fields. Absent in results stored before these were sent. */
  theirsById: z.string().nullable().optional(),
  theirsAtUtc: z.string().nullable().optional(),
  /** A delete's conflict (field Deleted): what others changed since the row the delete was made
   * on, each field as it was then and is now, so that the user deciding whether the row still
   * goes sees what would go with it. Absent when that row is no longer kept, and from earlier
   * releases. */
  theirChanges: z.array(TheirChangeSchema).optional(),
});
export type ConflictField = z.infer<typeof ConflictFieldSchema>;

/** An applied write as the fields it changed (with the new ModifiedAtUtc, ModifiedById and
 * Version), over the row whose Version was `fromVersion`: that row with `fields` laid over it is
 * the server row after the write. */
export const RowPatchSchema = z.object({ fromVersion: z.number().int(), fields: z.record(z.string(), z.unknown()) });
export type RowPatch = z.infer<typeof RowPatchSchema>;

export const MutationResultSchema = z.discriminatedUnion('status', [
  /** Applied as sent. `row` is the server row after the write (null when the row is gone, or
   * when the revision it answered with is no longer kept); or, when the push asked for patches,
   * `patch` in its place where the server can tell the change. With neither, the client keeps
   * its own copy until the next pull, as for a null row. */
  z.object({ mutationId: z.string(), status: z.literal('applied'), row: SyncRowSchema.nullable().optional(), patch: RowPatchSchema.optional() }),
  /** The base was stale; the fields merged with changes made since (three-way) and were written. */
  z.object({ mutationId: z.string(), status: z.literal('merged'), row: SyncRowSchema }),
  /** Some fields were changed by someone else to other values: those are NOT written (the
   * others were); the user chooses. `serverRow` is the row as it now is. */
  z.object({
    mutationId: z.string(),
    status: z.literal('conflict'),
    serverRow: SyncRowSchema,
    fields: z.array(ConflictFieldSchema).min(1),
  }),
  /** Validation, permission or a missing row: the API's own answer; never retried. */
  z.object({
    mutationId: z.string(),
    status: z.literal('rejected'),
    httpStatus: z.number().int(),
    errors: z.array(FieldErrorSchema),
  }),
]);
export type MutationResult = z.infer<typeof MutationResultSchema>;

/** Results answer a prefix of the batch, in order; the client sends the rest again later. */
export const PushResponseSchema = z.object({ results: z.array(MutationResultSchema) });
export type PushResponse = z.infer<typeof PushResponseSchema>;

export const PullQuerySchema = z.object({
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(PULL_LIMIT_MAX).default(PULL_LIMIT_DEFAULT),
});
export type PullQuery = z.infer<typeof PullQuerySchema>;

export const PullPermissionSchema = z.object({
  ObjectType: z.enum(['Organization', 'Network', 'Program']).nullable(),
  ObjectId: z.string().nullable(),
  Permissions: z.record(z.string(), z.boolean()),
});

export const PullResponseSchema = z.object({
  /** Opaque; send it back as ?cursor= */
  cursor: z.string(),
  rows: z.array(z.object({ entity: SyncEntity, row: SyncRowSchema })),
  tombstones: z.array(z.object({ entity: SyncEntity, id: z.string() })),
  hasMore: z.boolean(),
  /** The caller's permissions changed since the cursor was issued (or the cursor is unknown):
   * drop every synced row and pull from the start; the outbox stays. */
  rebuild: z.boolean(),
  /** The caller's permission entries in this organization. */
  permissions: z.array(PullPermissionSchema),
  /** Every change at or below this Version is in this page or an earlier one of the pull (the
   * Version its cursor stands at): a poke for it brings nothing new. Absent from servers of
   * earlier releases. */
  upToVersion: z.number().int().nonnegative().optional(),
  /** On the first page of a pull from the start (no cursor, or a rebuild): how many rows the whole
   * pull brings, counted when it began (rows changed while it runs come as well, so the pages may
   * bring a few more). Absent on every other page, and from servers of earlier releases. */
  total: z.number().int().nonnegative().optional(),
});
export type PullResponse = z.infer<typeof PullResponseSchema>;

/**
 * Response header of a pull page that has more after it: its `cursor` (the body's own, which is
 * still the one a client stores). Sent before the body, it lets a client ask for the next page as
 * soon as this one's answer begins, so the server computes that page while the client reads and
 * stores this one (an initial sync of 10,000 clips: bench:sync). Absent on the last page of a
 * pull, and from servers of earlier releases.
 */
export const PULL_NEXT_CURSOR_HEADER = 'x-sync-next-cursor';

const PullEnvelopeSchema = PullResponseSchema.omit({ rows: true });
const ENTITY_NAMES: ReadonlySet<string> = new Set(SyncEntity.options);

/** What PullResponseSchema takes for one pulled row: a known entity, and an object with a string Id. */
function isPulledRow(item: unknown): item is PullResponse['rows'][number] {
  if (typeof item !== 'object' || item === null) return false;
  const { entity, row } = item as { entity?: unknown; row?: unknown };
  return typeof entity === 'string' && ENTITY_NAMES.has(entity) && typeof row === 'object' && row !== null && !Array.isArray(row) && typeof (row as { Id?: unknown }).Id === 'string';
}

/**
 * PullResponseSchema.parse for the sync worker, the rows checked by hand and kept as they came:
 * zod builds a new object for every row of a loose object, which for a page of 5,000 clips took
 * 10-30 ms of the worker's thread (the thread that also hands the rows to IndexedDB), against
 * under 1 ms for the same checks. A page with a row zod would refuse goes through zod itself, so
 * it fails as before, with zod's error.
 */
export function parsePullResponse(json: unknown): PullResponse {
  const rows = (json as { rows?: unknown } | null)?.rows;
  if (!Array.isArray(rows) || !rows.every(isPulledRow)) return PullResponseSchema.parse(json);
  const { cursor, ...rest } = PullEnvelopeSchema.parse(json);
  return { cursor, rows, ...rest };
}

/** Server-sent event name of a poke; its data is `{ "version": n }`. */
export const POKE_EVENT = 'poke';

/** The Version a poke's data names (null: none readable, which asks for a pull all the same). */
export function pokeVersion(data: unknown): number | null {
  if (typeof data !== 'string') return null;
  try {
    const version = (JSON.parse(data) as { version?: unknown } | null)?.version;
    return typeof version === 'number' && Number.isSafeInteger(version) && version >= 0 ? version : null;
  } catch {
    return null;
  }
}
