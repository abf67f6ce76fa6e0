// Asking for the confirmation e-mail again (POST /internal/users/me/email/activation), for the
// unactivated banner and the confirmation screen alike: the toast that says how it went.
import { m } from '../../paraglide/messages.js';
import { call } from '../../lib/api.ts';
import { withLoading } from '../../lib/loading.ts';
import { showToast } from '../../lib/toast.ts';
import { requestEmailActivation } from '../../lib/shell-routes.ts';
import { mailUnknownHostText } from '../../lib/mail-refusal.ts';

/** Sends it; true when the server took the request. */
export async function resendConfirmation(email: string): Promise<boolean> {
  if (!navigator.onLine) {
    showToast({ type: 'warning', title: m.signup_resend_offline() });
    return false;
  }
  const res = await withLoading(call(requestEmailActivation));
  if (res.kind === 'ok') {
    showToast({ type: 'success', title: m.signup_resent({ email }) });
    return true;
  }
  const unknownHost = mailUnknownHostText(res);
  if (unknownHost) showToast({ type: 'danger', title: unknownHost });
  else if (res.kind === 'status' && res.status === 429) showToast({ type: 'warning', title: m.signup_resend_too_many() });
  else showToast({ type: 'danger', title: navigator.onLine ? m.signup_resend_failed() : m.signup_resend_offline() });
  return false;
}
