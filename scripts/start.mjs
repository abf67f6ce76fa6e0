// `npm start`: builds what is missing or older than its sources, then runs the compiled server.
// After a `git pull` (or any edit) the PWA in dist/ and the server in build/server/ are rebuilt
// before serving, so an update never serves the last build's code. `npm run serve` runs the
// compiled server alone, for a machine that built elsewhere. Plain JavaScript: it runs before
// anything is compiled.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildState, SERVER_INPUTS, SERVER_STAMP, WEB_INPUTS, WEB_STAMP } from './build-state.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const WHY = { missing: 'is not built', stale: 'has sources newer than its build' };

function build(script, what, state) {
  console.log(`The ${what} ${WHY[state]}: npm run ${script}…`);
  const result = spawnSync('npm', ['run', '--silent', script], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`npm run ${script} failed: not serving an out-of-date build. Fix the error above and run npm start again.`);
    process.exit(result.status ?? 1);
  }
}

if (!process.env.CASTAWAY_DIST_DIR) {
  const web = buildState(root, WEB_STAMP, WEB_INPUTS);
  if (web !== 'fresh') build('build:web', 'web app', web);
}
const server = buildState(root, SERVER_STAMP, SERVER_INPUTS);
if (server !== 'fresh') build('build:server', 'server', server);

await import(pathToFileURL(join(root, 'build', 'server', 'sync-server', 'main.js')).href);
