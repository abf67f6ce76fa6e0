// The server's entry: `npm start` (scripts/start.mjs, which first rebuilds what is stale) and
// `npm run serve` run it compiled (build/server/); tests and `npm run dev` run it from source
// through tsx. It builds the PWA when dist/ lacks it (a source run), opens the store (PGlite in .data/ or
// CASTAWAY_DATA_DIR; PostgreSQL with DATABASE_URL), migrate, seed the demo into an empty store
// (the embedded one, or any with CASTAWAY_DEMO=1: first-run.ts; PostgreSQL's first owner comes from
// `npm run owner`),
// resume the jobs left in flight, and serve the app and /api on PORT (default 8787).
// CASTAWAY_DIST_DIR serves another build (and never builds); CASTAWAY_DEMO_CLIPS seeds that many
// clips instead of the demo's 2,000 (tests that start the server as a process).
// A store seeded here also gets CASTAWAY_DEMO_LISTENER_DAYS days of demo listening, made in the
// background by a durable job (sync-server/analytics/listeners.ts): 90 by default, none under
// NODE_ENV=test (the e2e servers: ~3 s of CPU each that no test reads).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { configuredBlobStore } from './audio/service.ts';
import { demoWanted, hasUser, hasUsers, NO_ACCOUNTS_NOTICE } from './first-run.ts';
import { DEMO_PASSWORD, DEMO_USERS, ORG_DEMO, ORG_PODCASTS, seedIfEmpty } from './seed.ts';
import { startServer } from './server.ts';
import { PROJECT_ROOT } from './project-root.ts';
import { createLogger } from './observability/log.ts';
import { parseTrustedProxies } from './client-address.ts';
import { openStore } from './store/open.ts';
import { createPgBus } from './sync/pg-bus.ts';
import { DEMO_LISTENING, enqueueDemoListeners } from './analytics/listeners.ts';

const projectRoot = PROJECT_ROOT;
const distDir = join(projectRoot, 'dist');

function buildIfMissing(): void {
  if (process.env.CASTAWAY_DIST_DIR || existsSync(join(distDir, 'index.html'))) return;
  if (!existsSync(join(projectRoot, 'vite.config.ts')) || !existsSync(join(projectRoot, 'index.html'))) {
    console.log('No web app sources to build yet: serving the API only.');
    return;
  }
  console.log('Building the web app (dist/ is missing)…');
  const result = spawnSync('npm', ['run', 'build:web'], { cwd: projectRoot, stdio: 'inherit' });
  if (result.status !== 0) console.error('The web app build failed: serving the API only until `npm run build:web` succeeds.');
}

async function main(): Promise<void> {
  buildIfMissing();
  // JSON lines on stdout (LOG_LEVEL); what follows for a person (the address, the demo logins)
  // stays plain text on the console.
  const log = createLogger();
  // Checked before anything is opened: a typo here would count every client as the proxy.
  const trustedProxies = parseTrustedProxies(process.env.CASTAWAY_TRUSTED_PROXIES);
  const databaseUrl = process.env.DATABASE_URL || undefined;
  // An embedded database that stops for good says so once, in the JSON log with the rest.
  const store = await openStore({ databaseUrl, onStopped: (failure) => log.fatal({ err: failure }, 'embedded database stopped: restart the process') });
  // With PostgreSQL several instances may serve one database: pokes cross them by LISTEN/NOTIFY.
  const bus = databaseUrl ? createPgBus(databaseUrl) : undefined;
  if (bus) await bus.ready;
  const demoClips = process.env.CASTAWAY_DEMO_CLIPS ? Number(process.env.CASTAWAY_DEMO_CLIPS) : undefined;
  if (demoClips !== undefined && !(Number.isInteger(demoClips) && demoClips >= 0)) throw new Error(`CASTAWAY_DEMO_CLIPS must be a whole number (got "${process.env.CASTAWAY_DEMO_CLIPS}")`);
  // One blob store for the seed and the app: a local folder, or the S3 bucket of CASTAWAY_S3_BUCKET.
  const blobs = configuredBlobStore();
  const demo = demoWanted(process.env, databaseUrl);
  const seeded = demo ? await seedIfEmpty(store, { blobs, ...(demoClips === undefined ? {} : { clips: demoClips }) }) : null;
  if (seeded) console.log(`Seeded the demo: ${seeded.clips} clips in ${seeded.programs} programs of ${seeded.organizations} organizations.`);
  const listenerDays = Number(process.env.CASTAWAY_DEMO_LISTENER_DAYS ?? (process.env.NODE_ENV === 'test' ? 0 : 90));
  if (!(Number.isInteger(listenerDays) && listenerDays >= 0)) throw new Error(`CASTAWAY_DEMO_LISTENER_DAYS must be a whole number (got "${process.env.CASTAWAY_DEMO_LISTENER_DAYS}")`);
  if (seeded && listenerDays > 0) await enqueueDemoListeners(store, { ...DEMO_LISTENING, organizationIds: [ORG_DEMO, ORG_PODCASTS], days: listenerDays, until: new Date() });
  const jobLeaseMs = Number(process.env.CASTAWAY_JOB_LEASE_MS ?? 60_000);
  if (!(Number.isInteger(jobLeaseMs) && jobLeaseMs >= 3_000)) throw new Error(`CASTAWAY_JOB_LEASE_MS must be a whole number of milliseconds, at least 3000 (got "${process.env.CASTAWAY_JOB_LEASE_MS}")`);
  const server = await startServer({
    store,
    ...(bus ? { bus } : {}),
    distDir,
    port: Number(process.env.PORT ?? 8787),
    secureCookies: process.env.CASTAWAY_SECURE_COOKIES === '1',
    trustedProxies,
    // With PostgreSQL the runner LISTENs for jobs that any instance commits.
    jobs: { databaseUrl, leaseMs: jobLeaseMs },
    log,
    metricsToken: process.env.CASTAWAY_METRICS_TOKEN || undefined,
    blobs,
  });
  // From the moment it answers, a stop closes the store cleanly (an embedded store killed
  // mid-write is left for recovery): the handlers come before anything else is awaited. Exit 0
  // says everything closed.
  const stop = () => {
    server
      .close()
      .then(() => bus?.close())
      .then(() => store.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          log.error({ err }, 'the server did not close cleanly');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log(`Castaway Studio on ${server.url}/ (store: ${store.kind})`);
  // The logins whenever the demo's users are in the store (so a database given the demo says so).
  if (await hasUser(store, DEMO_USERS[0]!.email)) {
    console.log(`Demo logins (password ${DEMO_PASSWORD}):`);
    for (const u of DEMO_USERS) console.log(`  ${u.email.padEnd(22)} ${u.description}`);
  } else if (!(await hasUsers(store))) console.log(NO_ACCOUNTS_NOTICE);
}

main().catch((err: unknown) => {
  console.error('Castaway Studio could not start:', err);
  process.exit(1);
});
