// Vitest settings of the chaos suite: its files (node, Redis and connection faults, each on a cluster of
// its own) run two at a time.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 240_000,
    hookTimeout: 120_000,
    globalSetup: ['test/support/results.ts'],
    fileParallelism: true,
    maxWorkers: 2,
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
