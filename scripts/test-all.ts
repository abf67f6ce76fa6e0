// `npm test`: every suite, in the order a failure is cheapest to read.
//   1. Paraglide compile (an empty compile fails the message test loudly)
//   2. Vitest: domain (with coverage), server on PGlite and PostgreSQL, workers, sync, audio
//   3. Build the PWA, then Playwright end-to-end tests in Debian's Chromium against the real server
// PostgreSQL: TEST_DATABASE_URL, or a local cluster started by scripts/start-postgres.sh.
// Every stage runs even when an earlier one failed; the last line is the plain summary
// 'N passed, N failed' over both runners, and the exit code is non-zero on any failure.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';

const VITEST_JSON = '.cache/vitest-results.json';
const PLAYWRIGHT_JSON = 'test-results/e2e-results.json';
const failures: string[] = [];

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): boolean {
  console.log(`\n== ${cmd} ${args.join(' ')}`);
  const started = Date.now();
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  console.log(`== ${cmd} ${args.filter((a) => !a.startsWith('-')).slice(0, 2).join(' ')}: ${Math.round((Date.now() - started) / 1000)} s`);
  if (r.status === 0) return true;
  failures.push(`${cmd} ${args.join(' ')} (exit ${r.status ?? r.signal})`);
  return false;
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

const env = { ...process.env };
if (!env.TEST_DATABASE_URL) {
  try {
    env.TEST_DATABASE_URL = execFileSync('bash', ['scripts/start-postgres.sh'], { encoding: 'utf8' }).trim().split('\n').pop();
  } catch {
    console.error('PostgreSQL is needed for the server tests: set TEST_DATABASE_URL or install postgresql (see .ci/run).');
    process.exit(1);
  }
}
console.log(`PostgreSQL for tests: ${env.TEST_DATABASE_URL}`);
mkdirSync('.cache', { recursive: true });

if (!run('npm', ['run', '--silent', 'paraglide'], env)) process.exit(1);
run('npx', ['vitest', 'run', '--coverage', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`], env);
if (run('npx', ['vite', 'build', '--logLevel', 'warn'], env)) run('npx', ['playwright', 'test'], env);

// Counts from the runners' own reports.
let passed = 0;
let failed = 0;
const vitest = readJson(VITEST_JSON) as { numPassedTests?: number; numFailedTests?: number } | undefined;
if (vitest) {
  passed += vitest.numPassedTests ?? 0;
  failed += vitest.numFailedTests ?? 0;
  console.log(`\nvitest: ${vitest.numPassedTests ?? 0} passed, ${vitest.numFailedTests ?? 0} failed`);
}
const pw = existsSync(PLAYWRIGHT_JSON) ? (readJson(PLAYWRIGHT_JSON) as { stats?: { expected?: number; unexpected?: number; flaky?: number } }) : undefined;
if (pw?.stats) {
  const ok = (pw.stats.expected ?? 0) + (pw.stats.flaky ?? 0);
  passed += ok;
  failed += pw.stats.unexpected ?? 0;
  console.log(`playwright: ${ok} passed, ${pw.stats.unexpected ?? 0} failed`);
}
if (failures.length > 0) {
  console.log(`\nFAILED stages:\n  ${failures.join('\n  ')}`);
  failed = Math.max(failed, 1);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failures.length > 0 ? 1 : 0);
