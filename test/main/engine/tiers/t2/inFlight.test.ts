import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import {
  claimsToResolve,
  mostAtOnce,
  startFakeOpenAI,
  type FakeOpenAI,
  type RecordedRequest,
} from '../../../../helpers/fakeOpenAI'
import { call, startServer, waitForEnd, type TestServer } from '../../../../helpers/server'
import { startOwnerServer } from '../../settings/session'
import { panelRequests, report, resolverRequests, submitT2, t2Config } from './setup'

let fake: FakeOpenAI
let server: TestServer
afterEach(async () => {
  await server?.close()
  await fake?.close()
})

/// Twenty claims: three resolver requests (8, 8 and 4 claims).
const TEXT = Array.from({ length: 20 }, (_, i) => `Crate ${i + 1} weighs ${i + 10} kilograms.`).join(' ')
/// Requests one provider endpoint (the fake, serving every model) may have in flight: more than the runner's
/// default of four units.
const LIMIT = 6

const pending = (requests: readonly RecordedRequest[]) => requests.filter((r) => r.outcome === 'pending')

/// The fake holding the requests `held` picks until `release()`, and an engine whose runner is sized by t2.
async function holding(held: (request: RecordedRequest) => boolean) {
  let release = () => {}
  const gate = new Promise<void>((resolve) => (release = resolve))
  fake = await startFakeOpenAI({
    '*': { hold: (request) => (held(request) ? gate : undefined) },
  })
  server = await startServer({
    config: t2Config(fake, ['a'], { concurrencyPerProvider: LIMIT, requestTimeoutMs: 8000 }),
    runner: { retryDelayMs: () => 10 },
  })
  const check = await submitT2(server, TEXT)
  return { check, release }
}

const isVote = (request: RecordedRequest) => request.model === 'model-a'

describe('t2 requests in flight', () => {
  it('as many units wait on the model as the provider takes requests, more than the runner’s default, and no more', async () => {
    const { check, release } = await holding(isVote)
    await expect.poll(() => pending(panelRequests(fake)).length).toBe(LIMIT)
    // Units keep waiting for a slot: none goes past the provider's limit.
    await sleep(200)
    expect(pending(fake.requests)).toHaveLength(LIMIT)

    release()
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    expect(mostAtOnce(fake.requests)).toBe(LIMIT)
    expect(panelRequests(fake)).toHaveLength(20)
  })

  it('the resolver’s requests count against the same limit as the votes', async () => {
    // The last resolver request (four claims) and every vote held: the votes of the 16 claims resolved take
    // the slots the held resolver request leaves.
    const { check, release } = await holding(
      (request) => isVote(request) || claimsToResolve(request)?.length === 4,
    )
    await expect.poll(() => pending(fake.requests).length).toBe(LIMIT)
    await sleep(200)
    expect(pending(resolverRequests(fake))).toHaveLength(1)
    expect(pending(panelRequests(fake))).toHaveLength(LIMIT - 1)

    release()
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    expect(mostAtOnce(fake.requests)).toBe(LIMIT)
  })

  it('models saved in the settings after the engine started get as many units as their provider takes requests', async () => {
    let release = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    fake = await startFakeOpenAI({ '*': { hold: (request) => (isVote(request) ? gate : undefined) } })
    // Started without t2: the runner then had no tier asking for more than its default.
    const owner = await startOwnerServer({ config: { models: { concurrencyPerProvider: LIMIT } } })
    server = owner
    const { models } = t2Config(fake, ['a'])
    const saved = await owner.owner('PATCH', '/settings', {
      models: { panel: models?.panel, judge: models?.judge },
    })
    expect(saved.status).toBe(200)
    const check = await submitT2(server, TEXT)
    await expect.poll(() => pending(panelRequests(fake)).length).toBe(LIMIT)
    release()
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
  })

  it('a restart with units in flight resumes the check: each claim voted on and charged once', async () => {
    const { check, release } = await holding(isVote)
    await expect.poll(() => pending(panelRequests(fake)).length).toBe(LIMIT)
    // The engine stops with units waiting on the model and in line for a slot; they go back to the queue.
    const { dataDir } = server
    await server.close()
    release()
    server = await startServer({
      dataDir,
      config: t2Config(fake, ['a'], { concurrencyPerProvider: LIMIT }),
      runner: { retryDelayMs: () => 10 },
    })
    const ended = await waitForEnd(server, check.id)
    expect(ended.status).toBe('completed')
    expect(ended.credits).toMatchObject({ charged: 20 * 4, refunded: 0 })
    expect((await call(server, 'GET', '/credits')).json.balance).toBe(1000 - 20 * 4)
    const result = await report(server, check.id)
    for (const claim of result.claims) {
      expect(claim.evaluations).toHaveLength(1)
      expect(claim.consensus.t2).toBeDefined()
    }
    // The resolver's work was kept: no claim resolved twice.
    expect(resolverRequests(fake).flatMap((r) => claimsToResolve(r) ?? [])).toHaveLength(20)
  })
})
