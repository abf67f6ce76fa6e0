// The sync worker: a thin comlink wrapper around engine.ts. One worker per tab, one LEADER per
// browser: each worker asks for the Web Lock 'castaway-sync'; the holder runs the engine (push,
// pull, server-sent pokes) until its tab closes, then the next waiting worker takes over. Other
// tabs see every change through Dexie's cross-tab notifications and forward flush requests to
// the leader over a BroadcastChannel.
//
//   follower (waiting for the lock) ──lock granted──> leader: engine + EventSource + outbox watch
//        ▲                                                 │
//        └───────────── tab closed / stop() ◄──────────────┘ (lock released)
import * as Comlink from 'comlink';
import { liveQuery } from 'dexie';
import { db, openLocalDb, SCHEMA_VERSIONS, type StoreOwner } from '../../src/db/db.ts';
import { createSyncEngine, type SyncEngine } from './engine.ts';
import { POKE_EVENT } from '../../src/protocol/sync.ts';
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

let engine: SyncEngine | null = null;
let release: (() => void) | null = null;
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
      source.addEventListener(POKE_EVENT, () => void e.nudge());
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

const api = {
  /** Joins the election for the signed-in user; resolves at once (leadership may come later). */
  start(organizationId: string, user?: StoreOwner): void {
    channel = new BroadcastChannel(CHANNEL_NAME);
    channel.onmessage = (ev: MessageEvent<{ type: string; user?: StoreOwner }>) => {
      if (!engine) return;
      if (ev.data.type === 'flush') void engine.nudge();
      if (ev.data.type === 'resume') void resumeLeader?.(ev.data.user);
    };
    void navigator.locks.request(LOCK_NAME, () => startLeader(organizationId, user));
  },
  /** Flushes now: here when this tab leads, else through the leader. */
  async flush(): Promise<void> {
    if (engine) return engine.nudge();
    channel?.postMessage({ type: 'flush' });
  },
  /** After signing in again (as `user`): the paused sync resumes with the kept outbox. */
  async resume(user?: StoreOwner): Promise<void> {
    if (resumeLeader) return resumeLeader(user);
    channel?.postMessage({ type: 'resume', user });
  },
  isLeader: () => engine !== null,
  stop(): void {
    release?.();
    channel?.close();
    channel = null;
  },
};

export type SyncWorkerApi = typeof api;
Comlink.expose(api);
