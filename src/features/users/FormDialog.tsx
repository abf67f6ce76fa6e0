// The frame of the users screen's two form dialogs (a user's permissions, an invitation): the
// dialog, Cancel and the submit action in its footer, the form, and offline a line that says the
// change needs the network (memberships change on the server only). `done` replaces the form and
// its footer once it has been sent, in the same dialog: a second dialog opened in the place of the
// first took the click or focus that left the first as an interaction outside it and closed at
// once (the invitation's link was never seen, once in CI).
import { useId, type ReactNode } from 'react';
import { m } from '../../paraglide/messages.js';
import { Dialog } from '../../ui/Dialog.tsx';

export function FormDialog({ title, description, submitLabel, canSubmit, busy, online, onClose, onSubmit, done, children }: {
  title: string;
  description: string;
  submitLabel: string;
  canSubmit: boolean;
  busy: boolean;
  online: boolean;
  onClose: () => void;
  onSubmit: () => Promise<void>;
  done?: { body: ReactNode; footer: ReactNode } | undefined;
  children: ReactNode;
}) {
  const formId = useId();
  return (
    <Dialog
      open
      width="medium"
      onClose={onClose}
      title={title}
      {...(done ? {} : { description })}
      footer={
        done ? done.footer : <>
          <button type="button" className="button" disabled={busy} onClick={onClose}>
            {m.users_cancel()}
          </button>
          <button type="submit" form={formId} className="button primary" disabled={busy || !online || !canSubmit} aria-busy={busy}>
            {submitLabel}
          </button>
        </>
      }
    >
      {done ? done.body : <form
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
      </form>}
    </Dialog>
  );
}
