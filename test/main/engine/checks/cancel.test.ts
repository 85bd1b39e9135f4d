import { afterEach, describe, expect, it } from 'vitest'
import { GatedTier } from '../../../helpers/tiers'
import {
  call,
  expectEnvelope,
  startServer,
  type TestServer,
  THREE_CLAIMS,
  waitForEnd,
} from '../../../helpers/server'

let server: TestServer
afterEach(() => server.close())

const ledger = async (s: TestServer) => await s.engine.admin.ledger(s.organizationId)
const balance = async () => (await call(server, 'GET', '/credits')).json.balance as number

describe('POST /checks/{id}/cancel', () => {
  it('stops in-flight work through the AbortSignal, refunds the whole charge once, and is a no-op after', async () => {
    const tier = new GatedTier(false)
    server = await startServer({ tiers: new Map([['t1', tier]]) })
    const check = (await call(server, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } }))
      .json
    await expect.poll(() => tier.started.length).toBeGreaterThan(0)
    expect((await call(server, 'GET', `/checks/${check.id}`)).json.status).toBe('running')

    const res = await call(server, 'POST', `/checks/${check.id}/cancel`)
    expect(res.status).toBe(200)
    expect(res.json).toMatchObject({
      status: 'cancelled',
      credits: { charged: check.credits.charged, refunded: check.credits.charged },
    })
    expect(await balance()).toBe(1000)
    await expect.poll(() => tier.aborted.length).toBe(tier.started.length)

    const again = await call(server, 'POST', `/checks/${check.id}/cancel`)
    expect(again.status).toBe(200)
    expect(again.json.status).toBe('cancelled')
    expect(await balance()).toBe(1000)
    expect(await ledger(server)).toEqual({
      grant: 1000,
      charge: check.credits.charged,
      refund: check.credits.charged,
    })

    tier.releaseAll()
    await new Promise((resolve) => setTimeout(resolve, 100))
    const report = (await call(server, 'GET', `/checks/${check.id}/report`)).json
    expect(report.check.status).toBe('cancelled')
    expect(report.claims.every((claim: any) => claim.evaluations.length === 0)).toBe(true)
  })

  it('on a completed check: 422, and no refund', async () => {
    server = await startServer({ tiers: new Map([['t1', new GatedTier(true)]]) })
    const check = (await call(server, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } }))
      .json
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    const res = await call(server, 'POST', `/checks/${check.id}/cancel`)
    expect(res.status).toBe(422)
    expectEnvelope(res.json, 'unprocessable')
    expect(await balance()).toBe(1000 - check.credits.charged)
  })

  it('racing with completion: exactly one ending wins, and the credits match it', async () => {
    const tier = new GatedTier(false)
    server = await startServer({ tiers: new Map([['t1', tier]]) })
    const outcomes = new Set<string>()
    for (let round = 0; round < 12; round++) {
      const startedBefore = tier.started.length
      const check = (await call(server, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } }))
        .json
      await expect.poll(() => tier.started.length).toBeGreaterThan(startedBefore)
      // Let the work finish and cancel at the same moment; stagger the cancel across rounds.
      const cancel = new Promise((resolve) => setTimeout(resolve, round % 4)).then(() =>
        call(server, 'POST', `/checks/${check.id}/cancel`),
      )
      tier.releaseAll()
      const res = await cancel
      const end = await waitForEnd(server, check.id)
      outcomes.add(end.status)
      if (end.status === 'cancelled') {
        expect(res.status).toBe(200)
        expect(end.credits.refunded).toBe(end.credits.charged)
      } else {
        expect(end.status).toBe('completed')
        expect(res.status).toBe(422)
        expect(end.credits.refunded).toBe(0)
      }
      tier.open = false
    }
    const totals = await ledger(server)
    const checks = (await call(server, 'GET', '/checks?limit=100')).json.data
    const refunded = checks.reduce((sum: number, c: any) => sum + c.credits.refunded, 0)
    const charged = checks.reduce((sum: number, c: any) => sum + c.credits.charged, 0)
    expect(totals).toEqual({ grant: 1000, charge: charged, refund: refunded })
    expect(await balance()).toBe(1000 - charged + refunded)
    expect(outcomes.size).toBeGreaterThan(0)
  })

  it('unknown checks and those of other organizations are 404', async () => {
    server = await startServer({ tiers: new Map([['t1', new GatedTier(false)]]) })
    const check = (await call(server, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } }))
      .json
    const other = await server.engine.admin.createOrganization('B', 100)
    const token = (await server.engine.admin.createToken('write', other.id, null)).value
    for (const [method, path] of [
      ['POST', `/checks/${check.id}/cancel`],
      ['GET', `/checks/${check.id}`],
      ['GET', `/checks/${check.id}/report`],
      ['PATCH', `/checks/${check.id}`],
    ] as const) {
      const res = await call(server, method, path, {
        token,
        ...(method === 'PATCH' ? { body: { name: 'x' } } : {}),
      })
      expect(res.status, `${method} ${path}`).toBe(404)
      expectEnvelope(res.json, 'not_found')
    }
    expect((await call(server, 'GET', '/checks', { token })).json.data).toEqual([])
    expect((await call(server, 'POST', '/checks/chk_nope/cancel')).status).toBe(404)
    await call(server, 'POST', `/checks/${check.id}/cancel`)
  })
})

describe('a failing tier', () => {
  it('retries with backoff, then fails the check and refunds the claim-tiers without consensus', async () => {
    const tier = new GatedTier(true, (text) => text.startsWith('Paris'))
    server = await startServer({
      tiers: new Map([['t1', tier]]),
      runner: { maxAttempts: 3, retryDelayMs: () => 10 },
    })
    const check = (await call(server, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } }))
      .json
    const end = await waitForEnd(server, check.id)
    expect(end.status).toBe('failed')
    expect(end.error).toEqual({
      code: 'unit_failed',
      message: expect.stringMatching(/1 claim check failed: the checker choked on "Paris/),
    })
    expect(end.credits).toEqual({ charged: check.credits.charged, refunded: 1 })
    expect(end.progress.claimsDone.t1).toBe(check.claimCount - 1)
    expect(await balance()).toBe(1000 - check.credits.charged + 1)
    const report = (await call(server, 'GET', `/checks/${check.id}/report`)).json
    const undecided = report.claims.filter((c: any) => !c.consensus.t1)
    expect(undecided.map((c: any) => c.text)).toEqual(['Paris is the capital of France.'])
    expect(tier.started.filter((id) => id === undecided[0].claimId)).toHaveLength(3)
  })
})
