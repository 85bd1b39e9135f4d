import { Worker } from 'node:worker_threads'

/// Where the worker's code is, seen from the module that starts it: `worker.ts` beside it when run from source
/// (vitest, tsx), `t1-worker.js` at the top of out/main when bundled, where electron-vite writes each entry,
/// while shared code may land in out/main/chunks/.
export function workerEntry(moduleUrl: string): { url: URL; fromSource: boolean } {
  if (moduleUrl.endsWith('.ts')) return { url: new URL('./worker.ts', moduleUrl), fromSource: true }
  const inChunks = new URL('.', moduleUrl).pathname.endsWith('/chunks/')
  return { url: new URL(inChunks ? '../t1-worker.js' : './t1-worker.js', moduleUrl), fromSource: false }
}

/// Starts the t1 worker thread.
export function startWorker(): Worker {
  const { url, fromSource } = workerEntry(import.meta.url)
  if (!fromSource) return new Worker(url)
  // Node 20 does not apply `--import tsx` from a worker's execArgv to its entry, so register tsx's loader in
  // the thread first and then import the TypeScript entry.
  const tsx = import.meta.resolve('tsx/esm/api')
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url.href)}) })`
  return new Worker(boot, { eval: true })
}
