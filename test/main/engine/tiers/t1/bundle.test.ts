import { execFile, execFileSync } from 'node:child_process'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { beforeAll, describe, expect, it } from 'vitest'
import type { CheckReply } from '../../../../../src/main/engine/tiers/t1/protocol'

// The worker as electron-vite bundles it must run under plain Node: no tsx, harper.js and its WebAssembly file
// loaded from node_modules. SpellingChecker starts it from out/main/t1-worker.js (workerEntry.test.ts).

const ROOT = fileURLToPath(new URL('../../../../..', import.meta.url))
const WORKER = join(ROOT, 'out', 'main', 't1-worker.js')
const T1 = join(ROOT, 'src', 'main', 'engine', 'tiers', 't1')
const SOURCES = [join(ROOT, 'electron.vite.config.ts'), ...readdirSync(T1).map((name) => join(T1, name))]

beforeAll(() => {
  const built = existsSync(WORKER) ? statSync(WORKER).mtimeMs : 0
  if (SOURCES.some((file) => statSync(file).mtimeMs > built))
    execFileSync('npx', ['electron-vite', 'build'], { cwd: ROOT, stdio: 'pipe' })
}, 180_000)

describe('the bundled t1 worker', () => {
  it('imports harper.js rather than carrying its 21 MB binary', () => {
    const code = readFileSync(WORKER, 'utf8')
    expect(code).toMatch(/from ["']harper\.js["']/)
    // The slim binary from its file: the full one makes harper.js load the slim one too, and the inlined data
    // URL of the same binary holds about 150 MB more.
    expect(code).toMatch(/from ["']harper\.js\/slimBinary["']/)
    // Its own code and the word list that ranks spelling suggestions (about 0.2 MB).
    expect(code.length).toBeLessThan(500_000)
  })

  it('checks a text under plain Node', async () => {
    const script = `
      const { Worker } = require('node:worker_threads')
      const worker = new Worker(new URL(${JSON.stringify(pathToFileURL(WORKER).href)}))
      worker.once('message', (reply) => { console.log(JSON.stringify(reply)); process.exit(0) })
      worker.postMessage({ id: 7, text: 'The brwon fox.' })`
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], {
      cwd: ROOT,
      timeout: 60_000,
    })
    const reply = JSON.parse(stdout) as CheckReply
    expect(reply).toMatchObject({
      id: 7,
      model: expect.stringMatching(/^harper\.js \d+\.\d+\.\d+$/),
      findings: [expect.objectContaining({ charStart: 4, charEnd: 9, rule: 'SpellCheck' })],
    })
  }, 60_000)
})
