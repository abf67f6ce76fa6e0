// The sync status, always one glance away: role="status" so screen readers hear changes.
import { m } from '../../paraglide/messages.js';
import { Link, useRoute } from '../../lib/router.ts';
import { useSyncStatus } from './useSyncStatus.ts';
import type { SyncStatus } from '../../db/db.ts';

export function syncStatusText(s: { online: boolean; pendingCount: number; paused: SyncStatus['paused']; conflictCount?: number; needsAttentionCount?: number; storageFull?: boolean }): string {
  const parts: string[] = [];
  if (!s.online) parts.push(m.app_sync_offline());
  // Said first: until space is freed nothing can be saved here or downloaded.
  if (s.storageFull) parts.push(m.app_sync_storage_full());
  // The changes waiting are another user's, not this user's to wait for: only the pause is said
  // (which also keeps the text short enough for the phone's one-line badge).
  if (s.paused === 'otherUser') return [...parts, m.app_sync_paused_other_user()].join(' · ');
  if (s.pendingCount === 1) parts.push(m.app_sync_pending_one());
  else if (s.pendingCount > 1) parts.push(m.app_sync_pending({ count: s.pendingCount }));
  // "All changes saved" only when it is true: a conflict or a refused change is not saved.
  else if ((s.conflictCount ?? 0) + (s.needsAttentionCount ?? 0) > 0) parts.push(m.app_sync_to_resolve());
  else if (!s.storageFull) parts.push(s.online ? m.app_sync_saved() : m.app_sync_offline_saved());
  if (s.paused === 'auth') parts.push(m.app_sync_paused_auth());
  return parts.join(' · ');
}

export function SyncStatusBadge() {
  const s = useSyncStatus();
  const [, params] = useRoute<{ organizationId: string }>('/:organizationId/*?');
  const tone = !s.online ? 'offline' : s.storageFull || s.conflictCount + s.needsAttentionCount > 0 ? 'warning' : s.pendingCount > 0 ? 'pending' : 'saved';
  const orgId = params?.organizationId;
  const text = (
    <span role="status" aria-live="polite" className="sync-text">
      {syncStatusText(s)}
    </span>
  );
  return (
    <div className={`sync-badge sync-${tone}`}>
      <span className="sync-dot" aria-hidden="true" />
      {/* Sync details (conflicts, refused changes, storage) are one tap away whatever the state. */}
      {orgId ? (
        <Link href={`/${orgId}/sync`} className="sync-details-link" title={m.app_sync_details()}>
          {text}
        </Link>
      ) : (
        text
      )}
      {orgId && s.conflictCount > 0 && (
        <Link href={`/${orgId}/sync`} className="sync-link">
          {s.conflictCount === 1 ? m.app_sync_conflicts_one() : m.app_sync_conflicts({ count: s.conflictCount })}
        </Link>
      )}
      {orgId && s.needsAttentionCount > 0 && (
        <Link href={`/${orgId}/sync`} className="sync-link">
          {s.needsAttentionCount === 1 ? m.app_sync_attention_one() : m.app_sync_attention({ count: s.needsAttentionCount })}
        </Link>
      )}
    </div>
  );
}
