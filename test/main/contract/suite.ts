import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ReportUpdate } from '../../../src/shared/api'
import type { ConfigInput } from '../../../src/shared/config'
import { ApiError } from '../../../src/shared/errors'
import { Check, Report, Research, type ErrorCode } from '../../../src/shared/schemas'
import { hasEnded } from '../../../src/shared/vocabulary'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../helpers/fakeOpenAI'
import { FakeWiki } from '../../helpers/fakeWiki'
import { data, schemaName } from '../engine/research/setup'
import { t2Config } from '../engine/tiers/t2/setup'
import type { Subject } from './subjects'

// The contract of the editor's operations that the specification's REST API offers, run against each way the
// app can reach a service: the embedded engine and a remote `factdesk serve`. Models and search are fakes on
// 127.0.0.1; t3 is priced out of reach so that a short balance can be asked for.

const TEXT = 'The Eiffel Tower is 330 metres tall. It was completed in 1889 for the World Fair in Paris.'
export const OTTAWA = ['Ottawa is the capital city of Canada. It lies in the province of Ontario.']

/// The steps a run with a panel of two names as they end (one vote step per panel model).
export const RESEARCH_STEPS = [
  'plan',
  'search-support',
  'search-contradiction',
  'map',
  'votes',
  'votes',
  'verdict',
]

/// The steps named in `updates`, in order.
export const researchSteps = (updates: ReportUpdate[]): string[] =>
  updates.flatMap((u) => (u.type === 'research' && u.step ? [u.step] : []))

/// Every answer a model is asked for: panel votes and the judge's decision (t2), and the steps of deep
/// research, which cite the first sentence of the first passage they are given.
export function answer(request: RecordedRequest): unknown {
  switch (schemaName(request)) {
    case 'vote':
      return { rationale: 'It matches the record.', confidence: 0.8, detail: null, verdict: 'supported' }
    case 'decision':
      return {
        reasoning: 'The panel agrees.',
        correction: null,
        confidence: 0.8,
        detail: null,
        verdict: 'supported',
      }
    case 'relevant_passages':
      return { passages: ['P1'] }
    case 'research_plan':
      return { subQuestions: ['Which city?'], supportQueries: ['Ottawa'], contradictionQueries: ['Toronto'] }
    case 'argument_map': {
      const [passage] = data(request).passages as Array<{ id: string; text: string }>
      const quote = passage?.text.split('. ')[0] ?? ''
      return {
        arguments: [
          { kind: 'proof', text: 'The wiki says so.', citations: [{ passage: passage?.id, quote }] },
        ],
      }
    }
    case 'stances':
      return {
        stances: (data(request).quotes as Array<{ id: string }>).map((quote) => ({
          quote: quote.id,
          reasoning: 'It says so.',
          stance: 'supports',
        })),
      }
    case 'map_vote':
      return { verdict: 'supported', detail: null, confidence: 0.9, rationale: 'The proof is sourced.' }
    case 'research_finding':
      return { verdict: 'supported', detail: null, confidence: 0.85, summary: 'Ottawa is the capital.' }
    default:
      throw new Error(`unexpected request ${schemaName(request)}`)
  }
}

/// The `ApiError` a call rejects with.
async function refusal(pending: Promise<unknown>): Promise<ApiError> {
  const error = await pending.then(
    () => null,
    (reason: unknown) => reason,
  )
  if (!(error instanceof ApiError)) throw new Error(`expected an ApiError, got ${String(error)}`)
  return error
}

const expectRefused = async (pending: Promise<unknown>, code: ErrorCode): Promise<void> => {
  const error = await refusal(pending)
  expect(error.code, error.message).toBe(code)
  expect(error.message.length).toBeGreaterThan(0)
}

/// Registers the contract tests against the subject `open` makes from a configuration.
export function contractSuite(name: string, open: (config: ConfigInput) => Promise<Subject>): void {
  describe(`the service contract (${name})`, () => {
    let models: FakeOpenAI
    let wiki: FakeWiki
    let subject: Subject

    beforeAll(async () => {
      models = await startFakeOpenAI({ '*': { answer } })
      wiki = await new FakeWiki().start()
      wiki.article('Ottawa', OTTAWA)
      wiki.search = () => [{ title: 'Ottawa' }]
      subject = await open({
        ...t2Config(models, ['a', 'b']),
        search: { provider: 'wikipedia', baseURL: wiki.apiUrl },
        web: { allowLocalTargets: true },
        pricing: { t1: 1, t2: 4, t3: 600, research: 40 },
      })
    }, 60_000)

    afterAll(async () => {
      await subject?.close()
      await models?.close()
      await wiki?.close()
    })

    const balance = async (): Promise<number> => (await subject.ops.credits()).balance

    async function ended(checkId: string): Promise<Check> {
      for (;;) {
        const check = await subject.ops.getCheck(checkId)
        if (hasEnded(check)) return check
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }

    it('me and credits: the organization, a write token, the balance and the prices', async () => {
      const me = await subject.ops.me()
      expect(me.organization.id).toMatch(/^org_/)
      expect(me.token.scope).toBe('write')
      expect(await subject.ops.credits()).toEqual({
        balance: 1000,
        prices: { t1: 1, t2: 4, t3: 600, research: 40 },
      })
    })

    it('estimate: the claims with their offsets and the price, charging nothing', async () => {
      const before = await balance()
      const estimate = await subject.ops.estimate({ text: TEXT, tiers: ['t1', 't2'] })
      expect(estimate.claimCount).toBe(estimate.claims.length)
      expect(estimate.claimCount).toBeGreaterThan(0)
      for (const claim of estimate.claims) expect(TEXT.slice(claim.charStart, claim.charEnd)).toBe(claim.text)
      expect(estimate.credits.total).toBe(estimate.claimCount * 5)
      expect(estimate).toMatchObject({ balance: before, sufficient: true })
      expect(await balance()).toBe(before)
    })

    it('submit an estimate: charged once, t1 runs to completion, the report has each claim’s consensus', async () => {
      const before = await balance()
      const estimate = await subject.ops.estimate({ text: TEXT, tiers: ['t1'] })
      const check = await subject.ops.submit({
        documentId: estimate.documentId,
        tiers: ['t1'],
        name: 'Eiffel',
      })
      expect(check).toMatchObject({ documentId: estimate.documentId, name: 'Eiffel', tiers: ['t1'] })
      expect(check.credits.charged).toBe(estimate.credits.total)
      expect((await ended(check.id)).status).toBe('completed')
      const report = Report.parse(await subject.ops.report(check.id))
      expect(report.text).toBe(TEXT)
      expect(report.claims.map((claim) => claim.claimId)).toEqual(
        estimate.claims.map((claim) => claim.claimId),
      )
      for (const claim of report.claims) expect(claim.consensus.t1).toBeDefined()
      expect(await balance()).toBe(before - estimate.credits.total)
    })

    it('t2: every panel model votes and the agreeing panel decides; the updates end with the check completed', async () => {
      const updates: ReportUpdate[] = []
      const stop = subject.subscribe((update) => updates.push(update))
      const check = await subject.ops.submit({ text: TEXT, tiers: ['t2'] })
      await ended(check.id)
      const report = await subject.ops.report(check.id)
      while (!updates.some((u) => u.type === 'check' && u.check.id === check.id && hasEnded(u.check))) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      stop()
      expect(report.check.status).toBe('completed')
      for (const claim of report.claims) {
        expect(claim.evaluations.map((vote) => vote.model).sort()).toEqual(['panel-a', 'panel-b'])
        expect(claim.consensus.t2).toMatchObject({ verdict: 'supported', decidedBy: 'panel' })
      }
      // The updates carry every vote and consensus of the report, and the check's end comes last.
      const mine = updates.filter(
        (u) => (u.type === 'check' ? u.check.id : u.type === 'claim' && u.checkId) === check.id,
      )
      const votes = mine.flatMap((u) =>
        u.type === 'claim' && u.evaluation ? [`${u.claimId} ${u.evaluation.model}`] : [],
      )
      const expected = report.claims.flatMap((claim) =>
        claim.evaluations.map((e) => `${claim.claimId} ${e.model}`),
      )
      expect(votes.sort()).toEqual(expected.sort())
      const decided = mine.flatMap((u) => (u.type === 'claim' && u.consensus ? [u.claimId] : []))
      expect(decided.sort()).toEqual(report.claims.map((claim) => claim.claimId).sort())
      expect(mine.at(-1)).toMatchObject({ type: 'check', check: { id: check.id, status: 'completed' } })
    })

    it('two submissions of the same text are two checks, each charged', async () => {
      const before = await balance()
      const first = await subject.ops.submit({ text: TEXT, tiers: ['t1'] })
      const second = await subject.ops.submit({ text: TEXT, tiers: ['t1'] })
      expect(second.id).not.toBe(first.id)
      await Promise.all([ended(first.id), ended(second.id)])
      expect(await balance()).toBe(before - first.credits.charged - second.credits.charged)
    })

    it('list: the checks newest first, paged by cursor', async () => {
      const made = [
        await subject.ops.submit({ text: TEXT, tiers: ['t1'], name: 'one' }),
        await subject.ops.submit({ text: TEXT, tiers: ['t1'], name: 'two' }),
      ]
      const page = await subject.ops.listChecks({ limit: 1 })
      expect(page.data.map((check) => check.id)).toEqual([made[1]?.id])
      expect(page.nextCursor).not.toBeNull()
      const next = await subject.ops.listChecks({ limit: 1, cursor: page.nextCursor ?? undefined })
      expect(next.data.map((check) => check.id)).toEqual([made[0]?.id])
      await Promise.all(made.map((check) => ended(check.id)))
    })

    it('patch: name, author and source URL; a source URL that is not http(s) is 422', async () => {
      const check = await subject.ops.submit({ text: TEXT, tiers: ['t1'] })
      const patched = await subject.ops.patch(check.id, {
        name: 'Tower',
        author: 'Ada',
        sourceUrl: 'https://example.org/tower',
      })
      expect(patched).toMatchObject({
        id: check.id,
        name: 'Tower',
        author: 'Ada',
        sourceUrl: 'https://example.org/tower',
      })
      expect(await subject.ops.getCheck(check.id)).toMatchObject({ name: 'Tower', author: 'Ada' })
      await expectRefused(subject.ops.patch(check.id, { sourceUrl: 'ftp://example.org' }), 'unprocessable')
      await ended(check.id)
    })

    it('cancel: a running check stops and is refunded in full; cancelling a completed one is 422', async () => {
      const before = await balance()
      // Models that never answer, and a text no vote is cached for: the check is still running when cancelled.
      models.behave('*', { alwaysFail: { hang: true } })
      try {
        const check = await subject.ops.submit({
          text: 'The Golden Gate Bridge opened in 1937.',
          tiers: ['t2'],
        })
        expect(await balance()).toBe(before - check.credits.charged)
        const cancelled = await subject.ops.cancel(check.id)
        expect(cancelled.status).toBe('cancelled')
        expect(cancelled.credits.refunded).toBe(check.credits.charged)
        expect(await balance()).toBe(before)
      } finally {
        models.behave('*', { answer })
      }
      const done = await subject.ops.submit({ text: TEXT, tiers: ['t1'] })
      await ended(done.id)
      await expectRefused(subject.ops.cancel(done.id), 'unprocessable')
    })

    it('errors: 404 for a check of no one, 422 for an empty text, 402 and no check for a short balance', async () => {
      await expectRefused(subject.ops.getCheck('chk_nope'), 'not_found')
      await expectRefused(subject.ops.report('chk_nope'), 'not_found')
      await expectRefused(subject.ops.estimate({ text: '   ', tiers: ['t1'] }), 'unprocessable')
      await expectRefused(subject.ops.submit({ documentId: 'doc_nope', tiers: ['t1'] }), 'not_found')
      const estimate = await subject.ops.estimate({ text: TEXT, tiers: ['t3'] })
      expect(estimate.sufficient).toBe(false)
      const [newest] = (await subject.ops.listChecks({ limit: 1 })).data
      const before = await balance()
      await expectRefused(
        subject.ops.submit({ documentId: estimate.documentId, tiers: ['t3'] }),
        'insufficient_credits',
      )
      expect(await balance()).toBe(before)
      expect((await subject.ops.listChecks({ limit: 1 })).data[0]?.id).toBe(newest?.id)
    })

    it('research: charged the flat price on acceptance; completes with a sourced finding, and says so', async () => {
      const before = await balance()
      const updates: ReportUpdate[] = []
      const stop = subject.subscribe((update) => updates.push(update))
      const accepted = await subject.ops.research({ text: 'Ottawa is the capital of Canada.' })
      expect(accepted).toMatchObject({ status: 'queued', credits: { charged: 40, refunded: 0 } })
      expect(await balance()).toBe(before - 40)
      let research = accepted
      while (research.status !== 'completed' && research.status !== 'failed') {
        await new Promise((resolve) => setTimeout(resolve, 20))
        research = Research.parse(await subject.ops.getResearch(accepted.id))
      }
      expect(research.status).toBe('completed')
      expect(research.result).toMatchObject({ verdict: 'supported', confidence: 0.85 })
      // The model's quote stops short of the sentence's end; the citation keeps the page's words, full stop included.
      expect(research.result?.sources.map((source) => source.quote)).toEqual([
        'Ottawa is the capital city of Canada.',
      ])
      await expectRefused(subject.ops.getResearch('rsc_nope'), 'not_found')
      const progress = (): ReportUpdate[] =>
        updates.filter((u) => u.type === 'research' && u.research.id === accepted.id)
      while (!progress().some((u) => u.type === 'research' && u.research.status === 'completed')) {
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      stop()
      expect(progress().at(-1)).toMatchObject({
        step: null,
        research: { status: 'completed', result: research.result },
      })
      // Each step is named as it ends, and the end is told once.
      expect(researchSteps(progress())).toEqual(RESEARCH_STEPS)
      const ends = progress().filter((u) => u.type === 'research' && u.research.status === 'completed')
      expect(ends).toHaveLength(1)
    })

    it('webhook secret: read, then rotated to a new one', async () => {
      const secret = await subject.ops.webhookSecret()
      expect(secret.secret).toMatch(/^whsec_/)
      const rotated = await subject.ops.rotateWebhookSecret()
      expect(rotated.secret).toMatch(/^whsec_/)
      expect(rotated.secret).not.toBe(secret.secret)
      expect((await subject.ops.webhookSecret()).secret).toBe(rotated.secret)
    })
  })
}
