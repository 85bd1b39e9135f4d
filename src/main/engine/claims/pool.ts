import type { Piscina } from 'piscina'
import { workerPool } from '../workerEntry'
import type { ExtractedClaim } from '.'

/// How long an idle thread is kept: texts come in bursts (an editor's estimates), and a thread takes a moment
/// to start.
const IDLE_MS = 30_000

/// A thread's young generation: V8's default (up to 48 MB) filled with an extraction's short-lived garbage and
/// stayed resident in every idle thread (about 20 MB after a 500-claim text), for no faster extraction.
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8 }

/// Claim extraction on a pool of worker threads, started on first use: a long text's extraction (a second for
/// 200,000 characters) never holds up the requests the event loop answers meanwhile.
export class ClaimExtractor {
  private pool: Piscina<string, ExtractedClaim[]> | null = null

  extract(text: string): Promise<ExtractedClaim[]> {
    this.pool ??= workerPool(import.meta.url, './worker.ts', 'claims-worker.js', IDLE_MS, RESOURCE_LIMITS)
    return this.pool.run(text)
  }

  /// Starts a thread and loads the extractor in the background, so that the first text is not kept waiting for
  /// them (an engine that runs jobs warms it when it opens, as it does t1).
  warm(): void {
    // Nothing to report: a close meanwhile rejects it, and a real text would meet the same failure.
    this.extract('').catch(() => undefined)
  }

  /// Stops the threads; texts in flight reject.
  async close(): Promise<void> {
    const pool = this.pool
    this.pool = null
    await pool?.destroy()
  }
}
