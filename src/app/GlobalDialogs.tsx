// The app-wide dialogs (contact support, log-out, unsaved changes on navigation) and the /logout
// route; loaded on first need by SignedIn.tsx.
import { m } from '../paraglide/messages.js';
import { useLocation, useSearch } from '../lib/router.ts';
import { closeDialog, useGlobalDialog } from '../lib/dialogs.ts';
import { currentSession } from '../lib/session.ts';
import { resolvePendingLeave, usePendingLeave } from '../lib/unsaved.ts';
import { UnsavedChangesDialog } from '../ui/Dialog.tsx';
import { useDocumentTitle } from '../ui/useDocumentTitle.ts';
import { LogoutDialog } from '../features/session/LogoutDialog.tsx';
import { ContactDialog } from '../features/support/ContactDialog.tsx';

/** /logout?redirectUrl=…: the log-out dialog; once logged out, the redirectUrl if it is on this site. */
export function LogoutRoute() {
  const [, navigate] = useLocation();
  const redirectUrl = new URLSearchParams(useSearch()).get('redirectUrl');
  useDocumentTitle([m.app_logout_title()]);
  const cancel = () => {
    // Closed after logging out: the dialog itself goes on to the redirect (going back here would
    // undo it).
    if (currentSession().Type === 'loggedOut') return;
    if (history.length > 1) history.back();
    else navigate('/');
  };
  return <LogoutDialog open redirectUrl={redirectUrl} onClose={cancel} />;
}

export function GlobalDialogs() {
  const dialog = useGlobalDialog();
  const pending = usePendingLeave();
  return (
    <>
      <ContactDialog
        open={dialog?.kind === 'contact'}
        onClose={closeDialog}
        {...(dialog?.kind === 'contact' && dialog.organizationId ? { organizationId: dialog.organizationId } : {})}
        {...(dialog?.kind === 'contact' && dialog.defaultMessage ? { defaultMessage: dialog.defaultMessage } : {})}
      />
      <LogoutDialog open={dialog?.kind === 'logout'} onClose={closeDialog} />
      <UnsavedChangesDialog open={pending !== null} entity={pending?.entity ?? 'form'} onCancel={() => resolvePendingLeave(false)} onConfirm={() => resolvePendingLeave(true)} />
    </>
  );
}
