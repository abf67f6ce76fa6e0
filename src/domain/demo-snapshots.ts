// Who may save and restore a demo organization's snapshot (section 6 offers the two items for
// demo organizations; restoring overwrites the organization's metadata): a member holding
// manage-organization-settings in Organization scope, or an admin. The menu shows the items only
// to them, and the server refuses everyone else with 403.
import { permissionsFor, type PermissionEntry } from './permissions.ts';

export function mayUseDemoSnapshots(input: { entries: readonly PermissionEntry[]; isAdmin: boolean; isDemoOrganization: boolean }): boolean {
  if (!input.isDemoOrganization) return false;
  return input.isAdmin || permissionsFor(input.entries, { kind: 'organization' }).HasManageOrganizationSettingsAccess;
}
