import { randomUUID } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { Session } from 'node:inspector/promises'
import { join } from 'node:path'
import { afterAll } from 'vitest'

// Runs in each test file's worker (scripts/shell-coverage.ts): V8's block coverage of the shell's modules, with
// the code as it ran (its inline source map leads back to the .ts lines), one JSON file per test file.

const SHELL = /\/src\/main\/(index\.ts|desktop\/[^/]+\.ts)$/
const folder = process.env.FACTDESK_SHELL_COVERAGE

const session = new Session()
session.connect()
await session.post('Debugger.enable')
await session.post('Profiler.enable')
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true })

afterAll(async () => {
  if (!folder) return
  const { result } = await session.post('Profiler.takePreciseCoverage')
  const scripts = []
  for (const script of result.filter(({ url }) => SHELL.test(url.split('?')[0] ?? ''))) {
    const { scriptSource } = await session.post('Debugger.getScriptSource', { scriptId: script.scriptId })
    scripts.push({ url: script.url, functions: script.functions, source: scriptSource })
  }
  mkdirSync(folder, { recursive: true })
  writeFileSync(join(folder, `${randomUUID()}.json`), JSON.stringify(scripts))
})
