// One user's permissions (section 6), edited in a dialog: the draft is checked as it changes (the
// rules show at their fields and Save waits until none is left), then PUT
// /v1/users/{userId}/permissions; a 400 from the server shows at the field it names, anything else
// in the dialog. Offline the dialog shows the permissions read-only and says why.
import { useMemo, useState } from 'react';
import { m } from '../../paraglide/messages.js';
import { fieldErrorText, formatFormError } from '../../domain/messages.ts';
import { setUserPermissions } from '../../protocol/api/users.ts';
import { permissionChangeError } from '../../domain/users.ts';
import { call } from '../../lib/api.ts';
import { withLoading } from '../../lib/loading.ts';
import { useNetworks, usePrograms } from '../../lib/rows.ts';
import { showSavedToast } from '../../lib/toast.ts';
import { useDialogVeto } from '../../ui/Dialog.tsx';
import { FormDialog } from './FormDialog.tsx';
import { PermissionFields, useEditedDraft } from './PermissionFields.tsx';
import { draftErrors, draftKeyOfField, draftOf, entriesOf, type Draft, type Member } from './permission-draft.ts';

/** The draft's own errors as text, then the server's (by draft key) where the draft has none. */
export function errorTexts(draft: Draft, organizationId: string, server: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = { ...server };
  for (const [key, error] of Object.entries(draftErrors(draft, organizationId))) out[key] = formatFormError(error);
  return out;
}

/** A refused save's 400 as texts by draft key (an error the draft cannot place goes to the form). */
export function serverErrorTexts(errors: ReadonlyArray<Parameters<typeof fieldErrorText>[0] & { Field: string }>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of errors) out[draftKeyOfField(e.Field, prefix) ?? 'form'] ??= fieldErrorText(e);
  return out;
}

/** `members`: the organization's users as listed, for the last-manager rule (said before Save). */
export function PermissionsDialog({ organizationId, user, members, online, onClose, onSaved }: { organizationId: string; user: Member; members: readonly Member[]; online: boolean; onClose: () => void; onSaved: () => void }) {
  const initial = useMemo(() => draftOf(user.Permissions), [user]);
  const { draft, change, touched, server, setServer } = useEditedDraft(() => initial);
  const [busy, setBusy] = useState(false);
  const networks = useNetworks(organizationId) ?? [];
  const programs = usePrograms(organizationId) ?? [];
  useDialogVeto(touched);
  const keepManager = touched ? permissionChangeError(user, entriesOf(draft, organizationId), members) : null;
  const errors = { ...errorTexts(draft, organizationId, server), ...(keepManager ? { form: formatFormError(keepManager) } : {}) };
  const blocked = Object.keys(draftErrors(draft, organizationId)).length > 0 || keepManager !== null;

  const save = async () => {
    if (!online) {
      setServer({ form: m.users_change_offline() });
      return;
    }
    setBusy(true);
    const res = await withLoading(call(setUserPermissions, { params: { userId: user.Id }, json: entriesOf(draft, organizationId) }));
    setBusy(false);
    if (res.kind === 'ok') {
      showSavedToast(m.users_permissions_saved({ name: user.Name }));
      onSaved();
      onClose();
      return;
    }
    if (res.kind === 'badRequest') setServer(serverErrorTexts(res.body.Errors, 'body'));
    else setServer({ form: res.kind === 'notFound' ? m.users_gone() : res.kind === 'error' && !navigator.onLine ? m.users_change_offline() : m.users_save_failed() });
  };

  return (
    <FormDialog title={m.users_permissions_title({ name: user.Name })} description={user.Email} submitLabel={m.users_save()} canSubmit={touched && !blocked} busy={busy} online={online} onClose={onClose} onSubmit={save}>
      <PermissionFields
        draft={draft}
        onChange={change}
        errors={errors}
        networks={networks}
        programs={programs}
        disabled={busy || !online}
      />
    </FormDialog>
  );
}
