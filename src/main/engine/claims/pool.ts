import { availableParallelism } from 'node:os'
import { Piscina } from 'piscina'
import { workerEntry } from '../workerEntry'
import type { ExtractedClaim } from '.'

/// How long an idle thread is kept: texts come in bursts (an editor's estimates), and a thread takes a moment
/// to start.
const IDLE_MS = 30_000

/// Claim extraction on a pool of worker threads, started on first use: a long text's extraction (a second for
/// 200,000 characters) never holds up the requests the event loop answers meanwhile. One thread per core but
/// one, which is left to the event loop (at least one thread).
export class ClaimExtractor {
  private pool: Piscina<string, ExtractedClaim[]> | null = null

  extract(text: string): Promise<ExtractedClaim[]> {
    this.pool ??= startPool()
    return this.pool.run(text)
  }

  /// Stops the threads; texts in flight reject.
  async close(): Promise<void> {
    const pool = this.pool
    this.pool = null
    await pool?.destroy()
  }
}

function startPool(): Piscina<string, ExtractedClaim[]> {
  const { url, fromSource } = workerEntry(import.meta.url, './worker.ts', 'claims-worker.js')
  return new Piscina({
    filename: url.href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: IDLE_MS,
    // From source (vitest, tsx) each thread loads the TypeScript entry through tsx's loader: the pool's own
    // thread entry is JavaScript, so the loader applies to what it imports.
    ...(fromSource ? { execArgv: ['--import', import.meta.resolve('tsx')] } : {}),
  })
}
