// `npm run paraglide`: compiles the message catalogues (locales/) into src/paraglide: the pseudo
// locale first (scripts/pseudo-locale.ts), then Paraglide's compiler, then the per-area modules
// (scripts/message-areas.ts). Skipped when src/paraglide was compiled from exactly these inputs:
// `npm start`, `npm run typecheck`, `npm test` and every bench compile first, and a compile is
// about 17 s of CPU on these machines (CI ran it three times over the same catalogues).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUT = join('src', 'paraglide');
const STAMP = join(OUT, '.inputs-sha256');

/** A hash of everything the output depends on: the catalogues, the project settings, the scripts
 *  that write them and the compiler's version. */
function inputsHash(): string {
  const hash = createHash('sha256');
  const files = ['project.inlang/settings.json', 'scripts/pseudo-locale.ts', 'scripts/message-areas.ts', 'scripts/paraglide.ts', 'node_modules/@inlang/paraglide-js/package.json'];
  for (const area of readdirSync('locales').sort()) {
    for (const file of readdirSync(join('locales', area)).sort()) files.push(join('locales', area, file));
  }
  for (const file of files) hash.update(file).update('\0').update(readFileSync(file)).update('\0');
  return hash.digest('hex');
}

function run(cmd: string, args: string[]): void {
  const r = spawnSync(cmd, args, { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

const before = inputsHash();
const fresh = existsSync(STAMP) && existsSync(join(OUT, 'messages', '_index.js')) && readFileSync(STAMP, 'utf8') === before;
if (!fresh) {
  run(process.execPath, ['--import', 'tsx', 'scripts/pseudo-locale.ts']);
  run(join('node_modules', '.bin', 'paraglide-js'), ['compile', '--project', './project.inlang', '--outdir', `./${OUT}`, '--silent']);
  run(process.execPath, ['--import', 'tsx', 'scripts/message-areas.ts']);
  // After the pseudo locale was written: its files are inputs too.
  writeFileSync(STAMP, inputsHash());
}
