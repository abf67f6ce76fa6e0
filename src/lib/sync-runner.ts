// The one sync worker of this tab: started for the organization being viewed and the signed-in
// user, told when the user switches organization (it switches in place), started again for
// another user, stopped on log-out before the local data is cleared. Its role (leader or
// follower) is kept here for the screens (OrganizationScope).
//
// It also connects the sync status to the session: a status paused 'auth' written after the
// server last confirmed the session means the session expired (the worker got a 401), so the
// app shows the login screen (session.ts expireSession; the outbox stays). After the login the
// signed-in screens mount again and call ensureSync, which resumes the paused sync. A tab that
// still shows the login screen when another tab's login has resumed the sync loads the session.
import { startSync, type SyncHandle, type SyncRole } from './sync-client.ts';
import { currentSessionState, expireSession, loadSession, sessionConfirmedAt } from './session.ts';
import { useEffect } from 'react';
import { currentOrganization, db, liveQuery, type StoreOwner, type SyncStatus } from '../db/db.ts';
import { heardStatus, subscribeHeardStatus } from './heard-status.ts';
import { getShared, setShared, sharedState, useShared } from './store.ts';

let running: { organizationId: string; userId: string | null; handle: SyncHandle } | null = null;
/** Whether this tab's worker syncs (null until it knows): a follower tab shows what the leader keeps. */
const role = sharedState<SyncRole | null>(null);
function setRole(next: SyncRole | null): void {
  setShared(role, next);
}
export function syncRole(): SyncRole | null {
  return getShared(role);
}
/** syncRole in a component, re-rendered when it changes. */
export function useSyncRole(): SyncRole | null {
  return useShared(role);
}
/** Set when a 401 expired the session: the next ensureSync resumes the paused sync. */
let resumeNeeded = false;
let watching = false;
let expiredAt = 0;

function signedInUser(): StoreOwner | undefined {
  const user = currentSessionState()?.session.User;
  return user?.Id ? { userId: user.Id, name: user.Name, email: user.Email } : undefined;
}

/** What a status written by the sync worker means for the session of this tab. */
export function onSyncStatus(status: SyncStatus): void {
  const state = currentSessionState();
  if (!state) return;
  const at = status.updatedAt ?? 0;
  if (status.paused === 'auth' && state.session.Type !== 'loggedOut' && at > sessionConfirmedAt()) {
    resumeNeeded = true;
    expiredAt = Date.now();
    // A session known only from the cache (opened offline) is asked for: the answer is a 401.
    if (state.offline) void loadSession();
    else expireSession();
  } else if (status.paused === null && state.expired && at > expiredAt && expiredAt > 0) {
    // Another tab signed in and the sync runs again with its session: this tab is signed in too.
    expiredAt = 0;
    void loadSession();
  }
}

function watchStatus(): void {
  if (watching) return;
  watching = true;
  liveQuery(() => db.syncState.get('status')).subscribe({
    next: (row) => {
      if (row?.key === 'status') onSyncStatus(row.value);
    },
  });
  // A status the store refused (a full disk) is heard only over the leader's channel.
  subscribeHeardStatus(() => {
    const refused = heardStatus();
    if (refused) onSyncStatus(refused);
  });
}

export function ensureSync(organizationId: string): void {
  watchStatus();
  const user = signedInUser();
  const userId = user?.userId ?? null;
  if (running && running.userId === userId) {
    // The same user: the same worker (and its place as leader or follower), switched in place when
    // this tab now shows another organization.
    if (running.organizationId !== organizationId) {
      running.organizationId = organizationId;
      running.handle.switchTo(organizationId);
    }
    if (resumeNeeded) {
      resumeNeeded = false;
      void running.handle.resume(user);
    }
    return;
  }
  running?.handle.stop();
  setRole(null);
  // Only this worker's word counts: a stopped one may still report as it ends.
  // (The worker reports its role asynchronously, after `handle` is set.)
  const handle: SyncHandle = startSync({ organizationId, ...(user ? { user } : {}), onRole: (r) => running?.handle === handle && setRole(r) });
  running = { organizationId, userId, handle };
  if (resumeNeeded || userId !== null) {
    // The leader may be another tab's worker, paused or started for the user before: it resumes
    // as this user (the store is theirs: StoreOwnerGate claimed it before these screens mounted).
    resumeNeeded = false;
    void running.handle.resume(user);
  }
}

/** Pushes and pulls now (after a change made on the server, such as a snapshot restore); resolves when done. */
export function syncNow(): Promise<void> {
  return running?.handle.flush() ?? Promise.resolve();
}

/** Makes this tab the one that syncs: the device keeps this tab's organization. */
export function claimSync(): void {
  running?.handle.claim();
}

/** Stops the worker; returns the organization it served (to start it again if log-out fails). */
export function stopSync(): string | null {
  const was = running?.organizationId ?? null;
  running?.handle.stop();
  running = null;
  setRole(null);
  return was;
}

/**
 * Starts the sync on any signed-in page when no organization's screen has (the organization list
 * at `/`, the manifest's start URL, or account settings): the queued edits go out as soon as the
 * app is open, not when an organization is next opened. It syncs the organization of this user's
 * oldest queued edit, else the one the device keeps, if the session still has it. Called only
 * once the store is this user's (StoreOwnerGate): another user's edits wait for their decision.
 */
export async function ensureSyncAnywhere(organizationIds: readonly string[]): Promise<void> {
  if (running) return;
  const userId = signedInUser()?.userId;
  if (!userId) return;
  const queued = await db.outbox.filter((e) => e.userId === undefined || e.userId === userId).first();
  const kept = queued?.organizationId ?? (await currentOrganization(db));
  // An organization's screen may have started the sync meanwhile: that one stands.
  if (running || !kept) return;
  const id = organizationIds.find((o) => o.toLowerCase() === kept.toLowerCase());
  if (id) ensureSync(id);
}

/** ensureSyncAnywhere for the signed-in shell; `session`: null until the store is this user's. */
export function useSyncAnywhere(session: { User?: { Id?: string } | null; Organizations: ReadonlyArray<{ Id: string }> } | null): void {
  const userId = session?.User?.Id ?? null;
  const ids = session ? session.Organizations.map((o) => o.Id).join(',') : '';
  useEffect(() => {
    if (userId && ids) void ensureSyncAnywhere(ids.split(','));
  }, [userId, ids]);
}
