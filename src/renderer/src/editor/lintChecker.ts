import type { Finding } from '../../../shared/findings'
import type { Dialect } from '../../../shared/schemas'

/// What the editor asks of the lint worker: the dialect for the texts that follow, or one text to lint.
export type LintRequest = { type: 'dialect'; dialect: Dialect } | { type: 'lint'; id: number; text: string }

/// The worker's answer to the lint request with the same id.
export type LintReply = { id: number; findings: Finding[] } | { id: number; error: string }

/// The worker as the checker uses it (a `Worker` in the app; anything that answers the same messages).
export interface LintPort {
  postMessage(request: LintRequest): void
  onmessage: ((event: MessageEvent<LintReply>) => void) | null
  /// Hears the worker fail to start or stop for good (its script or Harper could not load, say).
  onerror: ((event: ErrorEvent) => void) | null
  terminate(): void
}

// Texts on their way to the worker at once: enough to keep it busy, few enough that a paragraph the writer
// just changed does not wait behind the rest of a long document.
const IN_FLIGHT = 4
// Answers kept beyond the document's own paragraphs (texts typed and rewritten since) before they are dropped.
const SPARE_ANSWERS = 512

/// Harper's findings per paragraph text. Each text is sent to the worker once (per dialect): only new or
/// changed paragraphs are linted, a few at a time, best first. `onLinted` hears every answer. The worker is
/// started with the first text to lint, so an empty editor loads no checker.
export class ParagraphChecker {
  private readonly answers = new Map<string, Finding[]>()
  /// Texts sent and not answered yet, by request id.
  private readonly sent = new Map<number, string>()
  private waiting: string[] = []
  private nextId = 1
  private dialect: Dialect = 'american'
  private port: LintPort | null = null
  /// Set when the worker failed: the document is then left unchecked rather than the worker started again
  /// and again.
  private failed = false

  constructor(
    private readonly startWorker: () => LintPort,
    private readonly onLinted: () => void,
  ) {}

  /// The findings in `text`, or undefined while it is not linted yet.
  findings(text: string): readonly Finding[] | undefined {
    return this.answers.get(text)
  }

  /// Lints `texts` next, in that order, replacing what was waiting; texts linted or on their way already are
  /// left out. `current` are all the document's texts: answers to others are dropped once they pile up.
  want(texts: readonly string[], current: readonly string[]): void {
    const onTheirWay = new Set(this.sent.values())
    this.waiting = texts.filter((text) => !this.answers.has(text) && !onTheirWay.has(text)).reverse()
    if (this.answers.size > current.length + SPARE_ANSWERS) {
      const keep = new Set(current)
      for (const text of this.answers.keys()) if (!keep.has(text)) this.answers.delete(text)
    }
    this.pump()
  }

  /// Lints in `dialect` from now on; answers in another dialect are forgotten.
  useDialect(dialect: Dialect): void {
    if (dialect === this.dialect) return
    this.dialect = dialect
    this.port?.postMessage({ type: 'dialect', dialect })
    this.answers.clear()
    this.waiting = [...new Set([...this.waiting, ...this.sent.values()])]
    // Answers to what was sent before come in the old dialect: with their ids forgotten, they are ignored.
    this.sent.clear()
    this.pump()
  }

  close(): void {
    if (!this.port) return
    this.port.onmessage = null
    this.port.onerror = null
    this.port.terminate()
  }

  private pump(): void {
    while (this.sent.size < IN_FLIGHT && !this.failed) {
      const text = this.waiting.pop()
      if (text === undefined) return
      const id = this.nextId++
      this.sent.set(id, text)
      this.started().postMessage({ type: 'lint', id, text })
    }
  }

  // The worker starts in American English, Harper's default.
  private started(): LintPort {
    if (this.port) return this.port
    const port = this.startWorker()
    port.onmessage = (event) => this.answered(event.data)
    port.onerror = (event) => this.stopped(event)
    if (this.dialect !== 'american') port.postMessage({ type: 'dialect', dialect: this.dialect })
    this.port = port
    return port
  }

  private stopped(event: ErrorEvent): void {
    this.failed = true
    this.sent.clear()
    this.waiting = []
    const reason = event.message ? `: ${event.message}` : ''
    console.error(`factdesk: the spelling checker stopped${reason}`)
    this.close()
  }

  private answered(reply: LintReply): void {
    const text = this.sent.get(reply.id)
    if (text === undefined) return
    this.sent.delete(reply.id)
    // A text Harper failed on shows no findings rather than being asked again and again.
    if ('error' in reply) console.error(`factdesk: spelling check failed: ${reply.error}`)
    this.answers.set(text, 'error' in reply ? [] : reply.findings)
    this.pump()
    this.onLinted()
  }
}
