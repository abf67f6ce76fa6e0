// Service worker registration and the update prompt (workbox-window). A new version waits until
// the user asks AND the outbox is empty AND no form has unsaved changes, then the page tells the
// waiting worker to skipWaiting and reloads when it takes control.
import { useEffect, useState, useSyncExternalStore } from 'react';
import { Workbox } from 'workbox-window';
import { m } from '../../paraglide/messages.js';
import { hasUnsavedChanges } from '../../lib/unsaved.ts';
import { useSyncStatus } from './useSyncStatus.ts';

let wb: Workbox | null = null;
let waiting = false;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  wb = new Workbox('/sw.js', { scope: '/' });
  wb.addEventListener('waiting', () => {
    waiting = true;
    emit();
  });
  wb.addEventListener('controlling', (event) => {
    if (event.isUpdate) location.reload();
  });
  void wb.register();
}

function useUpdateWaiting(): boolean {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => waiting,
  );
}

export function UpdatePrompt() {
  const isWaiting = useUpdateWaiting();
  const { pendingCount } = useSyncStatus();
  const [requested, setRequested] = useState(false);
  const blocked = pendingCount > 0 || hasUnsavedChanges();
  useEffect(() => {
    if (requested && !blocked) wb?.messageSkipWaiting();
  }, [requested, blocked]);
  if (!isWaiting) return null;
  return (
    <div className="update-prompt" role="region" aria-label={m.app_update_available()}>
      <p>{requested && blocked ? m.app_update_waiting() : m.app_update_available()}</p>
      {!requested && (
        <button type="button" className="button primary" onClick={() => setRequested(true)}>
          {m.app_update_reload()}
        </button>
      )}
    </div>
  );
}
