import type { Worker } from 'node:worker_threads'
import { knownToDictionary } from '../../../../shared/findings'
import type { SpellingSettings } from '../../../../shared/schemas'
import { likelyTypo, type Placement } from '../../../../shared/typos'
import type { CheckReply, CheckRequest, Finding } from './protocol'
import { startWorker } from './workerEntry'

/// What one check found, and which checker found it.
export interface CheckResult {
  /// The checker's name and version, e.g. `harper.js 2.10.0`.
  model: string
  findings: Finding[]
}

/// The writer's spelling settings: the English that counts as right, and the words added to the dictionary.
export type Writing = SpellingSettings

const AMERICAN: Writing = { dialect: 'american', dictionary: [] }

interface Pending {
  id: number
  text: string
  writing: Writing
  placement: Placement
  resolve(result: CheckResult): void
  reject(error: Error): void
}

/// Spelling and grammar checks by Harper in a worker thread, one text at a time. The worker starts on first use;
/// Harper is initialised once in it and reused.
export class SpellingChecker {
  private worker: Worker | undefined
  private readonly queue: Pending[] = []
  // The check the worker is working on; the others wait in the queue, so an aborted one is never sent.
  private running: Pending | undefined
  private nextId = 1

  /// Checks `text` in the writer's English, leaving alone the words of their dictionary, names and words of
  /// another English (likelyTypo, judged in the document `placement` places the text in: by default the text is
  /// the whole document); offsets are UTF-16 indices into `text`. Rejects with an AbortError when `signal` aborts.
  check(
    text: string,
    signal?: AbortSignal,
    writing: Writing = AMERICAN,
    placement: Placement = { document: text, charStart: 0 },
  ): Promise<CheckResult> {
    if (signal?.aborted) return Promise.reject(abortError())
    return new Promise<CheckResult>((resolve, reject) => {
      const onAbort = (): void => {
        // A queued check leaves the queue; a running one is ignored when it answers, as Harper cannot be
        // interrupted and the worker stays useful for the checks behind it.
        const queued = this.queue.indexOf(pending)
        if (queued >= 0) this.queue.splice(queued, 1)
        reject(abortError())
      }
      const pending: Pending = {
        id: this.nextId++,
        text,
        writing,
        placement,
        resolve: (result) => {
          signal?.removeEventListener('abort', onAbort)
          resolve(result)
        },
        reject: (error) => {
          signal?.removeEventListener('abort', onAbort)
          reject(error)
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.queue.push(pending)
      this.next()
    })
  }

  /// Starts the worker, if it is not running, to load Harper in the background: the first check then finds it
  /// ready. An idle worker keeps no process alive.
  warm(): void {
    if (!this.worker) this.start().unref()
  }

  /// Stops the worker; checks still waiting reject. A later check starts a new worker.
  async close(): Promise<void> {
    const worker = this.worker
    this.fail(new Error('the spelling checker was closed'))
    await worker?.terminate()
  }

  private next(): void {
    if (this.running) return
    this.running = this.queue.shift()
    // An idle worker must not keep the process alive: a CLI run ends when its work is done.
    if (!this.running) return void this.worker?.unref()
    const worker = this.worker ?? this.start()
    worker.ref()
    const { id, text, writing } = this.running
    const request: CheckRequest = { id, text, dialect: writing.dialect }
    worker.postMessage(request)
  }

  private start(): Worker {
    const worker = startWorker()
    worker.on('message', (reply: CheckReply) => this.answered(reply))
    // A crashed or killed worker fails what it was given; the next check starts a fresh one.
    worker.on('error', (error) => this.stopped(worker, error))
    worker.on('exit', (code) => this.stopped(worker, new Error(`the t1 worker stopped (exit code ${code})`)))
    this.worker = worker
    return worker
  }

  private answered(reply: CheckReply): void {
    const running = this.running
    if (running?.id !== reply.id) return
    this.running = undefined
    if ('error' in reply) running.reject(new Error(`t1 check failed: ${reply.error}`))
    else {
      const dictionary = new Set(running.writing.dictionary)
      const findings = reply.findings.filter(
        (finding) =>
          !knownToDictionary(
            finding.rule,
            running.text.slice(finding.charStart, finding.charEnd),
            dictionary,
          ) && likelyTypo(finding, running.text, running.placement),
      )
      running.resolve({ model: reply.model, findings })
    }
    this.next()
  }

  private stopped(worker: Worker, error: Error): void {
    if (this.worker !== worker) return
    this.fail(error)
  }

  private fail(error: Error): void {
    this.worker = undefined
    const pending = this.running ? [this.running, ...this.queue] : [...this.queue]
    this.running = undefined
    this.queue.length = 0
    for (const check of pending) check.reject(error)
  }
}

function abortError(): Error {
  return new DOMException('the spelling check was aborted', 'AbortError')
}
