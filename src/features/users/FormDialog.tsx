// The frame of the users screen's two form dialogs (a user's permissions, an invitation): the
// dialog, Cancel and the submit action in its footer, the form, and offline a line that says the
// change needs the network (memberships change on the server only).
import { useId, type ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import { Dialog } from '../../ui/Dialog.tsx';

export function FormDialog({ title, description, submitLabel, canSubmit, busy, online, onClose, onSubmit, children }: {
  title: string;
  description: string;
  submitLabel: string;
  canSubmit: boolean;
  busy: boolean;
  online: boolean;
  onClose: () => void;
  onSubmit: () => Promise<void>;
  children: ReactNode;
}) {
  const formId = useId();
  return (
    <Dialog
      open
      width="medium"
      onClose={onClose}
      title={title}
      description={description}
      footer={
        <>
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            {m.users_cancel()}
          </button>
          <button type="submit" form={formId} className="button primary" disabled={busy || !online || !canSubmit} aria-busy={busy}>
            {submitLabel}
          </button>
        </>
      }
    >
      <form
        id={formId}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void onSubmit();
        }}
      >
        {!online && (
          <p className="alert alert-warning" role="status">
            {m.users_change_offline()}
          </p>
        )}
        {children}
      </form>
    </Dialog>
  );
}
