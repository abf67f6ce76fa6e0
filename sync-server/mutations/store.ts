// What a mutation's server run may do to storage (OpStore), and the access checks every run makes
// on the rows it touches (section 6 through src/domain/access.ts):
//
//   the row, locked ──absent, deleted, elsewhere──> 404
//        │ its program (or network) ──the caller may not read the row──> 404 (never 403)
//        ▼
//   flags the mutation needs ──missing──> 403 ──> the run's rules (400) ──> insert / update
//
// directStore runs each call at once inside the caller's transaction (a REST call, a push's
// mutation run on its own); the sync push's BatchStore (sync/batch.ts) runs many mutations in one
// transaction with set-based reads and bulk writes. Both implement OpStore, so a run cannot tell.
import type { PermissionFlagName, PermissionFlags } from '../../src/domain/permissions.ts';
import { holdsAny, mayRead, mayReadNetwork, missingFlags, networkFlags, organizationFlags, programFlags } from '../../src/domain/access.ts';
import { ENTITY_KINDS, KIND_OF, SYNC_ENTITY_OF, type SyncEntity } from '../../src/protocol/entity-kinds.ts';
import type { Auth } from '../auth.ts';
import { AppError, forbidden, notFound } from '../errors.ts';
import { ENTITIES, insertRow, loadRow, updateRow, type EntityName, type WireRow, type WriteContext } from '../rows.ts';
import type { Queryable } from '../store/store.ts';
import { slugExists, slugOwnerOfViolation } from '../routes/content-rules.ts';

export type ProgramRef = { id: string; network_id: string | null; slug: string | null; deleted: boolean };

export interface OpStore {
  readonly auth: Auth;
  readonly write: WriteContext;
  /** Reads for the field rules (slugs, referenced rows); they see every earlier write. */
  readonly q: Queryable;
  /** The row of the caller's organization, locked for writing; null when absent or elsewhere. */
  row(entity: EntityName, id: string): Promise<WireRow | null>;
  /** Whether any row of the entity's table (any organization, deleted or not) has this Id. */
  exists(entity: EntityName, id: string): Promise<boolean>;
  /** A program of the caller's organization (null when absent). */
  program(id: string): Promise<ProgramRef | null>;
  insert(entity: EntityName, id: string, fields: Record<string, unknown>): Promise<WireRow>;
  update(entity: EntityName, current: WireRow, next: Record<string, unknown>): Promise<WireRow>;
}

/** Each call at once, inside the caller's transaction. */
export function directStore(q: Queryable, auth: Auth, write: WriteContext): OpStore {
  return {
    auth,
    write,
    q,
    row: (entity, id) => loadRow(q, entity, auth.organizationId, id, { forUpdate: true }),
    exists: async (entity, id) => (await q.query(`SELECT 1 FROM ${ENTITIES[entity].table} WHERE id = $1`, [id])).length > 0,
    program: async (id) =>
      (await q.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE id = $1 AND organization_id = $2`, [id, auth.organizationId]))[0] ??
      null,
    insert: (entity, id, fields) => insertRow(q, entity, id, write, fields),
    update: (entity, current, next) => updateRow(q, entity, current, write, next),
  };
}

/** 403 unless every flag needed is held. */
export function requireFlags(flags: PermissionFlags, ...needed: PermissionFlagName[]): void {
  if (missingFlags(flags, needed).length > 0) throw forbidden();
}

export const flagsForProgram = (auth: Auth, program: Pick<ProgramRef, 'id' | 'network_id'>) => programFlags(auth.permissions, { id: program.id, networkId: program.network_id });
export const orgFlags = (auth: Auth) => organizationFlags(auth.permissions);

/** A live program of the caller's organization that the caller may see (404 otherwise), with
 * their flags on it. */
export async function programAccess(s: OpStore, programId: string): Promise<{ program: ProgramRef; flags: PermissionFlags }> {
  const program = await s.program(programId);
  if (!program || program.deleted) throw notFound();
  const flags = flagsForProgram(s.auth, program);
  if (!mayRead(ENTITY_KINDS.programs.read, flags)) throw notFound();
  return { program, flags };
}

/** Locks a live row of the organization for a write; 404 when absent, deleted or elsewhere. */
export async function lockRow(s: OpStore, entity: EntityName, id: string): Promise<WireRow> {
  const row = await s.row(entity, id);
  if (!row || row.Deleted) throw notFound();
  return row;
}

/**
 * Locks a live content row (playlist, clip, recording) the caller may read — content access on its
 * program, 404 without (they cannot see it) — with its program and the caller's flags there.
 */
export async function lockContent(s: OpStore, entity: 'playlist' | 'clip' | 'recording', id: string) {
  const current = await lockRow(s, entity, id);
  const access = await programAccess(s, current['ProgramId'] as string);
  if (!mayRead(ENTITY_KINDS[SYNC_ENTITY_OF[entity]].read, access.flags)) throw notFound();
  return { current, ...access };
}

/** Whether the caller sees the network: a flag on it, or on a program in it (src/domain/access.ts). */
export async function seesNetwork(q: Queryable, auth: Auth, networkId: string): Promise<boolean> {
  if (holdsAny(networkFlags(auth.permissions, networkId))) return true;
  const programs = await q.query<{ id: string }>(`SELECT id FROM programs WHERE organization_id = $1 AND network_id = $2 AND NOT deleted`, [auth.organizationId, networkId]);
  return mayReadNetwork(auth.permissions, networkId, programs.map((p) => ({ id: p.id, networkId })));
}

/** A live network of the organization the caller may see; 404 otherwise. Locked when `lock`. */
export async function networkAccess(s: OpStore, networkId: string, lock: boolean): Promise<WireRow> {
  const network = lock ? await lockRow(s, 'network', networkId) : await loadRow(s.q, 'network', s.auth.organizationId, networkId);
  if (!network || network.Deleted || !(await seesNetwork(s.q, s.auth, networkId))) throw notFound();
  return network;
}

/**
 * Whether the caller may read a live row of their organization: its kind's read rule
 * (src/protocol/entity-kinds.ts) over the flags on its program, its parent's, or its network.
 */
export async function mayReadRow(s: OpStore, entity: SyncEntity, row: WireRow): Promise<boolean> {
  const rule = ENTITY_KINDS[entity].read;
  switch (rule.kind) {
    case 'organization':
      return row.OrganizationId === s.auth.organizationId;
    case 'network':
      return seesNetwork(s.q, s.auth, row.Id);
    case 'program':
    case 'content': {
      const program = await s.program(rule.kind === 'program' ? row.Id : (row[rule.programField] as string));
      return program !== null && !program.deleted && mayRead(rule, flagsForProgram(s.auth, program));
    }
    case 'child': {
      const parent = await loadRow(s.q, KIND_OF[rule.parent], s.auth.organizationId, row[rule.parentField] as string);
      return parent !== null && !parent.Deleted && mayReadRow(s, rule.parent, parent);
    }
  }
}

/** 409 when the Id is taken by any row of the table (a client-made Id, any organization). */
export async function ensureNewId(s: OpStore, entity: EntityName, id: string): Promise<void> {
  if (await s.exists(entity, id)) throw new AppError(409);
}

/** A failed write's database error as the API answers it: slug races → SlugExists, other unique
 * ids → 409; null for any other error (a 500: the database's problem, not the caller's). */
export function writeConflictError(err: unknown): AppError | null {
  const owner = slugOwnerOfViolation(err);
  if (owner) return slugExists(owner);
  if ((err as { code?: string })?.code === '23505') return new AppError(409);
  return null;
}
