// `npm test`: every suite, in the order a failure is cheapest to read.
//   1. Paraglide compile (an empty compile fails the message test loudly)
//   2. Vitest: domain, server on PGlite and PostgreSQL, workers, sync, audio (coverage of the domain
//      rules: `npm run test:coverage`, kept out of here for CI's 40 minutes)
//   3. Build the PWA (unless dist/ is newer than its sources), then Playwright end-to-end tests in
//      Debian's Chromium against the real server
// PostgreSQL: TEST_DATABASE_URL, or a local cluster started by scripts/start-postgres.sh.
// Every stage runs even when an earlier one failed; the last line is the plain summary
// 'N passed, N failed' over both runners, and the exit code is non-zero on any failure.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { buildState, WEB_INPUTS, WEB_STAMP } from './build-state.mjs';

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
// Without coverage: V8's block counters slow every process they are on (server, PGlite's host,
// workers) by about a sixth (4 server files: 67.6 s without, 79.4 s with), and CI has 40 minutes on a
// loaded two-core machine. `npm run test:coverage` runs the same files with the domain's thresholds.
run('npx', ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${VITEST_JSON}`], env);
// The PWA as `npm start` builds it (scripts/build-state.mjs): built again only when a source is
// newer than dist/, so a run right after `npm start` (CI's) does not build the same files twice.
let built = buildState('.', WEB_STAMP, WEB_INPUTS) === 'fresh';
if (built) console.log(`\n== dist/ is newer than every source of the PWA: not built again`);
else built = run('npx', ['vite', 'build', '--logLevel', 'warn'], env);
if (built) run('npx', ['playwright', 'test'], env);

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
// The failed tests again, each with the first lines of its error, at the end where a CI log's tail
// shows them: the runners print them far above, between thousands of passing lines.
const failedTests = [...vitestFailures(vitest), ...playwrightFailures(pw)];
if (failedTests.length > 0) console.log(`\nFailed tests:\n${failedTests.join('\n')}`);
if (failures.length > 0) {
  console.log(`\nFAILED stages:\n  ${failures.join('\n  ')}`);
  failed = Math.max(failed, 1);
}
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failures.length > 0 ? 1 : 0);

/** Up to `lines` lines of an error message, without terminal colours, indented under its test. */
function excerpt(message: string | undefined, lines = 8): string {
  const text = (message ?? '').replace(/\u001b\[[0-9;]*m/g, '').trim().split('\n').slice(0, lines);
  return text.map((l) => `      ${l}`).join('\n');
}

type VitestReport = { testResults?: { name: string; assertionResults?: { status: string; fullName: string; failureMessages?: string[] }[] }[] };
function vitestFailures(report: unknown): string[] {
  const out: string[] = [];
  for (const file of (report as VitestReport | undefined)?.testResults ?? []) {
    for (const t of file.assertionResults ?? []) {
      if (t.status === 'failed') out.push(`  vitest ${file.name.replace(process.cwd() + '/', '')} › ${t.fullName}\n${excerpt(t.failureMessages?.[0])}`);
    }
  }
  return out;
}

type PwSuite = { title: string; file?: string; suites?: PwSuite[]; specs?: { title: string; line?: number; tests: { status: string; results: { error?: { message?: string } }[] }[] }[] };
function playwrightFailures(report: unknown): string[] {
  const out: string[] = [];
  const walk = (suite: PwSuite, file: string) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests) {
        if (t.status !== 'unexpected') continue;
        const last = t.results[t.results.length - 1];
        out.push(`  playwright ${file}:${spec.line ?? ''} › ${spec.title}\n${excerpt(last?.error?.message)}`);
      }
    }
    for (const s of suite.suites ?? []) walk(s, s.file ?? file);
  };
  for (const s of (report as { suites?: PwSuite[] } | undefined)?.suites ?? []) walk(s, s.file ?? s.title);
  return out;
}
