// Where this user may see and change webhooks, as the server's routes say it
// (src/protocol/api/webhooks.ts): the organization's read with audit or manage-organization-
// settings access at organization scope and written with the latter; a network's also read and
// written with manage-settings access on that network. The server checks again on every call;
// this only decides which lists to ask for and which buttons to show.
import { permissionsFor, type PermissionEntry } from '../../domain/permissions.ts';

/** A place webhooks belong to: the organization (networkId null) or one network. */
export type Level = { networkId: string | null; name: string; write: boolean };
export type Access = { levels: Level[] };

export function webhookAccess(entries: readonly PermissionEntry[], networks: ReadonlyArray<{ Id: string; Name: string }>): Access {
  const org = permissionsFor(entries, { kind: 'organization' });
  const orgRead = org.HasAuditAccess || org.HasManageOrganizationSettingsAccess;
  const orgWrite = org.HasManageOrganizationSettingsAccess;
  const levels: Level[] = orgRead ? [{ networkId: null, name: '', write: orgWrite }] : [];
  for (const n of networks) {
    const own = permissionsFor(entries, { kind: 'network', networkId: n.Id }).HasManageSettingsAccess;
    if (orgRead || own) levels.push({ networkId: n.Id, name: n.Name, write: orgWrite || own });
  }
  return { levels };
}
