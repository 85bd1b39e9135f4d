import { existsSync } from 'node:fs'
import { chromium, defineConfig } from '@playwright/test'
import { CHROMIUM_ARGS } from './src/main/engine/exports/pdf'

// Playwright cannot download its own browser on the build machines, so any installed Chromium will do.
const CANDIDATES = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  chromium.executablePath(),
]

/// The first Chromium found on this machine.
function findChromium(): string {
  const found = CANDIDATES.find((path) => path !== undefined && path !== '' && existsSync(path))
  if (!found) {
    throw new Error('No Chromium found: install it (Debian: apt-get install chromium) or set CHROMIUM_PATH')
  }
  return found
}

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'e2e/output/test-results',
  workers: 1,
  // Waits, not limits: a loaded machine may take seconds to run a t1 check or to start Harper.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  // The JSON report feeds CI's closing "N passed, N failed" line (scripts/test-summary.js).
  reporter: [['list'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    headless: true,
    locale: 'en-US',
    launchOptions: {
      executablePath: findChromium(),
      args: [...CHROMIUM_ARGS, '--disable-quic'],
    },
  },
})
