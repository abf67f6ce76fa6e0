// `npm run test:e2e`: build the PWA (messages + vite) and run Playwright against the real server.
import { spawnSync } from 'node:child_process';

for (const [cmd, args] of [
  ['npm', ['run', '--silent', 'build:web']],
  ['npx', ['playwright', 'test', ...process.argv.slice(2)]],
] as const) {
  const r = spawnSync(cmd, [...args], { stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
