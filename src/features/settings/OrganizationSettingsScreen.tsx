// /{organizationId}/settings — Organization settings (section 2), opened from the organization
// menu by those it shows the item to (section 6: audit access or manage-organization-settings
// access, at organization scope; organizationMenuItems is the one copy of that rule). Anyone else
// who types the address gets the 403 page.
//
// The page is a frame of sections, one tab each, the open one named in the URL (?section=…) so a
// reload or the back button lands on it. Its sections come from src/app, which composes the
// features (a feature does not import another): each is a feature's own screen.
import type { ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import { organizationMenuItems, type PermissionFlags } from '../../domain/permissions.ts';
import { organizationFlags } from '../../domain/access.ts';
import { useIdParams } from '../../lib/params.ts';
import { navigate, useSearch } from '../../lib/router.ts';
import { organizationById, useSession } from '../../lib/session.ts';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { StatusErrorPage } from '../../ui/ErrorPage.tsx';
import { ProgramDefaultsSettings } from './ProgramDefaultsSettings.tsx';

export type SettingsSection = {
  /** The section's name in the URL (?section=id) and in its tab's id. */
  id: string;
  label: string;
  content: ReactNode;
  /** Whether the caller's Organization-scope flags show it (absent: whoever sees the page). */
  shows?: (flags: PermissionFlags) => boolean;
};

/** The open section: the one the URL names, else the first. */
export function openSection<S extends { id: string }>(sections: readonly S[], requested: string | null): S | undefined {
  return sections.find((s) => s.id === requested) ?? sections[0];
}

export function OrganizationSettingsScreen({ sections }: { sections: readonly SettingsSection[] }) {
  const { organizationId } = useIdParams('organizationId');
  const session = useSession()?.session;
  const search = new URLSearchParams(useSearch());
  const org = session ? organizationById(session, organizationId) : undefined;
  const allowed = organizationMenuItems({ entries: org?.UserPermissions ?? [], belongsToMultipleOrganizations: false, isDemoOrganization: false }).includes('settings');
  if (!session) return null;
  if (!allowed) return <StatusErrorPage status={403} />;
  const flags = organizationFlags(org?.UserPermissions ?? []);
  // This feature's own tab besides the app's: what the organization's programs inherit.
  const all: readonly SettingsSection[] = [...sections, { id: 'monetization', label: m.monetization_tab(), content: <ProgramDefaultsSettings /> }];
  const shown = all.filter((s) => s.shows === undefined || s.shows(flags));
  const open = openSection(shown, search.get('section'));
  const base = `/${organizationId}/settings`;
  return (
    <>
      <PageHeader
        title={m.app_menu_settings()}
        eyebrow={org?.Name}
        documentTitle={[open?.label, m.app_menu_settings()]}
        tabs={shown.map((s) => ({ id: s.id, label: s.label, selected: s.id === open?.id, onSelect: () => navigate(`${base}?section=${s.id}`) }))}
      />
      {open && (
        <div role="tabpanel" id={`panel-${open.id}`} aria-labelledby={`tab-${open.id}`} className="settings-section">
          {open.content}
        </div>
      )}
    </>
  );
}
