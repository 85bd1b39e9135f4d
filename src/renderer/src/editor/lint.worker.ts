// The editor's spelling and grammar checker: Harper in a Web Worker, so linting never holds up typing. Texts
// are answered one at a time, in the order they came.
import { LocalLinter } from 'harper.js'
// The binary as a file of the app's own (electron-vite copies it beside this worker's bundle): no remote
// origin, and no data: URL, which the page's connect-src 'self' refuses.
import { slimBinary } from 'harper.js/slimBinary'
import { harperDialect, LINT_CONFIG, lintText } from '../../../shared/harper'
import { markedAsWritten } from '../../../shared/typos'
import type { LintReply, LintRequest } from './lintChecker'

const linter = new LocalLinter({ binary: slimBinary })
let queue: Promise<void> = linter.setup().then(() => linter.setLintConfig(LINT_CONFIG))

self.addEventListener('message', (event: MessageEvent<LintRequest>) => {
  const request = event.data
  queue = queue.then(() => answer(request)).catch((error: unknown) => fail(request, error))
})

async function answer(request: LintRequest): Promise<void> {
  if (request.type === 'dialect') return linter.setDialect(harperDialect(request.dialect))
  // Markdown syntax, code and URLs reach the worker blanked (lintParagraphs.ts): what is left is plain text.
  const findings = (await lintText(linter, request.text)).filter((finding) =>
    markedAsWritten(finding, request.text.slice(finding.charStart, finding.charEnd)),
  )
  reply({ id: request.id, findings })
}

function fail(request: LintRequest, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error)
  if (request.type === 'lint') reply({ id: request.id, error: message })
  else console.error(`factdesk: the spelling checker refused the dialect: ${message}`)
}

function reply(answer: LintReply): void {
  self.postMessage(answer)
}
