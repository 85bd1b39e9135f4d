import { availableParallelism } from 'node:os'
import type { ResourceLimits } from 'node:worker_threads'
import { Piscina } from 'piscina'

/// Where a worker thread's code is, seen from the module that starts it (`moduleUrl`): `source` beside it when
/// run from source (vitest, tsx), `bundled` at the top of out/main when bundled, where electron-vite writes each
/// entry (electron.vite.config.ts), while shared code may land in out/main/chunks/.
export function workerEntry(
  moduleUrl: string,
  source: string,
  bundled: string,
): { url: URL; fromSource: boolean } {
  if (moduleUrl.endsWith('.ts')) return { url: new URL(source, moduleUrl), fromSource: true }
  const inChunks = new URL('.', moduleUrl).pathname.endsWith('/chunks/')
  return { url: new URL(inChunks ? `../${bundled}` : `./${bundled}`, moduleUrl), fromSource: false }
}

/// A pool of worker threads running the default export of `source` (`bundled` once built), started on first
/// use: one thread per core but one, which is left to the event loop (at least one thread). An idle thread
/// ends after `idleMs`; `resourceLimits` bound each thread's JavaScript heap.
export function workerPool<Task, Result>(
  moduleUrl: string,
  source: string,
  bundled: string,
  idleMs: number,
  resourceLimits?: ResourceLimits,
): Piscina<Task, Result> {
  const { url, fromSource } = workerEntry(moduleUrl, source, bundled)
  return new Piscina({
    filename: url.href,
    minThreads: 0,
    maxThreads: Math.max(1, availableParallelism() - 1),
    idleTimeout: idleMs,
    ...(resourceLimits ? { resourceLimits } : {}),
    // From source (vitest, tsx) each thread loads the TypeScript entry through tsx's loader: the pool's own
    // thread entry is JavaScript, so the loader applies to what it imports.
    ...(fromSource ? { execArgv: ['--import', import.meta.resolve('tsx')] } : {}),
  })
}
