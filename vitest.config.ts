import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Kept apart from vite.config.ts: the PWA and Paraglide plugins have no place in unit tests
// (ENVIRONMENT.md: Paraglide's plugin keeps processes alive; messages are compiled by the CLI).
export default defineConfig({
  test: {
    include: ['src/**/*.test.{ts,tsx}', 'sync-server/**/*.test.ts', 'workers/**/*.test.ts', 'tests/**/*.test.ts'],
    exclude: ['tests/e2e/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // PGlite instances and PostgreSQL databases are per file, so files run side by side. Vitest's
    // default (cores − 1) is one worker on these two-core machines: every file, the 10,000-operation
    // simulation included, would then run one after the other with a core idle.
    pool: 'forks',
    maxWorkers: Math.max(2, availableParallelism() - 1),
    coverage: {
      provider: 'v8',
      include: ['src/domain/**/*.ts'],
      exclude: ['src/domain/**/*.test.ts'],
      reporter: ['text-summary', 'text'],
      thresholds: { lines: 95, branches: 95 },
    },
  },
});
