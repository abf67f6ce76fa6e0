// `npm run build:server`: compiles the server (sync-server/ and the src/ modules it imports) into
// build/server/ with TypeScript, so `npm start` and `npm run serve` run plain JavaScript on Node,
// without tsx. The tree keeps its layout: the files the server reads beside its code (migrations,
// the MP3 worker, the embed player's source, which it compiles for browsers) are copied to the
// same places. Plain JavaScript itself: it runs before anything is compiled.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'build', 'server');

/** Read at run time as files, not imported. */
const RUNTIME_SOURCES = new Set(['sync-server/pages/embed-player.ts']);

function* filesUnder(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else yield path;
  }
}

const started = Date.now();
rmSync(out, { recursive: true, force: true });
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compiled = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.server.json'], { cwd: root, stdio: 'inherit' });
if (compiled.status !== 0) {
  console.error('The server did not compile (see above): build/server/ is left empty.');
  rmSync(out, { recursive: true, force: true });
  process.exit(compiled.status ?? 1);
}
let copied = 0;
for (const file of filesUnder(join(root, 'sync-server'))) {
  const rel = relative(root, file).split('\\').join('/');
  if (rel.endsWith('.ts') && !RUNTIME_SOURCES.has(rel)) continue;
  mkdirSync(dirname(join(out, rel)), { recursive: true });
  copyFileSync(file, join(out, rel));
  copied++;
}
// The stamp `npm start` compares with the sources' times (scripts/start.mjs).
writeFileSync(join(out, 'BUILT'), `${new Date().toISOString()}\n`);
console.log(`Compiled the server into build/server/ (${copied} files copied beside it) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
