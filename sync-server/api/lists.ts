// Paged lists of section 7 over one table: the caller's organization, soft deletion
// (includeDeleted), id filters, and only the programs the caller may read (src/domain/access.ts,
// the same rule as the guard and the pull).
import { holdsAny, mayRead } from '../../src/domain/access.ts';
import type { PermissionFlags } from '../../src/domain/permissions.ts';
import type { ReadRule } from '../../src/protocol/entity-kinds.ts';
import type { Auth } from '../auth.ts';
import { flagsForProgram, type ProgramRef } from '../mutations/store.ts';
import { ENTITIES, pageOf as pageSql, toWire, type DbRow, type EntityName } from '../rows.ts';
import type { Queryable } from '../store/store.ts';

export type Page = { page: number; pageSize: number; offset: number };

/** Rows fetched with LIMIT pageSize + 1 → the paged response of section 7. */
export function paged<T>(rows: T[], page: Page) {
  return { Items: rows.slice(0, page.pageSize), HasNext: rows.length > page.pageSize, Page: page.page };
}

/** A list's WHERE: parts and their parameters ($1 is the organization). */
export class Where {
  readonly parts: string[] = ['t.organization_id = $1'];
  readonly params: unknown[];
  constructor(organizationId: string, includeDeleted: boolean | undefined) {
    this.params = [organizationId];
    if (!includeDeleted) this.parts.push('NOT t.deleted');
  }
  /** Adds `column op $n` with the value as $n (an array for = ANY). */
  add(sql: (param: string) => string, value: unknown): this {
    this.params.push(value);
    this.parts.push(sql(`$${this.params.length}`));
    return this;
  }
  ids(column: string, ids: string[] | undefined): this {
    return ids ? this.add((p) => `${column} = ANY(${p}::uuid[])`, ids) : this;
  }
}

export async function listRows(q: Queryable, entity: EntityName, where: Where, order: string, page: Page) {
  // The page is chosen on ids alone, then its rows are read: sorting whole rows for a deep page
  // (a clip's is 1.7 kB) spilled to disk, 95 ms for the last page of a 19,000-clip program on
  // PGlite; the ids sort in memory, 25 ms. Every order ends with t.id, so both sorts agree.
  const table = ENTITIES[entity].table;
  const ids = `SELECT t.id FROM ${table} t WHERE ${where.parts.join(' AND ')} ORDER BY ${order} LIMIT ${page.pageSize + 1} OFFSET ${page.offset}`;
  const inner = `SELECT t.* FROM ${table} t JOIN (${ids}) page ON page.id = t.id ORDER BY ${order}`;
  const rows = await q.query<DbRow>(pageSql(entity, inner, order), where.params);
  return paged(rows.map((r) => toWire(entity, r)), page);
}

async function programsOf(q: Queryable, organizationId: string): Promise<ProgramRef[]> {
  return q.query<ProgramRef>(`SELECT id, network_id, slug, deleted FROM programs WHERE organization_id = $1`, [organizationId]);
}

/** Ids of the organization's programs where the caller's flags pass `allowed`. */
export async function programsWhere(q: Queryable, auth: Auth, allowed: (flags: PermissionFlags) => boolean): Promise<string[]> {
  return (await programsOf(q, auth.organizationId)).filter((p) => allowed(flagsForProgram(auth, p))).map((p) => p.id);
}

/** Programs whose rows of this read rule the caller may read. */
export const readablePrograms = (q: Queryable, auth: Auth, rule: ReadRule) => programsWhere(q, auth, (f) => mayRead(rule, f));

/** Programs the caller sees at all (any flag). */
export const visiblePrograms = (q: Queryable, auth: Auth) => programsWhere(q, auth, holdsAny);
