// A guard around PGlite's protocol loop (electric-sql/pglite#1058, open in the PGlite we use).
//
// PGlite runs a statement by calling the wasm backend's PostgresMainLoopOnce until the message is
// consumed, and swallows every exception but its own longjmp sentinel (an ERROR the backend
// recovers from). When the backend exits or aborts instead (ExitStatus, a wasm RuntimeError), it
// consumes nothing more, so that loop spins synchronously for ever: the event loop never runs
// again, no timeout can fire, and a server or test process only stops when killed. Twice in CI
// that was the end of a run.
//
// The guard wraps the loop's calls on the module: the first exception that is neither the
// sentinel nor something the backend went on from becomes the store's failure, the loop is left
// through its own sentinel path (it calls PostgresMainLongJmp, which then throws the failure), and
// every later statement fails at once with the same error, naming what killed the backend and the
// backend's last log lines.
import type { PGlite } from '@electric-sql/pglite';

/** The functions of PGlite's Emscripten module the protocol loop calls. */
type LoopModule = {
  _PostgresMainLoopOnce: () => void;
  _PostgresMainLongJmp: () => void;
  _PostgresSendReadyForQueryIfNecessary: () => void;
  _pgl_pq_flush: () => void;
};

/** PGlite's sentinel status for an ERROR's longjmp (its POSTGRES_MAIN_LONGJMP). */
const LONGJMP_STATUS = 100;

/** Other exceptions in a row, with no call of the loop completing between them, after which the
 *  backend is taken as stuck even though the exception did not say it exited. */
const STUCK_AFTER = 1_000;

/** The backend's log lines kept for the failure's message. */
const LOG_LINES = 40;

/** The embedded database's backend stopped: every statement from now on fails with this. */
export class EmbeddedDatabaseStopped extends Error {
  constructor(
    override readonly cause: unknown,
    readonly backendLog: readonly string[],
  ) {
    super(`the embedded database (PGlite) stopped: ${describe(cause)}${backendLog.length ? `\nits last log lines:\n${backendLog.join('\n')}` : ''}`);
    this.name = 'EmbeddedDatabaseStopped';
  }
}

function describe(e: unknown): string {
  if (e instanceof Error) return `${e.name}: ${e.message}`;
  if (e && typeof e === 'object') {
    const o = e as { name?: unknown; message?: unknown; status?: unknown };
    return `${String(o.name ?? o.constructor?.name ?? 'exception')}${o.status !== undefined ? ` (status ${String(o.status)})` : ''}${o.message ? `: ${String(o.message)}` : ''}`;
  }
  return String(e);
}

/** An exception after which the backend cannot go on: it exited (Emscripten's ExitStatus) or
 *  the wasm code trapped or aborted (RuntimeError). */
function isFatal(e: unknown): boolean {
  if (e instanceof WebAssembly.RuntimeError) return true;
  const name = (e as { name?: unknown; constructor?: { name?: unknown } } | null)?.name ?? (e as { constructor?: { name?: unknown } } | null)?.constructor?.name;
  return name === 'ExitStatus' || name === 'RuntimeError';
}

export type PgliteGuard = {
  /** The failure once the backend stopped, else null. */
  failure(): EmbeddedDatabaseStopped | null;
  /** PGlite's onStderr option: keeps the backend's last log lines. */
  onStderr(text: string): boolean;
};

/** A guard whose log is filled through `onStderr` (pass it to PGlite.create) and which is armed on
 *  the instance by `arm`. `onStop` is told once, when the backend stops. */
export function pgliteGuard(onStop: (failure: EmbeddedDatabaseStopped) => void): PgliteGuard & { arm(db: PGlite): void } {
  const log: string[] = [];
  let failure: EmbeddedDatabaseStopped | null = null;
  const stop = (cause: unknown) => {
    failure = new EmbeddedDatabaseStopped(cause, [...log]);
    onStop(failure);
  };
  return {
    failure: () => failure,
    onStderr(text) {
      log.push(text);
      if (log.length > LOG_LINES) log.shift();
      // false: PGlite goes on with its own handling (it prints nothing unless debug is set).
      return false;
    },
    arm(db) {
      const mod = (db as unknown as { mod: LoopModule }).mod;
      const once = mod._PostgresMainLoopOnce;
      const longJmp = mod._PostgresMainLongJmp;
      const ready = mod._PostgresSendReadyForQueryIfNecessary;
      const flush = mod._pgl_pq_flush;
      let inARow = 0;
      // Thrown so that the loop's own catch calls PostgresMainLongJmp, which throws the failure:
      // the one way out of the loop that PGlite's code leaves open.
      const leave = { status: LONGJMP_STATUS };
      mod._PostgresMainLoopOnce = () => {
        if (failure) throw leave;
        try {
          once();
          inARow = 0;
        } catch (e) {
          if ((e as { status?: unknown } | null)?.status === LONGJMP_STATUS) throw e;
          inARow++;
          if (isFatal(e) || inARow >= STUCK_AFTER) {
            stop(e);
            throw leave;
          }
          throw e;
        }
      };
      mod._PostgresMainLongJmp = () => {
        if (failure) throw failure;
        longJmp();
      };
      // The loop's finally calls these on the dead backend too: they must not hide the failure.
      mod._PostgresSendReadyForQueryIfNecessary = () => {
        if (!failure) ready();
      };
      mod._pgl_pq_flush = () => {
        if (!failure) flush();
      };
    },
  };
}
