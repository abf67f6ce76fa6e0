// The sync status, always one glance away: role="status" so screen readers hear changes.
import { m } from '../../paraglide/messages.js';
import { Link, useRoute } from '../../lib/router.ts';
import { useSyncStatus } from './useSyncStatus.ts';

export function syncStatusText(s: { online: boolean; pendingCount: number; paused: 'auth' | null }): string {
  const parts: string[] = [];
  if (!s.online) parts.push(m.app_sync_offline());
  if (s.pendingCount === 1) parts.push(m.app_sync_pending_one());
  else if (s.pendingCount > 1) parts.push(m.app_sync_pending({ count: s.pendingCount }));
  else parts.push(m.app_sync_saved());
  if (s.paused === 'auth') parts.push(m.app_sync_paused_auth());
  return parts.join(' · ');
}

export function SyncStatusBadge() {
  const s = useSyncStatus();
  const [, params] = useRoute<{ organizationId: string }>('/:organizationId/*?');
  const tone = !s.online ? 'offline' : s.conflictCount + s.needsAttentionCount > 0 ? 'warning' : s.pendingCount > 0 ? 'pending' : 'saved';
  const orgId = params?.organizationId;
  return (
    <div className={`sync-badge sync-${tone}`}>
      <span className="sync-dot" aria-hidden="true" />
      <span role="status" aria-live="polite" className="sync-text">
        {syncStatusText(s)}
      </span>
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
