import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Estimate, Report } from '../../../../src/shared/schemas'
import { startFakeOpenAI, type FakeOpenAI } from '../../../helpers/fakeOpenAI'
import { call, expectEnvelope, waitForEnd, type TestServer } from '../../../helpers/server'
import { panelRequests, startT2Server, t2Config } from '../tiers/t2/setup'

// Real t1 (Harper, whose issues carry offsets into the text) and t2 on the fake OpenAI server.
const PARAGRAPHS = [
  'The Eiffel Tower is 330 metres tall and was recieved as a gift in 1889.',
  'The Great Wall of China is more than 21,000 kilometres long according to a 2012 survey.',
  'Paris is the capital of France. Do you like it? Water boils at 100 degrees Celsius at sea level.',
]
const TEXT = PARAGRAPHS.join('\n\n')
const TIERS = ['t1', 't2']

let fake: FakeOpenAI
let server: TestServer
let first: Report
beforeAll(async () => {
  fake = await startFakeOpenAI({
    'model-a': { overrides: { verdict: 'supported' } },
    'model-b': { overrides: { verdict: 'supported' } },
    'model-c': { overrides: { verdict: 'refuted' } },
    'model-judge': { overrides: { verdict: 'supported' } },
  })
  server = await startT2Server(t2Config(fake))
  first = await checked(TEXT)
}, 60_000)
afterAll(async () => {
  await server.close()
  await fake.close()
})

const balance = async (): Promise<number> => (await call(server, 'GET', '/credits')).json.balance

async function checked(text: string, previousCheckId?: string): Promise<Report> {
  const res = await call(server, 'POST', '/checks', { body: { text, tiers: TIERS, previousCheckId } })
  expect(res.status, JSON.stringify(res.json)).toBe(202)
  expect((await waitForEnd(server, res.json.id, 30_000)).status).toBe('completed')
  return Report.parse((await call(server, 'GET', `/checks/${res.json.id}/report`)).json)
}

async function estimated(text: string, previousCheckId: string): Promise<Estimate> {
  const res = await call(server, 'POST', '/checks/estimate', {
    body: { text, tiers: TIERS, previousCheckId },
  })
  expect(res.status, JSON.stringify(res.json)).toBe(200)
  return Estimate.parse(res.json)
}

const toCheck = (estimate: Estimate): string[] =>
  estimate.claims.filter((claim) => claim.carriedFrom === null).map((claim) => claim.text)

describe('re-checking only what changed', () => {
  it('prices exactly the edited claim, charges that, and keeps the other claims’ votes, consensus and issues', async () => {
    expect(first.claims).toHaveLength(4)
    const edited = TEXT.replace('21,000', '9,000')
    const estimate = await estimated(edited, first.check.id)
    expect(toCheck(estimate)).toEqual([PARAGRAPHS[1]!.replace('21,000', '9,000')])
    for (const claim of estimate.claims.filter((c) => c.carriedFrom !== null))
      expect(claim.carriedFrom).toBe(first.check.id)
    expect(estimate.claimCount).toBe(4)
    expect(estimate.credits).toEqual({
      total: 1 + 4,
      unitPrices: { t1: 1, t2: 4 },
      breakdown: [
        { tier: 't1', claims: 1, unitPrice: 1, subtotal: 1 },
        { tier: 't2', claims: 1, unitPrice: 4, subtotal: 4 },
      ],
    })

    const before = await balance()
    const asked = panelRequests(fake).length
    const res = await call(server, 'POST', '/checks', {
      body: { documentId: estimate.documentId, tiers: TIERS, previousCheckId: first.check.id },
    })
    expect(res.status).toBe(202)
    expect(res.json.credits.charged).toBe(5)
    expect(await balance()).toBe(before - 5)
    expect((await waitForEnd(server, res.json.id, 30_000)).status).toBe('completed')
    // Only the edited claim went to the panel: three votes and, the panel being split, three second votes.
    expect(panelRequests(fake).length - asked).toBe(6)

    const report = Report.parse((await call(server, 'GET', `/checks/${res.json.id}/report`)).json)
    expect(report.check.progress.claimsDone).toEqual({ t1: 4, t2: 4 })
    const shift = '9,000'.length - '21,000'.length
    for (const claim of report.claims) {
      const earlier = first.claims.find((c) => c.text === claim.text)
      if (!earlier) {
        expect(claim).toMatchObject({ carriedFrom: null, text: expect.stringContaining('9,000') })
        expect(claim.consensus.t2?.verdict).toBe('supported')
        continue
      }
      expect(claim.carriedFrom).toBe(first.check.id)
      expect(claim.evaluations).toEqual(earlier.evaluations)
      expect(claim.consensus).toEqual(earlier.consensus)
      const moved = claim.charStart - earlier.charStart
      expect(claim.issues).toEqual(
        earlier.issues.map((i) => ({ ...i, charStart: i.charStart + moved, charEnd: i.charEnd + moved })),
      )
    }
    // The kept spelling issue still points at its word in the edited text, after the shorter number.
    const tower = report.claims.find((claim) => claim.text.startsWith('The Eiffel'))!
    expect(tower.issues.length).toBeGreaterThan(0)
    const water = report.claims.find((claim) => claim.text.startsWith('Water'))!
    expect(water.charStart - first.claims.find((c) => c.text.startsWith('Water'))!.charStart).toBe(shift)
    // Tokens spent are this check's own: one claim's votes and judge, not the kept ones again.
    expect(report.summary.tokens.input).toBeLessThan(first.summary.tokens.input / 2)
    expect(report.summary.tokens.input).toBeGreaterThan(0)
  }, 60_000)

  it('checks a claim again when the words next to it changed', async () => {
    const estimate = await estimated(TEXT.replace('Do you like it?', 'Do you love it?'), first.check.id)
    expect(toCheck(estimate)).toEqual(['Paris is the capital of France.', PARAGRAPHS[2]!.split('? ')[1]])
    expect(estimate.credits.total).toBe(2 * 5)
  })

  it('keeps a claim only in the tiers the earlier check decided, and an unchanged draft costs nothing', async () => {
    const t1Only = (
      await call(server, 'POST', '/checks/estimate', {
        body: { text: TEXT, tiers: ['t1', 't2', 't3'], previousCheckId: first.check.id },
      })
    ).json
    // t3 is not configured here, but the estimate quotes it: the kept tiers are free, t3 is to check for all.
    expect(t1Only.credits.breakdown.map((line: { claims: number }) => line.claims)).toEqual([0, 0, 4])

    const before = await balance()
    const again = await checked(TEXT, first.check.id)
    expect(again.check.credits.charged).toBe(0)
    expect(await balance()).toBe(before)
    expect(again.claims.every((claim) => claim.carriedFrom === first.check.id)).toBe(true)
    expect(again.summary.tokens).toEqual({ input: 0, output: 0 })
    // A re-check of a re-check keeps the verdicts of the check it names.
    const third = await estimated(TEXT, again.check.id)
    expect(third.claims.every((claim) => claim.carriedFrom === again.check.id)).toBe(true)
  }, 60_000)

  it('refuses another organization’s check exactly as an unknown one, creating and charging nothing', async () => {
    const other = await server.engine.admin.createOrganization('Other', 1000)
    const token = (await server.engine.admin.createToken('write', other.id, null)).value
    const theirs = (await call(server, 'POST', '/checks', { token, body: { text: TEXT, tiers: ['t1'] } }))
      .json
    // Completed, so that only its organization tells it apart.
    await expect
      .poll(async () => (await call(server, 'GET', `/checks/${theirs.id}`, { token })).json.status, {
        timeout: 30_000,
      })
      .toBe('completed')
    const unknown = 'chk_0000000000000000000000000'
    const before = await balance()
    const count = (await call(server, 'GET', '/checks')).json.data.length
    for (const path of ['/checks/estimate', '/checks']) {
      const answers = []
      for (const id of [theirs.id, unknown]) {
        const res = await call(server, 'POST', path, {
          body: { text: TEXT, tiers: TIERS, previousCheckId: id },
        })
        expect(res.status).toBe(422)
        const error = expectEnvelope(res.json, 'unprocessable')
        answers.push(JSON.stringify(error).replaceAll(id, 'ID'))
      }
      expect(answers[0]).toBe(answers[1])
      expect(answers[0]).not.toContain('Other')
    }
    expect(await balance()).toBe(before)
    expect((await call(server, 'GET', '/checks')).json.data).toHaveLength(count)
  }, 60_000)
})
