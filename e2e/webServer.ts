import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  _electron,
  test as base,
  expect,
  type BrowserContext,
  type ElectronApplication,
  type Locator,
  type Page,
} from '@playwright/test'
import type { FactdeskOperations, IpcResult, Operation } from '../src/shared/api'
import { PAGE_KEY_HEADER, PAGE_KEY_ITEM } from '../src/shared/browserSession'
import type { Settings } from '../src/shared/schemas'
import { startFakeOpenAI, type Behaviour, type FakeOpenAI } from '../test/helpers/fakeOpenAI'
import { FakeWiki } from '../test/helpers/fakeWiki'
import { Relay } from '../test/main/engine/checks/pending/relay'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OUTPUT = fileURLToPath(new URL('output/', import.meta.url))
const OPEN_LINE = /^open (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)$/m
const START_TIMEOUT_MS = 20_000
const STOP_TIMEOUT_MS = 10_000
/// The project of playwright.config.ts that runs the suite in the desktop app.
const DESKTOP_PROJECT = 'electron'

/// What a test may ask of the Factdesk it runs against, whichever it is.
interface Running {
  /// Everything it has printed so far, standard output and error together (the desktop app: since its launch
  /// returned).
  output(): string
  /// With `models.offline`: the fake model server becomes reachable ("connectivity returns").
  online(): Promise<void>
}

/// A `factdesk web` server of the built CLI, on a fresh data folder, as a test sees it.
export interface WebServer extends Running {
  desktop: false
  /// The link the server printed, one-time token included.
  link: string
  /// The server's origin: the page without the token.
  origin: string
  /// The one-time token of `link`.
  token: string
}

/// The built desktop app (`out/main/index.js`) on a fresh data folder (FACTDESK_DATA_DIR), started by Playwright's
/// Electron launcher: it has no link, no origin and no token; its page reaches the engine through the preload.
export interface DesktopApp extends Running {
  desktop: true
  app: ElectronApplication
}

/// The Factdesk of a test: `factdesk web` in the `browser` project, the desktop app in the `electron` project.
export type Factdesk = WebServer | DesktopApp

/// How the fake model server answers when a test turns t2 on: each panel vote and the judge wait this long.
export interface FakeModels {
  latencyMs: number
  /// Answers every model request in place of "supported, 0.9" (deep research's steps need real quotes).
  answer?: Behaviour['answer']
  /// A fake MediaWiki for t3 and deep research to search and read, filled in by this function.
  wiki?: (wiki: FakeWiki) => void
  /// Further members of the configuration file (`pricing`, say).
  config?: Record<string, unknown>
  /// How requests for one model (`model-a`…, `model-judge`) are served instead.
  behaviours?: Record<string, Behaviour>
  /// The models' address refuses connections until the test calls `server.online()`.
  offline?: boolean
}

/// Playwright's `test` with a `server` fixture: a `factdesk web` started for the test and stopped after it, or in
/// the `electron` project the desktop app, launched and closed, whose window is then the `page`. With the `models`
/// option set, t2 runs on a fake OpenAI-compatible server (three panel models and a judge), given to either as the
/// same `--config` file. `desktop` says which one runs, before any test fixture is set up: a test that means
/// `factdesk web` only is skipped with `test.skip(({ desktop }) => desktop, 'why')` in its describe block.
export const test = base.extend<{ server: Factdesk; models: FakeModels | null }, { desktop: boolean }>({
  desktop: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern.
    async ({}, use, workerInfo) => use(workerInfo.project.name === DESKTOP_PROJECT),
    { scope: 'worker' },
  ],
  models: [null, { option: true }],
  server: async ({ context, models, desktop }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-e2e-'))
    let fake: FakeOpenAI | null = null
    let wiki: FakeWiki | null = null
    let relay: Relay | null = null
    try {
      let config: string | null = null
      if (models) {
        fake = await startFakeOpenAI({
          '*': {
            latencyMs: models.latencyMs,
            overrides: { verdict: 'supported', confidence: 0.9 },
            answer: models.answer,
          },
          ...models.behaviours,
        })
        if (models.wiki) {
          wiki = await new FakeWiki().start()
          models.wiki(wiki)
        }
        if (models.offline) relay = await Relay.reserve()
        const model = (id: string, name: string) => ({
          id,
          provider: 'openai-compatible',
          baseURL: relay ? relay.url('/v1') : fake?.baseURL,
          model: name,
        })
        config = join(dataDir, 'config.json')
        writeFileSync(
          config,
          JSON.stringify({
            models: {
              panel: ['a', 'b', 'c'].map((letter) => model(`panel-${letter}`, `model-${letter}`)),
              judge: model('judge', 'model-judge'),
              batchSize: 1,
              concurrencyPerProvider: 2,
            },
            ...(wiki ? { search: { baseURL: wiki.apiUrl }, web: { allowLocalTargets: true } } : {}),
            ...models.config,
          }),
        )
      }
      const online = async (): Promise<void> => {
        if (relay && fake) await relay.open(fake.baseURL)
      }
      if (desktop) await runDesktop(dataDir, config, online, use)
      else await runWeb(dataDir, config, online, context, use)
    } finally {
      await relay?.close()
      await fake?.close()
      await wiki?.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
  // The desktop app's window instead of a browser tab. (Playwright's own page still comes first: a fixture's
  // dependencies are fixed, so the desktop project gets an unused Chromium page too.)
  page: async ({ page, server }, use) => {
    if (!server.desktop) return use(page)
    const first = await server.app.firstWindow().catch((error: unknown) => {
      throw new Error(`The desktop app opened no window (${String(error)}). It said:\n${server.output()}`)
    })
    await use(first)
  },
})

/// Opens the editor: the one-time link of `factdesk web` in the browser; the desktop app's window is on it
/// already. Either way, waits until the editor is there.
export async function openEditor(page: Page, server: Factdesk): Promise<void> {
  if (!server.desktop) await page.goto(server.link)
  await expect(page.getByRole('textbox', { name: 'Document' })).toBeVisible()
}

/// Opens the editor on a fresh Factdesk and waits until its 1,000 credits are loaded.
export async function openFreshEditor(page: Page, server: Factdesk): Promise<void> {
  await openEditor(page, server)
  await expect(page.getByRole('contentinfo')).toContainText('1,000 credits')
}

/// Opens the editor on a fresh Factdesk (its 1,000 credits loaded) and writes `text` into the document.
export async function writeInEditor(page: Page, server: Factdesk, text: string): Promise<void> {
  await openFreshEditor(page, server)
  await page.getByRole('textbox', { name: 'Document' }).click()
  await page.keyboard.insertText(text)
}

/// Estimates the document with the tiers that are on, checks it, and waits until the check has completed.
export async function estimateAndCheck(page: Page): Promise<void> {
  const toolbar = page.getByRole('toolbar', { name: 'Fact-checking' })
  await toolbar.getByRole('button', { name: 'Estimate' }).click()
  await expect(page.getByRole('complementary', { name: 'Estimate' })).toContainText(/\d+ claims? found/)
  await toolbar.getByRole('button', { name: 'Check', exact: true }).click()
  await expect(page.getByRole('status', { name: 'Check status' })).toContainText('completed', {
    timeout: 30_000,
  })
}

/// What goes wrong in the page while a test runs, for it to expect none: its uncaught errors, and with
/// `console` its console errors too.
export function pageProblems(page: Page, options: { console?: boolean } = {}): string[] {
  const problems: string[] = []
  page.on('pageerror', (error) => problems.push(error.message))
  if (options.console) {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text())
    })
  }
  return problems
}

/// The notice bar's alert, what went wrong in place above the editor: the page holds other alerts, there and
/// empty until they have something to say (the document bar's "Not saved").
export const noticeAlert = (page: Page): Locator => page.locator('.notice-region[role="alert"]')

/// That a confirmation keeps the focus until it is answered: `safeButton`, the answer that changes nothing, has
/// it, Tab goes round the question's two buttons back to it, and Escape closes the question.
export async function expectFocusKept(page: Page, question: Locator, safeButton: Locator): Promise<void> {
  await expect(safeButton).toBeFocused()
  await page.keyboard.press('Tab')
  await page.keyboard.press('Tab')
  await expect(safeButton).toBeFocused()
  await page.keyboard.press('Escape')
  await expect(question).toHaveCount(0)
}

/// The `factdesk web` of a test that runs in the browser only (see `desktop`); the desktop app is refused.
export function asWebServer(server: Factdesk): WebServer {
  if (server.desktop) throw new Error('This test means factdesk web, not the desktop app: skip it there.')
  return server
}

/// Where a test writes a screenshot or a file: e2e/output, or e2e/output/desktop in the desktop app's run, so that
/// neither run overwrites the other's.
export function outputFile(name: string): string {
  return join(OUTPUT, test.info().project.name === DESKTOP_PROJECT ? 'desktop' : '', name)
}

/// One of the engine's operations, called from the desktop app's page through its preload (`window.factdesk`) as
/// the editor calls it: what a browser-mode test asks of `/api/v1` with the page's session.
export async function viaPreload<Op extends Operation>(
  page: Page,
  operation: Op,
  ...args: Parameters<FactdeskOperations[Op]>
): Promise<Awaited<ReturnType<FactdeskOperations[Op]>>> {
  const result = await page.evaluate(
    async ([name, list]) => {
      const bridge = window.factdesk as unknown as
        Record<string, (...args: unknown[]) => Promise<unknown>> | undefined
      const call = bridge?.[name]
      if (!call) throw new Error(`window.factdesk.${name} is missing: this is not the desktop app's page`)
      return call(...list)
    },
    [operation, args] as [string, unknown[]],
  )
  const answer = result as IpcResult<Awaited<ReturnType<FactdeskOperations[Op]>>>
  if (!answer.ok) throw new Error(`${operation}: ${answer.error.message}`)
  return answer.data
}

/// A request to the REST API made as the page makes it: with the session cookie and the page's key, which the
/// page keeps in its origin's storage (the cookie alone authorizes nothing). A body is sent as JSON.
export function fetchAsPage<T>(
  page: Page,
  path: string,
  { method = 'GET', body }: { method?: string; body?: unknown } = {},
): Promise<T> {
  return page.evaluate(
    async ({ path, method, json, header, item }) => {
      const headers: Record<string, string> = { [header]: localStorage.getItem(item) ?? '' }
      if (json !== undefined) headers['Content-Type'] = 'application/json'
      return (await (await fetch(path, { method, headers, body: json })).json()) as T
    },
    {
      path,
      method,
      json: body === undefined ? undefined : JSON.stringify(body),
      header: PAGE_KEY_HEADER,
      item: PAGE_KEY_ITEM,
    },
  )
}

/// The app's settings as saved: through the desktop app's preload, or `/api/v1/settings` with the page's session.
export async function savedSettings(page: Page, server: Factdesk): Promise<Settings> {
  return server.desktop ? viaPreload(page, 'settings') : fetchAsPage<Settings>(page, '/api/v1/settings')
}

// `factdesk web` of the built CLI on `dataDir` for one test. The browser goes first when it ends, as a writer
// closes the tab before stopping the server: the server's close waits for the connections Chromium holds open,
// even ones it opened ahead and never used.
async function runWeb(
  dataDir: string,
  config: string | null,
  online: () => Promise<void>,
  context: BrowserContext,
  use: (server: Factdesk) => Promise<void>,
): Promise<void> {
  const args = ['bin/factdesk.js', 'web', '--port', '0', '--data-dir', dataDir]
  if (config) args.push('--config', config)
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const exited = once(child, 'exit')
  try {
    const [, origin = '', token = ''] = await openLine(() => output, exited)
    await use({
      desktop: false,
      link: `${origin}/#token=${token}`,
      origin,
      token,
      output: () => output,
      online,
    })
  } finally {
    await context.close()
    await stop(child, exited)
  }
}

// The built desktop app on `dataDir` for one test, closed after it as a writer quits it.
async function runDesktop(
  dataDir: string,
  config: string | null,
  online: () => Promise<void>,
  use: (server: Factdesk) => Promise<void>,
): Promise<void> {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) if (value !== undefined) env[name] = value
  // The built page, never a dev server's (which the app would take from here when not packaged).
  delete env.ELECTRON_RENDERER_URL
  env.FACTDESK_DATA_DIR = dataDir
  const app = await _electron.launch({
    args: [join(ROOT, 'out/main/index.js'), ...(config ? ['--config', config] : [])],
    cwd: ROOT,
    env,
    locale: 'en-US',
  })
  let output = ''
  app.process().stdout?.on('data', (chunk: Buffer | string) => (output += String(chunk)))
  app.process().stderr?.on('data', (chunk: Buffer | string) => (output += String(chunk)))
  try {
    await use({ desktop: true, app, output: () => output, online })
  } finally {
    await quit(app)
  }
}

export { expect }

// SIGTERM, as a writer's Ctrl-C; a server still running after STOP_TIMEOUT_MS is killed and the test fails.
async function stop(child: ChildProcess, exited: Promise<unknown>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS, 'late')))
  const outcome = await Promise.race([exited, late])
  clearTimeout(timer)
  if (outcome === 'late') {
    child.kill('SIGKILL')
    await exited
    throw new Error(`factdesk web was still running ${STOP_TIMEOUT_MS} ms after SIGTERM.`)
  }
}

// Quits the desktop app (its engine closes and lets go of the data folder before the process ends); an app still
// running after STOP_TIMEOUT_MS is killed and the test fails.
async function quit(app: ElectronApplication): Promise<void> {
  const closed = app.close()
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(resolve, STOP_TIMEOUT_MS, 'late')))
  try {
    if ((await Promise.race([closed, late])) !== 'late') return
  } finally {
    clearTimeout(timer)
  }
  app.process().kill('SIGKILL')
  await closed.catch(() => undefined)
  throw new Error(`The desktop app was still running ${STOP_TIMEOUT_MS} ms after it was asked to quit.`)
}

// Waits for the `open http://127.0.0.1:PORT/#token=…` line, failing with what the server said if it never comes.
async function openLine(output: () => string, exited: Promise<unknown>): Promise<RegExpExecArray> {
  const deadline = Date.now() + START_TIMEOUT_MS
  let gone = false
  const stop = (): void => {
    gone = true
  }
  exited.then(stop, stop)
  for (;;) {
    const match = OPEN_LINE.exec(output())
    if (match) return match
    if (gone || Date.now() > deadline) {
      throw new Error(
        `factdesk web did not print its link${gone ? ' and exited' : ''}. It said:\n${output()}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/// A `factdesk web` of the built CLI on `dataDir`, at `port` (0: any free one), for tests that stop and start
/// the server themselves: `kill()` ends it as a crash would (SIGKILL), `close()` as a writer would (SIGTERM).
export async function startWeb(
  dataDir: string,
  port = 0,
): Promise<{ origin: string; link: string; kill(): Promise<void>; close(): Promise<void> }> {
  const args = ['bin/factdesk.js', 'web', '--port', String(port), '--data-dir', dataDir]
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const exited = once(child, 'exit')
  const [, origin = '', token = ''] = await openLine(() => output, exited)
  return {
    origin,
    link: `${origin}/#token=${token}`,
    kill: async () => {
      child.kill('SIGKILL')
      await exited
    },
    close: () => stop(child, exited),
  }
}
