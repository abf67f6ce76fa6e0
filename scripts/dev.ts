// `npm run dev`: the sync server with reload (node --watch) on 8787 and Vite's dev server with
// hot reload on 5173, which proxies /api to it (vite.config.ts). Ctrl-C stops both.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

const compiled = spawnSync('npm', ['run', '--silent', 'paraglide'], { stdio: 'inherit' });
if (compiled.status !== 0) process.exit(compiled.status ?? 1);

const children: ChildProcess[] = [
  spawn('node', ['--import', 'tsx', '--watch', 'sync-server/main.ts'], { stdio: 'inherit', env: { ...process.env, PORT: '8787' } }),
  spawn('npx', ['vite', '--port', '5173'], { stdio: 'inherit' }),
];
const stop = (): void => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) child.on('exit', (code) => { if (code) stop(); });
