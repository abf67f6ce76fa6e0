// The permission editor's draft (section 6): one scope for the user (Organization, Network,
// Program or none), and for Network and Program scope one row per object with its flags. Turned
// into the entries PUT /v1/users/{userId}/permissions and an invitation's Permissions take, and
// the rules' errors (src/domain/permissions.ts permissionEntryErrors, the server's too) put back
// at the row and flag they name.
//
//   entries ──draftOf──> draft ──(edits)──> draft ──entriesOf──> entries ──errors──> at the field
import { PermissionFlag, permissionEntryErrors, type PermissionEntry, type PermissionFlagName, type PermissionObjectType } from '../../domain/permissions.ts';
import { formError, type FormError } from '../../domain/form-errors.ts';
import { scopeOf, withFlagsOn, type AccessObject } from '../../domain/users.ts';
import type { OrganizationUser } from '../../protocol/entities.ts';

export type Scope = PermissionObjectType | 'none';
export const SCOPES: readonly Scope[] = ['Organization', 'Network', 'Program', 'none'];
export const FLAGS = Object.keys(PermissionFlag) as PermissionFlagName[];

export type Flags = Partial<Record<PermissionFlagName, boolean>>;
export type DraftRow = { key: number; objectId: string; flags: Flags };
export type Draft = { scope: Scope; organizationFlags: Flags; rows: DraftRow[] };

let nextKey = 1;
export const newRow = (objectId = '', flags: Flags = {}): DraftRow => ({ key: nextKey++, objectId, flags });

export function draftOf(entries: readonly PermissionEntry[]): Draft {
  const scope = scopeOf(entries) ?? 'none';
  const organizationFlags = scope === 'Organization' ? { ...(entries.find((e) => e.ObjectType === 'Organization')?.Permissions ?? {}) } : {};
  const rows = scope === 'Network' || scope === 'Program' ? entries.filter((e) => e.ObjectType === scope).map((e) => newRow(e.ObjectId ?? '', { ...e.Permissions })) : [];
  return { scope, organizationFlags, rows };
}

/** Only the flags that are on: a missing flag means false. */
const onOnly = (flags: Flags): Flags => Object.fromEntries(Object.entries(flags).filter(([, v]) => v === true));

export function entriesOf(draft: Draft, organizationId: string): PermissionEntry[] {
  switch (draft.scope) {
    case 'Organization':
      return [{ ObjectType: 'Organization', ObjectId: organizationId, Permissions: onOnly(draft.organizationFlags) }];
    case 'Network':
    case 'Program':
      return draft.rows.map((r) => ({ ObjectType: draft.scope as PermissionObjectType, ObjectId: r.objectId || null, Permissions: onOnly(r.flags) }));
    case 'none':
      return [];
  }
}

/** Errors keyed by where they show: 'form', `${i}.ObjectId` or `${i}.Permissions.${flag}` (row i; 0 at Organization scope). */
export type DraftErrors = Record<string, FormError>;

/** The rules checked as the user edits: section 6's, and a row without its network or program. */
export function draftErrors(draft: Draft, organizationId: string): DraftErrors {
  const out: DraftErrors = {};
  const entries = entriesOf(draft, organizationId);
  for (const [i, e] of entries.entries()) if (e.ObjectId === null) out[`${i}.ObjectId`] = formError('required');
  for (const { path, error } of permissionEntryErrors(entries)) out[path === '' ? 'form' : path] ??= error;
  return out;
}

/** The key where a server error's Field shows: `prefix` is how the request names the entries ('body' for a whole body, 'Permissions' in an invitation). */
export function draftKeyOfField(field: string, prefix: string): string | null {
  if (field === prefix) return 'form';
  const path = prefix === 'body' ? field : field.startsWith(`${prefix}.`) ? field.slice(prefix.length + 1) : null;
  return path !== null && /^\d+\.(ObjectId|Permissions\.\w+)$/.test(path) ? path : null;
}

/** A member as the screen holds it: the wire's entries with the flags that were sent (a missing flag means false). */
export type Member = Omit<OrganizationUser, 'Permissions'> & { Permissions: PermissionEntry[] };

export function memberOf(user: OrganizationUser): Member {
  return {
    ...user,
    Permissions: user.Permissions.map((e) => ({ ObjectType: e.ObjectType, ObjectId: e.ObjectId, Permissions: Object.fromEntries(Object.entries(e.Permissions).filter(([, v]) => v !== undefined)) })),
  };
}

// ── One network's or program's flags (its people, src/features/users/ObjectPeople.tsx) ──────────

/** Where an error about a member's entries shows among one object's flags: the flag a path names
 * (`${i}.Permissions.${flag}`, the rules' and the server's), else the whole set ('form'). */
export function objectFlagKey(path: string): PermissionFlagName | 'form' {
  const flag = /^\d+\.Permissions\.(\w+)$/.exec(path)?.[1];
  return flag !== undefined && (FLAGS as string[]).includes(flag) ? (flag as PermissionFlagName) : 'form';
}

/** Section 6's rules on the entries that giving `flags` on the object would make, by objectFlagKey. */
export function objectFlagErrors(entries: readonly PermissionEntry[], object: AccessObject, flags: Flags): Partial<Record<PermissionFlagName | 'form', FormError>> {
  const out: Partial<Record<PermissionFlagName | 'form', FormError>> = {};
  for (const { path, error } of permissionEntryErrors(withFlagsOn(entries, object, flags))) out[objectFlagKey(path)] ??= error;
  return out;
}
