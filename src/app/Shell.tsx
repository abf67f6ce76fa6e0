// The navigation shell (section 2): logo (to the organization home, or / with none), 'Manage
// audio', the organization, user and help menus with the visibility rules of sections 4 and 6,
// the loading bar, and the sync status one glance away.
import { useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { BUILD_VERSION, HELP_MENU_WIDTH_PX, ORGANIZATION_MENU_WIDTH_PX } from '../domain/constants.ts';
import { adminMenu, organizationMenuItems, showsAccountSettings, showsEnterprises, userMenus, type OrganizationMenuItem } from '../domain/permissions.ts';
import { m } from '../paraglide/messages.js';
import { locales, getLocale, type Locale } from '../lib/i18n.ts';
import { Link, navigate } from '../lib/router.ts';
import { docsLink, learnLink, policiesLink, STATUS_PAGE } from '../lib/links.ts';
import { openDialog } from '../lib/dialogs.ts';
import { organizationById, type Session } from '../lib/session.ts';
import { changeLanguage, LANGUAGE_NAMES } from '../lib/language.ts';
import { MenuButton, type MenuEntry } from '../ui/Menu.tsx';
import { SyncStatusBadge } from '../features/sync/SyncStatusBadge.tsx';
import { openSnapshotDialog, SnapshotDialogHost } from '../features/organizations/snapshot-menu.tsx';
import { mayUseDemoSnapshots } from '../domain/demo-snapshots.ts';
import { organizationFlags } from '../domain/access.ts';
import { enterprisesPath } from '../domain/enterprises.ts';
import { LogoMark } from '../ui/Logo.tsx';
import { imageUrlForSize } from '../domain/image.ts';
import { useSearchShortcut } from '../lib/search-shortcut.ts';

const ORG_ITEM_LABEL: Record<OrganizationMenuItem, () => string> = {
  programs: () => m.app_menu_programs(),
  analytics: () => m.app_menu_analytics(),
  reports: () => m.app_menu_reports(),
  users: () => m.app_menu_users(),
  settings: () => m.app_menu_settings(),
  search: () => m.app_menu_search(),
  switchOrganization: () => m.app_menu_switch_organization(),
  saveSnapshot: () => m.app_menu_save_snapshot(),
  restoreSnapshot: () => m.app_menu_restore_snapshot(),
};
/** Routes that exist in this build; menu items for later issues' screens stay absent. */
const ORG_ITEM_ROUTE: Partial<Record<OrganizationMenuItem, (orgId: string) => string>> = {
  programs: (id) => `/${id}/programs`,
  analytics: (id) => `/${id}/analytics`,
  reports: (id) => `/${id}/reports`,
  users: (id) => `/${id}/users`,
  settings: (id) => `/${id}/settings`,
  search: (id) => `/${id}/search`,
  switchOrganization: () => '/',
};
/** Items that act on the organization instead of opening a screen. */
const ORG_ITEM_ACTION: Partial<Record<OrganizationMenuItem, (orgId: string) => void>> = {
  saveSnapshot: (id) => openSnapshotDialog({ kind: 'save', organizationId: id }),
  restoreSnapshot: (id) => openSnapshotDialog({ kind: 'restore', organizationId: id }),
};

export function organizationMenu(session: Session, organizationId: string | null): MenuEntry[] {
  const org = organizationId ? organizationById(session, organizationId) : undefined;
  const items = organizationMenuItems({
    entries: org?.UserPermissions ?? [],
    belongsToMultipleOrganizations: session.UserBelongsToMultipleOrganizations,
    isDemoOrganization: org?.IsDemoOrganization ?? false,
    features: org?.Features,
  });
  const entries: MenuEntry[] = [];
  const snapshots = mayUseDemoSnapshots({ entries: org?.UserPermissions ?? [], isAdmin: session.User?.IsAdmin ?? false, isDemoOrganization: org?.IsDemoOrganization ?? false });
  if (!organizationId) {
    // No organization chosen yet (the list at /, which members of several organizations see; a
    // member of one is taken to its home): the menu offers the user's organizations.
    for (const o of session.Organizations) entries.push({ kind: 'action', id: `org-${o.Id}`, label: o.Name, onSelect: () => navigate(`/${o.Id}`) });
  }
  for (const item of items) {
    const route = ORG_ITEM_ROUTE[item];
    const action = ORG_ITEM_ACTION[item];
    if (action && organizationId && snapshots) entries.push({ kind: 'action', id: item, label: ORG_ITEM_LABEL[item](), onSelect: () => action(organizationId) });
    if (!route || (!organizationId && item !== 'switchOrganization')) continue;
    entries.push({ kind: 'action', id: item, label: ORG_ITEM_LABEL[item](), onSelect: () => navigate(route(organizationId ?? '')) });
  }
  // Imports make programs: for a member who may create programs with content access at organization scope.
  const orgFlags = organizationFlags(org?.UserPermissions ?? []);
  if (organizationId && orgFlags.HasCreateProgramAccess && orgFlags.HasContentAccess) {
    entries.push({ kind: 'action', id: 'imports', label: m.imports_title(), onSelect: () => navigate(`/${organizationId}/imports`) });
  }
  const user = session.User;
  const facts = { isAdmin: user?.IsAdmin ?? false, isAdminOrSupport: user?.IsAdminOrSupport ?? false, hasResellerAccess: user?.HasResellerAccess ?? false, sessionType: session.Type };
  const admin = adminMenu(facts);
  if (admin.length > 0) {
    const adminItems: MenuEntry[] = [];
    for (const a of admin) {
      // The staff tools in the studio (issue 33): the organization's own settings page, which a
      // staff member reaches as a member (Grant access, from Object search or the not-found page).
      if (a === 'adminOrganizationSettings' && organizationId) adminItems.push({ kind: 'action', id: a, label: m.app_menu_admin_org_settings(), onSelect: () => navigate(`/${organizationId}/settings`) });
      // Admin settings: the studio's configuration and the organization's features, in the studio.
      if (a === 'adminSettings' && organizationId) adminItems.push({ kind: 'action', id: a, label: m.app_menu_admin_settings(), onSelect: () => navigate(`/${organizationId}/config`) });
      // Searching for the page the staff member is on, as the admin site's lookup did.
      if (a === 'objectSearch') adminItems.push({ kind: 'action', id: a, label: m.app_menu_object_search(), onSelect: () => navigate(`/admin/lookup?query=${encodeURIComponent(location.href)}`) });
      if (a === 'billingFeatures' && organizationId) adminItems.push({ kind: 'action', id: a, label: m.app_menu_billing(), onSelect: () => navigate(`/${organizationId}/billing`) });
      if (a === 'supportInbox') adminItems.push({ kind: 'action', id: a, label: m.app_menu_support_inbox(), onSelect: () => navigate('/admin/support') });
    }
    entries.push({ kind: 'separator', id: 'sep-admin' }, { kind: 'group', id: 'admin', label: m.app_menu_admin(), items: adminItems });
  }
  if (showsEnterprises(facts)) entries.push({ kind: 'action', id: 'enterprises', label: m.app_menu_enterprises(), onSelect: () => navigate(enterprisesPath()) });
  return entries;
}

export function userMenu(session: Session): MenuEntry[] {
  const entries: MenuEntry[] = [];
  if (session.User) entries.push({ kind: 'text', id: 'who', label: m.app_signed_in_as({ name: session.User.Name || session.User.Email }) });
  if (showsAccountSettings({ sessionType: session.Type })) entries.push({ kind: 'action', id: 'account', label: m.app_menu_account_settings(), onSelect: () => navigate('/account') });
  entries.push({
    kind: 'group',
    id: 'language',
    label: m.app_menu_language(),
    items: locales.map((l: Locale) => ({ kind: 'action' as const, id: `lang-${l}`, label: `${l === getLocale() ? '✓ ' : ''}${LANGUAGE_NAMES[l]}`, onSelect: () => void changeLanguage(l) })),
  });
  entries.push({ kind: 'separator', id: 'sep' }, { kind: 'action', id: 'logout', label: m.app_menu_log_out(), onSelect: () => openDialog({ kind: 'logout' }) });
  return entries;
}

export function helpMenu(organizationId: string | null): MenuEntry[] {
  return [
    { kind: 'external', id: 'docs', label: m.app_menu_documentation(), href: docsLink() },
    { kind: 'action', id: 'contact', label: m.app_menu_contact_support(), onSelect: () => openDialog(organizationId ? { kind: 'contact', organizationId } : { kind: 'contact' }) },
    { kind: 'external', id: 'status', label: m.app_menu_service_status(), href: STATUS_PAGE },
    { kind: 'external', id: 'about', label: m.app_menu_about(), href: learnLink() },
    { kind: 'external', id: 'terms', label: m.app_menu_terms(), href: policiesLink() },
    { kind: 'separator', id: 'sep' },
    { kind: 'text', id: 'version', label: m.app_menu_version({ version: BUILD_VERSION }) },
  ];
}

const ICON_PATHS = {
  org: 'M4 20V8l8-4 8 4v12M9 20v-5h6v5',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zM4 20c1.5-4 4.5-6 8-6s6.5 2 8 6',
  help: 'M12 21a9 9 0 100-18 9 9 0 000 18zM9.5 9.5a2.5 2.5 0 114 2c-1 .7-1.5 1.2-1.5 2.5M12 17h.01',
};
const Icon = ({ d }: { d: string }) => (
  <svg aria-hidden="true" viewBox="0 0 24 24" width="20" height="20">
    <path d={d} fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" />
  </svg>
);

/** The account menu's face: the user's picture (its thumbnail) when they have one, else the icon
 * (also when the picture cannot load: offline, before the service worker has it). */
function UserMark({ imageUrl }: { imageUrl: string | null }) {
  const [failed, setFailed] = useState<string | null>(null);
  const thumb = imageUrl ? imageUrlForSize(imageUrl, 24, 24) : null;
  if (!thumb?.ok || failed === thumb.url) return <Icon d={ICON_PATHS.user} />;
  return <img src={thumb.url} alt="" width={24} height={24} onError={() => setFailed(thumb.url)} style={{ borderRadius: '50%', objectFit: 'cover', display: 'block' }} />;
}

/**
 * Keeps --navbar-height on the root at the bar's height, which on phones and tablets grows when
 * the sync status wraps (styles.css): phone toasts drop from just below the bar, so they never
 * cover the sync status that answers the change a toast confirms, nor the menu buttons (an open
 * menu rises above them); the clip and recording status panel sticks 1rem under it.
 */
function useNavbarHeightVariable(): RefObject<HTMLElement | null> {
  const ref = useRef<HTMLElement>(null);
  useLayoutEffect(() => {
    const bar = ref.current;
    if (!bar) return;
    const root = document.documentElement;
    // Not offsetHeight, which rounds: what sits under the bar would be up to half a pixel off.
    const update = () => root.style.setProperty('--navbar-height', `${bar.getBoundingClientRect().height}px`);
    update();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(update); // jsdom has none
    observer?.observe(bar);
    return () => {
      observer?.disconnect();
      root.style.removeProperty('--navbar-height');
    };
  }, []);
  return ref;
}

export function NavigationBar({ session, organizationId }: { session: Session; organizationId: string | null }) {
  const bar = useNavbarHeightVariable();
  const menus = userMenus(session.Type);
  const org = organizationId ? organizationById(session, organizationId) : undefined;
  const home = organizationId ? `/${organizationId}` : '/';
  const orgEntries = organizationMenu(session, organizationId);
  useSearchShortcut(organizationId && orgEntries.some((e) => e.id === 'search') ? `/${organizationId}/search` : null);
  return (
    <header className="navbar" ref={bar}>
      <nav aria-label={m.app_nav_label()} className="navbar-inner">
        <Link href={home} className="logo" aria-label={m.app_logo_label()}>
          <LogoMark />
          <span className="logo-text" aria-hidden="true">{m.app_title()}</span>
        </Link>
        <Link href={home} className="nav-link">
          {m.app_manage_audio()}
        </Link>
        <span className="navbar-spacer" />
        <SyncStatusBadge />
        {menus.includes('organization') && (
          <MenuButton label={m.app_menu_organization()} widthPx={ORGANIZATION_MENU_WIDTH_PX} trigger={<><Icon d={ICON_PATHS.org} /><span className="menu-trigger-text">{org?.Name ?? m.app_menu_organization()}</span></>} entries={orgEntries} />
        )}
        {menus.includes('user') && <MenuButton label={m.app_menu_user()} trigger={<UserMark imageUrl={session.User?.ImageUrl ?? null} />} entries={userMenu(session)} />}
        {menus.includes('help') && <MenuButton label={m.app_menu_help()} widthPx={HELP_MENU_WIDTH_PX} trigger={<Icon d={ICON_PATHS.help} />} entries={helpMenu(organizationId)} />}
      </nav>
      <SnapshotDialogHost />
    </header>
  );
}
