// `npm start`: build the PWA when dist/ lacks it, open the store (PGlite in .data/ or
// CASTAWAY_DATA_DIR; PostgreSQL with DATABASE_URL), migrate, seed the demo into an empty store,
// and serve the app and /api on PORT (default 8787).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app.ts';
import { createMemoryBus } from './bus.ts';
import { DEMO_PASSWORD, DEMO_USERS, seedIfEmpty } from './seed.ts';
import { openStore } from './store/open.ts';
import { serveDist } from './static.ts';

const projectRoot = fileURLToPath(new URL('..', import.meta.url));
const distDir = join(projectRoot, 'dist');

function buildIfMissing(): void {
  if (existsSync(join(distDir, 'index.html'))) return;
  if (!existsSync(join(projectRoot, 'vite.config.ts')) || !existsSync(join(projectRoot, 'index.html'))) {
    console.log('No PWA sources to build yet: serving the API only.');
    return;
  }
  console.log('Building the web app (dist/ is missing)…');
  const result = spawnSync('npm', ['run', 'build'], { cwd: projectRoot, stdio: 'inherit' });
  if (result.status !== 0) console.error('The web app build failed: serving the API only until `npm run build` succeeds.');
}

async function main(): Promise<void> {
  buildIfMissing();
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const store = await openStore({ databaseUrl });
  const seeded = await seedIfEmpty(store);
  if (seeded) console.log(`Seeded the demo: ${seeded.clips} clips in ${seeded.programs} programs of ${seeded.organizations} organizations.`);
  const app = createApp({ store, bus: createMemoryBus(), secureCookies: process.env.CASTAWAY_SECURE_COOKIES === '1' });
  serveDist(app, distDir);
  const port = Number(process.env.PORT ?? 8787);
  const server = serve({ fetch: app.fetch, port }, (info) => {
    console.log(`Castaway Studio on http://localhost:${info.port}/ (store: ${store.kind})`);
    console.log(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const u of DEMO_USERS) console.log(`  ${u.email.padEnd(22)} ${u.description}`);
  });
  const stop = () => {
    server.close();
    void store.close().finally(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error('Castaway Studio could not start:', err);
  process.exit(1);
});
