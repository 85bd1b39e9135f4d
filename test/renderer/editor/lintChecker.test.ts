import { beforeAll, describe, expect, it, vi } from 'vitest'
import {
  ParagraphChecker,
  type LintPort,
  type LintReply,
  type LintRequest,
} from '../../../src/renderer/src/editor/lintChecker'
import { paragraphsOf, toLint } from '../../../src/renderer/src/editor/lintParagraphs'

// The real lint worker (lint.worker.ts, Harper's WebAssembly included) in this thread: `self` is a worker's
// global scope as far as the module can tell, and the port below is the page's side of it.
const scope = new EventTarget() as EventTarget & {
  location: { protocol: string }
  postMessage(reply: LintReply): void
}
let port: LintPort & { requests: LintRequest[] }

beforeAll(async () => {
  scope.location = { protocol: 'http:' }
  port = {
    requests: [],
    onmessage: null,
    onerror: null,
    postMessage(request) {
      port.requests.push(request)
      scope.dispatchEvent(new MessageEvent('message', { data: request }))
    },
    terminate: () => undefined,
  }
  scope.postMessage = (reply) => port.onmessage?.(new MessageEvent('message', { data: reply }))
  Object.assign(globalThis, { self: scope })
  await import('../../../src/renderer/src/editor/lint.worker')
})

/// A checker on the worker that resolves `settled()` once every text asked for is answered.
function checker(): { checker: ParagraphChecker; settled(): Promise<void> } {
  let wake = (): void => undefined
  const checker = new ParagraphChecker(
    () => port,
    () => wake(),
  )
  const settled = async (): Promise<void> => {
    for (;;) {
      const waiting = port.requests.filter(
        (request) => request.type === 'lint' && checker.findings(request.text) === undefined,
      )
      if (waiting.length === 0) return
      await new Promise<void>((resolve) => (wake = resolve))
    }
  }
  return { checker, settled }
}

const lintRequests = (): string[] =>
  port.requests.flatMap((request) => (request.type === 'lint' ? [request.text] : []))

// Lints a document the way the editor does: its paragraphs, unknown ones first.
async function lint(subject: ReturnType<typeof checker>, text: string): Promise<void> {
  const paragraphs = paragraphsOf(text)
  const texts = paragraphs.map((paragraph) => paragraph.prose)
  subject.checker.want(
    toLint(paragraphs, (prose) => subject.checker.findings(prose) !== undefined, { from: 0, to: 0 }),
    texts,
  )
  await subject.settled()
}

describe('ParagraphChecker with the lint worker', () => {
  it('lints each paragraph once and only the changed one after an edit', async () => {
    const subject = checker()
    const first = 'This is a sentance.\n\nThe second paragraph is fine.\n\nA third one, also fine.'
    await lint(subject, first)
    expect(lintRequests()).toEqual([
      'This is a sentance.',
      'The second paragraph is fine.',
      'A third one, also fine.',
    ])
    const [spelling] = subject.checker.findings('This is a sentance.') ?? []
    expect(spelling).toMatchObject({ rule: 'SpellCheck', charStart: 10, charEnd: 18 })
    expect(spelling?.suggestions).toContain('sentence')
    expect(subject.checker.findings('The second paragraph is fine.')).toEqual([])

    port.requests.length = 0
    await lint(subject, first.replace('second paragraph', 'second paragrap'))
    expect(lintRequests()).toEqual(['The second paragrap is fine.'])
  })

  it('lints again in a new dialect, forgetting answers in the old one', async () => {
    port.requests.length = 0
    const subject = checker()
    const text = 'The colour of the sea.'
    await lint(subject, text)
    expect(subject.checker.findings(text)?.map((finding) => finding.rule)).toContain('SpellCheck')

    subject.checker.useDialect('british')
    expect(subject.checker.findings(text)).toBeUndefined()
    await lint(subject, text)
    expect(port.requests.filter((request) => request.type === 'dialect')).toEqual([
      { type: 'dialect', dialect: 'british' },
    ])
    expect(subject.checker.findings(text)).toEqual([])
  })

  it('stops asking a worker that failed, and says so', () => {
    const posted: LintRequest[] = []
    const failing: LintPort = {
      postMessage: (request) => posted.push(request),
      onmessage: null,
      onerror: null,
      terminate: () => undefined,
    }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => undefined)
    const subject = new ParagraphChecker(
      () => failing,
      () => undefined,
    )
    subject.want(['One.', 'Two.', 'Three.', 'Four.', 'Five.', 'Six.'], [])
    expect(posted).toHaveLength(4)
    failing.onerror?.({ message: 'lint.worker.js was not found' } as ErrorEvent)
    subject.want(['Seven.'], [])
    expect(posted).toHaveLength(4)
    expect(errors).toHaveBeenCalledWith(
      'factdesk: the spelling checker stopped: lint.worker.js was not found',
    )
    errors.mockRestore()
  })
})
