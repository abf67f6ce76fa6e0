// The screen an invitation link opens (issue 31; section 7: GET and PUT /internal/invitations/{id}):
// /internal/invitations/{invitationId}?token=…, signed out or signed in, in the login frame.
//
//   no token ──> 'open the link again'
//   GET ──404──> 'not a valid link'      ──network──> offline or failed
//       └─200──> Used or Expired: its message (and the way to log in)
//                Open, the address has no account ──> name, first name, password, confirmation:
//                    submit ──> section 5's errors at the fields ──> PUT ──204──> signed in, in the organization
//                                                                      ├─400──> at the fields (Token's above the button)
//                                                                      ├─403 addOnCapReached──> no free seat: the cap and the seats taken
//                                                                      └─network──> offline or failed
//                Open, the address has an account: signed out ──> the login screen, which comes back here
//                                                  signed in as it ──> Join ──> PUT ──204──> in the organization
//                                                  signed in as another ──> 'this invitation is for …'
import { useEffect, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { call } from '../../lib/api.ts';
import { loadSession, useSession } from '../../lib/session.ts';
import { withLoading } from '../../lib/loading.ts';
import { Link, navigate, useSearch } from '../../lib/router.ts';
import { fieldErrorTexts, formatFormError } from '../../domain/messages.ts';
import { formError } from '../../domain/form-errors.ts';
import { PASSWORD_MIN_LENGTH } from '../../domain/constants.ts';
import { validatePasswordChange } from '../../domain/password.ts';
import { acceptInvitation, getInvitation, invitationAcceptFormErrors, type InvitationDescription } from '../../protocol/api/invitations.ts';
import { readPlanRefusal } from '../../protocol/api/plans.ts';
import { seatsFullText } from '../../lib/plan-words.ts';
import { getLocale } from '../../lib/i18n.ts';
import { Field } from '../../ui/Field.tsx';
import { useDocumentTitle } from '../../ui/useDocumentTitle.ts';
import { LoginFrame } from './LoginFrame.tsx';
import { LoginScreen } from './LoginScreen.tsx';

type Lookup = { kind: 'loading' } | { kind: 'found'; invitation: InvitationDescription } | { kind: 'failed'; message: string };
type Fields = 'Name' | 'FirstName' | 'Password' | 'Confirm' | 'Token' | 'form';

const STATE_MESSAGE = { Used: 'domain_invitation_used', Expired: 'domain_invitation_expired' } as const;

export function InvitationScreen({ invitationId }: { invitationId: string }) {
  const token = new URLSearchParams(useSearch()).get('token');
  const session = useSession()?.session;
  const [lookup, setLookup] = useState<Lookup>({ kind: 'loading' });
  const [values, setValues] = useState({ Name: '', FirstName: '', Password: '', Confirm: '' });
  const [errors, setErrors] = useState<Partial<Record<Fields, string>>>({});
  const [busy, setBusy] = useState(false);
  const invitation = lookup.kind === 'found' ? lookup.invitation : null;
  useDocumentTitle([invitation ? m.signup_invitation_title({ organization: invitation.OrganizationName }) : m.app_loading()]);

  useEffect(() => {
    if (!token) return;
    let live = true;
    void withLoading(call(getInvitation, { params: { invitationId }, query: { token } })).then((res) => {
      if (!live) return;
      if (res.kind === 'ok') setLookup({ kind: 'found', invitation: res.data });
      else if (res.kind === 'notFound' || res.kind === 'badRequest') setLookup({ kind: 'failed', message: m.signup_invitation_not_found() });
      else setLookup({ kind: 'failed', message: navigator.onLine ? m.signup_invitation_error() : m.signup_invitation_offline() });
    });
    return () => {
      live = false;
    };
  }, [invitationId, token]);

  if (!token) return <Frame alert={m.signup_invitation_missing()} />;
  if (lookup.kind === 'loading') {
    return (
      <LoginFrame>
        <p role="status">{m.app_loading()}</p>
      </LoginFrame>
    );
  }
  if (lookup.kind === 'failed') return <Frame alert={lookup.message} />;
  const found = lookup.invitation;
  const organization = found.OrganizationName;
  if (found.State !== 'Open') return <Frame title={m.signup_invitation_title({ organization })} alert={formatFormError(formError('invalid', STATE_MESSAGE[found.State]))} />;

  const signedInAs = session && session.Type !== 'loggedOut' ? (session.User?.Email ?? null) : null;
  // The address's own account joins; signed out, it logs in first (this same address afterwards).
  if (found.AccountExists && signedInAs === null) return <LoginScreen notice={m.signup_invitation_sign_in({ email: found.Email })} />;

  const submit = async () => {
    const local: Partial<Record<Fields, string>> = {};
    if (!found.AccountExists) {
      const invalid = invitationAcceptFormErrors(values);
      for (const field of ['Name', 'FirstName', 'Password'] as const) {
        const error = invalid[field];
        if (error) local[field] = formatFormError(error);
      }
      // Section 5's confirmation rule (the password's own rule is the server's, above).
      const confirm = validatePasswordChange({ newPassword: values.Password, confirmPassword: values.Confirm }).confirmPassword;
      if (!invalid.Password && confirm) local.Confirm = formatFormError(confirm);
    }
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    if (!navigator.onLine) {
      setErrors({ form: m.signup_invitation_offline() });
      return;
    }
    setBusy(true);
    const json = found.AccountExists ? { Token: token } : { Token: token, Name: values.Name.trim(), FirstName: values.FirstName.trim(), Password: values.Password };
    // A new account replaces whatever session this browser had: no XSRF token to send. Joining with
    // the signed-in account is that session's own write.
    const res = await withLoading(call(acceptInvitation, { params: { invitationId }, json, xsrf: found.AccountExists }));
    if (res.kind === 'ok') {
      navigate(`/${found.OrganizationId}`);
      await withLoading(loadSession());
      return;
    }
    setBusy(false);
    if (res.kind === 'badRequest') setErrors(fieldErrorTexts(res.body.Errors, ['Name', 'FirstName', 'Password', 'Token'] as const));
    else if (res.kind === 'status' && res.status === 403) setErrors({ form: refusalText(res.body, found) });
    else if (res.kind === 'notFound') setErrors({ form: m.signup_invitation_not_found() });
    else setErrors({ form: navigator.onLine ? m.signup_invitation_error() : m.signup_invitation_offline() });
  };

  const otherAccount = found.AccountExists && signedInAs !== null && signedInAs.toLowerCase() !== found.Email.toLowerCase();
  const set = (field: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [field]: e.target.value }));
  return (
    <LoginFrame>
      <h1>{m.signup_invitation_title({ organization })}</h1>
      <p className="tagline">{m.signup_invitation_intro({ inviter: found.InvitedByName, email: found.Email, organization })}</p>
      {otherAccount ? (
        <p role="alert" className="alert alert-warning">
          {formatFormError(formError('invalid', 'domain_invitation_other_account', { email: found.Email }))}
        </p>
      ) : (
        <form
          className="login-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          {found.AccountExists ? (
            <p>{m.signup_invitation_join_intro({ email: found.Email, organization })}</p>
          ) : (
            <>
              <p>{m.signup_invitation_new_account()}</p>
              <Field label={m.signup_email()}>
                <input type="email" autoComplete="username" value={found.Email} readOnly />
              </Field>
              <Field label={m.signup_name()} error={errors.Name}>
                <input autoComplete="name" value={values.Name} onChange={set('Name')} />
              </Field>
              <Field label={m.signup_invitation_first_name()} hint={m.signup_invitation_first_name_hint()} error={errors.FirstName}>
                <input autoComplete="given-name" value={values.FirstName} onChange={set('FirstName')} />
              </Field>
              <Field label={m.signup_password()} hint={m.signup_password_hint({ min: PASSWORD_MIN_LENGTH })} error={errors.Password}>
                <input type="password" autoComplete="new-password" value={values.Password} onChange={set('Password')} />
              </Field>
              <Field label={m.signup_invitation_confirm()} error={errors.Confirm}>
                <input type="password" autoComplete="new-password" value={values.Confirm} onChange={set('Confirm')} />
              </Field>
            </>
          )}
          {(errors.Token ?? errors.form) && (
            <p role="alert" className="alert alert-danger">
              {errors.Token ?? errors.form}
            </p>
          )}
          <button type="submit" className="button primary block" disabled={busy} aria-busy={busy}>
            {found.AccountExists ? m.signup_invitation_join({ organization }) : m.signup_invitation_accept()}
          </button>
        </form>
      )}
    </LoginFrame>
  );
}

/** Why the server refused the acceptance (403): the organization's seats are at its plan's cap
 * (the add-on's figures, said as seats), or the address has an account the caller is not signed in as. */
function refusalText(body: unknown, found: InvitationDescription): string {
  const plan = readPlanRefusal(body);
  if (plan?.kind === 'cap') return seatsFullText(plan, found.OrganizationName, getLocale());
  return formatFormError(formError('invalid', 'domain_invitation_other_account', { email: found.Email }));
}

/** The invitation cannot be accepted here: why, and the way to the login screen. */
function Frame({ title, alert }: { title?: string; alert: string }) {
  return (
    <LoginFrame>
      {title && <h1>{title}</h1>}
      <p role="alert" className="alert alert-warning">
        {alert}
      </p>
      <p className="tagline">
        <Link href="/">{m.signup_back_to_login()}</Link>
      </p>
    </LoginFrame>
  );
}
