// App-wide dialogs that any screen may open (contact support, log-out).
import { setShared, sharedState, useShared } from './store.ts';

export type GlobalDialog =
  | { kind: 'contact'; organizationId?: string; defaultMessage?: string }
  | { kind: 'logout' }
  | null;

const openGlobalDialog = sharedState<GlobalDialog>(null);

export function openDialog(dialog: GlobalDialog): void {
  setShared(openGlobalDialog, dialog);
}
export const closeDialog = () => openDialog(null);

export function useGlobalDialog(): GlobalDialog {
  return useShared(openGlobalDialog);
}
