// Creating an account (issue 31; section 7: POST /internal/account, 200 or 451), reached from the
// login screen at /account/new. The form's one rule (accountFormErrors, section 5's messages) runs
// as it is sent, and the server's 400 lands at its field. A location the studio does not serve
// gets the 451 page of section 2. On success the user is signed in, unactivated, and lands on the
// studio's first screen, where the banner offers the confirmation e-mail again.
//
//   form ──submit──> the form's errors at their fields
//        └─ valid ──> POST ──200──> signed in (unactivated) at /
//                          ├─400──> each error at its field (the address taken: at Email)
//                          ├─451──> 'Not available in your location'
//                          ├─429──> try again in an hour
//                          └─network──> it needs the network
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { call, setXsrfToken } from '../../lib/api.ts';
import { createAccount, accountFormErrors, type AccountField } from '../../protocol/api/account.ts';
import { loadSession } from '../../lib/session.ts';
import { getLocale } from '../../lib/i18n.ts';
import { withLoading } from '../../lib/loading.ts';
import { Link, navigate } from '../../lib/router.ts';
import { fieldErrorTexts, formatFormError } from '../../domain/messages.ts';
import { PASSWORD_MIN_LENGTH } from '../../domain/constants.ts';
import { Field } from '../../ui/Field.tsx';
import { StatusErrorPage } from '../../ui/ErrorPage.tsx';
import { LoginFrame } from './LoginFrame.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { mailUnknownHostText } from '../../lib/mail-refusal.ts';

type Values = Record<'Email' | 'Name' | 'Password' | 'OrganizationName', string>;
type Errors = Partial<Record<AccountField | 'form', string>>;

const FIELDS: readonly AccountField[] = ['Email', 'Name', 'FirstName', 'Password', 'OrganizationName'];

export function SignUpScreen() {
  const [values, setValues] = useState<Values>({ Email: '', Name: '', Password: '', OrganizationName: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [busy, setBusy] = useState(false);
  const [unavailable, setUnavailable] = useState(false);
  useDocumentTitle([m.signup_title()]);

  if (unavailable) return <StatusErrorPage status={451} />;

  const set = (field: keyof Values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));

  const submit = async () => {
    const body = { Email: values.Email.trim(), Name: values.Name.trim(), Password: values.Password, OrganizationName: values.OrganizationName.trim() };
    const found = accountFormErrors(body);
    const local: Errors = {};
    for (const [field, error] of Object.entries(found)) if (error) local[field as AccountField] = formatFormError(error);
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    if (!navigator.onLine) {
      setErrors({ form: m.signup_offline() });
      return;
    }
    setBusy(true);
    setXsrfToken(null); // the new session's own token is fetched when it first writes
    const res = await withLoading(call(createAccount, { json: { ...body, InterfaceLanguage: getLocale() }, xsrf: false }));
    if (res.kind === 'ok') {
      // The studio's first screen, then the session that shows it (this path is not one of the signed-in routes).
      navigate('/');
      await withLoading(loadSession());
      return;
    }
    setBusy(false);
    if (res.kind === 'badRequest') setErrors(fieldErrorTexts(res.body.Errors, FIELDS));
    else if (res.kind === 'status' && res.status === 451) setUnavailable(true);
    else if (res.kind === 'status' && res.status === 429) setErrors({ form: m.signup_too_many() });
    else setErrors({ form: mailUnknownHostText(res) ?? (navigator.onLine ? m.signup_error() : m.signup_offline()) });
  };

  return (
    <LoginFrame>
      <h1>{m.signup_title()}</h1>
      <p className="tagline">{m.signup_intro()}</p>
      <form
        className="login-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <Field label={m.signup_name()} error={errors.Name}>
          <input type="text" autoComplete="name" value={values.Name} onChange={set('Name')} />
        </Field>
        <Field label={m.signup_email()} error={errors.Email}>
          <input type="email" autoComplete="email" value={values.Email} onChange={set('Email')} />
        </Field>
        <Field label={m.signup_password()} hint={m.signup_password_hint({ min: PASSWORD_MIN_LENGTH })} error={errors.Password}>
          <input type="password" autoComplete="new-password" value={values.Password} onChange={set('Password')} />
        </Field>
        <Field label={m.signup_organization()} hint={m.signup_organization_hint()} error={errors.OrganizationName}>
          <input type="text" autoComplete="organization" value={values.OrganizationName} onChange={set('OrganizationName')} />
        </Field>
        {errors.form && (
          <p role="alert" className="alert alert-danger">
            {errors.form}
          </p>
        )}
        <button type="submit" className="button primary block" disabled={busy} aria-busy={busy}>
          {m.signup_submit()}
        </button>
      </form>
      <p className="tagline">
        {m.signup_have_account()} <Link href="/">{m.signup_log_in()}</Link>
      </p>
    </LoginFrame>
  );
}
