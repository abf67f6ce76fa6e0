// Toast queue (section 4): a small external store so any module can raise a toast without React.
import { m } from '../paraglide/messages.js';
import { setShared, sharedState, useShared } from './store.ts';
import { reachableNow } from './connectivity.ts';

export type ToastType = 'success' | 'info' | 'warning' | 'danger';
export type Toast = { id: number; type: ToastType; title: string; description?: string; durationMs: number };

/** `Infinity` keeps the toast until the user closes it. */
export const TOAST_INFINITY = Number.POSITIVE_INFINITY;

let nextId = 1;
const shownToasts = sharedState<readonly Toast[]>([]);

export function showToast(toast: { type: ToastType; title: string; description?: string; durationMs?: number }, defaultDurationMs = 5000): number {
  const id = nextId++;
  const t: Toast = { id, type: toast.type, title: toast.title, durationMs: toast.durationMs ?? defaultDurationMs };
  if (toast.description !== undefined) t.description = toast.description;
  setShared(shownToasts, (toasts) => [...toasts, t]);
  return id;
}

export function dismissToast(id: number): void {
  setShared(shownToasts, (toasts) => toasts.filter((t) => t.id !== id));
}

export function useToasts(): readonly Toast[] {
  return useShared(shownToasts);
}

/**
 * A change saved on this device, queued for the server: a success toast while online; offline an
 * info toast that says it waits for the connection, so "saved" is not read as "on the server".
 */
export function showSavedToast(title: string): number {
  if (!reachableNow()) return showToast({ type: 'info', title, description: m.app_saved_offline_description() });
  return showToast({ type: 'success', title });
}
