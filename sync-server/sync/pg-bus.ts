// The change bus over PostgreSQL LISTEN/NOTIFY: a write on any server instance pokes the SSE
// clients of every instance. publish() sends NOTIFY after the writer's commit (the bus is only
// called after commit); subscribers hear every instance's changes, their own included, once.
//
// The listening connection is one long-lived client. When the database ends it (a restart, a
// failover, an administrator's terminate) the bus connects again with backoff, LISTENs again,
// and then pokes every subscriber once (organizationId null): NOTIFYs sent while it was away
// are lost, and the clients' next pull brings whatever they announced.
//
// Signals (ChangeBus.signal: a topic, not a change) go on a channel of their own on the same two
// connections, so no sync subscriber hears them: the topic, a line break, then the payload.
import pg from 'pg';
import { SIGNAL_PAYLOAD_MAX, type Change, type ChangeBus } from '../bus.ts';

export const CHANGE_CHANNEL = 'castaway_changes';
export const SIGNAL_CHANNEL = 'castaway_signals';
const RETRY_FIRST_MS = 250;
const RETRY_MAX_MS = 5_000;

export type PgBus = ChangeBus & { close(): Promise<void>; ready: Promise<void> };

export function createPgBus(databaseUrl: string): PgBus {
  const listeners = new Set<(change: Change) => void>();
  const signalled = new Set<(topic: string, payload: string) => void>();
  const notify = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let listen: pg.Client | null = null;
  let closed = false;
  // Reconnects only after a first successful start: a bus that cannot start fails `ready`.
  let started = false;
  let retryMs = RETRY_FIRST_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  const deliver = (change: Change) => {
    for (const fn of [...listeners]) {
      try {
        fn(change);
      } catch {
        // one failing listener must not starve the others
      }
    }
  };

  const onNotification = (msg: pg.Notification) => {
    if (msg.channel === SIGNAL_CHANNEL && msg.payload) {
      const cut = msg.payload.indexOf('\n');
      const topic = cut < 0 ? msg.payload : msg.payload.slice(0, cut);
      const payload = cut < 0 ? '' : msg.payload.slice(cut + 1);
      for (const fn of [...signalled]) {
        try {
          fn(topic, payload);
        } catch {
          // as deliver
        }
      }
      return;
    }
    if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
    try {
      const parsed = JSON.parse(msg.payload) as Partial<Change>;
      if (typeof parsed.organizationId !== 'string' || typeof parsed.version !== 'number') return;
      deliver({ organizationId: parsed.organizationId, version: parsed.version });
    } catch {
      // not one of ours
    }
  };

  const reconnectLater = (client: pg.Client) => {
    if (closed || !started || listen !== client || retryTimer) return;
    listen = null;
    client.removeAllListeners('notification');
    void client.end().catch(() => undefined);
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect(true).catch(() => undefined);
    }, retryMs);
    retryMs = Math.min(retryMs * 2, RETRY_MAX_MS);
  };

  async function connect(again: boolean): Promise<void> {
    const client = new pg.Client({ connectionString: databaseUrl, application_name: 'castaway-change-bus' });
    listen = client;
    client.on('notification', onNotification);
    client.on('error', () => reconnectLater(client));
    client.on('end', () => reconnectLater(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANGE_CHANNEL}`);
      await client.query(`LISTEN ${SIGNAL_CHANNEL}`);
    } catch (err) {
      reconnectLater(client);
      if (!again) throw err;
      return;
    }
    if (closed) {
      await client.end().catch(() => undefined);
      return;
    }
    started = true;
    retryMs = RETRY_FIRST_MS;
    if (again) {
      const [row] = (await client.query<{ v: string | number }>(`SELECT last_value AS v FROM row_version`).catch(() => ({ rows: [] }))).rows;
      deliver({ organizationId: null, version: Number(row?.v ?? 0) });
    }
  }

  // Likewise an idle NOTIFY connection the database ends is replaced by the pool on next use.
  notify.on('error', () => undefined);
  const ready = connect(false);

  return {
    ready,
    publish(change) {
      if (closed) return;
      notify.query('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, JSON.stringify(change)]).catch(() => undefined);
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
    signal(topic, payload = '') {
      if (closed) return;
      notify.query('SELECT pg_notify($1, $2)', [SIGNAL_CHANNEL, payload.length > SIGNAL_PAYLOAD_MAX ? topic : `${topic}\n${payload}`]).catch(() => undefined);
    },
    onSignal(fn) {
      signalled.add(fn);
      return () => signalled.delete(fn);
    },
    async close() {
      closed = true;
      listeners.clear();
      signalled.clear();
      if (retryTimer) clearTimeout(retryTimer);
      const client = listen;
      listen = null;
      await Promise.allSettled([client?.end(), notify.end()]);
    },
  };
}
