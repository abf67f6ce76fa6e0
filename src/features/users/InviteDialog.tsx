// Invite by e-mail (section 7 POST /v1/users/invitation; src/protocol/api/invitations.ts): an
// address and the permissions the member will have, in the same editor as a member's. The address
// rule (section 5) and section 6's show at their fields before anything is sent, the server's 400s
// at the field they name. Sent: the studio says it was mailed, or, when it has no SMTP (the mail is
// kept on the server), shows the link once to copy and pass on; "Send again" re-sends it with a
// new link (POST /v1/users/{userId}/invitation: the earlier link stops working).
//
//   form ──Invite──> sent (Mailed: "sent to …" | Kept: the link, Copy) ──Send again──> sent
//     └──400──> form, the error at its field      └─429──> "too many", at the form
import { useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { createInvitation, invitationFormErrors, resendInvitation, type Invitation } from '../../protocol/api/invitations.ts';
import { call, type ApiResult } from '../../lib/api.ts';
import { withLoading } from '../../lib/loading.ts';
import { useNetworks, usePrograms } from '../../lib/rows.ts';
import { showToast } from '../../lib/toast.ts';
import { useDialogVeto } from '../../ui/Dialog.tsx';
import { Field } from '../../ui/Field.tsx';
import { SecretOnce } from '../../ui/SecretOnce.tsx';
import { PermissionFields, useEditedDraft } from './PermissionFields.tsx';
import { FormDialog } from './FormDialog.tsx';
import { errorTexts, serverErrorTexts } from './PermissionsDialog.tsx';
import { draftErrors, entriesOf, newRow, type Draft } from './permission-draft.ts';
import { mailUnknownHostText } from '../../lib/mail-refusal.ts';
import { planRefusalOf } from '../../lib/plan-words.ts';
import { getLocale } from '../../lib/i18n.ts';

const START: Draft = { scope: 'Program', organizationFlags: {}, rows: [] };

export function InviteDialog({ open, organizationId, online, onClose, onInvited }: { open: boolean; organizationId: string; online: boolean; onClose: () => void; onInvited: () => void }) {
  return open ? <InviteForm organizationId={organizationId} online={online} onClose={onClose} onInvited={onInvited} /> : null;
}

function refusal(res: ApiResult<unknown>, failed: string): string {
  const unknownHost = mailUnknownHostText(res);
  if (unknownHost) return unknownHost;
  if (res.kind === 'status' && res.status === 429) return m.users_invite_too_many();
  if (res.kind === 'error' && !navigator.onLine) return m.users_change_offline();
  // The ExtraSeats cap: the add-on, its cap and the seats used, with who can raise it.
  return planRefusalOf(res, getLocale()) ?? failed;
}

function InviteForm({ organizationId, online, onClose, onInvited }: { organizationId: string; online: boolean; onClose: () => void; onInvited: () => void }) {
  const [email, setEmail] = useState('');
  const { draft, change, touched, touch, server, setServer } = useEditedDraft(() => ({ ...START, rows: [newRow()] }));
  const [checked, setChecked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState<Invitation | null>(null);
  const networks = useNetworks(organizationId) ?? [];
  const programs = usePrograms(organizationId) ?? [];
  useDialogVeto(touched && sent === null);

  const emailError = checked ? invitationFormErrors({ Email: email }).Email : undefined;
  // A row not yet given its program is said to need one when Invite is pressed, not while typing.
  const pending = draftErrors(draft, organizationId);
  const errors = Object.fromEntries(Object.entries(errorTexts(draft, organizationId, server)).filter(([key]) => checked || pending[key]?.type !== 'required'));

  const invite = async () => {
    setChecked(true);
    if (invitationFormErrors({ Email: email }).Email || Object.keys(draftErrors(draft, organizationId)).length > 0) return;
    if (!online) {
      setServer({ form: m.users_change_offline() });
      return;
    }
    setBusy(true);
    const res = await withLoading(call(createInvitation, { json: { Email: email.trim(), Permissions: entriesOf(draft, organizationId) } }));
    setBusy(false);
    if (res.kind === 'ok') {
      setSent(res.data);
      onInvited();
      return;
    }
    if (res.kind === 'badRequest') {
      const atEmail = res.body.Errors.find((e) => e.Field === 'Email');
      setServer({ ...serverErrorTexts(res.body.Errors.filter((e) => e !== atEmail), 'Permissions'), ...(atEmail ? { Email: fieldErrorText(atEmail) } : {}) });
    } else setServer({ form: refusal(res, m.users_invite_failed()) });
  };

  const resend = async () => {
    if (!sent) return;
    setBusy(true);
    const res = await withLoading(call(resendInvitation, { params: { userId: sent.UserId } }));
    setBusy(false);
    if (res.kind === 'ok') showToast({ type: 'success', title: m.users_invite_resent({ email: sent.Email }) });
    else setServer({ form: refusal(res, m.users_invite_failed()) });
  };

  const done = sent && {
    footer: (
      <>
        <button type="button" className="button" disabled={busy || !online} onClick={() => void resend()}>
          {m.users_invite_resend()}
        </button>
        <button type="button" className="button primary" onClick={onClose}>
          {m.users_done()}
        </button>
      </>
    ),
    body: (
      <>
        {sent.Delivery === 'Mailed' || sent.Link === null ? (
          <p role="status">{m.users_invite_mailed({ email: sent.Email })}</p>
        ) : (
          <>
            <p role="status">{m.users_invite_kept({ email: sent.Email })}</p>
            <SecretOnce
              secret={sent.Link}
              words={{ once: m.users_invite_link_once(), label: m.users_invite_link(), copy: m.users_copy(), copied: m.users_copied(), copyFailed: m.users_copy_failed() }}
            />
          </>
        )}
        {server.form && (
          <p role="alert" className="alert alert-danger">
            {server.form}
          </p>
        )}
      </>
    ),
  };

  return (
    <FormDialog title={m.users_invite_title()} description={m.users_invite_intro()} submitLabel={m.users_invite_send()} canSubmit busy={busy} online={online} onClose={onClose} onSubmit={invite} done={done || undefined}>
      <Field label={m.users_invite_email()} error={emailError ? formatFormError(emailError) : (server.Email ?? null)}>
        <input
          type="email"
          autoComplete="off"
          value={email}
          disabled={busy}
          onChange={(e) => {
            setEmail(e.target.value);
            touch();
          }}
        />
      </Field>
      <PermissionFields
        draft={draft}
        onChange={change}
        errors={errors}
        networks={networks}
        programs={programs}
        disabled={busy}
      />
    </FormDialog>
  );
}
