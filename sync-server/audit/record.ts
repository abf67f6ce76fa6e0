// The audit trail's writers (migration 0530). Content writes are recorded by the trigger on
// row_revisions; the other sources call these in the transaction of the change they record.
// Details name what changed (fields, scopes), never secrets or passwords.
import type { PermissionEntry } from '../../src/domain/permissions.ts';
import type { Queryable } from '../store/store.ts';

export type AuditEvent = {
  organizationId: string;
  eventType: string;
  objectType: string;
  objectId: string;
  userId: string | null;
  apiKeyId?: string | null;
  at: Date;
  detail?: string;
};

export async function recordAudit(q: Queryable, e: AuditEvent): Promise<void> {
  await q.query(
    `INSERT INTO audit_events (organization_id, event_type, object_type, object_id, user_id, api_key_id, date_utc, detail) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [e.organizationId, e.eventType, e.objectType, e.objectId, e.userId, e.apiKeyId ?? null, e.at, e.detail ?? ''],
  );
}

/** A sign-in belongs to no one organization: it is recorded in each the user is a member of. */
export async function recordSignIn(q: Queryable, userId: string, at: Date): Promise<void> {
  await q.query(
    `INSERT INTO audit_events (organization_id, event_type, object_type, object_id, user_id, date_utc)
     SELECT m.organization_id, 'SignedIn', 'User', $1, $1, $2 FROM memberships m WHERE m.user_id = $1`,
    [userId, at],
  );
}

/** An API key's use, at most once per key per UTC day: the Bearer path calls this only when it
 * moves last_used_at_utc (once a minute at most), and the insert happens only when the day changed. */
export async function recordKeyUse(q: Queryable, key: { id: string; organizationId: string; userId: string; lastUsedAt: Date | null }, at: Date): Promise<void> {
  if (key.lastUsedAt !== null && key.lastUsedAt.toISOString().slice(0, 10) === at.toISOString().slice(0, 10)) return;
  await recordAudit(q, { organizationId: key.organizationId, eventType: 'Used', objectType: 'ApiKey', objectId: key.id, userId: key.userId, apiKeyId: key.id, at });
}

/** Permission entries in words: each entry's scope and the flags it holds. */
export function permissionDetail(entries: readonly PermissionEntry[]): string {
  return entries.map((x) => `${x.ObjectType}: ${Object.entries(x.Permissions ?? {}).filter(([, v]) => v === true).map(([k]) => k).join(' ')}`).join('; ');
}

/** A user's permission entries set: the detail names the scope and the flags held, per object. */
export async function recordPermissionChange(q: Queryable, e: { organizationId: string; userId: string; objectId: string; at: Date; entries: readonly PermissionEntry[] }): Promise<void> {
  await recordAudit(q, { organizationId: e.organizationId, eventType: 'PermissionsChanged', objectType: 'User', objectId: e.objectId, userId: e.userId, at: e.at, detail: permissionDetail(e.entries) });
}
