import { Worker } from 'node:worker_threads'
import { workerEntry as entryOf } from '../../base/workerEntry'

/// Where the t1 worker's code is: `worker.ts` beside this module from source, out/main/t1-worker.js bundled.
export const workerEntry = (moduleUrl: string): { url: URL; fromSource: boolean } =>
  entryOf(moduleUrl, './worker.ts', 't1-worker.js')

/// The worker's JavaScript heap: Harper's data lives in WebAssembly memory, and a claim's lints are a few small
/// objects. V8's default young generation (up to 48 MB) filled with their garbage and held about 20 MB more
/// after a long check, for no faster lints (CHANGELOG, 2026-11-26).
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 }

/// Starts the t1 worker thread.
export function startWorker(): Worker {
  const { url, fromSource } = workerEntry(import.meta.url)
  if (!fromSource) return new Worker(url, { resourceLimits: RESOURCE_LIMITS })
  // Node 20 does not apply `--import tsx` from a worker's execArgv to its entry, so register tsx's loader in
  // the thread first and then import the TypeScript entry.
  const tsx = import.meta.resolve('tsx/esm/api')
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { eval: true, resourceLimits: RESOURCE_LIMITS })
}
