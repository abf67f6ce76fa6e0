// Log-out dialog (section 4): open, then confirm submits the logout. Edits that have not reached
// the server (the outbox, unresolved conflicts, edits the server refused) are named first, because log-out clears this
// device's copy of the user's data (src/db/reset.ts) so the next user sees nothing of theirs.
// The server's POST /logout ends the session; afterwards the browser goes to the route's
// redirectUrl when it is a place on this site (src/domain/redirect.ts), else to /.
import { m } from '../../paraglide/messages.js';
import { call } from '../../lib/api.ts';
import { logoutAndRedirect } from '../../protocol/api/session.ts';
import { clearSession } from '../../lib/session.ts';
import { ensureSync, stopSync } from '../../lib/sync-runner.ts';
import { useLiveQuery } from 'dexie-react-hooks';
import { db } from '../../db/db.ts';
import { unsyncedCount } from '../../db/owner.ts';
import { resetLocalData } from '../../db/reset.ts';
import { ConfirmDialog } from '../../ui/ConfirmDialog.tsx';
import { navigate } from '../../lib/router.ts';
import { sameOriginPath } from '../../domain/redirect.ts';

export async function logOut(): Promise<void> {
  // The worker stops first so nothing it pulls lands after the clear.
  const organizationId = stopSync();
  // redirectUrl=null as the navigation sends it: the server answers 204 and the redirect is ours
  // to make (a 302 would have fetch load the page it names).
  const res = await call(logoutAndRedirect, { query: { redirectUrl: 'null' } });
  if (res.kind !== 'ok') {
    if (organizationId) ensureSync(organizationId);
    throw new Error(m.app_login_error());
  }
  await resetLocalData();
  clearSession();
}

/** Edits on this device that have not reached the server (owner.ts: queued, in conflict or refused). */
function useUnsentCount(): number {
  return useLiveQuery(() => unsyncedCount(db), []) ?? 0;
}

/** Where to go once logged out: the redirectUrl on this site (never /logout itself), else /. */
export function afterLogoutPath(redirectUrl: string | null | undefined, origin: string): string {
  const path = sameOriginPath(redirectUrl, origin);
  return path === null || new URL(path, origin).pathname === '/logout' ? '/' : path;
}

export function LogoutDialog({ open, onClose, redirectUrl = null }: { open: boolean; onClose: () => void; redirectUrl?: string | null }) {
  const unsent = useUnsentCount();
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={m.app_logout_title()}
      description={
        <>
          {m.app_logout_text()}
          {unsent > 0 && <span className="alert alert-warning logout-warning">{m.app_logout_unsent({ count: unsent })}</span>}
        </>
      }
      actionLabel={m.app_menu_log_out()}
      onConfirm={logOut}
      failureDescription={m.app_logout_failed()}
      onDone={() => navigate(afterLogoutPath(redirectUrl, location.origin), { replace: true })}
    />
  );
}
