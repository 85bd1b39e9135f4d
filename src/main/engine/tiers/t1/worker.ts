// The t1 worker thread: Harper is initialised once here and reused for every check, so linting never blocks
// the main process's event loop.
import { readFileSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { parentPort } from 'node:worker_threads'
import { Dialect, LocalLinter } from 'harper.js'
// The slim WebAssembly binary, as the editor's worker uses, read from harper.js's own folder with fs (which
// Electron's archive support also serves). The full binary (harper.js/binary) makes harper.js compile and
// instantiate the slim one as well, for its default glue: about 25 MB more for the same findings. The binary
// inlined as a data URL (harper.js/slimBinaryInlined) held about 150 MB more and started 0.7 s slower.
import { slimBinary } from 'harper.js/slimBinary'
import { harperDialect, LINT_CONFIG, lintText } from '../../../../shared/harper'
import type { Dialect as WritingDialect } from '../../../../shared/schemas'
import type { CheckReply, CheckRequest } from './protocol'

const WARM_UP = 'The tower was bilt in 1889 and it is 330 metres tall.'

const port = parentPort
if (!port) throw new Error('the t1 checker must run in a worker thread')

// Harper's 16 MB of WebAssembly compiled by V8's baseline compiler only: optimising its hot functions held
// about 130 MB more (code and the compiler's memory) and cost a second of CPU, for lints a quarter faster once
// done (CHANGELOG, 2026-11-26). V8's flags are the process's: Harper is the only WebAssembly the engine runs, and it
// is compiled after this line.
setFlagsFromString('--liftoff-only')

const linter = new LocalLinter({ binary: slimBinary, dialect: Dialect.American })
// t1 is spelling and grammar: a long claim is not a wrong one. Harper's first lint, and the first with a
// misspelling, take about a second more than the next: the worker pays that once before it is ready.
const ready = linter
  .setup()
  .then(() => linter.setLintConfig(LINT_CONFIG))
  .then(() => lintText(linter, WARM_UP))
const model = `harper.js ${harperVersion()}`
// The checker sends one request at a time, so the dialect is switched between checks, never during one.
let dialect: WritingDialect = 'american'

port.on('message', async ({ id, text, dialect: wanted }: CheckRequest) => {
  let reply: CheckReply
  try {
    await ready
    if (wanted !== dialect) {
      await linter.setDialect(harperDialect(wanted))
      dialect = wanted
    }
    // Claims are plain sentences: Markdown parsing would misread `*`, `#` or `_` in them as markup.
    reply = { id, model, findings: await lintText(linter, text) }
  } catch (error) {
    reply = { id, error: error instanceof Error ? error.message : String(error) }
  }
  port.postMessage(reply)
})

function harperVersion(): string {
  // harper.js exports no package.json; its entry point sits in dist/, one folder below it.
  const manifest = new URL('../package.json', import.meta.resolve('harper.js'))
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version
}
