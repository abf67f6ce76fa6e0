// App-wide dialogs that any screen may open (contact support, log-out).
import { useSyncExternalStore } from 'react';

export type GlobalDialog =
  | { kind: 'contact'; organizationId?: string; defaultMessage?: string }
  | { kind: 'logout' }
  | null;

let current: GlobalDialog = null;
const listeners = new Set<() => void>();

export function openDialog(dialog: GlobalDialog): void {
  current = dialog;
  listeners.forEach((l) => l());
}
export const closeDialog = () => openDialog(null);

export function useGlobalDialog(): GlobalDialog {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => current,
  );
}
