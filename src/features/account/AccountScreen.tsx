// Account settings (section 2: /account, activated users only, with an optional `error` search
// parameter; /account/profile, linked from the browser-translation warning). The profile: the
// user's name (PATCH /api/internal/users/me, section 7), the e-mail address they log in with
// (read-only: the server has no endpoint to change it yet) and the interface language, which saves
// InterfaceLanguage and reloads (section 4, src/lib/language.ts, the same as the user menu's).
// Who may open it is the route's business (SignedIn.tsx: 403 for an unactivated user).
import { useId, useMemo, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { validateName } from '../../domain/validators.ts';
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
  const headingId = useId();
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
    <form
      className="card form"
      noValidate
      aria-labelledby={headingId}
      onSubmit={(e) => {
        e.preventDefault();
        void apply();
      }}
    >
      <h2 id={headingId}>{m.account_profile_title()}</h2>
      <Field label={m.app_field_name()} error={error}>
        <input autoComplete="name" value={form.values.Name} onChange={(e) => form.set('Name', e.target.value)} />
      </Field>
      <Field label={m.app_login_email()} hint={m.account_email_hint()}>
        <input type="email" readOnly value={user.Email} />
      </Field>
      {failure && (
        <p role="alert" className="alert alert-danger">
          {failure}
        </p>
      )}
      <div className="form-actions">
        {form.dirty && (
          <button
            type="button"
            className="button"
            disabled={busy}
            onClick={() => {
              form.reset();
              setError(null);
              setFailure(null);
            }}
          >
            {m.app_form_reset()}
          </button>
        )}
        <button type="submit" className="button primary" disabled={!form.dirty || busy} aria-busy={busy}>
          {m.app_form_apply()}
        </button>
      </div>
    </form>
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
