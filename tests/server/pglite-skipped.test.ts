// A statement PGlite answers without running is an error or is run again, never "no rows"
// (sync-server/store/pglite.ts, completedRows). Once in CI a search's one-row SELECT came back
// empty with no error on the embedded store; PGlite answers that way whenever its backend skips
// messages until the next Sync, which is the state these tests put it in with a raw Parse of bad
// SQL and no Sync (what any extended-protocol error leaves until its Sync arrives).
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pgliteStoreOf, StatementNotCompleted } from '../../sync-server/store/pglite.ts';
import type { Store } from '../../sync-server/store/store.ts';

/** The wire form of a Parse message of the unnamed statement, with no parameter types. */
function parseMessage(sql: string): Uint8Array {
  const body = Buffer.concat([Buffer.from('\0'), Buffer.from(`${sql}\0`), Buffer.from([0, 0])]);
  const head = Buffer.alloc(5);
  head.write('P');
  head.writeInt32BE(body.length + 4, 1);
  return new Uint8Array(Buffer.concat([head, body]));
}

/** Leaves the backend skipping every message until a Sync. */
async function leaveSkipping(db: PGlite): Promise<void> {
  await expect(db.execProtocol(parseMessage('SELEC nothing'), { syncToFs: false })).rejects.toThrow(/syntax error/);
}

describe('PGlite store: a statement the embedded database skipped', () => {
  let db: PGlite;
  let store: Store;
  const warnings: Error[] = [];
  const onWarning = (w: Error) => void warnings.push(w);
  beforeAll(async () => {
    db = await PGlite.create();
    store = pgliteStoreOf(db);
    await store.exec('CREATE TABLE t (n int)');
    process.on('warning', onWarning);
  });
  afterAll(async () => {
    process.off('warning', onWarning);
    await store?.close();
  });

  it('answers an empty result without error when asked directly (the behaviour the store guards against)', async () => {
    await leaveSkipping(db);
    const skipped = await db.query('SELECT 1 AS one');
    expect(skipped.rows).toEqual([]);
    expect(skipped.command).toBeUndefined();
  });

  it('is sent again through the store: the caller gets its row, and a warning says it happened', async () => {
    await leaveSkipping(db);
    warnings.length = 0;
    expect(await store.query<{ one: number }>('SELECT 1 AS one')).toEqual([{ one: 1 }]);
    await new Promise((r) => setImmediate(r));
    expect(warnings.map((w) => (w as Error & { code?: string }).code)).toEqual(['CASTAWAY_PGLITE_SKIPPED']);
  });

  it('a write skipped the same way is an error naming it, not sent again (nothing described does not prove nothing ran), and a script likewise', async () => {
    await leaveSkipping(db);
    await expect(store.query('INSERT INTO t (n) VALUES (1)')).rejects.toThrow(StatementNotCompleted);
    expect(await store.query<{ n: number }>('SELECT n FROM t')).toEqual([]);
    // The refused run's Sync ended the skipping: the same write, sent again by its caller, is written once.
    await store.query('INSERT INTO t (n) VALUES (1)');
    expect(await store.query<{ n: number }>('SELECT n FROM t')).toEqual([{ n: 1 }]);
    await leaveSkipping(db);
    await expect(store.exec('INSERT INTO t (n) VALUES (5); INSERT INTO t (n) VALUES (6)')).rejects.toThrow(/without completing the statement/);
    expect(await store.query<{ n: number }>('SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }]);
  });

  it('a transaction begun while the database skips is still one: its BEGIN is sent again, and a failure writes nothing', async () => {
    await leaveSkipping(db);
    await expect(
      store.tx(async (q) => {
        await q.query('INSERT INTO t (n) VALUES (3)');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await store.query<{ n: number }>('SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }]);
    await leaveSkipping(db);
    await store.tx((q) => q.query('INSERT INTO t (n) VALUES (4)'));
    expect(await store.query<{ n: number }>('SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }, { n: 4 }]);
  });

  it('inside a transaction the error that began the skipping aborts it: the transaction fails and writes nothing', async () => {
    await expect(
      store.tx(async (q) => {
        await q.query('INSERT INTO t (n) VALUES (2)');
        await leaveSkipping(db);
        return q.query('SELECT n FROM t');
      }),
    ).rejects.toThrow(/current transaction is aborted/);
    expect(await store.query<{ n: number }>('SELECT n FROM t ORDER BY n')).toEqual([{ n: 1 }, { n: 4 }]);
  });
});
