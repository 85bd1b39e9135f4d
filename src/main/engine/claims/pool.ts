import type { Piscina } from 'piscina'
import { workerPool } from '../base/workerEntry'
import type { FindClaims } from '../../../shared/schemas'
import type { ExtractedClaim } from '.'

/// A text to extract claims from, with the writer's "Find claims" setting.
export interface ExtractionTask {
  text: string
  findClaims: FindClaims
}

/// How long an idle thread is kept: texts come in bursts (a manuscript's parts, clients estimating at once), and
/// a thread takes about 0.1 s to start; between bursts the idle thread's 25–35 MiB go back to the system.
const IDLE_MS = 1_000

/// A thread's young generation: V8's default (up to 48 MB) filled with an extraction's short-lived garbage and
/// stayed resident in every idle thread (about 20 MB after a 500-claim text), for no faster extraction.
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 8 }

/// Claim extraction on a pool of worker threads, started on first use (not when the engine opens: a text's
/// thread starts while the first check waits for Harper anyway): a long text's extraction (a second for
/// 200,000 characters) never holds up the requests the event loop answers meanwhile.
/// How many claims it finds follows `findClaims`, the writer's setting when the text is given.
export class ClaimExtractor {
  private pool: Piscina<ExtractionTask, ExtractedClaim[]> | null = null

  constructor(private readonly findClaims: () => FindClaims = () => 'balanced') {}

  extract(text: string): Promise<ExtractedClaim[]> {
    this.pool ??= workerPool(import.meta.url, './worker.ts', 'claims-worker.js', IDLE_MS, RESOURCE_LIMITS)
    return this.pool.run({ text, findClaims: this.findClaims() })
  }

  /// Stops the threads; texts in flight reject.
  async close(): Promise<void> {
    const pool = this.pool
    this.pool = null
    await pool?.destroy()
  }
}
