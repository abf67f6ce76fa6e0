// Who may read a row, and what a refusal looks like (section 6; the read rules of
// src/protocol/entity-kinds.ts). One place for the REST reads, the access guard, the mutations'
// checks and the pull, so that what a caller can list, open, change and sync never disagree.
//
//   the row's program (or network) ──permissionsFor──> flags
//        may read?  no ──> 404, as if the row did not exist (never 403: a refusal would tell the
//                          caller that the row is there)
//              yes ──> needs a flag it lacks? ──> 403 (the caller sees the row, may not do this)
import type { ReadRule } from '../protocol/entity-kinds.ts';
import { permissionsFor, type PermissionEntry, type PermissionFlagName, type PermissionFlags } from './permissions.ts';

export function holdsAny(flags: PermissionFlags): boolean {
  for (const f in flags) if (flags[f as PermissionFlagName]) return true;
  return false;
}

/** Whether flags held on a row's program (or network, or organization) let the caller read it. */
export function mayRead(rule: ReadRule, flags: PermissionFlags): boolean {
  switch (rule.kind) {
    case 'organization':
      return true; // membership, checked when the caller's organization is chosen
    case 'network':
    case 'program':
      return holdsAny(flags);
    case 'content':
    case 'child':
      return flags.HasContentAccess;
  }
}

/** The flags of `needed` that are missing (empty: allowed). */
export function missingFlags(flags: PermissionFlags, needed: readonly PermissionFlagName[]): PermissionFlagName[] {
  return needed.filter((f) => !flags[f]);
}

export type ProgramPlace = { id: string; networkId: string | null };

export const programFlags = (entries: readonly PermissionEntry[], program: ProgramPlace) =>
  permissionsFor(entries, { kind: 'program', programId: program.id, networkId: program.networkId });

export const networkFlags = (entries: readonly PermissionEntry[], networkId: string) => permissionsFor(entries, { kind: 'network', networkId });

export const organizationFlags = (entries: readonly PermissionEntry[]) => permissionsFor(entries, { kind: 'organization' });

/**
 * Whether the caller sees a network: a flag covering it, or a program in it that they see
 * (a Program-scope producer sees the network of their program, and nothing else of it).
 */
export function mayReadNetwork(entries: readonly PermissionEntry[], networkId: string, programsInIt: readonly ProgramPlace[]): boolean {
  return holdsAny(networkFlags(entries, networkId)) || programsInIt.some((p) => holdsAny(programFlags(entries, p)));
}
