import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Estimate } from '../../../../src/shared/schemas'
import { call, expectEnvelope, startServer, type TestServer } from '../../../helpers/server'

const TEXT = [
  '# Landmarks',
  '',
  'The Eiffel Tower is 330 metres tall and was completed in 1889.',
  'Do you like it?',
  '- Mount Everest, at 8,849 metres, is the highest mountain on Earth.',
].join('\n')

let server: TestServer
beforeAll(async () => {
  server = await startServer({ config: { limits: { maxTextChars: 5000 } } })
})
afterAll(() => server.close())

describe('POST /checks/estimate', () => {
  it('quotes the claims per tier, charges nothing and says whether the balance covers it', async () => {
    const res = await call(server, 'POST', '/checks/estimate', { body: { text: TEXT, tiers: ['t2', 't1'] } })
    expect(res.status).toBe(200)
    const estimate = Estimate.parse(res.json)
    expect(estimate.documentId).toMatch(/^doc_/)
    expect(estimate.claimCount).toBe(estimate.claims.length)
    expect(estimate.claimCount).toBeGreaterThanOrEqual(2)
    for (const claim of estimate.claims) {
      expect(claim.claimId).toMatch(/^clm_/)
      expect(TEXT.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
    }
    expect(estimate.claims.map((c) => c.text)).toContain(
      'The Eiffel Tower is 330 metres tall and was completed in 1889.',
    )
    expect(estimate.claims.some((c) => c.text.includes('Do you like it'))).toBe(false)
    const n = estimate.claimCount
    expect(estimate.credits).toEqual({
      total: n * 5,
      unitPrices: { t1: 1, t2: 4 },
      breakdown: [
        { tier: 't1', claims: n, unitPrice: 1, subtotal: n },
        { tier: 't2', claims: n, unitPrice: 4, subtotal: 4 * n },
      ],
    })
    expect(estimate.balance).toBe(1000)
    expect(estimate.sufficient).toBe(true)
    expect((await call(server, 'GET', '/credits')).json.balance).toBe(1000)
  })

  it('names each requested tier that cannot run and why, in the answer and the OpenAPI document', async () => {
    // This server has no language models: t1 runs, t2 and t3 cannot.
    const res = await call(server, 'POST', '/checks/estimate', {
      body: { text: TEXT, tiers: ['t3', 't1', 't2'] },
    })
    const estimate = Estimate.parse(res.json)
    expect(estimate.unavailable).toEqual([
      { tier: 't2', reason: expect.stringMatching(/^t2 needs language models: add a panel and a judge/) },
      { tier: 't3', reason: expect.stringMatching(/^t3 needs language models/) },
    ])
    // `sufficient` still speaks of credits only.
    expect(estimate.sufficient).toBe(true)
    // The same words as the check's refusal.
    const refused = await call(server, 'POST', '/checks', {
      body: { documentId: estimate.documentId, tiers: ['t1', 't2', 't3'] },
    })
    expect(expectEnvelope(refused.json, 'unprocessable').message).toBe(estimate.unavailable[0]?.reason)
    const t1 = Estimate.parse(
      (await call(server, 'POST', '/checks/estimate', { body: { text: TEXT, tiers: ['t1'] } })).json,
    )
    expect(t1.unavailable).toEqual([])

    const schemas = (await call(server, 'GET', '/openapi.json')).json.components.schemas
    expect(schemas.Estimate.required).toContain('unavailable')
    expect(schemas.Estimate.properties.unavailable).toEqual({
      type: 'array',
      items: { $ref: '#/components/schemas/UnavailableTier' },
    })
    expect(schemas.UnavailableTier.required).toEqual(['tier', 'reason'])
  })

  it('says when the balance does not cover the price', async () => {
    const org = await server.engine.admin.createOrganization('Poor', 1)
    const token = (await server.engine.admin.createToken('write', org.id, null)).value
    const res = await call(server, 'POST', '/checks/estimate', { token, body: { text: TEXT, tiers: ['t3'] } })
    expect(res.json).toMatchObject({ balance: 1, sufficient: false })
  })

  it('refuses bad input with the right codes', async () => {
    const cases: [unknown, number, string][] = [
      [{ text: TEXT }, 400, 'bad_request'],
      [{ text: TEXT, tiers: [] }, 400, 'bad_request'],
      [{ text: TEXT, tiers: ['t4'] }, 400, 'bad_request'],
      [{ text: 42, tiers: ['t1'] }, 400, 'bad_request'],
      [{ text: TEXT, tiers: ['t1'], extra: true }, 400, 'bad_request'],
      [{ text: '  \n ', tiers: ['t1'] }, 422, 'unprocessable'],
      [{ text: 'x'.repeat(5001), tiers: ['t1'] }, 422, 'unprocessable'],
    ]
    for (const [body, status, code] of cases) {
      const res = await call(server, 'POST', '/checks/estimate', { body })
      expect(res.status, JSON.stringify(body).slice(0, 60)).toBe(status)
      expectEnvelope(res.json, code)
    }
    const details = (await call(server, 'POST', '/checks/estimate', { body: { text: 1 } })).json.error.details
    expect(details.map((d: { field: string }) => d.field).sort()).toEqual(['text', 'tiers'])
  })

  it('needs a write token', async () => {
    const res = await call(server, 'POST', '/checks/estimate', {
      token: server.read,
      body: { text: TEXT, tiers: ['t1'] },
    })
    expect(res.status).toBe(403)
  })

  it('is repeatable: the same text gives the same claims and price', async () => {
    const a = (await call(server, 'POST', '/checks/estimate', { body: { text: TEXT, tiers: ['t1'] } })).json
    const b = (await call(server, 'POST', '/checks/estimate', { body: { text: TEXT, tiers: ['t1'] } })).json
    expect(a.documentId).not.toBe(b.documentId)
    const strip = (e: any) =>
      e.claims.map(({ text, charStart, charEnd }: any) => ({ text, charStart, charEnd }))
    expect(strip(a)).toEqual(strip(b))
    expect(a.credits).toEqual(b.credits)
  })
})
