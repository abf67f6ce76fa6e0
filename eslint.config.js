// Lint: typescript-eslint's recommended rules, floating promises as errors (a dropped promise in
// the sync path is a lost edit), no console in the sync path (it reports through status), the
// rules of hooks and their dependency lists (a dependency left out is a stale value; one left out
// on purpose says why at the line), and the layers' dependency directions (docs/architecture.md,
// eslint-rules/boundaries.js).
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';
import boundaries from './eslint-rules/boundaries.js';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'src/paraglide/**', 'coverage/**', 'test-results/**', 'playwright-report/**', '.data/**', '.cache/**'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The two classic rules, not the plugin's React Compiler rules (refs read during render,
    // setState in effects, purity): the studio does not use the compiler, and those flag patterns
    // it uses on purpose (the latest-value ref of a handler, a state reset on a new key).
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['workers/sync/**/*.ts', 'src/db/**/*.ts', 'sync-server/sync/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
  {
    // Tests, benchmarks and scripts reach across layers on purpose (a test of the server drives a
    // client's store; a benchmark builds both ends).
    files: ['**/*.{ts,tsx,js,mjs}'],
    ignores: ['tests/**', 'bench/**', 'scripts/**', '**/*.test.{ts,tsx}'],
    plugins: { castaway: { rules: { boundaries } } },
    rules: { 'castaway/boundaries': ['error', { root: import.meta.dirname }] },
  },
);
