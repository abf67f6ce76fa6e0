// A member's permission entries as a request names them (PUT /v1/users/{userId}/permissions, an
// invitation's Permissions): normalized, then held to section 6 (one object type, each object id
// once, organization-only flags at Organization scope: src/domain/permissions.ts) and to this organization (every object id one of its own).
import type * as z from 'zod';
import { formError } from '../../src/domain/form-errors.ts';
import { permissionEntryErrors, type PermissionEntry } from '../../src/domain/permissions.ts';
import type { PermissionEntries } from '../../src/protocol/api/schemas.ts';
import { assertValid, badRequest, fieldError } from '../errors.ts';
import { invalid } from '../routes/content-rules.ts';
import { loadRow } from '../rows.ts';
import type { Queryable } from '../store/store.ts';

/** Lower-case ids, and no flag left undefined (a missing flag means false). */
export function normalizeEntries(entries: z.infer<typeof PermissionEntries>): PermissionEntry[] {
  return entries.map((e) => ({
    ObjectType: e.ObjectType,
    ObjectId: e.ObjectId?.toLowerCase() ?? null,
    Permissions: Object.fromEntries(Object.entries(e.Permissions).filter(([, v]) => v !== undefined)),
  }));
}

/** 400 unless the entries hold to section 6 and name objects of `organizationId`. `field` names the
 * entries in the request ('body' when they are the whole body); an entry's id is `${prefix}${i}.ObjectId`. */
export async function assertEntriesValid(q: Queryable, organizationId: string, entries: readonly PermissionEntry[], field: string): Promise<void> {
  const prefix = field === 'body' ? '' : `${field}.`;
  assertValid(permissionEntryErrors(entries).map(({ path, error }) => [path === '' ? field : `${prefix}${path}`, error]));
  for (const [i, e] of entries.entries()) {
    const at = `${prefix}${i}.ObjectId`;
    if (e.ObjectType === null) continue;
    if (e.ObjectId === null) throw badRequest([fieldError(at, formError('required'))]);
    if (e.ObjectType === 'Organization' && e.ObjectId !== organizationId) throw invalid(at);
    if (e.ObjectType === 'Network' && !(await loadRow(q, 'network', organizationId, e.ObjectId))) throw invalid(at);
    if (e.ObjectType === 'Program' && !(await loadRow(q, 'program', organizationId, e.ObjectId))) throw invalid(at);
  }
}
