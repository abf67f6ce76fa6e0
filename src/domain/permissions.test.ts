import { describe, expect, it } from 'vitest';
import {
  landingOrganizationId,
  adminMenu,
  allPermissions,
  anyPermissions,
  canSeeAnyContent,
  contentView,
  noPermissions,
  organizationMenuItems,
  permissionsFor,
  searchableContentTypes,
  searchTypeFilter,
  showsAccountSettings,
  showsEnterprises,
  showsGrantAccess,
  userMenus,
  validatePermissionEntries,
  type PermissionEntry,
  type UserFacts,
} from './permissions.ts';
import { formatFormError } from './messages.ts';

const org = (p: PermissionEntry['Permissions']): PermissionEntry => ({ ObjectType: 'Organization', ObjectId: 'org-1', Permissions: p });
const net = (id: string, p: PermissionEntry['Permissions']): PermissionEntry => ({ ObjectType: 'Network', ObjectId: id, Permissions: p });
const prog = (id: string, p: PermissionEntry['Permissions']): PermissionEntry => ({ ObjectType: 'Program', ObjectId: id, Permissions: p });

describe('Permission scope', () => {
  it('permissions attach to one object type per user', () => {
    const error = validatePermissionEntries([org({}), net('n1', {})]);
    expect(error?.type).toBe('invalid');
    expect(formatFormError(error!, 'en-US')).toBe('Permissions of one user must all use the same object type');
    expect(validatePermissionEntries([net('n1', {}), net('n2', {})])).toBeNull();
    expect(validatePermissionEntries([])).toBeNull();
  });

  it('duplicate object ids are an error', () => {
    const error = validatePermissionEntries([prog('p1', {}), prog('p1', { HasContentAccess: true })]);
    expect(error).toMatchObject({ reason: 'duplicateObjectId', params: { objectId: 'p1' } });
    expect(validatePermissionEntries([{ ObjectType: null, ObjectId: null, Permissions: {} }, { ObjectType: null, ObjectId: null, Permissions: {} }])).toBeNull();
  });

  it('all seven flags of section 6 held give every organization-level right', () => {
    expect(Object.keys(allPermissions()).sort()).toEqual([
      'HasAnalyticsAccess', 'HasAuditAccess', 'HasContentAccess', 'HasCreateProgramAccess',
      'HasManageOrganizationSettingsAccess', 'HasManageSettingsAccess', 'HasManageUserAccess',
    ]);
    expect(permissionsFor([org(allPermissions())], { kind: 'organization' })).toEqual(allPermissions());
  });

  it('a missing flag means false', () => {
    expect(permissionsFor([org({ HasContentAccess: true })], { kind: 'organization' })).toEqual({ ...noPermissions(), HasContentAccess: true });
  });

  it('Organization scope applies everywhere', () => {
    const entries = [org({ HasManageUserAccess: true })];
    for (const target of [
      { kind: 'organization' },
      { kind: 'network', networkId: 'n1' },
      { kind: 'program', programId: 'p1', networkId: null },
    ] as const) {
      expect(permissionsFor(entries, target).HasManageUserAccess).toBe(true);
    }
  });

  it('organization-level permissions apply only for Organization scope', () => {
    expect(permissionsFor([net('n1', { HasManageUserAccess: true })], { kind: 'organization' }).HasManageUserAccess).toBe(false);
    expect(permissionsFor([prog('p1', { HasContentAccess: true })], { kind: 'organization' }).HasContentAccess).toBe(false);
  });

  it('Network scope uses the network id; no network gives no permissions', () => {
    const entries = [net('n1', { HasContentAccess: true })];
    expect(permissionsFor(entries, { kind: 'network', networkId: 'n1' }).HasContentAccess).toBe(true);
    expect(permissionsFor(entries, { kind: 'network', networkId: 'n2' }).HasContentAccess).toBe(false);
    expect(permissionsFor(entries, { kind: 'program', programId: 'p1', networkId: 'n1' }).HasContentAccess).toBe(true);
    expect(permissionsFor(entries, { kind: 'program', programId: 'p1', networkId: 'n2' }).HasContentAccess).toBe(false);
    expect(permissionsFor(entries, { kind: 'program', programId: 'p1', networkId: null }).HasContentAccess).toBe(false);
  });

  it('Program scope uses the program id', () => {
    const entries = [prog('p1', { HasAnalyticsAccess: true })];
    expect(permissionsFor(entries, { kind: 'program', programId: 'p1', networkId: null }).HasAnalyticsAccess).toBe(true);
    expect(permissionsFor(entries, { kind: 'program', programId: 'p2', networkId: null }).HasAnalyticsAccess).toBe(false);
    expect(permissionsFor(entries, { kind: 'network', networkId: 'p1' }).HasAnalyticsAccess).toBe(false);
  });

  it('an entry with no object type grants nothing', () => {
    const entries: PermissionEntry[] = [{ ObjectType: null, ObjectId: null, Permissions: { HasContentAccess: true } }];
    expect(permissionsFor(entries, { kind: 'organization' }).HasContentAccess).toBe(false);
    expect(anyPermissions(entries).HasContentAccess).toBe(false);
  });
});

describe('Content view', () => {
  const all = { ...noPermissions(), HasContentAccess: true, HasAnalyticsAccess: true, HasAuditAccess: true, HasManageSettingsAccess: true };
  it('analytics needs content access plus the playlist-download-analytics feature', () => {
    expect(contentView(all, { playlistDownloadAnalytics: true }).analytics).toBe(true);
    expect(contentView(all, { playlistDownloadAnalytics: false }).analytics).toBe(false);
    expect(contentView({ ...all, HasContentAccess: false }, { playlistDownloadAnalytics: true })).toEqual({
      content: false,
      analytics: false,
      audit: false,
      manageSettings: false,
    });
  });
  it('audit and manage settings need content access', () => {
    expect(contentView(all, { playlistDownloadAnalytics: false })).toMatchObject({ audit: true, manageSettings: true });
  });
});

describe('Organization menu', () => {
  const base = { belongsToMultipleOrganizations: false, isDemoOrganization: false };
  it.each([
    [[org({ HasAnalyticsAccess: true })], ['programs', 'analytics', 'search']],
    [[prog('p1', { HasAnalyticsAccess: true })], ['programs', 'analytics', 'search']],
    [[org({ HasContentAccess: true })], ['programs', 'reports', 'search']],
    [[org({ HasManageUserAccess: true })], ['programs', 'users']],
    [[org({ HasAuditAccess: true })], ['programs', 'settings']],
    [[org({ HasManageOrganizationSettingsAccess: true })], ['programs', 'settings']],
    [[net('n1', { HasManageUserAccess: true, HasContentAccess: true })], ['programs', 'reports', 'search']],
    [[org({ HasCreateProgramAccess: true })], []],
    [[], []],
  ] as const)('%j shows %j', (entries, items) => expect(organizationMenuItems({ ...base, entries: [...entries] })).toEqual(items));

  it('Analytics needs the plan’s playlist-download-analytics feature; a session that does not say the features shows what the flags allow', () => {
    const entries = [org({ HasAnalyticsAccess: true, HasContentAccess: true })];
    expect(organizationMenuItems({ ...base, entries, features: ['automatic-transcription', 'apple-premium'] })).toEqual(['programs', 'reports', 'search']);
    expect(organizationMenuItems({ ...base, entries, features: ['playlist-download-analytics'] })).toEqual(['programs', 'analytics', 'reports', 'search']);
    expect(organizationMenuItems({ ...base, entries })).toEqual(['programs', 'analytics', 'reports', 'search']);
  });

  it("'Switch organization' shows when the user belongs to several organizations; demo organizations offer snapshots", () => {
    expect(organizationMenuItems({ entries: [], belongsToMultipleOrganizations: true, isDemoOrganization: true })).toEqual([
      'saveSnapshot',
      'restoreSnapshot',
      'switchOrganization',
    ]);
  });
});

describe("Where '/' lands: the organization list is reached through 'Switch organization'", () => {
  const one = { Id: 'org-1' };
  it('a member of one organization goes to its home', () => {
    expect(landingOrganizationId({ UserBelongsToMultipleOrganizations: false, Organizations: [one] })).toBe('org-1');
  });
  it.each([
    ['a member of several organizations', { UserBelongsToMultipleOrganizations: true, Organizations: [one, { Id: 'org-2' }] }],
    ['a member of several, of whom the session lists one', { UserBelongsToMultipleOrganizations: true, Organizations: [one] }],
    ['a member of none', { UserBelongsToMultipleOrganizations: false, Organizations: [] }],
  ])('%s sees the list', (_, session) => {
    expect(landingOrganizationId(session)).toBeNull();
  });
});

describe('Admin, Billing & features, Enterprises, Account settings', () => {
  const user = (u: Partial<UserFacts>): UserFacts => ({ isAdmin: false, isAdminOrSupport: false, hasResellerAccess: false, sessionType: 'activated', ...u });
  it('admin or support users see the Admin section; Billing & features is admins only', () => {
    expect(adminMenu(user({}))).toEqual([]);
    expect(adminMenu(user({ isAdminOrSupport: true }))).toEqual(['adminOrganizationSettings', 'adminSettings', 'objectSearch', 'supportInbox']);
    expect(adminMenu(user({ isAdmin: true, isAdminOrSupport: true }))).toContain('billingFeatures');
  });
  it('Enterprises shows to admins and to users with reseller access', () => {
    expect(showsEnterprises(user({ isAdmin: true }))).toBe(true);
    expect(showsEnterprises(user({ hasResellerAccess: true }))).toBe(true);
    expect(showsEnterprises(user({ isAdminOrSupport: true }))).toBe(false);
  });
  it('Account settings shows to activated users only', () => {
    expect(showsAccountSettings({ sessionType: 'activated' })).toBe(true);
    expect(showsAccountSettings({ sessionType: 'unactivated' })).toBe(false);
  });
  it('loggedOut shows no user menus; unactivated and activated show organization, user and help menus', () => {
    expect(userMenus('loggedOut')).toEqual([]);
    expect(userMenus('unactivated')).toEqual(['organization', 'user', 'help']);
  });
  it('Grant access is for admin or support users only', () => {
    expect(showsGrantAccess({ isAdminOrSupport: true })).toBe(true);
    expect(showsGrantAccess({ isAdminOrSupport: false })).toBe(false);
  });
});

describe('Content search types', () => {
  it('content access by object id makes clips, programs and playlists searchable; recordings when the organization type allows it', () => {
    const entries = [prog('p1', { HasContentAccess: true })];
    expect(canSeeAnyContent(entries)).toBe(true);
    expect(searchableContentTypes(entries, { allowsRecordings: false })).toEqual(['clip', 'program', 'playlist']);
    expect(searchableContentTypes(entries, { allowsRecordings: true })).toEqual(['clip', 'program', 'playlist', 'recording']);
  });
  it('without content access only programs are available', () => {
    expect(searchableContentTypes([org({ HasAnalyticsAccess: true })], { allowsRecordings: true })).toEqual(['program']);
  });
  it("the type filter list always starts with 'all'", () => {
    expect(searchTypeFilter(['program'])).toEqual(['all', 'program']);
  });
});
