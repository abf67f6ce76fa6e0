// The one sync worker of this tab: started for the organization being viewed, restarted when the
// user switches organization, stopped on log-out before the local data is cleared.
import { startSync, type SyncHandle } from './sync-client.ts';

let running: { organizationId: string; handle: SyncHandle } | null = null;

export function ensureSync(organizationId: string): void {
  if (running?.organizationId === organizationId) return;
  running?.handle.stop();
  running = { organizationId, handle: startSync({ organizationId }) };
}

/** Pushes and pulls now (after a change made on the server, such as a snapshot restore); resolves when done. */
export function syncNow(): Promise<void> {
  return running?.handle.flush() ?? Promise.resolve();
}

/** Stops the worker; returns the organization it served (to start it again if log-out fails). */
export function stopSync(): string | null {
  const was = running?.organizationId ?? null;
  running?.handle.stop();
  running = null;
  return was;
}
