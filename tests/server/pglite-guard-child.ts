// Run by pglite-guard.test.ts in a process of its own: without the guard, the COPY below makes
// PGlite spin for ever, and only that process must be killed. Prints one line of JSON.
import { openStore } from '../../sync-server/store/open.ts';

const outcome = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => `${(e as Error).name}: ${(e as Error).message.split('\n')[0]}`,
  );

// As the server opens it (main.ts): the stop goes to the process's log through onStopped, once.
const told: string[] = [];
const store = await openStore({
  dataDir: 'memory://',
  skipMigrations: true,
  onStopped: (failure) => {
    told.push(failure.name);
    console.error(`logged: ${failure.message}`);
  },
});
await store.exec('CREATE TABLE t (a int)');
// An ERROR is the backend's ordinary longjmp: the store goes on.
const error = await outcome(store.query('SELECT nonsense FROM t'));
const afterError = await store.query<{ one: number }>('SELECT 1 AS one');
const stoppedBefore = store.stopped();
// COPY … FROM STDIN with no data: the backend reads EOF and exits (electric-sql/pglite#1058).
const copy = await outcome(store.exec('COPY t FROM STDIN'));
const later = await outcome(store.query('SELECT 1'));
const stopped = store.stopped()?.name ?? null;
await store.close();
console.log(JSON.stringify({ error, afterError: afterError[0]?.one, stoppedBefore, copy, later, stopped, told }));
