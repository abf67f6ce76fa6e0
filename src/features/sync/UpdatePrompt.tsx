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
//
// Every tab follows: the new worker takes over all of them at once and deletes the old build's
// files, so another tab's code would load chunks that no longer exist. A tab that did not ask
// reloads as soon as it has no unsaved changes (until then it says why it waits); a chunk that
// fails to load (a tab that slept through the change) reloads the page too.
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
/** Another tab took the new version: this one runs code that is no longer deployed. */
const updatedElsewhere = sharedState(false);
/** How long a failed chunk load waits before it may reload again (no reload loop when offline). */
const CHUNK_RELOAD_GUARD_MS = 10_000;
const CHUNK_RELOAD_KEY = 'castaway.chunkReloadAt';

export function registerServiceWorker(): void {
  if (!('serviceWorker' in navigator) || import.meta.env.DEV) return;
  const workbox = new Workbox('/sw.js', { scope: '/' });
  wb = workbox;
  workbox.addEventListener('waiting', () => {
    setShared(updateWaiting, true);
  });
  // Not workbox's 'controlling' event: it fires only for the worker this page registered, not for
  // a newer sw.js found by a later update check (workbox calls that one "external").
  // The first install's claim of an uncontrolled page is not a new version.
  let controlled = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloadOnControllerChange) location.reload();
    else if (controlled) setShared(updatedElsewhere, true);
    controlled = true;
  });
  window.addEventListener('vite:preloadError', (event) => {
    const last = Number(sessionStorage.getItem(CHUNK_RELOAD_KEY) ?? 0);
    if (Date.now() - last < CHUNK_RELOAD_GUARD_MS) return; // reloaded just now: let the error show
    event.preventDefault();
    sessionStorage.setItem(CHUNK_RELOAD_KEY, String(Date.now()));
    location.reload();
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
  const elsewhere = useShared(updatedElsewhere);
  const { pendingCount } = useSyncStatus();
  const unsaved = useHasUnsavedChanges();
  const [requested, setRequested] = useState(false);
  const blocked = pendingCount > 0 || unsaved;
  useEffect(() => {
    if (!requested || blocked) return;
    reloadOnControllerChange = true;
    wb?.messageSkipWaiting();
  }, [requested, blocked]);
  // Updated in another tab: the outbox is the new code's to send (it is on the device), but a form
  // being edited is this tab's alone.
  useEffect(() => {
    if (elsewhere && !unsaved) location.reload();
  }, [elsewhere, unsaved]);
  if (elsewhere) {
    return (
      <div className="update-prompt" role="region" aria-label={m.app_update_other_tab()}>
        <p>{m.app_update_other_tab()}</p>
      </div>
    );
  }
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
