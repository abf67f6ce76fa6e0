// Login (sections 2 and 7): hero image, heading and tagline; fields 'Email' and 'Password'; 'Log in';
// 'Forgot your password?' (PasswordResetScreens.tsx); a link to create an account (SignUpScreen.tsx).
// `notice` says why a signed-out visitor sees it (a confirmation link opened before signing in).
// GET /api/internal/session/xsrf first, then POST /api/internal/session/login with x-xsrf-token.
// Two-factor sign-in (src/domain/mfa.ts): when the server answers 400 mfaRequired at MfaCode, the
// screen asks for the app's code (or a recovery code) and sends the same call again with it.
//
//   password ──400 mfaRequired──> code ──ok──> signed in
//                                   │  └─400 at MfaCode / RecoveryCode: said at the field
//                                   └─"Sign in as someone else" (or a 401: the password changed) ──> password
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
import type { ServerErrorCode } from '../../protocol/errors.ts';
import type { FieldError } from '../../protocol/errors.ts';

/** The 400's code that asks for the second factor (a literal: protocol/errors.ts builds zod schemas). */
const MFA_REQUIRED: (typeof ServerErrorCode)['MfaRequired'] = 'mfaRequired';

/** A refusal in the user's language. The catalogue that words it loads only now: the login screen
 * stays light, and a refusal is rare. If that chunk cannot load (a new release, a dropped
 * connection), the server's words say why. */
const refusalText = (refused: FieldError) => import('../../domain/messages.ts').then((catalogue) => catalogue.fieldErrorText(refused), () => refused.Message);

export function LoginScreen({ notice }: { notice?: string } = {}) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [step, setStep] = useState<'password' | 'code'>('password');
  const ids = { email: useId(), password: useId(), error: useId() };
  useDocumentTitle([m.shell_title_sign_in()]);

  const submit = async (second?: { MfaCode: string } | { RecoveryCode: string }): Promise<FieldError | null> => {
    setBusy(true);
    setError(null);
    setXsrfToken(null); // a fresh token for the new session
    const res = await withLoading(call(login, { json: { Email: email.trim(), Password: password, ...second }, xsrf: false }));
    if (res.kind === 'badRequest' && res.body.Errors[0]?.Code === MFA_REQUIRED) {
      setBusy(false);
      setStep('code');
      return null;
    }
    if (second && res.kind === 'badRequest' && (res.body.Errors[0]?.Field === 'MfaCode' || res.body.Errors[0]?.Field === 'RecoveryCode')) {
      setBusy(false);
      return res.body.Errors[0];
    }
    if (second && res.kind === 'status' && res.status === 401) setStep('password'); // the password changed meanwhile
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
        if (refused) setError(await refusalText(refused));
        else setError(m.app_login_failed());
      } else if (res.status === 401 || res.status === 403) setError(m.app_login_failed());
      else setError(m.app_login_error());
    }
    return null;
  };

  if (step === 'code') {
    return (
      <LoginFrame>
        <h1>{m.app_login_heading()}</h1>
        <SecondFactorForm
          busy={busy}
          error={error}
          onSubmit={submit}
          onBack={() => {
            setStep('password');
            setPassword('');
            setError(null);
          }}
        />
      </LoginFrame>
    );
  }

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

/** Sign-in's second step: the app's code, or one recovery code; a refusal at its field. */
function SecondFactorForm({ busy, error, onSubmit, onBack }: { busy: boolean; error: string | null; onSubmit: (second: { MfaCode: string } | { RecoveryCode: string }) => Promise<FieldError | null>; onBack: () => void }) {
  const [recovery, setRecovery] = useState(false);
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const ids = { input: useId(), error: useId(), formError: useId() };
  const send = async () => {
    setFieldError(null);
    const refused = await onSubmit(recovery ? { RecoveryCode: value } : { MfaCode: value });
    if (refused) setFieldError(await refusalText(refused));
  };
  return (
    <form
      className="login-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      <p className="tagline">{recovery ? m.app_login_mfa_recovery_prompt() : m.app_login_mfa_prompt()}</p>
      <div className={`field${fieldError ? ' has-error' : ''}`}>
        <label htmlFor={ids.input}>{recovery ? m.app_login_mfa_recovery_code() : m.app_login_mfa_code()}</label>
        <input
          id={ids.input}
          // A new input when the kind changes: the browser's one-time-code fill and the keyboard follow it.
          key={recovery ? 'recovery' : 'code'}
          autoFocus
          required
          value={value}
          onChange={(e) => setValue(e.target.value)}
          {...(recovery ? { autoComplete: 'off', autoCapitalize: 'characters', spellCheck: false } : { autoComplete: 'one-time-code', inputMode: 'numeric' as const })}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? ids.error : error ? ids.formError : undefined}
        />
        {fieldError && (
          <p id={ids.error} className="field-error" role="alert">
            {fieldError}
          </p>
        )}
      </div>
      {error && (
        <p id={ids.formError} role="alert" className="alert alert-danger">
          {error}
        </p>
      )}
      <button type="submit" className="button primary block" disabled={busy || value.trim() === ''} aria-busy={busy}>
        {m.app_login_mfa_verify()}
      </button>
      <p className="tagline login-forgot">
        <button
          type="button"
          className="button link-button"
          onClick={() => {
            setRecovery((r) => !r);
            setValue('');
            setFieldError(null);
          }}
        >
          {recovery ? m.app_login_mfa_use_app() : m.app_login_mfa_use_recovery()}
        </button>
      </p>
      <p className="tagline">
        <button type="button" className="button link-button" onClick={onBack}>
          {m.app_login_mfa_back()}
        </button>
      </p>
    </form>
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
