// `npm test`: every suite, in the order a failure is cheapest to read.
//   1. Paraglide compile (an empty compile fails the message test loudly)
//   2. Vitest: domain (with coverage), server on PGlite and PostgreSQL, workers, sync
//   3. Build the PWA, then Playwright end-to-end tests in Debian's Chromium against the real server
// PostgreSQL: TEST_DATABASE_URL, or a local cluster started by scripts/start-postgres.sh.
import { execFileSync, spawnSync } from 'node:child_process';

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`\n== ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`\nFAILED: ${cmd} ${args.join(' ')} (exit ${r.status ?? r.signal})`);
    process.exit(r.status ?? 1);
  }
}

const env = { ...process.env };
if (!env.TEST_DATABASE_URL) {
  try {
    env.TEST_DATABASE_URL = execFileSync('bash', ['scripts/start-postgres.sh'], { encoding: 'utf8' }).trim();
  } catch {
    console.error('PostgreSQL is needed for the server tests: set TEST_DATABASE_URL or install postgresql (see .ci/run).');
    process.exit(1);
  }
}
console.log(`PostgreSQL for tests: ${env.TEST_DATABASE_URL}`);

run('npm', ['run', '--silent', 'paraglide'], env);
run('npx', ['vitest', 'run', '--coverage'], env);
run('npx', ['vite', 'build', '--logLevel', 'warn'], env);
run('npx', ['playwright', 'test'], env);
