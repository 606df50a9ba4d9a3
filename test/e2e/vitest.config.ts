import { fileURLToPath } from 'node:url';

import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('../..', import.meta.url));

// The end-to-end suite drives one real editor through one browser; its steps run in order.
export default defineConfig({
  root,
  test: {
    include: ['test/e2e/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 240_000,
    pool: 'forks',
    fileParallelism: false,
    sequence: { concurrent: false },
  },
});
