// Vitest settings of the benchmark package: its smoke tests, with long limits.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.mjs'],
    testTimeout: 300_000,
    hookTimeout: 300_000,
    reporters: ['default', ['json', { outputFile: '.vitest-results.json' }]],
  },
});
