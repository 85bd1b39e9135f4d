import { describe, expect, it } from 'vitest'
import type { ReportEvent } from '../../../../../src/main/engine/base/events'
import { startFakeOpenAI, type FakeOpenAI } from '../../../../helpers/fakeOpenAI'
import { call, type TestServer, THREE_CLAIMS, waitForEnd } from '../../../../helpers/server'
import { judged, panelRequests, report, startT2Server, submitT2, t2Config, tokensOf } from './setup'
import { closeAfterEach } from '../../../../helpers/teardown'

let fake: FakeOpenAI
let server: TestServer
closeAfterEach(() => [server, fake])

/// The panelists say refuted, misleading and supported, and keep their votes through the debate: no majority;
/// the judge decides refuted and suggests a correction.
const split = () => ({
  'model-a': { overrides: { verdict: 'refuted', confidence: 0.9 } },
  'model-b': { overrides: { verdict: 'misleading' } },
  'model-c': { overrides: { verdict: 'supported' } },
  'model-judge': { overrides: { verdict: 'refuted', correction: '  The tower is 330 metres tall.  ' } },
})

describe('t2 with a three-model panel', () => {
  it('completes with three evaluations and one consensus per claim, and sums the tokens in the summary', async () => {
    fake = await startFakeOpenAI(split())
    server = await startT2Server(t2Config(fake))
    const events: ReportEvent[] = []
    server.engine.events.subscribe((event) => events.push(event))

    const estimate = await call(server, 'POST', '/checks/estimate', {
      body: { text: THREE_CLAIMS, tiers: ['t2'] },
    })
    expect(estimate.status).toBe(200)
    const check = await submitT2(server, THREE_CLAIMS)
    expect(check.credits.charged).toBe(estimate.json.credits.total)
    const end = await waitForEnd(server, check.id)
    expect(end.status).toBe('completed')
    expect(end.credits.refunded).toBe(0)
    expect(end.progress.claimsDone.t2).toBe(check.claimCount)

    const result = await report(server, check.id)
    expect(result.claims.length).toBeGreaterThanOrEqual(2)
    for (const claim of result.claims) {
      // Each model's vote, and its second one after the split panel's debate round.
      expect(claim.evaluations.map((e) => `${e.model} ${e.round}`).sort()).toEqual([
        'panel-a 1',
        'panel-a 2',
        'panel-b 1',
        'panel-b 2',
        'panel-c 1',
        'panel-c 2',
      ])
      for (const evaluation of claim.evaluations) {
        expect(evaluation).toMatchObject({ tier: 't2', cached: false, citations: [] })
        expect(evaluation.usage!.inputTokens).toBeGreaterThan(0)
        expect(evaluation.rationale.length).toBeGreaterThan(0)
      }
      expect(claim.evaluations.find((e) => e.model === 'panel-a')).toMatchObject({
        verdict: 'refuted',
        confidence: 0.9,
      })
      expect(claim.consensus.t2).toMatchObject({
        verdict: 'refuted',
        confidence: 0.8,
        agreement: 0.33,
        decidedBy: 'judge',
        // The judge's suggestion, trimmed and marked as unverified; the same words keep none of the water
        // claim's, so they are no correction of it and it gets none.
        correction: claim.text.startsWith('Water') ? null : '(unverified) The tower is 330 metres tall.',
        citations: [],
      })
      expect(claim.consensus.t2!.reasoning).toMatch(/judge/)
    }
    expect(result.summary.done).toEqual({ t2: result.claims.length })
    expect(result.summary.verdicts).toEqual({ refuted: result.claims.length })

    // Two requests per claim and panel model (the vote and the debate round's), one judge per claim; the
    // summary adds up exactly what the fake reported, votes and judges alike.
    expect(panelRequests(fake)).toHaveLength(6 * result.claims.length)
    expect(judged(fake)).toHaveLength(result.claims.length)
    expect(result.summary.tokens).toEqual(tokensOf(fake.requests))
    const perVote = result.claims.flatMap((c) => c.evaluations).map((e) => e.usage!)
    expect(perVote.reduce((sum, u) => sum + u.inputTokens, 0)).toBe(tokensOf(panelRequests(fake)).input)

    // Votes were emitted one by one, each claim's consensus after its three votes and their second round.
    for (const claim of result.claims) {
      const mine = events.filter((e) => e.type === 'claim' && e.claimId === claim.claimId)
      expect(mine.map((e) => (e.type === 'claim' && e.consensus ? 'consensus' : 'vote'))).toEqual([
        'vote',
        'vote',
        'vote',
        'vote',
        'vote',
        'vote',
        'consensus',
      ])
    }

    // Each consensus moved the check's progress as it landed, the last one with the ending.
    const progress = events.flatMap((e) =>
      e.type === 'check' && e.check.id === check.id
        ? [`${e.check.status} ${e.check.progress.claimsDone.t2}`]
        : [],
    )
    const count = result.claims.length
    expect(progress).toEqual([
      'queued 0',
      'running 0',
      ...Array.from({ length: count - 1 }, (_, done) => `running ${done + 1}`),
      `completed ${count}`,
    ])

    // The judge read the claim and the three votes, anonymised.
    const judgeData = JSON.parse(judged(fake)[0]!.user.split('\n')[2]!)
    expect(judgeData.votes.map((v: any) => v.verdict).sort()).toEqual(['misleading', 'refuted', 'supported'])
    expect(JSON.stringify(judgeData)).not.toContain('panel-a')
  })

  it('shows the votes in the report before the consensus while a slow model is still voting', async () => {
    fake = await startFakeOpenAI({
      ...split(),
      'model-c': { latencyMs: 700, overrides: { verdict: 'supported' } },
    })
    server = await startT2Server(t2Config(fake))
    const check = await submitT2(server, 'The Eiffel Tower is 330 metres tall.')
    const seen = new Set<string>()
    for (;;) {
      const { claims, check: now } = await report(server, check.id)
      const [claim] = claims
      const stage =
        claim!.consensus.t2 !== undefined
          ? 'consensus'
          : claim!.evaluations.length > 0
            ? `votes:${claim!.evaluations.map((e) => e.model).join(',')}`
            : 'none'
      seen.add(stage)
      if (now.status === 'completed') break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    // The fast models' votes were visible, without the slow one's and without a consensus.
    expect([...seen]).toContain('votes:panel-a,panel-b')
    expect([...seen].at(-1)).toBe('consensus')
    const final = await report(server, check.id)
    expect(final.claims[0]!.evaluations.filter((e) => e.round === 1)).toHaveLength(3)
  })

  it('reaches a consensus from the other two when one panel model keeps failing', async () => {
    fake = await startFakeOpenAI({
      ...split(),
      'model-b': { overrides: { verdict: 'refuted' } },
      'model-c': { alwaysFail: { status: 500 } },
    })
    server = await startT2Server(t2Config(fake, ['a', 'b', 'c'], { maxRetries: 1 }))
    const check = await submitT2(server, THREE_CLAIMS)
    const end = await waitForEnd(server, check.id)
    expect(end).toMatchObject({ status: 'completed', error: null, credits: { refunded: 0 } })
    const result = await report(server, check.id)
    for (const claim of result.claims) {
      expect(claim.evaluations.map((e) => e.model).sort()).toEqual(['panel-a', 'panel-b'])
      // Both votes that were cast agree: the panel decides without the judge.
      expect(claim.consensus.t2).toMatchObject({ verdict: 'refuted', agreement: 1, decidedBy: 'panel' })
    }
    // Each unit of the failing model: 3 runner attempts × (1 request + 1 retry), all 500.
    expect(fake.of('model-c')).toHaveLength(result.claims.length * 3 * 2)
    expect(fake.of('model-c').every((r) => r.outcome === 500)).toBe(true)
    expect(judged(fake)).toHaveLength(0)
  })

  it('fails and refunds a claim-tier when every panel model fails, and asks no judge', async () => {
    fake = await startFakeOpenAI({ '*': { alwaysFail: { status: 503 } }, 'model-resolver': {} })
    server = await startT2Server(t2Config(fake, ['a', 'b'], { maxRetries: 0 }))
    const check = await submitT2(server, 'The Eiffel Tower is 330 metres tall.')
    const end = await waitForEnd(server, check.id)
    expect(end.status).toBe('failed')
    expect(end.error.message).toMatch(/model-[ab]\): HTTP 503/)
    expect(end.credits).toEqual({ charged: 4, refunded: 4 })
    expect(judged(fake)).toHaveLength(0)
    expect((await call(server, 'GET', '/credits')).json.balance).toBe(1000)
  })

  it('gives a single-model panel a judge step too', async () => {
    fake = await startFakeOpenAI({
      'model-a': { overrides: { verdict: 'supported' } },
      'model-judge': { overrides: { verdict: 'unverifiable', correction: 'ignored' } },
    })
    server = await startT2Server(t2Config(fake, ['a']))
    const check = await submitT2(server, 'The Eiffel Tower is 330 metres tall.')
    expect((await waitForEnd(server, check.id)).status).toBe('completed')
    const [claim] = (await report(server, check.id)).claims
    expect(claim!.evaluations).toHaveLength(1)
    // The judge may overrule a lone panelist; no correction outside refuted and misleading.
    expect(claim!.consensus.t2).toMatchObject({ verdict: 'unverifiable', agreement: 0, correction: null })
    expect(judged(fake)).toHaveLength(1)
  })
})
