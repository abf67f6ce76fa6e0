// The page's own look at the network as it starts (src/lib/connectivity.ts reads it). A module of
// its own so the app's entry can start it without loading the local store (Dexie) first.
import { setShared, sharedState } from './store.ts';

/** When this page's own look at the network found none; null: not looked, or found. */
export const probedOfflineAt = sharedState<number | null>(null);

/** One HEAD of /healthz (public, cheap, not logged) as the page starts: a fetch that fails for want
 * of a network is proof as fresh as the worker's. A success proves nothing the worker will not
 * write soon, so it changes nothing. Called by the app's entry, not on import (unit tests). */
export function probeNetwork(): void {
  const at = Date.now();
  fetch('/healthz', { method: 'HEAD', cache: 'no-store' }).then(
    () => undefined,
    () => setShared(probedOfflineAt, at),
  );
}
