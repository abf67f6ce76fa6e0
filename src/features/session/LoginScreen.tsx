// Login (sections 2 and 7): hero image, heading and tagline; fields 'Email' and 'Password'; 'Log in';
// 'Forgot your password?' (PasswordResetScreens.tsx); a link to create an account (SignUpScreen.tsx).
// `notice` says why a signed-out visitor sees it (a confirmation link opened before signing in).
// GET /api/internal/session/xsrf first, then POST /api/internal/session/login with x-xsrf-token.
import { useEffect, useId, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { call, setXsrfToken } from '../../lib/api.ts';
import { login } from '../../lib/shell-routes.ts';
import { currentSession, loadSession, useSession } from '../../lib/session.ts';
import { getLocale, isLocale, setLocale } from '../../lib/i18n.ts';
import { withLoading } from '../../lib/loading.ts';
import { LoginFrame } from './LoginFrame.tsx';
import { Link } from '../../lib/router.ts';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';

export function LoginScreen({ notice }: { notice?: string } = {}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ids = { email: useId(), password: useId(), error: useId() };
  useDocumentTitle([m.shell_title_sign_in()]);

  const submit = async () => {
    setBusy(true);
    setError(null);
    setXsrfToken(null); // a fresh token for the new session
    const res = await withLoading(call(login, { json: { Email: email.trim(), Password: password }, xsrf: false }));
    if (res.kind === 'ok') {
      await withLoading(loadSession());
      // The language the user chose on another device (InterfaceLanguage) applies here too.
      const saved = currentSession().User?.InterfaceLanguage;
      if (saved && isLocale(saved) && saved !== getLocale()) void setLocale(saved); // reloads
    } else {
      setBusy(false);
      if (res.kind === 'error') setError(navigator.onLine ? m.app_login_error() : m.app_login_offline());
      else if (res.kind === 'badRequest') {
        const refused = res.body.Errors[0];
        // The catalogue that words it in the user's language loads only now: the login screen
        // stays light, and a refused login is rare (the browser checks the inputs first). If that
        // chunk cannot load (a new release, a dropped connection), the server's words say why.
        if (refused) setError(await import('../../domain/messages.ts').then((catalogue) => catalogue.fieldErrorText(refused), () => refused.Message));
        else setError(m.app_login_failed());
      } else if (res.status === 401 || res.status === 403) setError(m.app_login_failed());
      else setError(m.app_login_error());
    }
  };

  return (
    <LoginFrame>
      <h1>{m.app_login_heading()}</h1>
      <p className="tagline">{m.app_tagline()}</p>
      <SessionExpiredNotice />
      {notice && <p role="status" className="alert alert-info">{notice}</p>}
      <form
        className="login-form"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <div className="field">
          <label htmlFor={ids.email}>{m.app_login_email()}</label>
          <input id={ids.email} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} aria-describedby={error ? ids.error : undefined} />
        </div>
        <div className="field">
          <label htmlFor={ids.password}>{m.app_login_password()}</label>
          <input id={ids.password} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        </div>
        {error && (
          <p id={ids.error} role="alert" className="alert alert-danger">
            {error}
          </p>
        )}
        <button type="submit" className="button primary block" disabled={busy} aria-busy={busy}>
          {m.app_login_submit()}
        </button>
      </form>
      <p className="tagline login-forgot">
        <Link href="/account/forgot-password">{m.signup_forgot_link()}</Link>
      </p>
      <p className="tagline">
        <Link href="/account/new">{m.signup_link()}</Link>
      </p>
    </LoginFrame>
  );
}

/** After the server ended the session (a 401 to the sync or at start): says so, and that the
 * edits waiting on this device are kept and go out after the login. */
function SessionExpiredNotice() {
  const expired = useSession()?.expired === true;
  const [pending, setPending] = useState<number | null>(null);
  useEffect(() => {
    if (!expired) return;
    let live = true;
    // The local store loads only here: the login screen stays light otherwise.
    void import('../../db/db.ts').then(async ({ db }) => {
      const count = await db.outbox.count();
      if (live) setPending(count);
    });
    return () => {
      live = false;
    };
  }, [expired]);
  if (!expired || pending === null) return null;
  return (
    <p role="status" className="alert alert-warning">
      {pending === 0 ? m.app_sync_session_expired() : m.app_sync_session_expired_kept({ count: pending })}
    </p>
  );
}
