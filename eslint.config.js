// Lint: typescript-eslint's recommended rules, floating promises as errors (a dropped promise in
// the sync path is a lost edit), and no console in the sync path (it reports through status).
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'src/paraglide/**', 'coverage/**', 'test-results/**', 'playwright-report/**', '.data/**', '.cache/**'] },
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
    files: ['workers/sync/**/*.ts', 'src/db/**/*.ts', 'sync-server/sync/**/*.ts'],
    rules: { 'no-console': 'error' },
  },
);
