import pg from 'pg';
import type { Queryable, QueryOptions, Store } from './store.ts';

// ENVIRONMENT.md: int8 comes back as a string from pg but a number from PGlite; versions and
// counts stay far below 2^53, so both stores hand out numbers.
pg.types.setTypeParser(20, Number);

const POOL_MAX = 10;

/**
 * The database is ending the connection the statement went to (SQLSTATE 57P01, an
 * administrator's terminate; 57P02, a crash of another backend). Its transaction was aborted, so
 * the statement did not take effect and a fresh connection can take it. pg_terminate_backend
 * only signals: until the backend acts on it, the pool still hands its connection out (seen in
 * CI on a busy machine, 200 ms after the terminate).
 */
function connectionEnding(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '57P01' || code === '57P02';
}

/** Runs `attempt` again while the connection it got is being ended (each such connection is
 * dropped from the pool, so at most one try per pooled connection and one fresh). */
async function onLiveConnection<T>(attempt: () => Promise<T>): Promise<T> {
  for (let tries = 1; ; tries++) {
    try {
      return await attempt();
    } catch (err) {
      if (!connectionEnding(err) || tries > POOL_MAX) throw err;
    }
  }
}

/** The driver's form of a statement: named (a prepared statement of each connection) when asked. */
function statement(sql: string, params: readonly unknown[] | undefined, options: QueryOptions | undefined): pg.QueryConfig {
  const config: pg.QueryConfig = params ? { text: sql, values: [...params] } : { text: sql };
  return options?.name ? { ...config, name: options.name } : config;
}

export async function openPostgresStore(databaseUrl: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: POOL_MAX });
  // An idle pooled connection that the database ends (a restart, an administrator's terminate)
  // is dropped by the pool and replaced on the next query; without a listener Node would turn
  // the event into an uncaught error and stop the whole server.
  pool.on('error', (err) => {
    console.warn(`PostgreSQL closed an idle connection: ${err.message}`);
  });
  // Fail at open, with the driver's message, rather than on the first request.
  const probe = await pool.connect();
  probe.release();
  return {
    kind: 'postgres',
    async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
      // pool.query drops a connection whose query failed.
      const result = await onLiveConnection(() => pool.query(statement(sql, params, options)));
      return result.rows as T[];
    },
    async tx(fn) {
      // A connection checked out of the pool has lost the pool's 'error' listener: one the
      // database ends while this transaction holds it (a restart, an administrator's terminate)
      // emits an 'error' nobody hears, which Node makes an uncaught exception that stops the
      // server. Its statements fail on their own; the event only marks it not to be reused.
      let broken: Error | null = null;
      const onError = (err: Error) => {
        broken = err;
      };
      // Only BEGIN is tried again: once `fn` has run, its effects outside the database are done.
      const client = await onLiveConnection(async () => {
        const c = await pool.connect();
        c.on('error', onError);
        try {
          await c.query('BEGIN');
          return c;
        } catch (err) {
          c.off('error', onError);
          c.release(err instanceof Error ? err : true);
          throw err;
        }
      });
      // A statement may be sent before the one before it is answered (sync/batch.ts sends the
      // next rows' read and a batch's first writes so): they go to the connection one after
      // another from here, not queued inside the driver (deprecated in pg 8, gone in pg 9).
      let last: Promise<unknown> = Promise.resolve();
      let ended = false;
      const send = (sql: string, params?: readonly unknown[], options?: QueryOptions) => {
        const sent = last.then(() => client.query(statement(sql, params, options)));
        last = sent.catch(() => undefined);
        return sent;
      };
      const q: Queryable = {
        async query<T>(sql: string, params?: readonly unknown[], options?: QueryOptions) {
          // After COMMIT or ROLLBACK the connection goes back to the pool: a statement sent then
          // would run outside this transaction, or in someone else's.
          if (ended) throw new Error('statement sent after its transaction ended');
          return (await send(sql, params, options)).rows as T[];
        },
      };
      let failed: unknown = null;
      try {
        const out = await fn(q);
        ended = true;
        const committed = await send('COMMIT');
        // A statement that failed without anyone waiting for it leaves the transaction aborted,
        // and PostgreSQL answers COMMIT by rolling back: nothing was stored, which must not pass
        // for success.
        if (committed.command === 'ROLLBACK') throw new Error('the transaction was rolled back at COMMIT: one of its statements failed');
        return out;
      } catch (err) {
        failed = err;
        ended = true;
        await send('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.off('error', onError);
        // A connection the database ended, or is ending, is dropped, not handed to the next caller.
        client.release(broken ?? (connectionEnding(failed) ? (failed as Error) : undefined));
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    close: () => pool.end(),
    connections: () => ({ max: POOL_MAX, total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    stopped: () => null,
  };
}
