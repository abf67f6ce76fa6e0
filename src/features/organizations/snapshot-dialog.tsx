// The confirm dialog of the snapshot menu items (sections 4, 6 and 8): the confirm text of
// section 8, then the call, then 'Saved snapshot' / 'Restored snapshot' or the error toast (the
// dialog stays open to try again). A restore refreshes the page data once it has succeeded: the
// sync worker pulls the rows the restore wrote. Offline, neither can run: a warning says so and no
// dialog opens.
import { useEffect, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { useOnline } from '../../lib/connectivity.ts';
import { syncNow } from '../../lib/sync-runner.ts';
import { showToast } from '../../lib/toast.ts';
import { restoreSnapshot, saveSnapshot } from './snapshot-actions.ts';
import type { SnapshotRequest } from './snapshot-menu.tsx';

export function SnapshotDialog({ request, onClose }: { request: SnapshotRequest | null; onClose: () => void }) {
  const online = useOnline();
  // The last request keeps the texts while the dialog closes.
  const [shown, setShown] = useState(request);
  if (request !== null && request !== shown) setShown(request);
  const offline = request !== null && !online;
  useEffect(() => {
    if (!offline) return;
    showToast({ type: 'warning', title: m.app_snapshot_offline() });
    onClose();
  }, [offline, onClose]);

  const restore = shown?.kind === 'restore';
  return (
    <ConfirmDialog
      open={request !== null && online}
      onClose={onClose}
      title={restore ? m.app_menu_restore_snapshot() : m.app_menu_save_snapshot()}
      description={restore ? m.domain_snapshot_restore_confirm() : m.domain_snapshot_save_confirm()}
      actionLabel={restore ? m.app_snapshot_restore_action() : m.app_snapshot_save_action()}
      danger={restore}
      onConfirm={async () => {
        if (!restore) return saveSnapshot();
        await restoreSnapshot();
        await syncNow();
      }}
      successToast={restore ? m.domain_snapshot_restored() : m.domain_snapshot_saved()}
      failureDescription={restore ? m.domain_snapshot_restore_error() : m.domain_snapshot_save_error()}
    />
  );
}
