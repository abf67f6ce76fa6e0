// Log-out dialog (section 4): open, then confirm submits the logout.
import { m } from '../../paraglide/messages.js';
import { api } from '../../lib/api.ts';
import { clearSession } from '../../lib/session.ts';
import { ConfirmDialog } from '../../components/ConfirmDialog.tsx';
import { navigate } from '../../lib/router.ts';

export async function logOut(): Promise<void> {
  const res = await api('POST', '/internal/session/logout');
  if (res.kind !== 'ok') throw new Error(m.app_login_error());
  clearSession();
}

export function LogoutDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <ConfirmDialog
      open={open}
      onClose={onClose}
      title={m.app_logout_title()}
      description={m.app_logout_text()}
      actionLabel={m.app_menu_log_out()}
      onConfirm={logOut}
      onDone={() => navigate('/', { replace: true })}
    />
  );
}
