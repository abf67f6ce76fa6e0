// Who may do what to networks and programs (section 6), as the screens ask it; the server's
// mutation runs (sync-server/mutations/content.ts) require the same flags:
//   network.create / update / delete   HasManageOrganizationSettingsAccess at organization scope
//   program.create                     HasCreateProgramAccess on its network (or the organization)
//   program.update / delete            HasContentAccess and HasManageSettingsAccess on the program
import { permissionsFor, type PermissionEntry } from './permissions.ts';

export function mayManageNetworks(entries: readonly PermissionEntry[]): boolean {
  return permissionsFor(entries, { kind: 'organization' }).HasManageOrganizationSettingsAccess;
}

/** Whether a program may be created in the network (null: outside any network). */
export function mayCreateProgramIn(entries: readonly PermissionEntry[], networkId: string | null): boolean {
  return permissionsFor(entries, networkId === null ? { kind: 'organization' } : { kind: 'network', networkId }).HasCreateProgramAccess;
}

/** The places a new program may go: null (no network) first when allowed, then the networks. */
export function newProgramPlaces(entries: readonly PermissionEntry[], networkIds: readonly string[]): Array<string | null> {
  return [null, ...networkIds].filter((id) => mayCreateProgramIn(entries, id));
}

export function mayEditProgram(entries: readonly PermissionEntry[], program: { Id: string; NetworkId?: string | null | undefined }): boolean {
  const flags = permissionsFor(entries, { kind: 'program', programId: program.Id, networkId: program.NetworkId ?? null });
  return flags.HasContentAccess && flags.HasManageSettingsAccess;
}
