import { build } from 'esbuild';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The files that run longest (seconds each on these machines, the simulation minutes), in that
 * order. With no timing cache (a clean clone: CI) Vitest starts the largest files first, and the
 * simulation is a short file: in CI it started 5 minutes in and ran alone for its last 4. */
const LONGEST_FIRST = ['tests/sync/simulation.test.ts', 'workers/audio/parallel.test.ts', 'src/media/mp3-split.test.ts', 'tests/sync/sync.test.ts'];

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((path) => f.moduleId.replaceAll('\\', '/').endsWith(path));
      return i === -1 ? LONGEST_FIRST.length : i;
    };
    // Array sort is stable: the other files keep Vitest's own order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * Paraglide compiles every message to its own module (1,061 of them, re-exported by
 * messages/_index.js) so that the PWA's bundles keep only what a screen uses. A test file that
 * touches a message (most do, through src/domain/messages.ts) then made its worker load all of
 * them, one module-runner request each: ~10 s per file of import time (Vitest's import-duration
 * breakdown; a 43-file subset ran in 43 s instead of 105 s, the whole suite, whose length the
 * simulation sets, in 765 s instead of 783). Tests load one esbuild bundle of the same modules.
 * runtime.js stays a module of its own, the one every other import reaches, so the locale set by
 * a test is the locale its messages read.
 */
function paraglideMessagesBundle(): Plugin {
  const index = resolve('src/paraglide/messages/_index.js');
  const runtime = resolve('src/paraglide/runtime.js');
  const bundle = resolve('.cache/paraglide-messages.js');
  return {
    name: 'castaway:paraglide-messages-bundle',
    enforce: 'pre',
    async config() {
      await build({
        entryPoints: [index],
        bundle: true,
        format: 'esm',
        platform: 'neutral',
        outfile: bundle,
        logLevel: 'error',
        plugins: [{ name: 'runtime-external', setup(build) {
          build.onResolve({ filter: /\/runtime\.js$/ }, () => ({ path: runtime, external: true }));
        } }],
      });
    },
    async resolveId(source, importer, options) {
      // messages.js and the area modules import './messages/_index.js' or '../messages/_index.js'.
      if (!source.endsWith('/_index.js')) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      return resolved?.id === index ? bundle : null;
    },
  };
}

// Kept apart from vite.config.ts: the PWA and Paraglide plugins have no place in unit tests
// (ENVIRONMENT.md: Paraglide's plugin keeps processes alive; messages are compiled by the CLI).
/**
 * Test files that read state a module keeps (a served build's index, the connectivity a module
 * remembers, globals an import installs) and so run in a fresh module graph of their own: run in a
 * shared one after other files they failed (a GET / of the security-headers server answered 404,
 * http-edges' sign-in 500, the Toaster's IndexedDB missing). Everything under src/ too: UI tests
 * set the locale, mock modules (App.test) and stub globals. The tests of the domain rules, the
 * wire schemas and other pure modules (SHARED_SRC) do none of that and run in the shared graph:
 * each in a fresh one spent ~1.6 s importing for milliseconds of tests (the 49 domain files: 82 s
 * of import, 4 s of tests; the 62 files now run in 18 s).
 *
 * And the files on a device store (fake-indexeddb): 'fake-indexeddb/auto' installs its globals once
 * per module graph, so in a shared one a file that ran earlier and took them away (an environment's
 * teardown) left the next ones with "IndexedDB API missing", depending on the order files happened
 * to run in (a clean-clone CI, 4 files).
 */
const SHARED_SRC = [
  'src/domain/**/*.test.ts',
  'src/protocol/**/*.test.ts',
  'src/lib/{i18n,locales,normalization}.test.ts',
  'src/media/{audio-keep,cut,cut-timeline,live-events,messages,mp3-split,reuse}.test.ts',
  'src/ui/audio/cut-model.test.ts',
  'workers/search/index-core.test.ts',
];
const ISOLATED = [
  'src/**/*.test.{ts,tsx}',
  'tests/server/http-edges.test.ts',
  'tests/server/security-headers.test.ts',
  'tests/sync/outbox-upgrade.test.ts',
  'tests/audio/recording-to-clip-sync.test.ts',
  'workers/**/*.test.ts',
];

export default defineConfig({
  plugins: [paraglideMessagesBundle()],
  test: {
    exclude: ['tests/e2e/**', 'node_modules/**'],
    /**
     * The server, worker and sync files share one module graph per worker (isolate: false): each
     * file in a fresh graph spent most of its time importing the server again (the whole run: 343 s
     * of import, 1,015 s wall; shared: 53 s and 540 s). tests/setup-shared.ts puts back the
     * environment variables a file changed, so a file's leftovers do not reach the next one.
     */
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['sync-server/**/*.test.ts', 'tests/**/*.test.ts', ...SHARED_SRC], exclude: ['tests/e2e/**', 'node_modules/**', ...ISOLATED.filter((glob) => !glob.startsWith('src/') && !glob.startsWith('workers/'))], isolate: false, setupFiles: ['tests/setup-shared.ts'], globalSetup: ['tests/pglite-template.ts'] },
      },
      // Worker threads, not processes: a fresh graph per file either way, and a thread starts and
      // imports faster (these 76 files: 234 s on threads, 315 s on processes, an idle 2-core machine).
      { extends: true, test: { name: 'isolated', include: ISOLATED, exclude: ['node_modules/**', ...SHARED_SRC], pool: 'threads' } },
    ],
    environment: 'node',
    testTimeout: 30_000,
    // Set-ups seed a demo store (a PGlite or PostgreSQL database, media files): seconds on a quiet
    // machine, and over a minute on a loaded two-core one, where a set-up that times out fails
    // every test of its file without telling anything.
    hookTimeout: 180_000,
    // One migrated PGlite data folder for the run, loaded by every in-memory test store (set on the
    // 'shared' project: a global set-up runs once per project that names it, and two would remove
    // each other's template).
    // PGlite instances and PostgreSQL databases are per file, so files run side by side. Vitest's
    // default (cores − 1) is one worker on these two-core machines: every file, the 10,000-operation
    // simulation included, would then run one after the other with a core idle.
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: LongestFirst },
    coverage: {
      provider: 'v8',
      include: ['src/domain/**/*.ts'],
      exclude: ['src/domain/**/*.test.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 95, branches: 95 },
    },
  },
});
