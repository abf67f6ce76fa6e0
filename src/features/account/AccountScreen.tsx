// Account settings (section 2: /account, activated users only, with an optional `error` search
// parameter; /account/profile, linked from the browser-translation warning). The profile: the
// user's name (PATCH /api/internal/users/me, section 7), the e-mail address they log in with,
// their picture (ProfilePicture.tsx) and the interface language, which saves InterfaceLanguage
// and reloads (section 4, src/lib/language.ts, the same as the user menu's). Account settings
// add the password (PUT /api/internal/users/me/password: the current one, the new one twice,
// section 5's messages at the fields, the server's refusals there too) and the e-mail address (PUT /api/internal/users/me/email:
// the new address is mailed a link, and changes when it is opened: ConfirmEmailScreen) and the
// user's two-factor sign-in (TwoFactor.tsx), where they are signed in (Sessions.tsx) and API keys
// (ApiKeys.tsx).
// Who may open it is the route's business (SignedIn.tsx: 403 for an unactivated user).
import { useId, useMemo, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { validateName } from '../../domain/validators.ts';
import { validatePasswordChange } from '../../domain/password.ts';
import { PASSWORD_MIN_LENGTH } from '../../domain/constants.ts';
import { changeEmail, changePassword, emailChangeFormErrors } from '../../protocol/api/account-security.ts';
import { call } from '../../lib/api.ts';
import { updateMe } from '../../protocol/api/session.ts';
import { useEditState } from '../../lib/form.ts';
import { getLocale, locales, type Locale } from '../../lib/i18n.ts';
import { changeLanguage, LANGUAGE_NAMES } from '../../lib/language.ts';
import { withLoading } from '../../lib/loading.ts';
import { Link, useSearch } from '../../lib/router.ts';
import { loadSession, useSession, type SessionUser } from '../../lib/session.ts';
import { showToast } from '../../lib/toast.ts';
import { useUnsavedGuard } from '../../lib/unsaved.ts';
import { Field } from '../../ui/Field.tsx';
import { PageHeader } from '../../ui/PageHeader.tsx';
import { ThemeSetting } from './ThemeSetting.tsx';
import { ProfilePicture } from './ProfilePicture.tsx';
import { ApiKeysSection } from './ApiKeys.tsx';
import { TwoFactorSection } from './TwoFactor.tsx';
import { SessionsSection } from './Sessions.tsx';
import { refusalText, SettingsForm } from './settings-form.tsx';

/** /account: the account's settings, with the `error` a flow that sent the user here reports. */
export function AccountScreen() {
  const error = new URLSearchParams(useSearch()).get('error');
  return (
    <>
      <PageHeader title={m.app_menu_account_settings()} />
      {error && (
        <p role="alert" className="alert alert-danger">
          {m.account_error({ error })}
        </p>
      )}
      <Profile />
      <PasswordForm />
      <EmailForm />
      <TwoFactorSection />
      <SessionsSection />
      <ApiKeysSection />
      <ThemeSetting />
    </>
  );
}

/** /account/profile: the profile section on its own. */
export function ProfileScreen() {
  return (
    <>
      <PageHeader title={m.account_profile_title()} link={<Link href="/account">{m.app_menu_account_settings()}</Link>} />
      <Profile />
    </>
  );
}

function Profile() {
  const user = useSession()?.session.User;
  if (!user) return null;
  return (
    <>
      <NameForm user={user} />
      <ProfilePicture user={user} />
      <LanguageForm />
    </>
  );
}

function NameForm({ user }: { user: SessionUser }) {
  const baseline = useMemo(() => ({ Name: user.Name }), [user.Name]);
  const form = useEditState(baseline);
  const [error, setError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useUnsavedGuard('form', form.dirty);

  const apply = async () => {
    setFailure(null);
    const invalid = validateName(form.values.Name);
    setError(invalid ? formatFormError(invalid) : null);
    if (invalid) {
      document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setBusy(true);
    const res = await withLoading(call(updateMe, { json: { Name: form.values.Name.trim() } }));
    if (res.kind === 'ok') {
      // The menu's 'Signed in as' and the contact form's prefill read the session.
      await withLoading(loadSession());
      form.reset();
      showToast({ type: 'success', title: m.app_form_saved() });
    } else if (res.kind === 'badRequest') {
      const refused = res.body.Errors.find((e) => e.Field === 'Name') ?? res.body.Errors[0];
      setError(refused ? fieldErrorText(refused) : m.account_save_failed());
    } else {
      setFailure(m.account_save_failed());
    }
    setBusy(false);
  };

  return (
    <SettingsForm
      title={m.account_profile_title()}
      error={failure ?? undefined}
      busy={busy}
      disabled={!form.dirty}
      submitLabel={m.app_form_apply()}
      onSubmit={apply}
      onReset={
        form.dirty
          ? () => {
              form.reset();
              setError(null);
              setFailure(null);
            }
          : undefined
      }
    >
      <Field label={m.app_field_name()} error={error}>
        <input autoComplete="name" value={form.values.Name} onChange={(e) => form.set('Name', e.target.value)} />
      </Field>
      <Field label={m.app_login_email()} hint={m.account_email_hint()}>
        <input type="email" readOnly value={user.Email} />
      </Field>
    </SettingsForm>
  );
}

function LanguageForm() {
  const current = getLocale();
  const [choice, setChoice] = useState<Locale>(current);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  return (
    <form
      className="card form"
      aria-labelledby={headingId}
      onSubmit={(e) => {
        e.preventDefault();
        setBusy(true);
        void withLoading(changeLanguage(choice)); // reloads the page
      }}
    >
      <h2 id={headingId}>{m.account_language_title()}</h2>
      <Field label={m.app_menu_language()} hint={m.account_language_hint()}>
        <select value={choice} onChange={(e) => setChoice(e.target.value as Locale)}>
          {locales.map((l) => (
            <option key={l} value={l} lang={l === 'en-XA' ? 'en' : l}>
              {LANGUAGE_NAMES[l]}
            </option>
          ))}
        </select>
      </Field>
      <div className="form-actions">
        <button type="submit" className="button primary" disabled={choice === current || busy} aria-busy={busy}>
          {m.account_language_save()}
        </button>
      </div>
    </form>
  );
}

const focusFirstError = () => requestAnimationFrame(() => document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());

type PasswordValues = Record<'CurrentPassword' | 'NewPassword' | 'Confirm', string>;
const NO_PASSWORDS: PasswordValues = { CurrentPassword: '', NewPassword: '', Confirm: '' };

function PasswordForm() {
  const email = useSession()?.session.User?.Email ?? '';
  const form = useEditState(NO_PASSWORDS);
  const [errors, setErrors] = useState<Partial<Record<keyof PasswordValues | 'form', string>>>({});
  // Section 5: the new password the server refused may not be sent again as it was.
  const [rejected, setRejected] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  useUnsavedGuard('form', form.dirty);

  const apply = async () => {
    const { CurrentPassword, NewPassword, Confirm } = form.values;
    const found = validatePasswordChange({ currentPassword: CurrentPassword, newPassword: NewPassword, confirmPassword: Confirm, previouslyRejected: rejected });
    const local: typeof errors = {};
    if (found.currentPassword) local.CurrentPassword = formatFormError(found.currentPassword);
    if (found.newPassword) local.NewPassword = formatFormError(found.newPassword);
    if (found.confirmPassword) local.Confirm = formatFormError(found.confirmPassword);
    setErrors(local);
    if (Object.keys(local).length > 0) {
      focusFirstError();
      return;
    }
    setBusy(true);
    const res = await withLoading(call(changePassword, { json: { CurrentPassword, NewPassword } }));
    setBusy(false);
    if (res.kind === 'ok') {
      form.reset();
      setRejected(null);
      showToast({ type: 'success', title: m.account_password_changed() });
      return;
    }
    const refused = refusalText(res, ['CurrentPassword', 'NewPassword'] as const, m.account_password_failed());
    if (refused.NewPassword) setRejected(NewPassword);
    setErrors(refused);
    focusFirstError();
  };

  return (
    <SettingsForm title={m.account_password_title()} error={errors.form} busy={busy} disabled={!form.dirty} submitLabel={m.account_password_save()} onSubmit={apply}>
      {/* For password managers: whose password this is. */}
      <input type="email" autoComplete="username" value={email} readOnly hidden />
      <Field label={m.account_password_current()} error={errors.CurrentPassword}>
        <input type="password" autoComplete="current-password" value={form.values.CurrentPassword} onChange={(e) => form.set('CurrentPassword', e.target.value)} />
      </Field>
      <Field label={m.account_password_new()} hint={m.account_password_hint({ min: PASSWORD_MIN_LENGTH })} error={errors.NewPassword}>
        <input type="password" autoComplete="new-password" value={form.values.NewPassword} onChange={(e) => form.set('NewPassword', e.target.value)} />
      </Field>
      <Field label={m.account_password_confirm()} error={errors.Confirm}>
        <input type="password" autoComplete="new-password" value={form.values.Confirm} onChange={(e) => form.set('Confirm', e.target.value)} />
      </Field>
    </SettingsForm>
  );
}

type EmailValues = Record<'Email' | 'CurrentPassword', string>;
const NO_EMAIL: EmailValues = { Email: '', CurrentPassword: '' };

function EmailForm() {
  const user = useSession()?.session.User;
  const form = useEditState(NO_EMAIL);
  const [errors, setErrors] = useState<Partial<Record<keyof EmailValues | 'form', string>>>({});
  const [busy, setBusy] = useState(false);
  useUnsavedGuard('form', form.dirty);
  if (!user) return null;

  const apply = async () => {
    const body = { Email: form.values.Email.trim(), CurrentPassword: form.values.CurrentPassword };
    const found = emailChangeFormErrors(body);
    const local: typeof errors = {};
    if (found.Email) local.Email = formatFormError(found.Email);
    if (found.CurrentPassword) local.CurrentPassword = formatFormError(found.CurrentPassword);
    setErrors(local);
    if (Object.keys(local).length > 0) {
      focusFirstError();
      return;
    }
    setBusy(true);
    const res = await withLoading(call(changeEmail, { json: body }));
    setBusy(false);
    if (res.kind === 'ok') {
      form.reset();
      showToast({ type: 'success', title: m.account_email_sent({ email: body.Email }) });
      return;
    }
    setErrors(refusalText(res, ['Email', 'CurrentPassword'] as const, m.account_email_failed()));
    focusFirstError();
  };

  return (
    <SettingsForm title={m.account_email_title()} error={errors.form} busy={busy} disabled={!form.dirty} submitLabel={m.account_email_save()} onSubmit={apply}>
      <p>{m.account_email_intro({ email: user.Email })}</p>
      <Field label={m.account_email_new()} error={errors.Email}>
        <input type="email" autoComplete="email" value={form.values.Email} onChange={(e) => form.set('Email', e.target.value)} />
      </Field>
      <Field label={m.account_password_current()} error={errors.CurrentPassword}>
        <input type="password" autoComplete="current-password" value={form.values.CurrentPassword} onChange={(e) => form.set('CurrentPassword', e.target.value)} />
      </Field>
    </SettingsForm>
  );
}
