// The runner's ear on PostgreSQL: one connection that LISTENs to the jobs channel, so a job
// enqueued on any instance is taken as soon as its transaction commits. When the database ends
// the connection, `ensure` (called on every poll of the runner) connects again, and a wake-up
// follows it: NOTIFYs sent while it was away are lost, and the claim finds their jobs anyway.
import pg from 'pg';
import { JOBS_CHANNEL } from './queue.ts';

export type PgWake = { ensure(): Promise<void>; close(): Promise<void> };

export function listenForJobs(databaseUrl: string, onWake: () => void): PgWake {
  let client: pg.Client | null = null;
  let connecting: Promise<void> | null = null;
  let closed = false;

  const drop = (c: pg.Client) => {
    c.removeAllListeners('notification');
    void c.end().catch(() => undefined);
    if (client === c) client = null;
  };

  async function connect(): Promise<void> {
    const c = new pg.Client({ connectionString: databaseUrl, application_name: 'castaway-jobs' });
    c.on('error', () => drop(c));
    c.on('end', () => drop(c));
    c.on('notification', (msg) => {
      if (msg.channel === JOBS_CHANNEL) onWake();
    });
    try {
      await c.connect();
      await c.query(`LISTEN ${JOBS_CHANNEL}`);
    } catch (err) {
      drop(c);
      throw err;
    }
    if (closed) return drop(c);
    client = c;
    onWake();
  }

  return {
    ensure() {
      if (closed || client) return Promise.resolve();
      connecting ??= connect()
        .catch((err: unknown) => console.warn(`jobs: no LISTEN for new jobs, polling meanwhile: ${err instanceof Error ? err.message : String(err)}`))
        .finally(() => {
          connecting = null;
        });
      return connecting;
    },
    async close() {
      closed = true;
      await connecting;
      if (client) drop(client);
    },
  };
}
