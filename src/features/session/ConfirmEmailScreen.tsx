// /account/confirm?token=… (issue 31): the link of the confirmation e-mail. Signed in (a signed-out
// visitor gets the login screen first, which says why), it sends the token for the account
// (POST /internal/users/me/email/status) and says how that went; confirmed, the session is read
// again and is 'activated' (the banner goes).
//
//   no token ──> 'open the link again'
//   token ──POST──> 204 ──> done (session re-read)
//               ├─ 400 at Token ──> its message (not this account's / used / expired), and the
//               │                   confirmation e-mail again while the account is unactivated
//               └─ network or other ──> failed, 'Try again'
import { useCallback, useEffect, useRef, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { call } from '../../lib/api.ts';
import { loadSession, type Session } from '../../lib/session.ts';
import { withLoading } from '../../lib/loading.ts';
import { Link, useSearch } from '../../lib/router.ts';
import { fieldErrorText } from '../../domain/messages.ts';
import { confirmEmailStatus } from '../../protocol/api/account.ts';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { resendConfirmation } from './confirmation.ts';

type State = { kind: 'working' } | { kind: 'done' } | { kind: 'refused'; message: string } | { kind: 'failed'; message: string } | { kind: 'missing' };

export function ConfirmEmailScreen({ session }: { session: Session }) {
  const token = new URLSearchParams(useSearch()).get('token');
  const [state, setState] = useState<State>(token ? { kind: 'working' } : { kind: 'missing' });
  const [resending, setResending] = useState(false);
  const sent = useRef<string | null>(null);
  useDocumentTitle([m.signup_confirm_title()]);

  const confirm = useCallback(async (value: string) => {
    setState({ kind: 'working' });
    if (!navigator.onLine) {
      setState({ kind: 'failed', message: m.signup_confirm_offline() });
      return;
    }
    const res = await withLoading(call(confirmEmailStatus, { json: { Token: value } }));
    if (res.kind === 'ok') {
      await loadSession();
      setState({ kind: 'done' });
    } else if (res.kind === 'badRequest' && res.body.Errors[0]) setState({ kind: 'refused', message: fieldErrorText(res.body.Errors[0]) });
    else setState({ kind: 'failed', message: navigator.onLine ? m.signup_confirm_failed() : m.signup_confirm_offline() });
  }, []);

  useEffect(() => {
    // Once per token: the session read again after a confirmation renders this screen again.
    if (!token || sent.current === token) return;
    sent.current = token;
    void confirm(token);
  }, [token, confirm]);

  const unactivated = session.Type === 'unactivated';
  return (
    <section aria-labelledby="confirm-title">
      <h1 id="confirm-title">{m.signup_confirm_title()}</h1>
      {state.kind === 'working' && <p role="status">{m.signup_confirm_working()}</p>}
      {state.kind === 'missing' && <p role="alert" className="alert alert-warning">{m.signup_confirm_missing()}</p>}
      {state.kind === 'done' && <p role="status" className="alert alert-success">{m.signup_confirm_done()}</p>}
      {(state.kind === 'refused' || state.kind === 'failed') && <p role="alert" className="alert alert-danger">{state.message}</p>}
      <div className="error-actions">
        {state.kind === 'failed' && token && (
          <button type="button" className="button" onClick={() => void confirm(token)}>
            {m.signup_confirm_retry()}
          </button>
        )}
        {unactivated && state.kind !== 'working' && state.kind !== 'done' && session.User && (
          <button
            type="button"
            className="button"
            disabled={resending}
            onClick={() => {
              setResending(true);
              void resendConfirmation(session.User?.Email ?? '').finally(() => setResending(false));
            }}
          >
            {m.signup_resend()}
          </button>
        )}
        {state.kind !== 'working' && (
          <Link href="/" className="button primary">
            {m.signup_confirm_continue()}
          </Link>
        )}
      </div>
    </section>
  );
}
