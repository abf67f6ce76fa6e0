// The first download of an organization to this device, as a progress bar with counts: the rows
// stored so far out of what the server said the pull brings. Shown instead of the organization's
// screens until the download ends, so no list or count computed from part of it is taken as whole
// (a program of 380 clips read "308 clips" beside "All changes saved" while it ran).
import { m } from '../../paraglide/messages.js';
import { getLocale } from '../../lib/i18n.ts';
import type { FirstSync } from '../../db/db.ts';

/** Counts as the badge and the progress bar say them: never more received than the total (rows
 * changed while the download runs come twice), in the user's number format. */
export function firstSyncCounts(f: FirstSync): { received: string; total: string } | null {
  if (f.total === null) return null;
  const format = new Intl.NumberFormat(getLocale()).format;
  return { received: format(Math.min(f.received, f.total)), total: format(f.total) };
}

export function FirstSyncProgress({ progress, online }: { progress: FirstSync; online: boolean }) {
  const counts = firstSyncCounts(progress);
  const received = new Intl.NumberFormat(getLocale()).format(progress.received);
  return (
    <section className="first-sync" aria-labelledby="first-sync-title">
      <h1 id="first-sync-title">{online ? m.app_first_sync_downloading_title() : m.app_first_sync_paused_title()}</h1>
      {/* Without a total (a server of an earlier release) the bar is indeterminate: no value. */}
      <progress
        className="first-sync-bar"
        aria-label={m.app_first_sync_progress_label()}
        max={progress.total ?? undefined}
        value={progress.total === null ? undefined : Math.min(progress.received, progress.total)}
      />
      {/* Before the first page there is nothing to count yet. */}
      <p role="status" className="first-sync-count">
        {counts ? m.app_first_sync_progress(counts) : progress.received > 0 ? m.app_first_sync_progress_unknown({ received }) : ''}
      </p>
      <p>{online ? m.app_first_sync_downloading_text() : m.app_first_sync_paused_text()}</p>
    </section>
  );
}
