import type { Piscina } from 'piscina'
import type { ExportComments, Report } from '../../../shared/schemas'
import { workerPool } from '../base/workerEntry'
import type { RenderedFormat } from './render'

/// How long an idle thread is kept: exports come one at a time, and a thread takes a moment to start.
const IDLE_MS = 30_000

/// What a thread of the pool is given.
export interface RenderTask {
  report: Report
  format: RenderedFormat
  /// Which claims are noted one by one (see `annotate`).
  comments?: ExportComments
}

/// Exports rendered on a pool of worker threads, started on first use: a large report's HTML, Markdown or Word
/// file (seconds for thousands of claims) never holds up the requests the event loop answers meanwhile.
export class ExportPool {
  private pool: Piscina<RenderTask, Uint8Array<ArrayBuffer>> | null = null

  /// The file's bytes, the same as `renderFile` makes.
  readonly render = (
    report: Report,
    format: RenderedFormat,
    comments?: ExportComments,
  ): Promise<Uint8Array<ArrayBuffer>> => {
    this.pool ??= workerPool(import.meta.url, './worker.ts', 'exports-worker.js', IDLE_MS)
    return this.pool.run({ report, format, comments })
  }

  /// Stops the threads; exports in flight reject.
  async close(): Promise<void> {
    const pool = this.pool
    this.pool = null
    await pool?.destroy()
  }
}
