// The banner of an unactivated account (section 4; issue 31): it can look around but not change
// anything until its address is confirmed, and it may have the confirmation e-mail sent again.
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { resendConfirmation } from './confirmation.ts';

export function UnactivatedNotice({ email }: { email: string }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="alert alert-info">
      <p>{m.app_unactivated_notice()}</p>
      <button
        type="button"
        className="button small"
        disabled={busy}
        aria-busy={busy}
        onClick={() => {
          setBusy(true);
          void resendConfirmation(email).finally(() => setBusy(false));
        }}
      >
        {m.signup_resend()}
      </button>
    </div>
  );
}
