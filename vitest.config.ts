import { defineConfig } from 'vitest/config'
import { postgresMissing } from './test/helpers/postgres'

/// The tests that touch the store, run a second time with their engines on PostgreSQL (test/helpers/database.ts)
/// as a team server runs: project `postgres`, in every `npm test` (alone: `npm run test:postgres`). The rest
/// (editor, claims, models, exports) does not depend on the store. The tests written for PostgreSQL itself (the
/// store's, the replicas', the shared events', the team CLI's) are in project `sqlite` and pick their stores.
const ON_BOTH_STORES = [
  'test/main/server/**/*.test.ts',
  'test/main/contract/**/*.test.ts',
  'test/main/engine/checks/**/*.test.ts',
  'test/main/engine/files/**/*.test.ts',
  'test/main/engine/research/**/*.test.ts',
  'test/main/engine/settings/**/*.test.ts',
  'test/main/engine/webhooks/**/*.test.ts',
]

/// Without PostgreSQL here (and outside CI, where it must be), the second run says why it cannot.
const missing = postgresMissing()
if (missing) console.warn(`The tests on PostgreSQL are left out: ${missing}`)

export default defineConfig({
  test: {
    environment: 'node',
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 120_000,
    // The JSON report feeds the closing "N passed, N failed" line of CI (scripts/test-summary.js).
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    projects: [
      { extends: true, test: { name: 'sqlite', include: ['test/**/*.test.ts'] } },
      ...(missing
        ? []
        : [
            {
              extends: true as const,
              test: { name: 'postgres', include: ON_BOTH_STORES, env: { FACTDESK_TEST_STORE: 'postgres' } },
            },
          ]),
    ],
  },
})
