import { describe, expect, it } from 'vitest'
import { startWorker, workerEntry } from '../../../../../src/main/engine/tiers/t1/workerEntry'

describe('workerEntry', () => {
  it('runs worker.ts beside the module from source', () => {
    expect(workerEntry('file:///repo/src/main/engine/tiers/t1/workerEntry.ts')).toEqual({
      url: new URL('file:///repo/src/main/engine/tiers/t1/worker.ts'),
      fromSource: true,
    })
  })

  it('runs out/main/t1-worker.js from an entry bundle or a shared chunk', () => {
    for (const module of ['file:///app/out/main/index.js', 'file:///app/out/main/chunks/engine-Ab12.js'])
      expect(workerEntry(module)).toEqual({
        url: new URL('file:///app/out/main/t1-worker.js'),
        fromSource: false,
      })
  })

  it("starts the worker with a small JavaScript heap: Harper's data is WebAssembly memory", async () => {
    const worker = startWorker()
    try {
      expect(worker.resourceLimits).toMatchObject({ maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 64 })
    } finally {
      await worker.terminate()
    }
  })
})
