// Permission scopes and what they show (specification section 6).
//
// A user's entries all share one object type: Organization (rights everywhere, and the only
// scope that grants organization-level rights), Network (the programs of that network) or
// Program (that program). An entry with no object type grants nothing.
import { formError, type DomainMessageKey, type FormError } from './form-errors.ts';
import type { Feature } from './billing.ts';

export const PermissionFlag = {
  HasAnalyticsAccess: 'HasAnalyticsAccess',
  HasAuditAccess: 'HasAuditAccess',
  HasContentAccess: 'HasContentAccess',
  HasCreateProgramAccess: 'HasCreateProgramAccess',
  HasManageOrganizationSettingsAccess: 'HasManageOrganizationSettingsAccess',
  HasManageSettingsAccess: 'HasManageSettingsAccess',
  HasManageUserAccess: 'HasManageUserAccess',
} as const;
export type PermissionFlagName = keyof typeof PermissionFlag;
export type PermissionFlags = Record<PermissionFlagName, boolean>;
export type PermissionObjectType = 'Organization' | 'Network' | 'Program';
export type PermissionEntry = {
  ObjectType: PermissionObjectType | null;
  ObjectId: string | null;
  /** A missing flag means false. */
  Permissions: Partial<PermissionFlags>;
};

export type PermissionTarget =
  | { kind: 'organization' }
  | { kind: 'network'; networkId: string }
  | { kind: 'program'; programId: string; networkId: string | null };

const FLAG_NAMES = Object.keys(PermissionFlag) as PermissionFlagName[];

const NONE = Object.freeze(Object.fromEntries(FLAG_NAMES.map((f) => [f, false])) as PermissionFlags);

/** A fresh set of flags, all false (a copy: callers set flags on it). The server asks for one per
 * rule check, several per mutation of a push, so it copies a frozen template rather than building
 * an object from entries each time. */
export function noPermissions(): PermissionFlags {
  return { ...NONE };
}

/** Every flag held: what an Organization-scope owner of the organization has. */
export function allPermissions(): PermissionFlags {
  return Object.fromEntries(FLAG_NAMES.map((f) => [f, true])) as PermissionFlags;
}

function union(entries: readonly PermissionEntry[]): PermissionFlags {
  const flags = noPermissions();
  for (const entry of entries) for (const f of FLAG_NAMES) if (entry.Permissions[f] === true) flags[f] = true;
  return flags;
}

/**
 * Flags that only ever mean something at Organization scope ("organization-level permissions apply
 * only for Organization scope"): managing the organization's settings has no network or program
 * to apply to. The other six read per network and program too (a network's users, audit events
 * and programs made in it, a program's settings), so they may be given there.
 */
export const ORGANIZATION_ONLY_FLAGS: readonly PermissionFlagName[] = ['HasManageOrganizationSettingsAccess'];

/** Where an entry error belongs: '' the whole list, else `${index}.ObjectId` or
 * `${index}.Permissions.${flag}`, the path of the offending value in the entries. */
export type PermissionEntryError = { path: string; error: FormError };

/**
 * Section 6's rules for one user's entries, each error at its value: one object type per user
 * (the list); an object id may appear once (the repeat's ObjectId); an organization-only flag
 * only at Organization scope (the flag). The server answers them as 400s naming the same paths,
 * the permission editor shows them at the same fields.
 */
export function permissionEntryErrors(entries: readonly PermissionEntry[]): PermissionEntryError[] {
  const types = new Set(entries.map((e) => e.ObjectType));
  if (types.size > 1) return [{ path: '', error: formError('invalid', 'domain_permissions_one_object_type', undefined, 'mixedObjectTypes') }];
  const errors: PermissionEntryError[] = [];
  const seen = new Set<string>();
  for (const [i, { ObjectType, ObjectId, Permissions }] of entries.entries()) {
    if (ObjectId !== null) {
      if (seen.has(ObjectId)) errors.push({ path: `${i}.ObjectId`, error: formError('invalid', 'domain_permissions_duplicate_object', { objectId: ObjectId }, 'duplicateObjectId') });
      seen.add(ObjectId);
    }
    if (ObjectType === 'Organization') continue;
    for (const flag of ORGANIZATION_ONLY_FLAGS) {
      if (Permissions[flag] === true) errors.push({ path: `${i}.Permissions.${flag}`, error: formError('invalid', 'domain_permissions_organization_only', undefined, 'organizationScopeOnly') });
    }
  }
  return errors;
}

/** The first of permissionEntryErrors, or null. */
export function validatePermissionEntries(entries: readonly PermissionEntry[]): FormError | null {
  return permissionEntryErrors(entries)[0]?.error ?? null;
}

/**
 * A user's entries with their entry for one network or program set to `flags` (section 6 "per user
 * within a network and within a program"): replaced where it is, added where it is not, and taken
 * out when no flag is left on. The other entries stay as they are; the result is then held to the
 * rules like any list (a Program entry beside Network ones is still mixed).
 */
export function withObjectEntry(entries: readonly PermissionEntry[], objectType: 'Network' | 'Program', objectId: string, flags: Partial<PermissionFlags>): PermissionEntry[] {
  const on = Object.fromEntries(Object.entries(flags).filter(([, v]) => v === true)) as Partial<PermissionFlags>;
  const isIt = (e: PermissionEntry) => e.ObjectType === objectType && e.ObjectId === objectId;
  if (Object.keys(on).length === 0) return entries.filter((e) => !isIt(e));
  const entry: PermissionEntry = { ObjectType: objectType, ObjectId: objectId, Permissions: on };
  return entries.some(isIt) ? entries.map((e) => (isIt(e) ? entry : e)) : [...entries, entry];
}

function applies(entry: PermissionEntry, target: PermissionTarget): boolean {
  switch (entry.ObjectType) {
    case 'Organization':
      return true;
    case 'Network':
      if (target.kind === 'network') return entry.ObjectId === target.networkId;
      // A program without a network gets nothing from network scope.
      return target.kind === 'program' && target.networkId !== null && entry.ObjectId === target.networkId;
    case 'Program':
      return target.kind === 'program' && entry.ObjectId === target.programId;
    default:
      return false;
  }
}

export function permissionsFor(entries: readonly PermissionEntry[], target: PermissionTarget): PermissionFlags {
  return union(entries.filter((e) => applies(e, target)));
}

/** Flags held anywhere in the organization, through any scope. */
export function anyPermissions(entries: readonly PermissionEntry[]): PermissionFlags {
  return union(entries.filter((e) => e.ObjectType !== null));
}

/** "If any permission by object id grants content access". */
export function canSeeAnyContent(entries: readonly PermissionEntry[]): boolean {
  return anyPermissions(entries).HasContentAccess;
}

// ── Content view ────────────────────────────────────────────────────────────────────────────

export type ContentView = { content: boolean; analytics: boolean; audit: boolean; manageSettings: boolean };

/** Analytics needs content access plus the playlist-download-analytics feature; audit and settings need content access. */
export function contentView(flags: PermissionFlags, features: { playlistDownloadAnalytics: boolean }): ContentView {
  const content = flags.HasContentAccess;
  return {
    content,
    analytics: content && flags.HasAnalyticsAccess && features.playlistDownloadAnalytics,
    audit: content && flags.HasAuditAccess,
    manageSettings: content && flags.HasManageSettingsAccess,
  };
}

// ── Menus ───────────────────────────────────────────────────────────────────────────────────

export const OrganizationMenuItem = {
  programs: 'programs',
  analytics: 'analytics',
  reports: 'reports',
  users: 'users',
  settings: 'settings',
  search: 'search',
  switchOrganization: 'switchOrganization',
  saveSnapshot: 'saveSnapshot',
  restoreSnapshot: 'restoreSnapshot',
} as const;
export type OrganizationMenuItem = (typeof OrganizationMenuItem)[keyof typeof OrganizationMenuItem];

export type OrganizationMenuInput = {
  entries: readonly PermissionEntry[];
  belongsToMultipleOrganizations: boolean;
  isDemoOrganization: boolean;
  /** The organization's plan's features (src/domain/billing.ts featuresOf); absent: not known (a
   * session kept from before they were sent), when the menu shows what the flags allow and the
   * server still refuses what the plan lacks. */
  features?: readonly Feature[] | undefined;
};

/**
 * The organization menu, in display order. Users and settings rest on organization-level rights
 * (Organization scope only); analytics, reports and search on a right held in any scope, since
 * a network or program user reads those pages for their own content. Search rests on the rights
 * that search serves: content access (clips, playlists, recordings) and analytics access, whose
 * holders look programs up by name (section 6: "without content access only programs").
 */
export function organizationMenuItems(input: OrganizationMenuInput): OrganizationMenuItem[] {
  const any = anyPermissions(input.entries);
  const org = permissionsFor(input.entries, { kind: 'organization' });
  const shown: Record<Exclude<OrganizationMenuItem, 'programs'>, boolean> = {
    // Section 6: "Analytics needs content access plus the playlist-download-analytics feature".
    analytics: any.HasAnalyticsAccess && (input.features === undefined || input.features.includes('playlist-download-analytics')),
    reports: any.HasContentAccess,
    users: org.HasManageUserAccess,
    settings: org.HasAuditAccess || org.HasManageOrganizationSettingsAccess,
    search: any.HasContentAccess || any.HasAnalyticsAccess,
    switchOrganization: input.belongsToMultipleOrganizations,
    saveSnapshot: input.isDemoOrganization,
    restoreSnapshot: input.isDemoOrganization,
  };
  const programs = shown.analytics || shown.reports || shown.users || shown.settings || shown.search;
  const items: OrganizationMenuItem[] = programs ? ['programs'] : [];
  for (const item of ['analytics', 'reports', 'users', 'settings', 'search', 'saveSnapshot', 'restoreSnapshot', 'switchOrganization'] as const) {
    if (shown[item]) items.push(item);
  }
  return items;
}

/**
 * The organization '/' opens for a signed-in user, or null for the list. Section 2 has the list
 * 'reached through "Switch organization"', an item only members of several organizations get
 * (organizationMenuItems): a member of one organization goes straight to its home, at login and
 * whenever the installed app starts, instead of to a list of one card.
 */
export function landingOrganizationId(session: { UserBelongsToMultipleOrganizations: boolean; Organizations: ReadonlyArray<{ Id: string }> }): string | null {
  const [only, ...others] = session.Organizations;
  return only && others.length === 0 && !session.UserBelongsToMultipleOrganizations ? only.Id : null;
}

export type SessionType = 'loggedOut' | 'unactivated' | 'activated';
export type UserFacts = { isAdmin: boolean; isAdminOrSupport: boolean; hasResellerAccess: boolean; sessionType: SessionType };

export const AdminMenuItem = {
  adminOrganizationSettings: 'adminOrganizationSettings',
  adminSettings: 'adminSettings',
  objectSearch: 'objectSearch',
  billingFeatures: 'billingFeatures',
  /** Not one of section 6's links: the studio's own inbox of contact enquiries (issue 33). */
  supportInbox: 'supportInbox',
} as const;
export type AdminMenuItem = (typeof AdminMenuItem)[keyof typeof AdminMenuItem];

/** The Admin section: admin or support users; 'Billing & features' is admins only; the support
 * inbox for both. */
export function adminMenu(user: UserFacts): AdminMenuItem[] {
  if (!user.isAdminOrSupport) return [];
  const items: AdminMenuItem[] = ['adminOrganizationSettings', 'adminSettings', 'objectSearch'];
  if (user.isAdmin) items.push('billingFeatures');
  items.push('supportInbox');
  return items;
}

export function showsEnterprises(user: UserFacts): boolean {
  return user.isAdmin || user.hasResellerAccess;
}

export function showsAccountSettings(user: Pick<UserFacts, 'sessionType'>): boolean {
  return user.sessionType === 'activated';
}

/** loggedOut shows no user menus; unactivated and activated show organization, user and help. */
export function userMenus(sessionType: SessionType): Array<'organization' | 'user' | 'help'> {
  return sessionType === 'loggedOut' ? [] : ['organization', 'user', 'help'];
}

export function showsGrantAccess(user: Pick<UserFacts, 'isAdminOrSupport'>): boolean {
  return user.isAdminOrSupport;
}

// ── Search ──────────────────────────────────────────────────────────────────────────────────

export type SearchableType = 'clip' | 'program' | 'playlist' | 'recording';

export function searchableContentTypes(entries: readonly PermissionEntry[], organization: { allowsRecordings: boolean }): SearchableType[] {
  if (!canSeeAnyContent(entries)) return ['program'];
  return organization.allowsRecordings ? ['clip', 'program', 'playlist', 'recording'] : ['clip', 'program', 'playlist'];
}

/** The type filter list always starts with 'all'. */
export function searchTypeFilter(types: readonly SearchableType[]): Array<'all' | SearchableType> {
  return ['all', ...types];
}

export const SEARCH_FIELDS = ['Annotations', 'Description', 'Title', 'Transcript'] as const;
export const SEARCH_SORTS = ['DateNewest', 'DateOldest', 'Relevance'] as const;

// ── Labels ──────────────────────────────────────────────────────────────────────────────────

export const ORGANIZATION_MENU_LABEL: Record<OrganizationMenuItem, DomainMessageKey> = {
  programs: 'domain_menu_organization_programs',
  analytics: 'domain_menu_organization_analytics',
  reports: 'domain_menu_organization_reports',
  users: 'domain_menu_organization_users',
  settings: 'domain_menu_organization_settings',
  search: 'domain_menu_organization_search',
  switchOrganization: 'domain_menu_switch_organization',
  saveSnapshot: 'domain_menu_save_snapshot',
  restoreSnapshot: 'domain_menu_restore_snapshot',
};

export const ADMIN_MENU_LABEL: Record<AdminMenuItem, DomainMessageKey> = {
  adminOrganizationSettings: 'domain_menu_admin_organization_settings',
  adminSettings: 'domain_menu_admin_settings',
  objectSearch: 'domain_menu_object_search',
  billingFeatures: 'domain_menu_billing_features',
  supportInbox: 'domain_menu_support_inbox',
};

export const ENTERPRISES_LABEL: DomainMessageKey = 'domain_menu_enterprises';
export const ACCOUNT_SETTINGS_LABEL: DomainMessageKey = 'domain_menu_account_settings';
