// Service worker registration and the update prompt (workbox-window).
//
//   no update ──new sw.js installed──> waiting ──outbox empty AND no unsaved form──> prompt shown
//                                        ▲   (hidden again while either holds)            │ Update
//                                        │                                                  ▼
//                                        └──── blocked again before it went ──── skipWaiting ──> controlling ──> reload
//
// A new version waits until the outbox is empty (nothing is flushing) and no form has unsaved
// changes, because taking it reloads the page. Updates are looked for on start, when the tab
// becomes visible or the network comes back, and every hour.
import { useEffect, useState } from 'react';
import { Workbox } from 'workbox-window';
import { m } from '../../paraglide/messages.js';
import { useHasUnsavedChanges } from '../../lib/unsaved.ts';
import { setShared, sharedState, useShared } from '../../lib/store.ts';
import { useSyncStatus } from './useSyncStatus.ts';

const UPDATE_CHECK_INTERVAL_MS = 60 * 60 * 1000;

let wb: Workbox | null = null;
/** A new version's service worker is installed and waits to take over. */
const updateWaiting = sharedState(false);
let reloadOnControllerChange = false;

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  wb = workbox;
  workbox.addEventListener('waiting', () => {
    setShared(updateWaiting, true);
  });
  // Not workbox's 'controlling' event: it fires only for the worker this page registered, not for
  // a newer sw.js found by a later update check (workbox calls that one "external").
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloadOnControllerChange) location.reload();
  });
  void workbox.register();
  const check = () => {
    if (navigator.onLine) void workbox.update().catch(() => undefined);
  };
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') check();
  });
  window.addEventListener('online', check);
  setInterval(check, UPDATE_CHECK_INTERVAL_MS);
}


export function UpdatePrompt() {
  const isWaiting = useShared(updateWaiting);
  const { pendingCount } = useSyncStatus();
  const unsaved = useHasUnsavedChanges();
  const [requested, setRequested] = useState(false);
  const blocked = pendingCount > 0 || unsaved;
  useEffect(() => {
    if (!requested || blocked) return;
    reloadOnControllerChange = true;
    wb?.messageSkipWaiting();
  }, [requested, blocked]);
  if (!isWaiting || (blocked && !requested)) return null;
  return (
    <div className="update-prompt" role="region" aria-label={m.app_update_available()}>
      <p>{blocked ? m.app_update_waiting() : m.app_update_available()}</p>
      {!requested && (
        <button type="button" className="button primary" onClick={() => setRequested(true)}>
          {m.app_update_reload()}
        </button>
      )}
    </div>
  );
}
