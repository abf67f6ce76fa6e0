// The organization's users (section 2 /{organizationId}/users, section 6, section 7 "Users"):
// who may be removed, and what the users screen lists for a filter, an order and a page.
//
// The list is filtered, sorted and paged on the device, over the whole list the server gave
// (GET /v1/users in full-list pages) or, offline, the copy kept from the last time: the same rows
// in the same order either way.
import { formError, type FormError } from './form-errors.ts';
import { holdsAny, organizationFlags } from './access.ts';
import { permissionEntryErrors, permissionsFor, withObjectEntry, type PermissionEntry, type PermissionFlags } from './permissions.ts';

/** A member who can manage the organization's users: HasManageUserAccess at Organization scope. */
export function managesUsers(entries: readonly PermissionEntry[]): boolean {
  return organizationFlags(entries).HasManageUserAccess;
}

/** One network or program whose people are listed and given access there (section 6: "per user
 * within a network and within a program"). */
export type AccessObject = { kind: 'network'; networkId: string } | { kind: 'program'; programId: string; networkId: string | null };

/** The flags `entries` hold on the object (through its own entry, its network's or the organization's). */
export const flagsOn = (entries: readonly PermissionEntry[], object: AccessObject): PermissionFlags => permissionsFor(entries, object);

/** Whether a member with these entries manages the people of the object: HasManageUserAccess there. */
export function managesUsersOn(entries: readonly PermissionEntry[], object: AccessObject): boolean {
  return flagsOn(entries, object).HasManageUserAccess;
}

/**
 * Whether a member could be given access to the object by its user manager: they hold nothing there
 * yet (an Organization-scope member holds everything already), and an entry for it keeps their
 * entries to one object type (a Network-scope member cannot be given a program, nor a Program-scope
 * one a network: section 6, the server's 400 naming body).
 */
export function mayBeGivenAccess(entries: readonly PermissionEntry[], object: AccessObject): boolean {
  return !holdsAny(flagsOn(entries, object)) && permissionEntryErrors(withFlagsOn(entries, object, { HasContentAccess: true })).length === 0;
}

/** The object's own entry (Network or Program scope, its id), or undefined. */
export const entryFor = (entries: readonly PermissionEntry[], object: AccessObject): PermissionEntry | undefined =>
  entries.find((e) => (object.kind === 'network' ? e.ObjectType === 'Network' && e.ObjectId === object.networkId : e.ObjectType === 'Program' && e.ObjectId === object.programId));

/** The entries with the object's own entry set to `flags` (withObjectEntry: none on takes it out). */
export const withFlagsOn = (entries: readonly PermissionEntry[], object: AccessObject, flags: Partial<PermissionFlags>): PermissionEntry[] =>
  object.kind === 'network' ? withObjectEntry(entries, 'Network', object.networkId, flags) : withObjectEntry(entries, 'Program', object.programId, flags);

/**
 * Why `targetId` may not be removed from the organization by `callerId`, or null. Removing
 * yourself would cut off the hand that removes; removing the last member who manages users would
 * leave an organization nobody can manage (the demo's and a first run's owner hold every flag at
 * Organization scope: they are these members).
 */
export function removalError(callerId: string, target: { Id: string; Permissions: readonly PermissionEntry[] }, members: ReadonlyArray<{ Id: string; Permissions: readonly PermissionEntry[] }>): FormError | null {
  if (target.Id === callerId) return formError('invalid', 'domain_users_remove_self', undefined, 'removeSelf');
  if (managesUsers(target.Permissions) && !members.some((u) => u.Id !== target.Id && managesUsers(u.Permissions))) {
    return formError('invalid', 'domain_users_remove_last_manager', undefined, 'removeLastManager');
  }
  return null;
}

/**
 * Why `target`'s entries may not become `next`, or null: the last member who manages users may not
 * lose HasManageUserAccess at Organization scope (a manager demoting themselves, or two demoting
 * each other at once), for the same reason the last one may not be removed.
 */
export function permissionChangeError(target: { Id: string; Permissions: readonly PermissionEntry[] }, next: readonly PermissionEntry[], members: ReadonlyArray<{ Id: string; Permissions: readonly PermissionEntry[] }>): FormError | null {
  if (managesUsers(target.Permissions) && !managesUsers(next) && !members.some((u) => u.Id !== target.Id && managesUsers(u.Permissions))) {
    return formError('invalid', 'domain_users_keep_last_manager', undefined, 'keepLastManager');
  }
  return null;
}

/** Rows one bulk import (POST /internal/users/import/bulk) may hold: a department or a station's
 * staff in one file, each row a mail sent in the one request that answers the report. Also the
 * importer's invitation limit per hour (sync-server/accounts/bulk-import.ts): one full file. */
export const USER_IMPORT_MAX_ROWS = 500;

// ── The list ────────────────────────────────────────────────────────────────────────────────

export const USER_SORTS = ['name', 'email', 'scope'] as const;
export type UserSort = (typeof USER_SORTS)[number];
/** Users per page of the screen's list. */
export const USERS_PAGE_SIZE = 25;

export type ListedUser = { Id: string; Name: string; FirstName: string; Email: string; Permissions: readonly PermissionEntry[] };

export type UserListQuery = { filter: string; sort: UserSort; page: number };

export function readUserSort(value: string | null): UserSort {
  return (USER_SORTS as readonly string[]).includes(value ?? '') ? (value as UserSort) : 'name';
}

/** The user's scope: the object type of their entries, or null (none). */
export function scopeOf(entries: ReadonlyArray<Pick<PermissionEntry, 'ObjectType'>>): PermissionEntry['ObjectType'] {
  return entries.find((e) => e.ObjectType !== null)?.ObjectType ?? null;
}

const SCOPE_ORDER = { Organization: 0, Network: 1, Program: 2, none: 3 } as const;
const fold = (s: string) => s.normalize('NFD').replace(/\p{Diacritic}/gu, '').toLowerCase();

/** Each word of `filter` must appear in the user's name, first name or e-mail (case and accents aside). */
export function matchesUserFilter(user: ListedUser, filter: string): boolean {
  const words = fold(filter).split(/\s+/).filter(Boolean);
  const text = fold(`${user.FirstName} ${user.Name} ${user.Email}`);
  return words.every((w) => text.includes(w));
}

function compare(a: ListedUser, b: ListedUser, sort: UserSort): number {
  const byName = a.Name.localeCompare(b.Name) || a.Email.localeCompare(b.Email);
  if (sort === 'email') return a.Email.localeCompare(b.Email) || byName;
  if (sort === 'scope') return SCOPE_ORDER[scopeOf(a.Permissions) ?? 'none'] - SCOPE_ORDER[scopeOf(b.Permissions) ?? 'none'] || byName;
  return byName;
}

export type UserListPage<U> = { items: U[]; total: number; page: number; pageCount: number };

/** The users a query shows: filtered, sorted, and the page asked for (clamped to the last one; paging starts at 1). */
export function userListPage<U extends ListedUser>(users: readonly U[], query: UserListQuery, pageSize = USERS_PAGE_SIZE): UserListPage<U> {
  const matching = users.filter((u) => matchesUserFilter(u, query.filter)).sort((a, b) => compare(a, b, query.sort));
  const pageCount = Math.max(1, Math.ceil(matching.length / pageSize));
  const page = Math.min(Math.max(1, Math.trunc(query.page) || 1), pageCount);
  return { items: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pageCount };
}
