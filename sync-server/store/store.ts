// The store seam (STYLE.md habit 3): one interface, a PGlite and a PostgreSQL implementation that
// pass the same contract suite (tests/server/store-contract.test.ts). SQL is plain PostgreSQL with
// $n placeholders, so every query runs unchanged on both.

/** Anything that runs a parameterised query: the store itself or a transaction inside it. */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: readonly unknown[], options?: QueryOptions): Promise<T[]>;
}

export type QueryOptions = {
  /**
   * A statement run on every request with one fixed text (the caller's session): PostgreSQL keeps
   * it parsed and, once its plan is known not to depend on the values, planned, per connection
   * under this name (a named prepared statement). One name, one text. PGlite ignores it.
   */
  name?: string;
};

export interface Store extends Queryable {
  /**
   * Runs fn in one transaction: committed when it resolves, rolled back when it throws. Inside fn
   * use ONLY `q`: PGlite has one connection, so calling the store itself from fn waits forever.
   */
  tx<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
  /** How its connections are used now (the /metrics gauge; PGlite has one). */
  connections(): ConnectionUse;
  /**
   * Why the store can never answer again, or null. Only PGlite's backend stops for good (it runs
   * in this process: store/pglite-guard.ts); only a new process brings it back, so the liveness
   * probe fails on it (/healthz). PostgreSQL that is down is a readiness matter (/readyz).
   */
  stopped(): Error | null;
  readonly kind: 'pglite' | 'postgres';
}

/** A store's connections: its pool size, those open, those idle, and callers waiting for one. */
export type ConnectionUse = { max: number; total: number; idle: number; waiting: number };

export type OpenStoreOptions = {
  /** postgres://… ; when set the store is PostgreSQL, otherwise PGlite. */
  databaseUrl?: string | undefined;
  /** PGlite data folder; `memory://` keeps it in memory (tests). */
  dataDir?: string | undefined;
  /** Skip applying migrations (the contract tests apply them explicitly). Default false. */
  skipMigrations?: boolean;
  /** Told once when the embedded database stops for good (pglite-guard.ts): the process's log. By
   *  default the stop is written to stderr. */
  onStopped?: ((failure: Error) => void) | undefined;
};
