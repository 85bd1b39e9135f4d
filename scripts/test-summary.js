// Prints one closing line for CI, "tests: N passed, N failed, N skipped", from the JSON reports that
// `npm test` writes (Vitest and Playwright).
import { existsSync, readFileSync } from 'node:fs'

const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null)
let passed = 0
let failed = 0
let skipped = 0

const vitest = read('test-results/vitest.json')
if (vitest) {
  passed += vitest.numPassedTests
  // A test file that fails to load counts as a failure although none of its tests ran.
  failed += vitest.numFailedTests || (vitest.success ? 0 : vitest.numFailedTestSuites)
  skipped += vitest.numPendingTests + vitest.numTodoTests
}
const playwright = read('test-results/playwright.json')
if (playwright) {
  passed += playwright.stats.expected + playwright.stats.flaky
  failed += playwright.stats.unexpected
  skipped += playwright.stats.skipped
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || passed === 0 ? 1 : 0)
