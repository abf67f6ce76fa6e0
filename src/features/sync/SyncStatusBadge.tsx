// The sync status, always one glance away: role="status" so screen readers hear changes.
import { useEffect, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { Link, useRoute } from '../../lib/router.ts';
import { downloading, useFirstSync, useSyncStatus } from './useSyncStatus.ts';
import { firstSyncCounts } from './FirstSyncProgress.tsx';
import type { FirstSync, SyncStatus } from '../../db/db.ts';

type StatusForText = {
  online: boolean;
  pendingCount: number;
  paused: SyncStatus['paused'];
  conflictCount?: number;
  needsAttentionCount?: number;
  storageFull?: boolean;
  /** The server's last error while a retry waits (5xx): the server is unavailable, edits are kept. */
  serverError?: number | null;
  retryAt?: number | null;
  /** The first download's progress: while it runs nothing is "saved" yet, it is downloading. */
  firstSync?: FirstSync | null | undefined;
};

/** Every state of the sync in words: offline, storage full, paused (another user's data, sign-in),
 * server unavailable and when it is tried again, changes waiting, to resolve, or all saved. */
export function syncStatusText(s: StatusForText, now: number = Date.now()): string {
  const parts: string[] = [];
  if (!s.online) parts.push(m.app_sync_offline());
  // Said first: until space is freed nothing can be saved here or downloaded.
  if (s.storageFull) parts.push(m.app_sync_storage_full());
  // The changes waiting are another user's, not this user's to wait for: only the pause is said
  // (which also keeps the text short enough for the phone's one-line badge).
  if (s.paused === 'otherUser') return [...parts, m.app_sync_paused_other_user()].join(' · ');
  // Offline says it all; online, a server that failed is not the user's network, and its retry is
  // counted down (whole seconds, rounded up so it never reads 0 while still waiting).
  if (s.online && s.serverError != null && s.paused === null) {
    const seconds = s.retryAt != null ? Math.ceil((s.retryAt - now) / 1000) : 0;
    parts.push(seconds > 0 ? m.status_server_retry_in({ seconds }) : m.status_server_retrying());
  }
  if (s.pendingCount > 0) parts.push(m.app_sync_pending({ count: s.pendingCount }));
  // "All changes saved" only when it is true: a conflict or a refused change is not saved.
  else if ((s.conflictCount ?? 0) + (s.needsAttentionCount ?? 0) > 0) parts.push(m.app_sync_to_resolve());
  else if (downloading(s.firstSync)) {
    const counts = firstSyncCounts(s.firstSync);
    // Offline, the download waits: 'Offline · Download not finished'.
    parts.push(!s.online ? m.app_first_sync_paused_title() : counts ? m.app_sync_downloading(counts) : m.app_sync_downloading_unknown());
  } else if (!s.storageFull) parts.push(s.online ? m.app_sync_saved() : m.app_sync_offline_saved());
  if (s.paused === 'auth') parts.push(m.app_sync_paused_auth());
  return parts.join(' · ');
}

/** The time now, again each second while `until` is ahead (the retry countdown). */
function useNowUntil(until: number | null | undefined): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    setNow(Date.now());
    if (until == null || until <= Date.now()) return;
    const id = setInterval(() => {
      const t = Date.now();
      setNow(t);
      if (t >= until) clearInterval(id);
    }, 1000);
    return () => clearInterval(id);
  }, [until]);
  return now;
}

export function SyncStatusBadge() {
  const s = { ...useSyncStatus(), firstSync: useFirstSync() };
  const now = useNowUntil(s.serverError != null ? s.retryAt : null);
  const [, params] = useRoute<{ organizationId: string }>('/:organizationId/*?');
  const tone = !s.online ? 'offline' : s.storageFull || s.serverError != null || s.conflictCount + s.needsAttentionCount > 0 ? 'warning' : s.pendingCount > 0 || downloading(s.firstSync) ? 'pending' : 'saved';
  const orgId = params?.organizationId;
  const text = (
    <span role="status" aria-live="polite" className="sync-text">
      {syncStatusText(s, now)}
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
          {m.app_sync_conflicts({ count: s.conflictCount })}
        </Link>
      )}
      {orgId && s.needsAttentionCount > 0 && (
        <Link href={`/${orgId}/sync`} className="sync-link">
          {m.app_sync_attention({ count: s.needsAttentionCount })}
        </Link>
      )}
    </div>
  );
}
