import { afterEach, describe, expect, it, vi } from 'vitest'
import { openEngine, type Engine } from '../../../../../src/main/engine/engine'
import { hasEnded } from '../../../../../src/shared/vocabulary'
import { startWorker } from '../../../../../src/main/engine/tiers/t1/workerEntry'
import { workerPool } from '../../../../../src/main/engine/base/workerEntry'
import { tempDir } from '../../../../helpers/server'

// The real worker, counted: the engine must start it when it opens, and the first check must use that one.
vi.mock('../../../../../src/main/engine/tiers/t1/workerEntry', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../../src/main/engine/tiers/t1/workerEntry')>()
  return { ...actual, startWorker: vi.fn(actual.startWorker) }
})
// The real pools, counted: only t1 is started at open; an idle extraction thread would hold 25–35 MiB.
vi.mock('../../../../../src/main/engine/base/workerEntry', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../../../../src/main/engine/base/workerEntry')>()
  return { ...actual, workerPool: vi.fn(actual.workerPool) }
})

let engine: Engine | undefined
afterEach(async () => {
  await engine?.close()
  engine = undefined
  vi.mocked(startWorker).mockClear()
  vi.mocked(workerPool).mockClear()
})

describe('t1 warm at once', () => {
  it('starts the spelling worker when an engine that runs jobs opens, and checks the first claims on it', async () => {
    engine = await openEngine({ dataDir: tempDir(), runJobs: true })
    expect(startWorker).toHaveBeenCalledTimes(1)

    const principal = await engine.localPrincipal()
    const { check } = await engine.service.submit(principal, {
      text: 'The tower was bilt in 1889. It is 330 metres tall. Paris has 2 million people. The river is 777 km long.',
      tiers: ['t1'],
    })
    if (!hasEnded(await engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
    const report = await engine.service.report(principal, check.id)
    expect(report.check.status).toBe('completed')
    expect(
      report.claims.some((claim) => claim.issues.some((issue) => issue.suggestions.includes('built'))),
    ).toBe(true)
    expect(startWorker).toHaveBeenCalledTimes(1)
  }, 60_000)

  it('starts no thread pool when it opens: claim extraction starts its threads on the first text', async () => {
    engine = await openEngine({ dataDir: tempDir(), runJobs: true })
    expect(workerPool).not.toHaveBeenCalled()
  })

  it('starts no worker in an engine that runs no jobs', async () => {
    engine = await openEngine({ dataDir: tempDir(), runJobs: false })
    expect(startWorker).not.toHaveBeenCalled()
  })
})
