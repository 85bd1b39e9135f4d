import { describe, expect, it } from 'vitest'
import { ManualClock } from '../../../../../src/main/engine/base/clock'
import type { ReportEvent } from '../../../../../src/main/engine/base/events'
import { DATA_OPEN } from '../../../../../src/main/engine/tiers/t2'
import { VerdictDetail } from '../../../../../src/shared/schemas'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../../../helpers/fakeOpenAI'
import { startServer, waitForEnd, type TestServer } from '../../../../helpers/server'
import { judged, panelRequests, report, startT2Server, submitT2, t2Config } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

const CLAIM = 'The Eiffel Tower is 330 metres tall.'
/// A panelist's reasons, longer than a debate round passes on.
const BRAVO = `Bravo says it is 330 metres.${' It was measured from the ground to the tip of its antenna.'.repeat(8)}`

let fake: FakeOpenAI
let server: TestServer
closeAfterEach(() => [server, fake])

/// The data block of a request's user message.
const dataOf = (request: RecordedRequest): any => {
  const lines = request.user.split('\n')
  return JSON.parse(lines[lines.indexOf(DATA_OPEN) + 1]!)
}
/// A debate round's request: it carries the panelist's own first vote and the others' (for each claim of a
/// batch).
const isDebate = (request: RecordedRequest): boolean => {
  const data = dataOf(request)
  return 'otherVotes' in data || (data.claims ?? []).some((claim: object) => 'otherVotes' in claim)
}

/// The objects of the JSON schema a request asked for whose members include a verdict.
function verdictObjects(schema: any): any[] {
  if (typeof schema !== 'object' || schema === null) return []
  const own = schema.properties && 'verdict' in schema.properties ? [schema] : []
  return [...own, ...Object.values(schema).flatMap(verdictObjects)]
}

/// model-c says supported at first, then refuted once it has read the others' reasons.
const persuaded = (request: RecordedRequest) => ({
  rationale: isDebate(request) ? 'The others are right: it is 330 metres.' : 'I recall 300 metres.',
  confidence: 0.6,
  detail: null,
  verdict: isDebate(request) ? 'refuted' : 'supported',
})

describe('t2 reasons first, with today’s date', () => {
  it('gives every request the date of the engine’s clock and asks for the verdict last', async () => {
    // Three verdicts, kept through the debate: no majority, so the judge decides.
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'refuted' } },
      'model-b': { overrides: { verdict: 'misleading' } },
      'model-judge': { overrides: { verdict: 'refuted' } },
    })
    // The clock is years away from the machine's: the date can only come from the engine's clock.
    const clock = new ManualClock(new Date('2031-03-14T23:59:00.000Z'))
    server = await startServer({ config: t2Config(fake, ['a', 'b', 'c'], { batchSize: 2 }), clock })
    const check = await submitT2(server, `${CLAIM} Paris is the capital of France.`)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    // Votes (batched), a debate round and the judge were all asked.
    expect(fake.requests.some((r) => r.body.response_format.json_schema.name === 'votes')).toBe(true)
    expect(panelRequests(fake).some(isDebate)).toBe(true)
    expect(judged(fake).length).toBeGreaterThan(0)
    for (const request of fake.requests) {
      expect(request.system).toContain('Today is 2031-03-14:')
      // No provider reads the schema's dialect address; no request pays for it.
      expect(request.body.response_format.json_schema.schema).not.toHaveProperty('$schema')
      // The resolver rewrites claims as statements (its date resolves "last year"); it gives no verdict.
      if (request.body.response_format.json_schema.name === 'statements') continue
      expect(request.system).toMatch(/training data is unverifiable, no_evidence/)
      const objects = verdictObjects(request.body.response_format.json_schema.schema)
      expect(objects.length).toBeGreaterThan(0)
      for (const object of objects) {
        expect(Object.keys(object.properties).at(-1)).toBe('verdict')
        // A nullable enum in as few tokens as say it: one schema with null among its values, no anyOf.
        expect(object.properties.detail).toEqual({
          type: ['string', 'null'],
          enum: [...VerdictDetail.options, null],
        })
      }
    }
  })
})

describe('the panel decides when it agrees, and talks when it does not', () => {
  it('a unanimous panel decides without the judge', async () => {
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'misleading', detail: 'missing_context', confidence: 0.9 } },
      'model-b': { overrides: { verdict: 'misleading', detail: 'missing_context', confidence: 0.6 } },
      'model-c': { overrides: { verdict: 'misleading', detail: 'partly_true', confidence: 0.6 } },
    })
    server = await startT2Server(t2Config(fake))
    const check = await submitT2(server, CLAIM)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    expect(judged(fake)).toHaveLength(0)
    expect(panelRequests(fake)).toHaveLength(3)
    const [claim] = (await report(server, check.id)).claims
    expect(claim!.consensus.t2).toMatchObject({
      verdict: 'misleading',
      decidedBy: 'panel',
      agreement: 1,
      confidence: 0.7,
      detail: 'missing_context',
      sourced: false,
      correction: null,
    })
    expect(claim!.consensus.t2!.reasoning).toContain('recalls the facts')
    expect(claim!.evaluations.map((e) => e.round)).toEqual([1, 1, 1])
  })

  it('a split panel debates one round, anonymised; agreeing after it, it decides without the judge', async () => {
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'refuted', rationale: 'Alpha says it is 330 metres.' } },
      'model-b': { overrides: { verdict: 'refuted', rationale: BRAVO } },
      'model-c': { answer: persuaded },
      'model-judge': { overrides: { verdict: 'refuted', detail: null, confidence: 0.9 } },
    })
    server = await startT2Server(t2Config(fake))
    const events: ReportEvent[] = []
    server.engine.events.subscribe((event) => events.push(event))
    const check = await submitT2(server, CLAIM)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')

    // Each panel model was asked twice: its vote, then again with its own vote and the two others'.
    for (const model of ['model-a', 'model-b', 'model-c']) {
      const [vote, again] = fake.of(model)
      expect(fake.of(model)).toHaveLength(2)
      expect(isDebate(vote!)).toBe(false)
      const { yourVote, otherVotes } = dataOf(again!)
      expect(yourVote.verdict).toBe(model === 'model-c' ? 'supported' : 'refuted')
      expect(otherVotes).toHaveLength(2)
      expect(JSON.stringify(otherVotes)).not.toMatch(/model-|panel-/)
    }
    // Their reasons, a long one trimmed, and their verdicts: not their whole answers.
    expect(dataOf(fake.of('model-a')[1]!).otherVotes).toEqual([
      { panelist: 1, rationale: `${BRAVO.slice(0, 400)}…`, verdict: 'refuted' },
      { panelist: 2, rationale: 'I recall 300 metres.', verdict: 'supported' },
    ])
    expect(dataOf(fake.of('model-b')[1]!).yourVote).toEqual({
      rationale: `${BRAVO.slice(0, 400)}…`,
      verdict: 'refuted',
    })
    // The debate ended unanimous (model-c's second vote): the judge was not asked.
    expect(judged(fake)).toHaveLength(0)

    const [claim] = (await report(server, check.id)).claims
    const rounds = claim!.evaluations.map((e) => `${e.model} ${e.round} ${e.verdict}`).sort()
    expect(rounds).toEqual([
      'panel-a 1 refuted',
      'panel-a 2 refuted',
      'panel-b 1 refuted',
      'panel-b 2 refuted',
      'panel-c 1 supported',
      'panel-c 2 refuted',
    ])
    // Agreement is computed on the final round.
    expect(claim!.consensus.t2).toMatchObject({
      verdict: 'refuted',
      decidedBy: 'panel',
      agreement: 1,
      fallbacks: [],
    })
    expect(claim!.consensus.t2!.reasoning).toMatch(/^The 3 panelists agreed after their debate\. Alpha says/)
    // The second round's votes were pushed before the consensus.
    const mine = events.flatMap((e) =>
      e.type === 'claim' ? [e.consensus ? 'consensus' : `vote ${e.evaluation?.round}`] : [],
    )
    expect(mine).toEqual(['vote 1', 'vote 1', 'vote 1', 'vote 2', 'vote 2', 'vote 2', 'consensus'])
  })

  it('after the debate a clear majority decides without the judge, the dissent in its reasons', async () => {
    fake = await startFakeOpenAI({
      'model-a': {
        overrides: { verdict: 'refuted', confidence: 0.9, rationale: 'Alpha says it is 330 metres.' },
      },
      'model-b': { overrides: { verdict: 'refuted', confidence: 0.7, rationale: 'Bravo says 330 metres.' } },
      'model-c': { overrides: { verdict: 'supported', rationale: 'I recall 300 metres.' } },
    })
    server = await startT2Server(t2Config(fake))
    const check = await submitT2(server, CLAIM)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    // The panel split, so it debated; the dissent kept its vote, and two of three decided.
    expect(panelRequests(fake).filter(isDebate)).toHaveLength(3)
    expect(judged(fake)).toHaveLength(0)
    const [claim] = (await report(server, check.id)).claims
    expect(claim!.consensus.t2).toMatchObject({
      verdict: 'refuted',
      decidedBy: 'majority',
      agreement: 0.67,
      confidence: 0.8,
      correction: null,
      fallbacks: [],
    })
    expect(claim!.consensus.t2!.reasoning).toBe(
      '2 of the 3 panelists found it refuted. Alpha says it is 330 metres. Bravo says 330 metres. ' +
        'Dissent: (supported) I recall 300 metres.',
    )
  })

  it('with models.majority 1 a 2–1 split goes to the judge; a judge that cannot answer usably leaves it to the majority, labelled', async () => {
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'refuted' } },
      'model-b': { overrides: { verdict: 'refuted' } },
      'model-c': { overrides: { verdict: 'supported' } },
      'model-judge': { answer: () => 'The majority looks right to me.' },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b', 'c'], { majority: 1 }))
    const check = await submitT2(server, CLAIM)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    // Asked, then asked again with what was wrong.
    expect(judged(fake)).toHaveLength(2)
    expect(judged(fake)[1]!.user).toContain('Your answer could not be used: it is not JSON')
    const [claim] = (await report(server, check.id)).claims
    expect(claim!.consensus.t2).toMatchObject({
      verdict: 'refuted',
      decidedBy: 'majority',
      agreement: 0.67,
      fallbacks: ['judge_unusable'],
    })
    expect(claim!.consensus.t2!.reasoning).toMatch(
      /^The judge’s answer could not be used\. 2 of the 3 panelists/,
    )
  })

  it('a tie whose judge cannot answer usably is not decided: the claim-tier fails and is refunded', async () => {
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'refuted' } },
      'model-b': { overrides: { verdict: 'supported' } },
      'model-judge': { answer: () => 'It is hard to say.' },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b']))
    const check = await submitT2(server, CLAIM)
    const end = await waitForEnd(server, check.id)
    expect(end.status).toBe('failed')
    expect(end.credits.refunded).toBe(end.credits.charged)
    // Each of the runner's three attempts asked the judge twice.
    expect(judged(fake)).toHaveLength(6)
  })

  it('records the debate once when the judge fails after it and the unit runs again', async () => {
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'refuted' } },
      'model-judge': { failures: [{ status: 500 }], overrides: { verdict: 'refuted' } },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b'], { maxRetries: 0 }))
    const check = await submitT2(server, CLAIM)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    // Two attempts at the judge unit, each with its own debate; the first recorded nothing.
    expect(judged(fake).map((r) => r.outcome)).toEqual([500, 200])
    expect(panelRequests(fake).filter(isDebate)).toHaveLength(4)
    const [claim] = (await report(server, check.id)).claims
    expect(claim!.evaluations.filter((e) => e.round === 2)).toHaveLength(2)
  })

  it('keeps a detail only where it fits the verdict', async () => {
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'supported', detail: 'partly_true' } },
      'model-b': { overrides: { verdict: 'unverifiable', detail: 'no_evidence' } },
      'model-judge': { overrides: { verdict: 'unverifiable', detail: 'missing_context' } },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b']))
    const check = await submitT2(server, CLAIM)
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    const [claim] = (await report(server, check.id)).claims
    const details = Object.fromEntries(
      claim!.evaluations.filter((e) => e.round === 1).map((e) => [e.model, e.detail]),
    )
    expect(details).toEqual({ 'panel-a': null, 'panel-b': 'no_evidence' })
    expect(claim!.consensus.t2).toMatchObject({ verdict: 'unverifiable', detail: null, decidedBy: 'judge' })
  })
})
