import pg from 'pg';
import type { Queryable, Store } from './store.ts';

// ENVIRONMENT.md: int8 comes back as a string from pg but a number from PGlite; versions and
// counts stay far below 2^53, so both stores hand out numbers.
pg.types.setTypeParser(20, Number);

export async function openPostgresStore(databaseUrl: string): Promise<Store> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 10 });
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
    async query<T>(sql: string, params?: readonly unknown[]) {
      const result = await pool.query(sql, params ? [...params] : undefined);
      return result.rows as T[];
    },
    async tx(fn) {
      const client = await pool.connect();
      const q: Queryable = {
        async query<T>(sql: string, params?: readonly unknown[]) {
          const result = await client.query(sql, params ? [...params] : undefined);
          return result.rows as T[];
        },
      };
      try {
        await client.query('BEGIN');
        const out = await fn(q);
        await client.query('COMMIT');
        return out;
      } catch (err) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        client.release();
      }
    },
    async exec(sql) {
      await pool.query(sql);
    },
    close: () => pool.end(),
  };
}
