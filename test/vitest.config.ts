import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: {
    include: ['test/**/*.test.ts'],
    // The editor suite drives a real VS Code and runs on its own (npm run test:e2e).
    exclude: ['test/e2e/**', '**/node_modules/**'],
    // PGlite and the ESLint CLI are slow to start on two cores; results, not time, are asserted.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    pool: 'forks',
  },
});
