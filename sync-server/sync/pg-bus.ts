// The change bus over PostgreSQL LISTEN/NOTIFY: a write on any server instance pokes the SSE
// clients of every instance. publish() sends NOTIFY after the writer's commit (the bus is only
// called after commit); subscribers hear every instance's changes, their own included, once.
import pg from 'pg';
import type { Change, ChangeBus } from '../bus.ts';

export const CHANGE_CHANNEL = 'castaway_changes';

export type PgBus = ChangeBus & { close(): Promise<void>; ready: Promise<void> };

export function createPgBus(databaseUrl: string): PgBus {
  const listeners = new Set<(change: Change) => void>();
  const listen = new pg.Client({ connectionString: databaseUrl });
  const notify = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  let closed = false;

  listen.on('notification', (msg) => {
    if (msg.channel !== CHANGE_CHANNEL || !msg.payload) return;
    let change: Change;
    try {
      const parsed = JSON.parse(msg.payload) as Partial<Change>;
      if (typeof parsed.organizationId !== 'string' || typeof parsed.version !== 'number') return;
      change = { organizationId: parsed.organizationId, version: parsed.version };
    } catch {
      return;
    }
    for (const fn of [...listeners]) {
      try {
        fn(change);
      } catch {
        // one failing listener must not starve the others
      }
    }
  });
  // A dropped listening connection only delays pokes: clients still pull on their own triggers.
  listen.on('error', () => undefined);
  // Likewise an idle NOTIFY connection the database ends is replaced by the pool on next use.
  notify.on('error', () => undefined);
  const ready = listen.connect().then(() => listen.query(`LISTEN ${CHANGE_CHANNEL}`)).then(() => undefined);

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
    async close() {
      closed = true;
      listeners.clear();
      await Promise.allSettled([listen.end(), notify.end()]);
    },
  };
}
