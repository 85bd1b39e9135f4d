import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // The JSON report feeds the closing "N passed, N failed" line of CI (scripts/test-summary.js).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
  },
})
