// Runs the sync fault simulation for any seed: `npm run sim -- --seed 7 --ops 2000 [--clients 5]`.
// Exits non-zero with the replay command when a run loses an edit or fails to converge.
// `--database-url postgres://…`: against PostgreSQL (an empty database) instead of PGlite.
import { parseArgs } from 'node:util';
import { startServer } from '../tests/sync/harness.ts';
import { runSimulation } from '../tests/sync/simulation.ts';

const { values } = parseArgs({
  options: { 'data-dir': { type: 'string' }, 'database-url': { type: 'string' }, seed: { type: 'string', default: '1' }, ops: { type: 'string', default: '1000' }, clients: { type: 'string', default: '5' }, seeds: { type: 'string', default: '1' } },
});
const seed = Number(values.seed);
const ops = Number(values.ops);
const clients = Number(values.clients);
const seeds = Number(values.seeds);
if (![seed, ops, clients, seeds].every((x) => Number.isInteger(x) && x >= 0) || clients < 1) {
  console.error('usage: npm run sim -- --seed N --ops M [--clients C] [--seeds K] [--data-dir D | --database-url U]  (whole numbers; runs seeds N..N+K-1)');
  process.exit(2);
}
// --data-dir: a file-backed PGlite, so the mid-batch restarts reopen the store from disk too.
const dataDir = values['data-dir'];
const databaseUrl = values['database-url'];
if (dataDir && databaseUrl) {
  console.error('--data-dir (PGlite) and --database-url (PostgreSQL) name two stores: give one');
  process.exit(2);
}
const server = await startServer(databaseUrl ? { databaseUrl } : dataDir ? { dataDir } : {});
let failed = false;
for (let s = seed; s < seed + seeds; s++) {
  try {
    await runSimulation({ seed: s, ops, clients, server, log: (line) => console.log(line) });
  } catch (err) {
    failed = true;
    console.error(err instanceof Error ? err.message : err);
  }
}
await server.close();
process.exit(failed ? 1 : 0);
