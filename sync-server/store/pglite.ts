import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { pgliteGuard, type PgliteGuard } from './pglite-guard.ts';
import type { Queryable, Store } from './store.ts';

/** The contrib extensions every PGlite instance loads: a data folder that has run CREATE EXTENSION
 *  needs them at each start (btree_gin: the organization in clip search's index). pg_trgm only
 *  because an early migration creates it: a later one drops it, and nothing calls it (its code
 *  crashes PGlite now and then: sync-server/search/migrations/0650_search_lexicon_trigrams.sql). */
const PGLITE_EXTENSIONS = { btree_gin, pg_trgm };

/**
 * PGlite runs one connection: a transaction holds it, so concurrent callers queue behind a lock
 * instead of interleaving statements inside someone else's transaction.
 */
export async function openPgliteStore(dataDir: string, options: PgliteOptions = {}): Promise<Store> {
  return (await openPglite(dataDir, options)).store;
}

type PgliteOptions = { loadDataDir?: Blob; onStopped?: ((failure: Error) => void) | undefined };

/** A PGlite instance, guarded from its creation (pglite-guard.ts needs its onStderr), and its
 *  Store; the instance for what only PGlite does (dumpDataDir: tests/pglite-template.ts). */
export async function openPglite(dataDir: string, options: PgliteOptions = {}): Promise<{ db: PGlite; store: Store }> {
  // Said once, loudly, where the process's log shows it: from then on every statement fails with
  // the same error (pglite-guard.ts), which is what callers and /readyz see.
  const guard = pgliteGuard(options.onStopped ?? ((failure) => console.error(`castaway: ${failure.message}\n${String(failure.stack)}`)));
  const common = { extensions: PGLITE_EXTENSIONS, onStderr: guard.onStderr };
  let db: PGlite;
  if (dataDir.startsWith('memory://')) {
    // loadDataDir: a data folder dumped by PGlite (dumpDataDir), in place of a fresh initdb.
    db = await PGlite.create(options.loadDataDir ? { ...common, loadDataDir: options.loadDataDir } : common);
  } else {
    const dir = resolve(dataDir);
    // ENVIRONMENT.md: PGlite needs its data folder's parent to exist.
    mkdirSync(dirname(dir), { recursive: true });
    db = await PGlite.create(dir, common);
  }
  guard.arm(db);
  // Sorts of a pull page (2,500 clips of ~2 KB, ordered by Version) outgrow PostgreSQL's default
  // 4 MB and spill to temporary files, which PGlite writes through Node's synchronous file calls:
  // an initial sync of 10,000 clips wrote ~15 MB of them. With one connection, one statement runs
  // at a time, so this much per sort is what the process can hold.
  await completedRows(db, `SET work_mem = '${PGLITE_WORK_MEM}'`);
  return { db, store: pgliteStoreOf(db, guard) };
}

/** work_mem of the embedded store's one session (openPgliteStore). */
const PGLITE_WORK_MEM = '16MB';

/** A statement PGlite answered without running it to its end: see completedRows. */
export class StatementNotCompleted extends Error {
  constructor(readonly sql: string) {
    super(`the embedded database answered without completing the statement (no command tag): ${sql.replace(/\s+/g, ' ').slice(0, 160)}`);
    this.name = 'StatementNotCompleted';
  }
}

/**
 * Statements that are safe to send again when PGlite answered them with nothing described and
 * nothing completed. A SELECT is described (its columns) before it is executed, so without a
 * description nothing of it ran, whatever functions it calls; BEGIN, COMMIT and ROLLBACK have the
 * same end state whether the first one ran or not (a second COMMIT or ROLLBACK outside a
 * transaction is only a warning). A write without RETURNING is never described, so for it "nothing
 * described" does not prove "nothing ran": it is an error instead.
 */
const SAFE_TO_RESEND = /^\s*(SELECT|BEGIN|COMMIT|ROLLBACK)\b/i;

function skippedWarning(sql: string): void {
  process.emitWarning(`PGlite skipped a statement without an error; sending it again: ${sql.replace(/\s+/g, ' ').slice(0, 160)}`, { code: 'CASTAWAY_PGLITE_SKIPPED' });
}

/**
 * The rows of a statement PGlite ran to its end. PGlite can answer a statement it did not run with
 * no rows and no error: a backend left skipping messages until the next Sync (the extended
 * protocol's state after an error) skips the statement's Parse, Bind and Execute and answers only
 * its Sync, and PGlite's protocol loop carries on after any exception it does not know. A caller
 * would read that as "no rows" (once in CI a search's one-row SELECT came back empty: a TypeError
 * far from the cause), and a transaction whose BEGIN was skipped would run its statements one by
 * one, committed each. Every statement that ran has a command tag, so one without is an error,
 * except one SAFE_TO_RESEND with nothing described: the skipped run's own Sync ended the skipping,
 * so it is sent once more, and the warning says it happened.
 */
export async function completedRows<T>(db: Pick<PGlite, 'query'>, sql: string, params?: unknown[]): Promise<T[]> {
  const result = await db.query<T>(sql, params);
  if (result.command !== undefined) return result.rows;
  if (result.fields.length === 0 && SAFE_TO_RESEND.test(sql)) {
    skippedWarning(sql);
    const again = await db.query<T>(sql, params);
    if (again.command !== undefined) return again.rows;
  }
  throw new StatementNotCompleted(sql);
}

/** A script (several statements, the simple protocol) PGlite ran to its end: each statement that
 *  ran has a command tag. None at all means the script was skipped whole (see completedRows): an
 *  error, since a script may write; one cut short is an error too. */
async function completedScript(db: Pick<PGlite, 'exec'>, sql: string): Promise<void> {
  const results = await db.exec(sql);
  if (results.some((r) => r.command === undefined)) throw new StatementNotCompleted(sql);
}

/** The Store of an open PGlite instance (its one connection, serialised). */
export function pgliteStoreOf(db: PGlite, guard?: PgliteGuard): Store {
  let chain: Promise<unknown> = Promise.resolve();
  /** Calls holding or waiting for the one connection. */
  let pending = 0;
  function serialise<T>(fn: () => Promise<T>): Promise<T> {
    pending++;
    // A stopped backend is not asked again (its module may throw anything): the same failure.
    const guarded = () => {
      const failure = guard?.failure();
      return failure ? Promise.reject(failure) : fn();
    };
    const run = chain.then(guarded, guarded).finally(() => pending--);
    chain = run.catch(() => undefined);
    return run;
  }
  const direct: Queryable = {
    query: <T>(sql: string, params?: readonly unknown[]) => completedRows<T>(db, sql, params ? [...params] : undefined),
  };
  return {
    kind: 'pglite',
    query: (sql, params) => serialise(() => direct.query(sql, params)),
    tx: (fn) =>
      serialise(async () => {
        // Through completedRows too: a skipped BEGIN would leave fn's statements each committed
        // alone, a skipped COMMIT or ROLLBACK the transaction open for the next caller.
        await completedRows(db, 'BEGIN');
        try {
          const out = await fn(direct);
          await completedRows(db, 'COMMIT');
          return out;
        } catch (err) {
          await completedRows(db, 'ROLLBACK');
          throw err;
        }
      }),
    exec: (sql) => serialise(() => completedScript(db, sql)),
    // A stopped backend has nothing to close, and its module is not called again.
    close: () => (guard?.failure() ? Promise.resolve() : serialise(() => db.close())),
    connections: () => ({ max: 1, total: 1, idle: pending === 0 ? 1 : 0, waiting: Math.max(0, pending - 1) }),
    stopped: () => guard?.failure() ?? null,
  };
}
