import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { test as base } from '@playwright/test'
import { startFakeOpenAI, type Behaviour, type FakeOpenAI } from '../test/helpers/fakeOpenAI'
import { FakeWiki } from '../test/helpers/fakeWiki'
import { Relay } from '../test/pending/relay'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const OPEN_LINE = /^open (http:\/\/127\.0\.0\.1:\d+)\/#token=(\S+)$/m
const START_TIMEOUT_MS = 20_000
const STOP_TIMEOUT_MS = 10_000

/// A `factdesk web` server of the built CLI, on a fresh data folder, as a test sees it.
export interface WebServer {
  /// The link the server printed, one-time token included.
  link: string
  /// The server's origin: the page without the token.
  origin: string
  /// The one-time token of `link`.
  token: string
  /// Everything the server has printed so far, standard output and error together.
  output(): string
  /// With `models.offline`: the fake model server becomes reachable ("connectivity returns").
  online(): Promise<void>
}

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

/// Playwright's `test` with a `server` fixture: a `factdesk web` started for the test and stopped after it. With
/// the `models` option set, t2 runs on a fake OpenAI-compatible server (three panel models and a judge).
export const test = base.extend<{ server: WebServer; models: FakeModels | null }>({
  models: [null, { option: true }],
  server: async ({ context, models }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-e2e-'))
    let fake: FakeOpenAI | null = null
    let wiki: FakeWiki | null = null
    let relay: Relay | null = null
    const args = ['bin/factdesk.js', 'web', '--port', '0', '--data-dir', dataDir]
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
      const config = join(dataDir, 'config.json')
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
      args.push('--config', config)
    }
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
      const online = async (): Promise<void> => {
        if (relay && fake) await relay.open(fake.baseURL)
      }
      await use({ link: `${origin}/#token=${token}`, origin, token, output: () => output, online })
    } finally {
      // The browser goes first, as a writer closes the tab before stopping the server: the server's close
      // waits for the connections Chromium holds open, even ones it opened ahead and never used.
      await context.close()
      await stop(child, exited)
      await relay?.close()
      await fake?.close()
      await wiki?.close()
      rmSync(dataDir, { recursive: true, force: true })
    }
  },
})

export { expect } from '@playwright/test'

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
