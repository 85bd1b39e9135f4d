import { describe, expect, it } from 'vitest'
import {
  claimsToResolve,
  startFakeOpenAI,
  type FakeOpenAI,
  type RecordedRequest,
} from '../../../../helpers/fakeOpenAI'
import { waitForEnd, type TestServer } from '../../../../helpers/server'
import { panelRequests, report, startT2Server, submitT2, t2Config, tokensOf } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

const CRATES = Array.from({ length: 8 }, (_, i) => `Crate ${i + 1} weighs ${i + 10} kilograms.`).join(' ')

let fake: FakeOpenAI
let server: TestServer
closeAfterEach(() => [server, fake])

/// The claims a panel request carried, in order.
const claimsOf = (request: RecordedRequest): string[] => {
  const data = JSON.parse(request.user.split('\n').at(-2)!)
  return data.claims ? data.claims.map((c: { claim: string }) => c.claim) : [data.claim]
}

/// A panelist that refutes odd-numbered crates and supports the others, under each claim's key.
const byCrate = (request: RecordedRequest) => {
  const data = JSON.parse(request.user.split('\n').at(-2)!)
  const vote = (claim: string) => ({
    rationale: `About ${claim}`,
    confidence: 0.7,
    detail: null,
    verdict: Number(/Crate (\d+)/.exec(claim)![1]) % 2 === 1 ? 'refuted' : 'supported',
  })
  return Object.fromEntries(data.claims.map((c: { key: string; claim: string }) => [c.key, vote(c.claim)]))
}

describe('batching t2 votes', () => {
  it('sends up to batchSize claims of a check to a model in one request and gives each claim its own vote', async () => {
    fake = await startFakeOpenAI({ 'model-a': { answer: byCrate }, 'model-b': { answer: byCrate } })
    server = await startT2Server(t2Config(fake, ['a', 'b'], { batchSize: 4, batchWindowMs: 2_000 }))
    const check = await submitT2(server, CRATES)
    expect(check.claimCount).toBe(8)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')

    // Two requests of four claims per model, each with the batch schema.
    for (const model of ['model-a', 'model-b']) {
      const requests = fake.of(model)
      expect(requests.map((r) => claimsOf(r).length)).toEqual([4, 4])
      const schema = requests[0]!.body.response_format.json_schema.schema
      expect(Object.keys(schema.properties)).toEqual(['claim_1', 'claim_2', 'claim_3', 'claim_4'])
      // The vote's schema is defined once and referred to under each key, not repeated per claim.
      const [name, vote] = Object.entries<any>(schema.$defs)[0]!
      expect(Object.keys(vote.properties)).toEqual(['rationale', 'confidence', 'detail', 'verdict'])
      for (const key of Object.keys(schema.properties))
        expect(schema.properties[key]).toEqual({ $ref: `#/$defs/${name}` })
      expect(requests.flatMap(claimsOf).sort()).toEqual(
        (await report(server, check.id)).claims.map((c) => c.text).sort(),
      )
    }

    const result = await report(server, check.id)
    for (const claim of result.claims) {
      expect(claim.evaluations).toHaveLength(2)
      const odd = Number(/Crate (\d+)/.exec(claim.text)![1]) % 2 === 1
      for (const vote of claim.evaluations) {
        expect(vote).toMatchObject({
          verdict: odd ? 'refuted' : 'supported',
          rationale: `About ${claim.text}`,
        })
      }
    }
    // The shares of each request's tokens add up to what the fake reported.
    const votes = result.claims.flatMap((c) => c.evaluations)
    expect(votes.reduce((sum, v) => sum + v.usage!.inputTokens, 0)).toBe(tokensOf(panelRequests(fake)).input)
    expect(votes.reduce((sum, v) => sum + v.usage!.outputTokens, 0)).toBe(
      tokensOf(panelRequests(fake)).output,
    )
  })

  it('the debate rounds of claims split in one batch go in one request per model, then the majority decides each', async () => {
    // model-c refutes odd-numbered crates, the others support every crate: crates 1 and 3 split.
    const supports = (request: RecordedRequest) => {
      const data = JSON.parse(request.user.split('\n').at(-2)!)
      const vote = { rationale: 'It says so.', confidence: 0.7, detail: null, verdict: 'supported' }
      return Object.fromEntries(data.claims.map((c: { key: string }) => [c.key, vote]))
    }
    fake = await startFakeOpenAI({
      'model-a': { answer: supports },
      'model-b': { answer: supports },
      'model-c': { answer: byCrate },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b', 'c'], { batchSize: 4, batchWindowMs: 1_000 }))
    const check = await submitT2(server, CRATES.split('. ').slice(0, 4).join('. '))
    expect(check.claimCount).toBe(4)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')

    for (const model of ['model-a', 'model-b', 'model-c']) {
      // The first votes on the four crates, then the second votes on the two split ones, each in one request.
      const [first, again, ...more] = fake.of(model)
      expect(more).toEqual([])
      expect(claimsOf(first!)).toHaveLength(4)
      const debated = JSON.parse(again!.user.split('\n').at(-2)!).claims
      expect(debated.map((c: { claim: string }) => c.claim).sort()).toEqual([
        'Crate 1 weighs 10 kilograms.',
        'Crate 3 weighs 12 kilograms.',
      ])
      for (const claim of debated) {
        expect(claim.yourVote.verdict).toBe(model === 'model-c' ? 'refuted' : 'supported')
        expect(claim.otherVotes).toHaveLength(2)
      }
    }
    // Each split claim is decided on its own final votes: two of three, without the judge.
    expect(fake.of('model-judge').filter((r) => !claimsToResolve(r))).toHaveLength(0)
    const result = await report(server, check.id)
    const rounds = result.claims.map((c) => c.evaluations.filter((e) => e.round === 2).length).sort()
    expect(rounds).toEqual([0, 0, 3, 3])
    expect(result.claims.map((c) => c.consensus.t2!.decidedBy).sort()).toEqual([
      'majority',
      'majority',
      'panel',
      'panel',
    ])
  })

  it('a batch that fails is retried, and its claims still get their votes', async () => {
    fake = await startFakeOpenAI({ 'model-a': { failures: [{ status: 500 }, { status: 500 }] } })
    server = await startT2Server(t2Config(fake, ['a'], { batchSize: 8, batchWindowMs: 2_000, maxRetries: 0 }))
    const check = await submitT2(server, CRATES)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    const result = await report(server, check.id)
    expect(result.claims.every((c) => c.evaluations.length === 1 && c.consensus.t2)).toBe(true)
    expect(fake.of('model-a').map((r) => r.outcome)).toEqual([500, 500, 200])
    expect(claimsOf(fake.of('model-a')[2]!)).toHaveLength(8)
  })
})
