// The audit trail (issue 31; section 7's audit-events calls, section 6's "Audit needs content
// access"). What is recorded is decided by the server (sync-server/audit); what the event and
// object types are called, who may read which events, and the required date range live here so
// the screen's filters and the server's checks are one list.
import type { PermissionEntry, PermissionFlags } from './permissions.ts';
import { contentView, permissionsFor } from './permissions.ts';

/** What happened. Content rows: Created, Updated, Deleted, Restored (the trigger on row_revisions);
 * the rest from sync-server/audit/record.ts. */
export const AUDIT_EVENT_TYPES = ['Created', 'Updated', 'Deleted', 'Restored', 'SignedIn', 'PermissionsChanged', 'Invited', 'Removed', 'Used', 'Revoked'] as const;
export type AuditEventType = (typeof AUDIT_EVENT_TYPES)[number];

/** What it happened to: the synced content entities (initcap of their sync name) and the account objects. */
export const AUDIT_OBJECT_TYPES = ['Organization', 'Network', 'Program', 'Playlist', 'Clip', 'Recording', 'Annotation', 'User', 'ApiKey'] as const;
export type AuditObjectType = (typeof AUDIT_OBJECT_TYPES)[number];

/** Objects with their own events route (GET /v1/{clips,networks,playlists,programs}/{id}/audit-events). */
export type AuditedObject = 'clip' | 'network' | 'playlist' | 'program';

/** Section 6: audit needs HasAuditAccess with content access, on the scope read. */
export function mayReadAudit(flags: PermissionFlags): boolean {
  return contentView(flags, { playlistDownloadAnalytics: false }).audit;
}

/** Whether the caller reads one program's trail (its flags there, as GET /v1/programs/{id}/audit-events asks). */
export function mayReadProgramAudit(entries: readonly PermissionEntry[], program: { Id: string; NetworkId?: string | null | undefined }): boolean {
  return mayReadAudit(permissionsFor(entries, { kind: 'program', programId: program.Id, networkId: program.NetworkId ?? null }));
}

/** The default range of the audit screen: the last 30 days, today included (UTC dates). */
export const AUDIT_DEFAULT_RANGE_DAYS = 30;
