// Log-out dialog (section 4): open, then confirm submits the logout. Edits that have not reached
// the server (the outbox, unresolved conflicts) are named first, because log-out clears this
// device's copy of the user's data (src/db/reset.ts) so the next user sees nothing of theirs.
import { m } from '../../paraglide/messages.js';
import { api } from '../../lib/api.ts';
import { clearSession } from '../../lib/session.ts';
import { ensureSync, stopSync } from '../../lib/sync-runner.ts';
import { db, useLiveQuery } from '../../db/db.ts';
import { resetLocalData } from '../../db/reset.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { navigate } from '../../lib/router.ts';

export async function logOut(): Promise<void> {
  // The worker stops first so nothing it pulls lands after the clear.
  const organizationId = stopSync();
  const res = await api('POST', '/internal/session/logout');
  if (res.kind !== 'ok') {
    if (organizationId) ensureSync(organizationId);
    throw new Error(m.app_login_error());
  }
  await resetLocalData();
  clearSession();
}

/** Edits on this device that have not reached the server. */
function useUnsentCount(): number {
  return useLiveQuery(async () => (await db.outbox.count()) + (await db.conflicts.count()), []) ?? 0;
}

export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const unsent = useUnsentCount();
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={m.app_logout_title()}
      description={
        <>
          {m.app_logout_text()}
          {unsent > 0 && <span className="alert alert-warning logout-warning">{unsent === 1 ? m.app_logout_unsent_one() : m.app_logout_unsent({ count: unsent })}</span>}
        </>
      }
      actionLabel={m.app_menu_log_out()}
      onConfirm={logOut}
      failureDescription={m.app_logout_failed()}
      onDone={() => navigate('/', { replace: true })}
    />
  );
}
