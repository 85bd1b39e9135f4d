import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
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

const ELECTRON_PACKAGE = fileURLToPath(new URL('node_modules/electron/', import.meta.url))

/// Whether Electron's binary is where its npm package would run it from: `dist/` and the name in `path.txt`, or
/// ELECTRON_OVERRIDE_DIST_PATH. Only the files are looked at: requiring 'electron' without its binary would try to
/// download it.
function hasElectron(): boolean {
  const pathFile = join(ELECTRON_PACKAGE, 'path.txt')
  const name = existsSync(pathFile) ? readFileSync(pathFile, 'utf8') : ''
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH
  if (override) return existsSync(join(override, name || 'electron'))
  return name !== '' && existsSync(join(ELECTRON_PACKAGE, 'dist', name))
}

/// Whether the desktop app has a screen to open its window on: on Linux an X or Wayland display (a headless
/// machine gets one from `xvfb-run`), elsewhere always.
const hasDisplay = (): boolean =>
  process.platform !== 'linux' || Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY)

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
  // The same suite twice where Electron is installed (and has a display): in Chromium against `factdesk web`, and
  // in the desktop app through Playwright's Electron launcher (e2e/webServer.ts tells them apart by the project's
  // name). The Chromium options above stay shared: the fixtures depend on Playwright's own page, so the desktop
  // project starts that browser too, and leaves its page blank.
  projects: [{ name: 'browser' }, ...(hasElectron() && hasDisplay() ? [{ name: 'electron' }] : [])],
})
