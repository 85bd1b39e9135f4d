import { describe, expect, it } from 'vitest'
import type { ConfigInput } from '../../../../../src/shared/config'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../../../helpers/fakeOpenAI'
import { FakeWiki } from '../../../../helpers/fakeWiki'
import { call, waitForEnd, type TestServer } from '../../../../helpers/server'
import { data, schemaName } from '../../research/setup'
import { report, startT2Server, t2Config } from '../t2/setup'
import { closeAfterEach } from '../../../../helpers/teardown'

const CLAIM = 'Ottawa is the capital of Canada.'
const OTTAWA = 'Ottawa is the capital city of Canada.'
const ONTARIO = 'It lies in the province of Ontario.'
const TORONTO = 'Toronto was named the capital of Canada in an old atlas.'
const PAGE = [`${OTTAWA} ${ONTARIO}`, `${TORONTO} The atlas was printed in 1850.`]

let fake: FakeOpenAI | undefined
let server: TestServer | undefined
let wiki: FakeWiki | undefined
closeAfterEach(
  () => [server, fake, wiki],
  () => (server = fake = wiki = undefined),
)

/// What one panelist says: its verdict, the quote it cites (none: no citation), and its verdict after reading
/// the others' (its first by default).
interface Juror {
  verdict: string
  quote?: string
  second?: string
}

/// How a quote bears on the claim, as an exact verifier says it: Ottawa's sentence supports it, the atlas's
/// contradicts it, anything else settles nothing.
const stanceOf = (quote: string): string =>
  quote.startsWith('Ottawa') ? 'supports' : quote.startsWith('Toronto') ? 'refutes' : 'neutral'

/// A verifier's answer naming each quote by its id, in the order shown.
const byIds = (request: RecordedRequest) => ({
  stances: data(request).quotes.map((q: { id: string; quote: string }) => ({
    quote: q.id,
    reasoning: 'How it bears.',
    stance: stanceOf(q.quote),
  })),
})

/// Fake models for every t3 role: the judge reads every result and keeps every passage, the verifier answers
/// as `stances` says, each panelist (model-a…) votes as its juror, citing its quote from the passage that holds
/// it, and the judge decides `judge` (a function: its own answer).
function jury(
  jurors: Record<string, Juror>,
  options: { judge?: string | ((request: RecordedRequest) => unknown); stances?: typeof byIds } = {},
) {
  return (request: RecordedRequest): unknown => {
    const input = data(request)
    switch (schemaName(request)) {
      case 'search_step':
        return {
          reasoning: 'What the results show.',
          read: input.results.map((r: any) => r.id),
          nextQuery: null,
        }
      case 'relevant_passages':
        return { passages: input.passages.map((p: { id: string }) => p.id) }
      case 'stances':
        return (options.stances ?? byIds)(request)
      case 'web_decision': {
        if (typeof options.judge === 'function') return options.judge(request)
        return {
          ...vote(input, options.judge ?? 'supported', OTTAWA),
          reasoning: 'The source says so.',
          correction: null,
        }
      }
      default: {
        const juror = jurors[request.model]!
        const debating = 'otherVotes' in input
        const verdict = debating ? (juror.second ?? juror.verdict) : juror.verdict
        return { ...vote(input, verdict, juror.quote), rationale: `${request.model} finds it ${verdict}.` }
      }
    }
  }
}

/// A vote or decision citing `quote` from the passage of the request that holds it.
function vote(input: { passages: Array<{ id: string; text: string }> }, verdict: string, quote?: string) {
  const passage = quote === undefined ? undefined : input.passages.find((p) => p.text.includes(quote))
  const citations = passage ? [{ passage: passage.id, quote }] : []
  return { verdict, detail: null, confidence: 0.9, citations }
}

/// The engine and its fakes: a panel of three, and `models` over t2Config's (given the fake model server).
async function setUp(
  answer: (request: RecordedRequest) => unknown,
  models: (fake: FakeOpenAI) => ConfigInput['models'] = () => ({}),
) {
  wiki = await new FakeWiki().start()
  wiki.article('Capitals', PAGE)
  wiki.search = () => [{ title: 'Capitals' }]
  fake = await startFakeOpenAI({ '*': { answer } })
  const base = t2Config(fake, ['a', 'b', 'c'])
  server = await startT2Server({
    ...base,
    models: { ...base.models, ...models(fake) },
    search: { baseURL: wiki.apiUrl },
    web: { allowLocalTargets: true },
  })
}

async function checkT3(): Promise<any> {
  const res = await call(server!, 'POST', '/checks', { body: { text: CLAIM, tiers: ['t3'] } })
  expect(res.status).toBe(202)
  expect((await waitForEnd(server!, res.json.id)).status).toBe('completed')
  return (await report(server!, res.json.id)).claims[0]
}

const asked = (name: string) => fake!.requests.filter((r) => schemaName(r) === name)
const debateRound = () => asked('web_vote').filter((r) => 'otherVotes' in data(r))

describe('t3: a jury, not one judge', () => {
  it('after the debate a 2–1 majority decides; the judge is not asked', async () => {
    await setUp(
      jury({
        'model-a': { verdict: 'supported', quote: OTTAWA },
        'model-b': { verdict: 'supported', quote: OTTAWA },
        'model-c': { verdict: 'unverifiable' },
      }),
    )
    const claim = await checkT3()
    expect(debateRound()).toHaveLength(3)
    expect(asked('web_decision')).toHaveLength(0)
    expect(claim.consensus.t3).toMatchObject({
      verdict: 'supported',
      decidedBy: 'majority',
      agreement: 0.67,
      sourced: true,
      fallbacks: [],
      citations: [expect.objectContaining({ quote: OTTAWA, stance: 'supports' })],
    })
    expect(claim.consensus.t3.reasoning).toMatch(/^2 of the 3 panelists found it supported\./)
    expect(claim.consensus.t3.reasoning).toContain('Dissent: (unverifiable) model-c finds it unverifiable.')
  })

  it('a three-way split after the debate goes to the judge', async () => {
    await setUp(
      jury({
        'model-a': { verdict: 'supported', quote: OTTAWA },
        'model-b': { verdict: 'misleading', quote: OTTAWA },
        'model-c': { verdict: 'unverifiable' },
      }),
    )
    const claim = await checkT3()
    expect(debateRound()).toHaveLength(3)
    expect(asked('web_decision')).toHaveLength(1)
    expect(claim.consensus.t3).toMatchObject({ verdict: 'supported', decidedBy: 'judge', agreement: 0.33 })
  })

  it('a debate that ends unanimous decides without the judge', async () => {
    await setUp(
      jury({
        'model-a': { verdict: 'supported', quote: OTTAWA },
        'model-b': { verdict: 'supported', quote: OTTAWA },
        'model-c': { verdict: 'refuted', second: 'supported', quote: OTTAWA },
      }),
    )
    const claim = await checkT3()
    expect(debateRound()).toHaveLength(3)
    expect(asked('web_decision')).toHaveLength(0)
    expect(claim.consensus.t3).toMatchObject({ verdict: 'supported', decidedBy: 'panel', agreement: 1 })
    expect(claim.consensus.t3.reasoning).toMatch(/^The 3 panelists agreed after their debate\./)
  })

  it('a judge whose answer cannot be used, even asked again, leaves the decision to the majority, labelled', async () => {
    await setUp(
      jury(
        {
          'model-a': { verdict: 'supported', quote: OTTAWA },
          'model-b': { verdict: 'supported', quote: OTTAWA },
          'model-c': { verdict: 'unverifiable' },
        },
        { judge: () => 'On balance I would say the claim holds.' },
      ),
      // Every split goes to the judge.
      () => ({ majority: 1 }),
    )
    const claim = await checkT3()
    expect(asked('web_decision')).toHaveLength(2)
    expect(claim.consensus.t3).toMatchObject({
      verdict: 'supported',
      decidedBy: 'majority',
      fallbacks: ['judge_unusable'],
      citations: [expect.objectContaining({ quote: OTTAWA, stance: 'supports' })],
    })
    expect(claim.consensus.t3.reasoning).toMatch(/^The judge’s answer could not be used\. 2 of the 3/)
  })
})

describe('t3: no verdict flipped by a failed stance check', () => {
  it('reads stances that name their quotes by their words, in any order, with the sentences around each', async () => {
    const byWords = (request: RecordedRequest) => ({
      stances: data(request)
        .quotes.map((q: { quote: string }) => ({
          quote: `“${q.quote.replace(/\.$/, '')}”`,
          reasoning: 'How it bears.',
          stance: stanceOf(q.quote),
        }))
        .reverse(),
    })
    await setUp(
      jury(
        {
          'model-a': { verdict: 'supported', quote: OTTAWA },
          'model-b': { verdict: 'supported', quote: ONTARIO },
          'model-c': { verdict: 'supported', quote: OTTAWA },
        },
        { stances: byWords },
      ),
    )
    const claim = await checkT3()
    // Read at once: not asked again.
    const [stances, ...again] = asked('stances')
    expect(again).toEqual([])
    const quotes = data(stances!).quotes
    expect(quotes.find((q: any) => q.quote === OTTAWA)).toMatchObject({ sentenceAfter: ONTARIO })
    expect(quotes.find((q: any) => q.quote === ONTARIO)).toMatchObject({ sentenceBefore: OTTAWA })
    expect(claim.consensus.t3).toMatchObject({ verdict: 'supported', decidedBy: 'panel', fallbacks: [] })
    const stanceByQuote = Object.fromEntries(
      claim.consensus.t3.citations.map((c: any) => [c.quote, c.stance]),
    )
    expect(stanceByQuote).toEqual({ [OTTAWA]: 'supports', [ONTARIO]: 'neutral' })
  })

  it.each([
    ['answers in words, twice', () => 'Both quotes support the claim.'],
    [
      'names quotes that were not shown, twice',
      () => ({
        stances: ['Q7', 'Q8'].map((quote) => ({ quote, reasoning: 'It says so.', stance: 'neutral' })),
      }),
    ],
  ])(
    'a verifier that %s leaves the stances unchecked; the verdict stands on the votes, labelled',
    async (_, stances) => {
      await setUp(
        jury(
          {
            'model-a': { verdict: 'supported', quote: OTTAWA },
            'model-b': { verdict: 'supported', quote: OTTAWA },
            'model-c': { verdict: 'supported', quote: OTTAWA },
          },
          { stances: stances as typeof byIds },
        ),
      )
      const claim = await checkT3()
      const requests = asked('stances')
      expect(requests).toHaveLength(2)
      // Asked again, told what was wrong.
      expect(requests[1]!.user).toContain('Your answer could not be used')
      expect(claim.consensus.t3).toMatchObject({
        verdict: 'supported',
        detail: null,
        sourced: true,
        sources: 1,
        fallbacks: ['quotes_not_stance_checked'],
        citations: [expect.objectContaining({ quote: OTTAWA, stance: null })],
      })
      for (const evaluation of claim.evaluations) expect(evaluation.citations[0].stance).toBeNull()
    },
  )

  it('a verifier of its own (models.verifier) judges the stances, not the judge', async () => {
    const jurors = {
      'model-a': { verdict: 'supported', quote: OTTAWA },
      'model-b': { verdict: 'supported', quote: OTTAWA },
      'model-c': { verdict: 'supported', quote: OTTAWA },
    }
    await setUp(jury(jurors), (fake) => ({
      verifier: {
        id: 'verifier',
        provider: 'openai-compatible',
        baseURL: fake.baseURL,
        model: 'model-verifier',
      },
    }))
    const claim = await checkT3()
    expect(asked('stances').map((r) => r.model)).toEqual(['model-verifier'])
    expect(claim.consensus.t3).toMatchObject({
      verdict: 'supported',
      citations: [expect.objectContaining({ quote: OTTAWA, stance: 'supports' })],
    })
  })

  it('quotes that support the claim beside quotes that contradict it make it misleading, both shown', async () => {
    await setUp(
      jury({
        'model-a': { verdict: 'supported', quote: OTTAWA },
        'model-b': { verdict: 'supported', quote: OTTAWA },
        'model-c': { verdict: 'refuted', quote: TORONTO },
      }),
    )
    const claim = await checkT3()
    expect(asked('web_decision')).toHaveLength(0)
    expect(claim.consensus.t3).toMatchObject({
      verdict: 'misleading',
      detail: 'missing_context',
      decidedBy: 'majority',
      agreement: 0,
      sourced: true,
    })
    expect(claim.consensus.t3.reasoning).toContain('the sources disagree')
    expect(claim.consensus.t3.citations.map((c: any) => [c.quote, c.stance])).toEqual([
      [OTTAWA, 'supports'],
      [TORONTO, 'refutes'],
    ])
  })
})
