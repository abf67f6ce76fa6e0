// The app-wide dialogs (contact support, log-out, unsaved changes on navigation) and the /logout
// route; loaded on first need by SignedIn.tsx.
import { useLocation } from '../lib/router.ts';
import { closeDialog, useGlobalDialog } from '../lib/dialogs.ts';
import { resolvePendingLeave, usePendingLeave } from '../lib/unsaved.ts';
import { UnsavedChangesDialog } from '../components/Dialog.tsx';
import { LogoutDialog } from '../features/session/LogoutDialog.tsx';
import { ContactDialog } from '../features/support/ContactDialog.tsx';

export function LogoutRoute() {
  const [, navigate] = useLocation();
  return <LogoutDialog open onClose={() => (history.length > 1 ? history.back() : navigate('/'))} />;
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
