// A forgotten password (issue 31; section 7: POST and PUT /internal/account/password-reset), from
// the login screen's "Forgot your password?": /account/forgot-password asks for the link, and
// /account/reset-password?token=… (the mailed link) sets the new password. Both are signed-out
// screens in the login frame; a signed-in browser that opens the link gets the same screen.
//
//   forgot: form ──submit──> Email's error at the field
//                 └─ valid ──> POST ──204──> 'if it has an account, a link is on its way' (the
//                                  │          same for every address: the server tells no more)
//                                  ├─400──> at Email   ├─429──> wait an hour   └─network──> offline
//   reset:  no token ──> 'open the link again' and a way to ask for a new one
//           form ──submit──> section 5's errors at the fields (new, confirmation)
//                 └─ valid ──> PUT ──204──> signed out everywhere: the login screen, with a toast
//                                  ├─400 at Password ──> at the field
//                                  ├─400 at Token ──> its message (not valid / used / expired) and a new link
//                                  └─network──> offline or failed
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { call } from '../../lib/api.ts';
import { loadSession } from '../../lib/session.ts';
import { withLoading } from '../../lib/loading.ts';
import { Link, navigate, useSearch } from '../../lib/router.ts';
import { showToast } from '../../lib/toast.ts';
import { fieldErrorText, fieldErrorTexts, formatFormError } from '../../domain/messages.ts';
import { PASSWORD_MIN_LENGTH } from '../../domain/constants.ts';
import { validatePasswordChange } from '../../domain/password.ts';
import { FORGOT_PASSWORD_PATH, passwordResetRequestFormErrors, requestPasswordReset, resetPassword } from '../../protocol/api/account-security.ts';
import { Field } from '../../ui/Field.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { LoginFrame } from './LoginFrame.tsx';
import { mailUnknownHostText } from '../../lib/mail-refusal.ts';

function BackToLogin() {
  return (
    <p className="tagline">
      <Link href="/">{m.signup_back_to_login()}</Link>
    </p>
  );
}

export function ForgotPasswordScreen() {
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useDocumentTitle([m.signup_forgot_title()]);

  const submit = async () => {
    const body = { Email: email.trim() };
    const invalid = passwordResetRequestFormErrors(body).Email;
    setError(invalid ? formatFormError(invalid) : null);
    setFailure(null);
    if (invalid) return;
    if (!navigator.onLine) {
      setFailure(m.signup_forgot_offline());
      return;
    }
    setBusy(true);
    const res = await withLoading(call(requestPasswordReset, { json: body, xsrf: false }));
    setBusy(false);
    if (res.kind === 'ok') setSentTo(body.Email);
    else if (res.kind === 'badRequest' && res.body.Errors[0]) setError(fieldErrorText(res.body.Errors[0]));
    else if (res.kind === 'status' && res.status === 429) setFailure(m.signup_forgot_too_many());
    else setFailure(mailUnknownHostText(res) ?? (navigator.onLine ? m.signup_forgot_error() : m.signup_forgot_offline()));
  };

  return (
    <LoginFrame>
      <h1>{m.signup_forgot_title()}</h1>
      {sentTo !== null ? (
        <p role="status" className="alert alert-success">
          {m.signup_forgot_sent({ email: sentTo })}
        </p>
      ) : (
        <>
          <p className="tagline">{m.signup_forgot_intro()}</p>
          <form
            className="login-form"
            noValidate
            onSubmit={(e) => {
              e.preventDefault();
              void submit();
            }}
          >
            <Field label={m.signup_email()} error={error}>
              <input type="email" autoComplete="username" value={email} onChange={(e) => setEmail(e.target.value)} />
            </Field>
            {failure && (
              <p role="alert" className="alert alert-danger">
                {failure}
              </p>
            )}
            <button type="submit" className="button primary block" disabled={busy} aria-busy={busy}>
              {m.signup_forgot_submit()}
            </button>
          </form>
        </>
      )}
      <BackToLogin />
    </LoginFrame>
  );
}

type ResetErrors = Partial<Record<'Password' | 'Confirm' | 'Token' | 'form', string>>;

export function ResetPasswordScreen() {
  const token = new URLSearchParams(useSearch()).get('token');
  const [values, setValues] = useState({ Password: '', Confirm: '' });
  const [errors, setErrors] = useState<ResetErrors>({});
  const [busy, setBusy] = useState(false);
  useDocumentTitle([m.signup_reset_title()]);

  const submit = async () => {
    if (!token) return;
    // Section 5's change rule; the link stands for the current password.
    const found = validatePasswordChange({ newPassword: values.Password, confirmPassword: values.Confirm });
    const local: ResetErrors = {};
    if (found.newPassword) local.Password = formatFormError(found.newPassword);
    if (found.confirmPassword) local.Confirm = formatFormError(found.confirmPassword);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    if (!navigator.onLine) {
      setErrors({ form: m.signup_forgot_offline() });
      return;
    }
    setBusy(true);
    const res = await withLoading(call(resetPassword, { json: { Token: token, Password: values.Password }, xsrf: false }));
    if (res.kind === 'ok') {
      showToast({ type: 'success', title: m.signup_reset_done() });
      // Every session of the account ended, this browser's too if it had one: the login screen.
      navigate('/');
      await withLoading(loadSession());
      return;
    }
    setBusy(false);
    if (res.kind === 'badRequest') setErrors(fieldErrorTexts(res.body.Errors, ['Password', 'Token'] as const));
    else setErrors({ form: navigator.onLine ? m.signup_reset_error() : m.signup_forgot_offline() });
  };

  const newLink = (
    <p className="tagline">
      <Link href={FORGOT_PASSWORD_PATH}>{m.signup_reset_new_link()}</Link>
    </p>
  );

  return (
    <LoginFrame>
      <h1>{m.signup_reset_title()}</h1>
      {!token ? (
        <>
          <p role="alert" className="alert alert-warning">
            {m.signup_reset_missing()}
          </p>
          {newLink}
        </>
      ) : (
        <form
          className="login-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Field label={m.account_password_new()} hint={m.signup_password_hint({ min: PASSWORD_MIN_LENGTH })} error={errors.Password}>
            <input type="password" autoComplete="new-password" value={values.Password} onChange={(e) => setValues((v) => ({ ...v, Password: e.target.value }))} />
          </Field>
          <Field label={m.account_password_confirm()} error={errors.Confirm}>
            <input type="password" autoComplete="new-password" value={values.Confirm} onChange={(e) => setValues((v) => ({ ...v, Confirm: e.target.value }))} />
          </Field>
          {(errors.Token ?? errors.form) && (
            <p role="alert" className="alert alert-danger">
              {errors.Token ?? errors.form}
            </p>
          )}
          <button type="submit" className="button primary block" disabled={busy} aria-busy={busy}>
            {m.signup_reset_submit()}
          </button>
        </form>
      )}
      {errors.Token && newLink}
      <BackToLogin />
    </LoginFrame>
  );
}
