import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Check, Report } from '../../../../src/shared/schemas'
import { GatedTier } from '../../../helpers/tiers'
import {
  call,
  expectEnvelope,
  startServer,
  tempDir,
  type TestServer,
  THREE_CLAIMS,
  waitForEnd,
} from '../../../helpers/server'

let server: TestServer
const tier = new GatedTier(true)
beforeAll(async () => {
  server = await startServer({ tiers: new Map([['t1', tier]]) })
})
afterAll(() => server.close())

const balance = async (token = server.write, on: TestServer = server) =>
  (await call(on, 'GET', '/credits', { token })).json.balance as number

describe('POST /checks', () => {
  it('with an estimate’s documentId: reuses its claims and charges exactly the quoted total', async () => {
    const estimate = (
      await call(server, 'POST', '/checks/estimate', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    ).json
    const before = await balance()
    const res = await call(server, 'POST', '/checks', {
      body: { documentId: estimate.documentId, tiers: ['t1'], name: 'Landmarks' },
    })
    expect(res.status).toBe(202)
    const check = Check.parse(res.json)
    expect(check).toMatchObject({
      documentId: estimate.documentId,
      tiers: ['t1'],
      name: 'Landmarks',
      author: null,
      claimCount: estimate.claimCount,
      credits: { charged: estimate.credits.total, refunded: 0 },
      error: null,
    })
    expect(check.id).toMatch(/^chk_/)
    expect(await balance()).toBe(before - estimate.credits.total)

    const done = await waitForEnd(server, check.id)
    expect(done.status).toBe('completed')
    expect(done.progress.claimsDone).toEqual({ t1: estimate.claimCount })
    expect(done.completedAt).not.toBeNull()
    const report = Report.parse((await call(server, 'GET', `/checks/${check.id}/report`)).json)
    expect(report.text).toBe(THREE_CLAIMS)
    expect(
      report.claims.map(({ claimId, text, charStart, charEnd, carriedFrom }) => ({
        claimId,
        text,
        charStart,
        charEnd,
        carriedFrom,
      })),
    ).toEqual(estimate.claims)
    for (const claim of report.claims) {
      expect(claim.consensus.t1?.verdict).toBe('clean')
      expect(claim.evaluations).toHaveLength(1)
    }
    expect(report.summary).toEqual({
      claimCount: estimate.claimCount,
      done: { t1: estimate.claimCount },
      verdicts: { clean: estimate.claimCount },
      tokens: { input: 0, output: 0 },
    })
    expect(await balance()).toBe(before - estimate.credits.total)
  })

  it('charges what the estimate quoted even when the prices changed before the check', async () => {
    const dataDir = tempDir()
    const tiers = new Map([['t1' as const, new GatedTier(true)]])
    const quoting = await startServer({ dataDir, tiers, config: { pricing: { t1: 2 } } })
    const estimate = (
      await call(quoting, 'POST', '/checks/estimate', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    ).json
    expect(estimate.credits.total).toBe(estimate.claimCount * 2)
    await quoting.close()

    const charging = await startServer({ dataDir, tiers, config: { pricing: { t1: 5 } } })
    try {
      const before = await balance(charging.write, charging)
      const res = await call(charging, 'POST', '/checks', {
        token: charging.write,
        body: { documentId: estimate.documentId, tiers: ['t1'] },
      })
      expect(res.status).toBe(202)
      expect(res.json.credits).toEqual({ charged: estimate.credits.total, refunded: 0 })
      expect(await balance(charging.write, charging)).toBe(before - estimate.credits.total)
      // A text is priced at today's prices.
      const fresh = await call(charging, 'POST', '/checks/estimate', {
        token: charging.write,
        body: { text: THREE_CLAIMS, tiers: ['t1'] },
      })
      expect(fresh.json.credits.total).toBe(estimate.claimCount * 5)
    } finally {
      await charging.close()
    }
  })

  it('the tiers must be those of the estimate', async () => {
    const estimate = (
      await call(server, 'POST', '/checks/estimate', { body: { text: THREE_CLAIMS, tiers: ['t1', 't2'] } })
    ).json
    const res = await call(server, 'POST', '/checks', {
      body: { documentId: estimate.documentId, tiers: ['t1'] },
    })
    expect(res.status).toBe(422)
    expect(expectEnvelope(res.json, 'unprocessable').message).toMatch(/estimated for t1, t2/)
  })

  it('with text: priced as the estimate would price it', async () => {
    const quoted = (
      await call(server, 'POST', '/checks/estimate', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    ).json.credits.total
    const res = await call(server, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    expect(res.status).toBe(202)
    expect(res.json.credits.charged).toBe(quoted)
    await waitForEnd(server, res.json.id)
  })

  it('402 when the balance is too small, and nothing is created', async () => {
    const org = await server.engine.admin.createOrganization('Almost broke', 2)
    const token = (await server.engine.admin.createToken('write', org.id, null)).value
    const res = await call(server, 'POST', '/checks', { token, body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    expect(res.status).toBe(402)
    expect(expectEnvelope(res.json, 'insufficient_credits').message).toMatch(
      /costs 3 credits; the balance is 2/,
    )
    expect(await balance(token)).toBe(2)
    expect((await call(server, 'GET', '/checks', { token })).json.data).toEqual([])
    // One claim, one credit: said in the singular.
    const broke = await server.engine.admin.createOrganization('Broke', 0)
    const brokeToken = (await server.engine.admin.createToken('write', broke.id, null)).value
    const one = await call(server, 'POST', '/checks', {
      token: brokeToken,
      body: { text: 'The Eiffel Tower is 330 metres tall.', tiers: ['t1'] },
    })
    expect(expectEnvelope(one.json, 'insufficient_credits').message).toMatch(
      /costs 1 credit; the balance is 0/,
    )
  })

  it('refuses bad submissions', async () => {
    const text = THREE_CLAIMS
    const cases: [unknown, number, string, RegExp?][] = [
      [{ tiers: ['t1'] }, 400, 'bad_request', /documentId/],
      [{ text, documentId: 'doc_x', tiers: ['t1'] }, 400, 'bad_request'],
      [{ text }, 400, 'bad_request'],
      [{ documentId: 'doc_unknown', tiers: ['t1'] }, 404, 'not_found'],
      [{ text: '', tiers: ['t1'] }, 422, 'unprocessable'],
      [{ text, tiers: ['t2'] }, 422, 'unprocessable', /models.*config file/],
      [{ text, tiers: ['t1'], sourceUrl: 'ftp://example.com/a' }, 422, 'unprocessable', /sourceUrl/],
      [{ text, tiers: ['t1'], callbackUrl: 'http://example.com/hook' }, 422, 'unprocessable', /https/],
      [{ text, tiers: ['t1'], callbackUrl: 'https://10.0.0.8/hook' }, 422, 'unprocessable', /public/],
      [{ text, tiers: ['t1'], callbackUrl: 'https://127.0.0.1/hook' }, 422, 'unprocessable', /public/],
      [
        { text, tiers: ['t1'], callbackUrl: 'https://[::ffff:10.0.0.5]/hook' },
        422,
        'unprocessable',
        /public/,
      ],
      [{ text, tiers: ['t1'], callbackUrl: 'https://[fd00::1]/hook' }, 422, 'unprocessable', /public/],
      [
        { text, tiers: ['t1'], callbackUrl: 'https://user:pw@example.com/hook' },
        422,
        'unprocessable',
        /credentials/,
      ],
    ]
    const before = await balance()
    for (const [body, status, code, message] of cases) {
      const res = await call(server, 'POST', '/checks', { body })
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(status)
      const error = expectEnvelope(res.json, code)
      if (message) expect(error.message).toMatch(message)
    }
    expect(await balance()).toBe(before)
  })

  it('a text without claims completes at once and costs nothing', async () => {
    const res = await call(server, 'POST', '/checks', { body: { text: 'Do you like it?', tiers: ['t1'] } })
    expect(res.json).toMatchObject({ claimCount: 0, credits: { charged: 0 } })
    expect((await waitForEnd(server, res.json.id)).status).toBe('completed')
  })

  it('every change is on the engine’s event stream as it happens', async () => {
    const events: any[] = []
    const stop = server.engine.events.subscribe((event) => events.push(event))
    const res = await call(server, 'POST', '/checks', { body: { text: THREE_CLAIMS, tiers: ['t1'] } })
    await waitForEnd(server, res.json.id)
    // The ending is told once it is written: an answer to GET may come first.
    await expect
      .poll(() => events.some((e) => e.type === 'check' && e.check.id === res.json.id && e.check.completedAt))
      .toBe(true)
    stop()
    const mine = events.filter((e) => (e.type === 'check' ? e.check.id : e.checkId) === res.json.id)
    // The check moves with each claim done, and ends with the last.
    const count = res.json.claimCount
    expect(
      mine
        .filter((e) => e.type === 'check')
        .map((e) => `${e.check.status} ${e.check.progress.claimsDone.t1}`),
    ).toEqual([
      'queued 0',
      'running 0',
      ...Array.from({ length: count - 1 }, (_, done) => `running ${done + 1}`),
      `completed ${count}`,
    ])
    const claims = mine.filter((e) => e.type === 'claim')
    expect(claims).toHaveLength(res.json.claimCount)
    expect(claims[0]).toMatchObject({
      tier: 't1',
      evaluation: { verdict: 'clean' },
      consensus: { verdict: 'clean' },
    })
  })
})
