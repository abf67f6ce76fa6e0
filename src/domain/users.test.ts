import { describe, expect, it } from 'vitest';
import { permissionEntryErrors, validatePermissionEntries, withObjectEntry, type PermissionEntry } from './permissions.ts';
import { managesUsers, managesUsersOn, matchesUserFilter, mayBeGivenAccess, permissionChangeError, readUserSort, removalError, scopeOf, userListPage, type ListedUser } from './users.ts';
import { formatFormError } from './messages.ts';

const org = (p: PermissionEntry['Permissions']): PermissionEntry => ({ ObjectType: 'Organization', ObjectId: 'org-1', Permissions: p });
const net = (id: string, p: PermissionEntry['Permissions']): PermissionEntry => ({ ObjectType: 'Network', ObjectId: id, Permissions: p });
const prog = (id: string, p: PermissionEntry['Permissions']): PermissionEntry => ({ ObjectType: 'Program', ObjectId: id, Permissions: p });

describe('section 6 rules at the field', () => {
  it('organization-level permissions only at Organization scope: the flag is named', () => {
    const errors = permissionEntryErrors([net('n1', { HasContentAccess: true }), net('n2', { HasManageOrganizationSettingsAccess: true })]);
    expect(errors.map((e) => e.path)).toEqual(['1.Permissions.HasManageOrganizationSettingsAccess']);
    expect(formatFormError(errors[0]!.error, 'en-US')).toBe('Organization settings access can be given only at Organization scope');
    expect(permissionEntryErrors([prog('p1', { HasManageOrganizationSettingsAccess: true })])).toHaveLength(1);
    expect(permissionEntryErrors([org({ HasManageOrganizationSettingsAccess: true })])).toEqual([]);
    // The other six mean something per network and program.
    expect(permissionEntryErrors([net('n1', { HasManageUserAccess: true, HasCreateProgramAccess: true, HasAuditAccess: true, HasManageSettingsAccess: true, HasAnalyticsAccess: true, HasContentAccess: true })])).toEqual([]);
  });

  it('duplicate object ids are an error at the repeated ObjectId', () => {
    const errors = permissionEntryErrors([prog('p1', {}), prog('p2', {}), prog('p1', { HasContentAccess: true })]);
    expect(errors.map((e) => [e.path, e.error.reason])).toEqual([['2.ObjectId', 'duplicateObjectId']]);
    expect(formatFormError(errors[0]!.error, 'en-US')).toBe('Permissions are given twice for "p1"');
  });

  it('one object type per user: the whole list', () => {
    expect(permissionEntryErrors([org({}), prog('p1', {})]).map((e) => [e.path, e.error.reason])).toEqual([['', 'mixedObjectTypes']]);
    expect(validatePermissionEntries([org({}), prog('p1', {})])?.reason).toBe('mixedObjectTypes');
  });
});

const user = (Id: string, Name: string, Email: string, Permissions: PermissionEntry[] = []): ListedUser => ({ Id, Name, FirstName: Name.split(' ')[0]!, Email, Permissions });

describe('changing the last manager’s permissions', () => {
  const owner = user('u1', 'Dana Demo', 'demo@example.com', [org({ HasManageUserAccess: true })]);
  const producer = user('u2', 'Pat Producer', 'producer@example.com', [prog('p1', { HasContentAccess: true })]);
  it('the last manager keeps Manage users at Organization scope; a network entry does not count', () => {
    expect(formatFormError(permissionChangeError(owner, [org({ HasContentAccess: true })], [owner, producer])!, 'en-US')).toBe(
      'This is the last user who can manage users: they keep Manage users at Organization scope until another user has it',
    );
    expect(permissionChangeError(owner, [net('n1', { HasManageUserAccess: true })], [owner, producer])).not.toBeNull();
  });
  it('another manager, keeping the flag, or a member who never managed: allowed', () => {
    const second = user('u4', 'Alex Admin', 'admin@example.com', [org({ HasManageUserAccess: true })]);
    expect(permissionChangeError(owner, [org({ HasContentAccess: true })], [owner, second])).toBeNull();
    expect(permissionChangeError(owner, [org({ HasManageUserAccess: true, HasContentAccess: true })], [owner, producer])).toBeNull();
    expect(permissionChangeError(producer, [], [owner, producer])).toBeNull();
  });
});

describe('removing a member', () => {
  const owner = user('u1', 'Dana Demo', 'demo@example.com', [org({ HasManageUserAccess: true })]);
  const producer = user('u2', 'Pat Producer', 'producer@example.com', [prog('p1', { HasContentAccess: true })]);
  const networkManager = user('u3', 'Nell Network', 'nell@example.com', [net('n1', { HasManageUserAccess: true })]);

  it('you cannot remove yourself', () => {
    expect(formatFormError(removalError('u1', owner, [owner, producer])!, 'en-US')).toBe('You cannot remove yourself from the organization');
  });
  it('the last member who manages users (at Organization scope) stays', () => {
    expect(formatFormError(removalError('u9', owner, [owner, producer, networkManager])!, 'en-US')).toBe(
      'This is the last user who can manage users: give another user that access first',
    );
    const second = user('u4', 'Alex Admin', 'admin@example.com', [org({ HasManageUserAccess: true, HasContentAccess: true })]);
    expect(removalError('u4', owner, [owner, second])).toBeNull();
    expect(removalError('u1', producer, [owner, producer])).toBeNull();
    expect(managesUsers(networkManager.Permissions)).toBe(false);
  });
});

describe('the users list', () => {
  const users = [
    user('a', 'Zoë Zed', 'zoe@example.com', [prog('p1', {})]),
    user('b', 'Ari Analyst', 'analyst@example.com', [org({ HasAnalyticsAccess: true })]),
    user('c', 'Nico Newbie', 'newbie@example.com'),
    user('d', 'Bea Brown', 'a.brown@example.com', [net('n1', {})]),
  ];
  it('filters by name or e-mail, each word, case and accents aside', () => {
    expect(users.filter((u) => matchesUserFilter(u, 'zoe')).map((u) => u.Id)).toEqual(['a']);
    expect(users.filter((u) => matchesUserFilter(u, 'ANALYST@')).map((u) => u.Id)).toEqual(['b']);
    expect(users.filter((u) => matchesUserFilter(u, 'example nico')).map((u) => u.Id)).toEqual(['c']);
    expect(users.filter((u) => matchesUserFilter(u, '  ')).length).toBe(4);
  });
  it('sorts by name, e-mail or scope (Organization, Network, Program, none)', () => {
    expect(userListPage(users, { filter: '', sort: 'name', page: 1 }).items.map((u) => u.Id)).toEqual(['b', 'd', 'c', 'a']);
    expect(userListPage(users, { filter: '', sort: 'email', page: 1 }).items.map((u) => u.Id)).toEqual(['d', 'b', 'c', 'a']);
    expect(userListPage(users, { filter: '', sort: 'scope', page: 1 }).items.map((u) => u.Id)).toEqual(['b', 'd', 'a', 'c']);
    expect(readUserSort('bogus')).toBe('name');
    expect(scopeOf([])).toBeNull();
  });
  it('pages start at 1 and a page past the end shows the last one', () => {
    const page = userListPage(users, { filter: '', sort: 'name', page: 9 }, 3);
    expect(page).toMatchObject({ page: 2, pageCount: 2, total: 4 });
    expect(page.items.map((u) => u.Id)).toEqual(['a']);
    expect(userListPage([], { filter: '', sort: 'name', page: 0 })).toEqual({ items: [], total: 0, page: 1, pageCount: 1 });
  });
});

describe('permissions per user within a network and within a program', () => {
  it('replaces the entry of that object in place, adds it where missing, and takes it out when no flag is on', () => {
    const entries = [prog('p1', { HasContentAccess: true }), prog('p2', { HasAuditAccess: true })];
    expect(withObjectEntry(entries, 'Program', 'p1', { HasAnalyticsAccess: true, HasContentAccess: false })).toEqual([prog('p1', { HasAnalyticsAccess: true }), entries[1]]);
    expect(withObjectEntry(entries, 'Program', 'p3', { HasContentAccess: true })).toEqual([...entries, prog('p3', { HasContentAccess: true })]);
    expect(withObjectEntry(entries, 'Program', 'p2', {})).toEqual([entries[0]]);
    // Another scope's entries stay: the rules then refuse the mixed list.
    expect(validatePermissionEntries(withObjectEntry([org({})], 'Network', 'n1', { HasContentAccess: true }))?.reason).toBe('mixedObjectTypes');
  });
});

describe('who may be given access to one network or program', () => {
  const morning = { kind: 'program', programId: 'p1', networkId: 'n1' } as const;
  const news = { kind: 'network', networkId: 'n1' } as const;

  it('a member with no entries, or entries of the same type elsewhere, may be', () => {
    expect(mayBeGivenAccess([], morning)).toBe(true);
    expect(mayBeGivenAccess([prog('p2', { HasContentAccess: true })], morning)).toBe(true);
    expect(mayBeGivenAccess([net('n2', { HasContentAccess: true })], news)).toBe(true);
  });

  it('one who holds a flag there, at Organization scope, or at another scope may not be', () => {
    expect(mayBeGivenAccess([prog('p1', { HasAnalyticsAccess: true })], morning)).toBe(false);
    // Through the program's network.
    expect(mayBeGivenAccess([net('n1', { HasContentAccess: true })], morning)).toBe(false);
    expect(mayBeGivenAccess([org({})], morning)).toBe(false);
    expect(mayBeGivenAccess([org({ HasContentAccess: true })], news)).toBe(false);
    // A Program entry beside Network ones would be mixed (the server's 400).
    expect(mayBeGivenAccess([net('n2', { HasContentAccess: true })], morning)).toBe(false);
    expect(mayBeGivenAccess([prog('p9', { HasContentAccess: true })], news)).toBe(false);
  });

  it('managing the people of an object is Manage users there, from any scope covering it', () => {
    expect(managesUsersOn([org({ HasManageUserAccess: true })], morning)).toBe(true);
    expect(managesUsersOn([net('n1', { HasManageUserAccess: true })], morning)).toBe(true);
    expect(managesUsersOn([prog('p1', { HasManageUserAccess: true })], morning)).toBe(true);
    expect(managesUsersOn([prog('p1', { HasContentAccess: true })], morning)).toBe(false);
    expect(managesUsersOn([prog('p1', { HasManageUserAccess: true })], news)).toBe(false);
  });
});
