// The sync worker: a thin comlink wrapper around engine.ts. One worker per tab, one LEADER per
// browser: each worker asks for the Web Lock 'castaway-sync'; the holder runs the engine (push,
// pull, server-sent pokes) until its tab closes, then the next waiting worker takes over. Other
// tabs see every change through Dexie's cross-tab notifications and forward flush requests to
// the leader over a BroadcastChannel.
//
// The device keeps one organization at a time (the store's cursor is one organization's): the
// leader's. A tab showing another organization is told so by its role (start's onRole) and the
// store's organization, and claim() makes it the leader (the lock is stolen, so it is this tab's
// organization that is kept); the tab it was taken from waits for the lock again, and gets it back
// when the claiming tab closes. A tab that switches organization while it leads switches its
// engine in place (switchTo), keeping the lock.
//
//   follower (waiting for the lock) ──lock granted / claim()──> leader: engine + EventSource + outbox watch
//        ▲                                                          │   └─ switchTo(org): new engine, same lock
//        └───────── tab closed / stop() / lock stolen ◄─────────────┘ (lock released)
import '../policy-violations.ts';
import * as Comlink from 'comlink';
import { db, liveQuery, openLocalDb, SCHEMA_VERSIONS, type StoreOwner } from '../../src/db/db.ts';
import { createSyncEngine, type SyncEngine } from './engine.ts';
import { POKE_EVENT, pokeVersion } from '../../src/protocol/sync.ts';
import { SYNC_STATUS_CHANNEL, type SyncStatusMessage } from '../../src/db/sync-status-channel.ts';

const LOCK_NAME = 'castaway-sync';
const CHANNEL_NAME = 'castaway-sync';

// Pulled pages are the server's rows and the cursor that follows them, committed together: after
// an OS crash that lost the last commits, the sync pulls them again. Their commits need not wait
// for the disk (measured by bench:sync: an initial sync of 10,000 clips ~5-10 % faster). The
// user's own edits (outbox) keep the default durability, through `db`.
const pullDb = openLocalDb(db.name, SCHEMA_VERSIONS, { durability: 'relaxed' });
// Both connections are opened now, not at their first use: on a new device that is creating the
// schema, which then overlaps the page's start() call and the leader election instead of
// delaying the first pull. A failure is Dexie's to report again at that first use.
for (const d of [db, pullDb]) d.open().catch(() => undefined);

export type SyncRole = 'leader' | 'follower';

let engine: SyncEngine | null = null;
let release: (() => void) | null = null;
/** What this tab syncs when it leads (switchTo changes it). */
let wanted: { organizationId: string; user: StoreOwner | undefined } | null = null;
/** Ends this worker's queued lock request (before a claim, or on stop). */
let queued: AbortController | null = null;
/** Set while the engine is restarted for another organization under the same lock. */
let switching = false;
let stopped = false;
let tellRole: ((role: SyncRole) => void) | null = null;
/** Resumes the leader's paused engine as `user` (after a login). */
let resumeLeader: ((user?: StoreOwner) => Promise<void>) | null = null;
let channel: BroadcastChannel | null = null;

function startLeader(organizationId: string, user: StoreOwner | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    // A full disk refuses the status row too: every tab hears each status here, with whether the
    // store took it, and a tab that opens asks for the last one (none before the first attempt).
    const statusChannel = new BroadcastChannel(SYNC_STATUS_CHANNEL);
    let last: Extract<SyncStatusMessage, { type: 'status' }> | null = null;
    let closed = false;
    const tell = () => {
      if (last && !closed) statusChannel.postMessage(last);
    };
    statusChannel.onmessage = (ev: MessageEvent<SyncStatusMessage>) => {
      if (ev.data.type === 'ask') tell();
    };
    const e = createSyncEngine({
      db,
      pullDb,
      organizationId,
      ...(user ? { user } : {}),
      transport: (url, init) => fetch(url, { ...init, credentials: 'same-origin' }),
      onStatus: (status, stored) => {
        last = { type: 'status', status, stored };
        tell();
      },
    });
    engine = e;
    const listen = () => {
      const source = new EventSource('/api/sync/events', { withCredentials: true });
      source.addEventListener(POKE_EVENT, (ev: MessageEvent<unknown>) => void e.nudge(pokeVersion(ev.data)));
      source.addEventListener('open', () => void e.nudge());
      return source;
    };
    let events = listen();
    resumeLeader = (user) => {
      // A stream refused with 401 while the session was gone is closed for good: open it again.
      if (events.readyState === EventSource.CLOSED) events = listen();
      return e.resume(user);
    };
    // A new outbox entry from any tab: flush (Dexie's liveQuery sees other tabs' writes too).
    const outbox = liveQuery(() => db.outbox.count()).subscribe({
      next: (count) => {
        if (count > 0) void e.flush();
      },
    });
    const onOnline = () => void e.nudge();
    self.addEventListener('online', onOnline);
    void e.flush();
    release = () => {
      e.stop();
      events.close();
      closed = true;
      statusChannel.close();
      outbox.unsubscribe();
      self.removeEventListener('online', onOnline);
      engine = null;
      resumeLeader = null;
      release = null;
      resolve();
    };
  });
}

/** Counts the grants this worker led under: a grant that arrives while an earlier one still runs
 * (a claim racing the queued request's grant) ends the earlier engine, one engine per worker. */
let generation = 0;
/** A claim's steal is on its way (a second click must not steal from this worker itself). */
let claiming = false;

/**
 * Holds the lock: leads with the organization `wanted` names, again after each switchTo, until
 * the lock is released (stop), stolen, or granted again to a later request of this worker.
 */
async function lead(): Promise<void> {
  const mine = ++generation;
  claiming = false;
  release?.();
  if (stopped) return;
  tellRole?.('leader');
  do {
    switching = false;
    await startLeader(wanted!.organizationId, wanted!.user);
  } while (switching && !stopped && mine === generation);
}

/** Another tab stole the lock (or our own request was aborted): a stolen lock's callback is still
 * running, so its engine is stopped here, and the worker waits for the lock again. */
function lost(controller: AbortController | null) {
  return () => {
    claiming = false;
    if (controller?.signal.aborted || stopped) return;
    release?.();
    tellRole?.('follower');
    waitForLock();
  };
}

/** A follower until the lock is granted, then the leader. */
function waitForLock(): void {
  queued?.abort();
  const controller = new AbortController();
  queued = controller;
  navigator.locks.request(LOCK_NAME, { signal: controller.signal }, lead).catch(lost(controller));
}

/** Leads at once when the lock is free; else says it follows, and waits for it. */
function joinElection(): void {
  navigator.locks
    .request(LOCK_NAME, { ifAvailable: true }, async (lock) => {
      if (lock) return lead();
      if (stopped) return;
      tellRole?.('follower');
      waitForLock();
    })
    .catch(lost(null));
}

const api = {
  /** Joins the election for the signed-in user; resolves at once (leadership may come later).
   * `onRole` hears whether this tab leads, at the start and on each change. */
  start(organizationId: string, user?: StoreOwner, onRole?: (role: SyncRole) => void): void {
    wanted = { organizationId, user };
    tellRole = onRole ?? null;
    channel = new BroadcastChannel(CHANNEL_NAME);
    channel.onmessage = (ev: MessageEvent<{ type: string; user?: StoreOwner }>) => {
      if (!engine) return;
      if (ev.data.type === 'flush') void engine.nudge();
      if (ev.data.type === 'resume') void resumeLeader?.(ev.data.user);
    };
    joinElection();
  },
  /** This tab now shows `organizationId`: when it leads, the engine starts again for it (the store
   * rebuilds for that organization); else it is the organization it will sync when it leads. */
  switchTo(organizationId: string): void {
    if (!wanted || wanted.organizationId === organizationId) return;
    wanted = { ...wanted, organizationId };
    if (engine) {
      switching = true;
      release?.();
    }
  },
  /** Makes this tab the leader, so that the device keeps this tab's organization. */
  claim(): void {
    if (engine || stopped || claiming) return;
    claiming = true;
    queued?.abort();
    queued = null;
    navigator.locks.request(LOCK_NAME, { steal: true }, lead).catch(lost(null));
  },
  /** Flushes now: here when this tab leads, else through the leader. */
  async flush(): Promise<void> {
    if (engine) return engine.nudge();
    channel?.postMessage({ type: 'flush' });
  },
  /** After signing in again (as `user`): the paused sync resumes with the kept outbox. */
  async resume(user?: StoreOwner): Promise<void> {
    if (wanted) wanted = { ...wanted, user };
    if (resumeLeader) return resumeLeader(user);
    channel?.postMessage({ type: 'resume', user });
  },
  isLeader: () => engine !== null,
  stop(): void {
    stopped = true;
    queued?.abort();
    release?.();
    channel?.close();
    channel = null;
  },
};

export type SyncWorkerApi = typeof api;
Comlink.expose(api);
