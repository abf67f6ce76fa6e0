// Where this user may see and change webhooks: the rule of src/domain/webhooks.ts (webhookAccess,
// which the server's routes apply too) at the organization and at each network. The server checks
// again on every call; this only decides which lists to ask for and which buttons to show.
import { networkFlags, organizationFlags } from '../../domain/access.ts';
import type { PermissionEntry } from '../../domain/permissions.ts';
import { webhookAccess as accessAt } from '../../domain/webhooks.ts';

/** A place webhooks belong to: the organization (networkId null) or one network. */
export type Level = { networkId: string | null; name: string; write: boolean };
export type Access = { levels: Level[] };

export function webhookAccess(entries: readonly PermissionEntry[], networks: ReadonlyArray<{ Id: string; Name: string }>): Access {
  const org = organizationFlags(entries);
  const levels: Level[] = [];
  const atOrganization = accessAt(org, null);
  if (atOrganization.read) levels.push({ networkId: null, name: '', write: atOrganization.write });
  for (const n of networks) {
    const atNetwork = accessAt(org, networkFlags(entries, n.Id));
    if (atNetwork.read) levels.push({ networkId: n.Id, name: n.Name, write: atNetwork.write });
  }
  return { levels };
}
