// End-to-end tests in Debian's Chromium (ENVIRONMENT.md) against the real server, which serves
// the built PWA from dist/ (run `npm run build` first; `npm test` and `npm run test:e2e` do).
import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const PORT = Number(process.env.E2E_PORT ?? 8790);
// E2E_BASE_URL points the tests at a server that is already running (no webServer started).
const EXTERNAL = process.env.E2E_BASE_URL;
// The config is evaluated in every worker too: reuse the folder the main process chose.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'castaway-e2e-'));
// One artifacts folder per run: a second run in the same tree (another spec file) must not delete
// this run's traces while it writes them.
process.env.E2E_OUTPUT_DIR ??= join('test-results', `run-${Date.now()}`);

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  outputDir: process.env.E2E_OUTPUT_DIR,
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // The longest journeys (two users each signing in and syncing the demo, snapshot
  // restore) take 25–35 s on a quiet machine and ran 1.8 times slower in the clean-clone CI on a
  // loaded two-core machine, where conflict-names passed 60 s. A hung test still ends at 90 s.
  timeout: 90_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: 'test-results/e2e-results.json' }]],
  use: {
    baseURL: EXTERNAL ?? `http://localhost:${PORT}`,
    // A failed test keeps its trace (actions, console, network, sources) and a screenshot of the
    // end. Neither the screencast nor DOM snapshots: the trace records them for every test, passed
    // or not, and CI is CPU-bound. The screencast cost about a fifth of a run's CPU (dialogs +
    // content specs: 50–60 s user CPU with it, 45–51 without); snapshots of every action a further
    // sixth (dialogs.spec, user + sys CPU of the whole tree: 39.6–40.4 s with, 33.6–34.0 s without).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false, sources: true },
    screenshot: 'only-on-failure',
    // No service worker unless a spec asks for one (test.use({ serviceWorkers: 'allow' }): the 25
    // that go offline and reload, or look at the worker itself). Each test is a fresh browser
    // context, where the worker's install precaches the whole build (245 files, 5 MB of JavaScript,
    // which Chromium compiles as it stores them) for a test that never needs it: 16% of the CPU of
    // dialogs + errors-and-menus (19 tests: 153 CPU-seconds with it, 129 without).
    serviceWorkers: 'block',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS },
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS } } },
  ],
  webServer: EXTERNAL ? [] : {
    command: 'node --import tsx sync-server/main.ts',
    url: `http://localhost:${PORT}/api/internal/session`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'pipe',
    // 30 days of demo listening (made by a job after start; NODE_ENV=test alone makes none): the
    // analytics journey reads it. 300 clips, not the 2,000 of `npm start`: every test signs in on
    // a fresh device and downloads its organization, and nothing on the shared server needs more
    // than a program's first screen of clips (first-download.spec.ts, about the download's pages,
    // has a server of its own with more).
    env: { PORT: String(PORT), CASTAWAY_DATA_DIR: process.env.E2E_DATA_DIR ?? '', NODE_ENV: 'test', CASTAWAY_DEMO_CLIPS: '300', CASTAWAY_DEMO_LISTENER_DAYS: '30', CASTAWAY_WEBHOOK_ALLOW_LOOPBACK: '1', CASTAWAY_LOCATION_HEADER: 'CF-IPCountry' },
  },
});
