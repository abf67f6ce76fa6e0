// Whose data the local store holds. One browser profile can be used by several people (a shared
// studio computer): a session that expires with edits queued, then someone else signing in, must
// not send the first user's edits under the second user's session nor show either one the
// other's rows. The owner is set when a user's sync first runs on this device and cleared with
// everything else on log-out (reset.ts).
import { EMPTY_STATUS, type CastawayDb, type StoreOwner, type SyncStatus } from './db.ts';

export async function readOwner(d: CastawayDb): Promise<StoreOwner | null> {
  const row = await d.syncState.get('owner');
  return row?.key === 'owner' ? row.value : null;
}

/** Edits on this device that have not reached the server: queued, in conflict or refused. */
export async function unsyncedCount(d: CastawayDb): Promise<number> {
  return d.transaction('r', [d.outbox, d.conflicts, d.needsAttention], async () => (await d.outbox.count()) + (await d.conflicts.count()) + (await d.needsAttention.count()));
}

/**
 * When the oldest of those edits was made (null: none). A conflict's or refused edit's value is
 * as much on this device only as a queued one's: the storage panel must not say there is nothing
 * to lose while one waits for a decision. The outbox's first entry stands for the outbox (its
 * order is the order edits were made in); conflicts and refusals are few and read whole.
 */
export async function oldestUnsyncedEdit(d: CastawayDb): Promise<number | null> {
  return d.transaction('r', [d.outbox, d.conflicts, d.needsAttention], async () => {
    const first = await d.outbox.orderBy('seq').first();
    const times = first ? [first.createdAt] : [];
    await d.conflicts.each((c) => void times.push(c.mutation.createdAt));
    await d.needsAttention.each((n) => void times.push(n.mutation.createdAt));
    return times.length > 0 ? Math.min(...times) : null;
  });
}

export type StoreClaim = { kind: 'mine' } | { kind: 'otherUser'; owner: StoreOwner; unsynced: number };

/** The sync status row says whether sync is paused for another user's data; written only when that
 * changes (every write wakes each tab's live queries on syncState). */
async function markOtherUserPause(d: CastawayDb, paused: boolean): Promise<void> {
  const row = await d.syncState.get('status');
  const status: SyncStatus = row?.key === 'status' ? row.value : EMPTY_STATUS;
  if ((status.paused === 'otherUser') === paused) return;
  await d.syncState.put({ key: 'status', value: { ...status, paused: paused ? 'otherUser' : null, updatedAt: Date.now() } });
}

/**
 * Makes `user` the owner of the local store when it has none (a new device, or after log-out),
 * or says whose data it holds. A store holding another user's data is never used for this one:
 * their queued edits would go out under this user's session and their rows would show here. The
 * caller (StoreOwnerGate) asks the user what to do; meanwhile the status row says sync is paused
 * for that reason (no engine runs for this user until then, and the row would otherwise still
 * show the other user's last status), and the engine, if started, stays paused.
 */
export async function claimStore(d: CastawayDb, user: StoreOwner): Promise<StoreClaim> {
  return d.transaction('rw', [d.syncState, d.outbox, d.conflicts, d.needsAttention], async () => {
    const owner = await readOwner(d);
    if (owner && owner.userId !== user.userId) {
      await markOtherUserPause(d, true);
      return { kind: 'otherUser', owner, unsynced: await unsyncedCount(d) };
    }
    // Written only when it changes: every write wakes each tab's live queries on syncState.
    if (!owner || owner.name !== user.name || owner.email !== user.email) await d.syncState.put({ key: 'owner', value: user });
    await markOtherUserPause(d, false);
    return { kind: 'mine' };
  });
}
