import { describe, expect, it } from 'vitest'
import { claimsToResolve, startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { call, startServer, waitForEnd, type TestServer } from '../../../../helpers/server'
import { panelRequests, report, resolverRequests, submitT2, t2Config } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

let fake: FakeOpenAI
let server: TestServer
closeAfterEach(() => [server, fake])

/// Twenty claims: three resolver requests (8, 8 and 4 claims).
const TEXT = Array.from({ length: 20 }, (_, i) => `Crate ${i + 1} weighs ${i + 10} kilograms.`).join(' ')

/// The resolver held until `release()`, and an engine running four units at once (fewer than a batch's claims).
async function heldResolver(): Promise<{ release: () => void; check: any }> {
  let release = () => {}
  const held = new Promise<void>((resolve) => (release = resolve))
  fake = await startFakeOpenAI({ 'model-resolver': { hold: () => held } })
  server = await startServer({
    config: t2Config(fake, ['a'], { requestTimeoutMs: 8000 }),
    runner: { concurrency: 4, retryDelayMs: () => 10 },
  })
  const check = await submitT2(server, TEXT)
  expect(check.claimCount).toBe(20)
  return { release, check }
}

describe('resolving a check’s claims ahead of its votes', () => {
  it('sends every resolver request of the check at once, before any vote, however few units run at once', async () => {
    const { release, check } = await heldResolver()
    // All three requests are in flight together while the first is still unanswered, and no vote is asked.
    await expect.poll(() => resolverRequests(fake).length).toBe(3)
    expect(resolverRequests(fake).map((r) => r.outcome)).toEqual(['pending', 'pending', 'pending'])
    expect(
      resolverRequests(fake)
        .map((r) => claimsToResolve(r)!.length)
        .sort(),
    ).toEqual([4, 8, 8])
    expect(panelRequests(fake)).toHaveLength(0)

    release()
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    // Each claim was resolved once, and checked as its statement.
    expect(resolverRequests(fake)).toHaveLength(3)
    const result = await report(server, check.id)
    expect(result.claims.every((claim) => claim.statement !== null)).toBe(true)
  })

  it('a cancel aborts every resolver request of the check, the ones no unit waits for yet too', async () => {
    const { release, check } = await heldResolver()
    await expect.poll(() => resolverRequests(fake).length).toBe(3)
    await call(server, 'POST', `/checks/${check.id}/cancel`)
    await expect
      .poll(() => resolverRequests(fake).map((r) => r.outcome), { timeout: 2000 })
      .toEqual(['closed', 'closed', 'closed'])
    release()
    expect(panelRequests(fake)).toHaveLength(0)
  })
})
