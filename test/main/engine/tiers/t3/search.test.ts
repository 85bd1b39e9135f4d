import { describe, expect, it } from 'vitest'
import type { ConfigInput } from '../../../../../src/shared/config'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../../../helpers/fakeOpenAI'
import { FakeWiki } from '../../../../helpers/fakeWiki'
import { call, waitForEnd, type TestServer } from '../../../../helpers/server'
import { data, schemaName } from '../../research/setup'
import { report, startT2Server, t2Config } from '../t2/setup'
import { closeAfterEach } from '../../../../helpers/teardown'

const CLAIM = 'Ottawa is the capital of Canada.'
const OTTAWA = ['Ottawa is the capital city of Canada. It lies in the province of Ontario.']

let fake: FakeOpenAI | undefined
let server: TestServer | undefined
let wiki: FakeWiki | undefined
closeAfterEach(
  () => [server, fake, wiki],
  () => (server = fake = wiki = undefined),
)

interface Script {
  /// The ids of the results to read, from the results so far.
  read?: (results: Array<{ id: string; title: string }>) => string[]
  /// The next query, from the queries so far (null: enough).
  next?: (queries: string[]) => string | null
  verdict?: string
  /// The stance the verifier gives every quote.
  stance?: string
}

/// A fake model playing every t3 role by `script`: it reads all results and asks for nothing more unless told,
/// chooses every passage, votes and decides `verdict` citing the first sentence of the Ottawa passage.
function scripted(script: Script = {}) {
  return (request: RecordedRequest): unknown => {
    const input = data(request)
    switch (schemaName(request)) {
      case 'search_step':
        return {
          reasoning: 'What the results show.',
          read: (script.read ?? ((results) => results.map((r) => r.id)))(input.results),
          nextQuery: script.next?.(input.queries) ?? null,
        }
      case 'relevant_passages':
        return { passages: input.passages.map((p: { id: string }) => p.id) }
      case 'stances':
        return {
          stances: input.quotes.map((q: { id: string }) => ({
            quote: q.id,
            reasoning: 'How it bears.',
            stance: script.stance ?? 'supports',
          })),
        }
      default: {
        const passage = input.passages.find((p: { text: string }) => p.text.startsWith('Ottawa'))
        const citations = passage
          ? [{ passage: passage.id, quote: 'Ottawa is the capital city of Canada.' }]
          : []
        const vote = { verdict: script.verdict ?? 'supported', detail: null, confidence: 0.9, citations }
        return schemaName(request) === 'web_decision'
          ? { ...vote, reasoning: 'The source says so.', correction: null }
          : { ...vote, rationale: 'The source says so.' }
      }
    }
  }
}

async function setUp(
  answer: (request: RecordedRequest) => unknown,
  pages: (wiki: FakeWiki) => void,
  more: (fake: FakeOpenAI) => Partial<ConfigInput> = () => ({}),
): Promise<void> {
  wiki = await new FakeWiki().start()
  pages(wiki)
  fake = await startFakeOpenAI({ '*': { answer } })
  const base = t2Config(fake, ['a', 'b'])
  const config = more(fake)
  server = await startT2Server({
    ...base,
    ...config,
    models: { ...base.models, ...config.models },
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

const searches = () => wiki!.requests.filter((r) => r.startsWith('/w/api.php'))
const searchSteps = () => fake!.requests.filter((r) => schemaName(r) === 'search_step')
const fetchedPages = () => wiki!.requests.filter((r) => !r.startsWith('/w/api.php'))

describe('t3 searches until the question is answered', () => {
  it('searches again when the first results do not answer the claim, then reads what it picked', async () => {
    await setUp(
      scripted({
        read: (results) => results.filter((r) => r.title === 'Ottawa').map((r) => r.id),
        next: (queries) => (queries.length === 1 ? 'capital city of Canada' : null),
      }),
      (w) => {
        w.article('Ottawa', OTTAWA)
        w.article('Toronto', ['Toronto is the largest city in Canada.'])
        w.search = (query) => (query === CLAIM ? [{ title: 'Toronto' }] : [{ title: 'Ottawa' }])
      },
    )
    const claim = await checkT3()
    expect(claim.consensus.t3).toMatchObject({ verdict: 'supported', sourced: true, sources: 1 })
    // The claim was searched first; the model, reading only snippets, asked for the second query.
    expect(searches().map((r) => new URL(r, 'http://x').searchParams.get('srsearch'))).toEqual([
      CLAIM,
      'capital city of Canada',
    ])
    const steps = searchSteps()
    expect(steps).toHaveLength(2)
    expect(data(steps[0]!).results.map((r: any) => r.title)).toEqual(['Toronto'])
    expect(data(steps[1]!)).toMatchObject({
      queries: [CLAIM, 'capital city of Canada'],
      searchesLeft: 1,
      results: [
        { id: 'R1', title: 'Toronto' },
        { id: 'R2', title: 'Ottawa' },
      ],
    })
    // Only the page the model picked was fetched.
    expect(fetchedPages()).toEqual([
      new URL(wiki!.pageUrl('Ottawa')).pathname + new URL(wiki!.pageUrl('Ottawa')).search,
    ])
  })

  it('stops at research.maxSearches however often the model asks for more', async () => {
    await setUp(
      scripted({ next: (queries) => `query ${queries.length + 1}` }),
      (w) => {
        w.article('Ottawa', OTTAWA)
        w.search = () => [{ title: 'Ottawa' }]
      },
      () => ({ research: { maxSearches: 2 } }),
    )
    await checkT3()
    expect(searches()).toHaveLength(2)
    const steps = searchSteps()
    expect(steps).toHaveLength(2)
    expect(data(steps[1]!)).toMatchObject({ queries: [CLAIM, 'query 2'], searchesLeft: 0 })
  })

  it('fetches only the pages the model chose to read, of all the results', async () => {
    const titles = ['Ottawa', 'Toronto', 'Montreal', 'Vancouver']
    await setUp(
      scripted({ read: (results) => results.filter((r) => r.title === 'Ottawa').map((r) => r.id) }),
      (w) => {
        w.article('Ottawa', OTTAWA)
        for (const title of titles.slice(1)) w.article(title, [`${title} is a city in Canada.`])
        // One provider's snippet is the page's whole extract.
        w.search = () => titles.map((title) => ({ title, snippet: `${title} is a city. `.repeat(40) }))
      },
    )
    await checkT3()
    // The search loop reads the statement (no context), each result's title, site and a snippet of at most 240
    // characters.
    const [step] = searchSteps()
    expect(Object.keys(data(step!))).toEqual(['claim', 'queries', 'searchesLeft', 'results'])
    expect(data(step!).results).toHaveLength(4)
    for (const result of data(step!).results) {
      expect(Object.keys(result)).toEqual(['id', 'title', 'site', 'snippet'])
      expect(result.site).toBe('127.0.0.1')
      expect(result.snippet.length).toBeLessThanOrEqual(240)
    }
    for (const title of titles.slice(1)) expect(wiki!.requests.join(' ')).not.toContain(`title=${title}`)
    // Fetched for its passages, then from the cache for each quote check.
    expect(fetchedPages()).toEqual(['/w/index.php?title=Ottawa'])
  })
})

describe('t3 grounds its verdict on quotes that bear on the claim', () => {
  const ottawa = (w: FakeWiki) => {
    w.article('Ottawa', OTTAWA)
    w.search = () => [{ title: 'Ottawa' }]
  }

  it('a quote the verifier calls neutral does not make the verdict supported', async () => {
    await setUp(scripted({ verdict: 'supported', stance: 'neutral' }), ottawa)
    const consensus = (await checkT3()).consensus.t3
    expect(consensus).toMatchObject({
      verdict: 'unverifiable',
      detail: 'no_evidence',
      sourced: false,
      sources: 0,
      correction: null,
    })
    expect(consensus.reasoning).toContain('no verified quote supports the claim')
    expect(consensus.citations).toEqual([
      expect.objectContaining({ quote: 'Ottawa is the capital city of Canada.', stance: 'neutral' }),
    ])
    // The verifier (the judge, none being configured) judged the quote against the claim in one request.
    const [asked, ...more] = fake!.requests.filter((r) => schemaName(r) === 'stances')
    expect(more).toEqual([])
    expect(asked!.model).toBe('model-judge')
    expect(data(asked!)).toMatchObject({
      claim: CLAIM,
      quotes: [{ id: 'Q1', quote: 'Ottawa is the capital city of Canada.' }],
    })
  })

  it('judges all of a claim’s quotes in one request to the verifier', async () => {
    const both = ['Ottawa is the capital city of Canada.', 'It lies in the province of Ontario.']
    const answer = scripted()
    await setUp((request) => {
      const answered = answer(request) as Record<string, unknown>
      // The second panelist cites both sentences of the passage, the first one only the first.
      if (request.model !== 'model-b' || schemaName(request) !== 'web_vote') return answered
      return { ...answered, citations: both.map((quote) => ({ passage: 'P1', quote })) }
    }, ottawa)
    const claim = await checkT3()
    expect(claim.consensus.t3).toMatchObject({ decidedBy: 'panel', verdict: 'supported' })
    const asked = fake!.requests.filter((r) => schemaName(r) === 'stances')
    expect(asked).toHaveLength(1)
    expect(data(asked[0]!).quotes.map((q: { quote: string }) => q.quote)).toEqual(both)
  })

  it('a refuted verdict with a refuting quote stands, sourced from one site', async () => {
    await setUp(scripted({ verdict: 'refuted', stance: 'refutes' }), ottawa)
    expect((await checkT3()).consensus.t3).toMatchObject({
      verdict: 'refuted',
      detail: null,
      sourced: true,
      sources: 1,
      citations: [expect.objectContaining({ stance: 'refutes' })],
    })
  })

  it('a refuted verdict whose only quote supports the claim is unverifiable', async () => {
    await setUp(scripted({ verdict: 'refuted', stance: 'supports' }), ottawa)
    const consensus = (await checkT3()).consensus.t3
    expect(consensus).toMatchObject({ verdict: 'unverifiable', detail: 'no_evidence', sourced: true })
    expect(consensus.reasoning).toContain('no verified quote contradicts the claim')
  })

  it('a misleading verdict that cites no verified quote is unverifiable', async () => {
    await setUp(scripted({ verdict: 'misleading', read: () => [] }), ottawa)
    const consensus = (await checkT3()).consensus.t3
    expect(consensus).toMatchObject({
      verdict: 'unverifiable',
      detail: 'no_evidence',
      sourced: false,
      citations: [],
    })
    expect(consensus.reasoning).toContain('no verified quote shows what it leaves out')
    // Nothing was picked, so nothing was fetched, and no stance was asked for.
    expect(fetchedPages()).toEqual([])
    expect(fake!.requests.filter((r) => schemaName(r) === 'stances')).toEqual([])
  })

  it.each([
    ['Yes', 'supported', 'supports', true],
    ['No', 'unverifiable', 'neutral', false],
  ])(
    'a bespoke-minicheck verifier answering "%s" in plain text → %s',
    async (answer, verdict, stance, sourced) => {
      const model = scripted({ verdict: 'supported' })
      await setUp(
        (request) => (request.model === 'bespoke-minicheck' ? answer : model(request)),
        ottawa,
        (fake) => ({
          models: {
            verifier: {
              id: 'checker',
              provider: 'ollama',
              baseURL: fake.ollamaURL,
              model: 'bespoke-minicheck',
              kind: 'minicheck',
            },
          },
        }),
      )
      const consensus = (await checkT3()).consensus.t3
      expect(consensus).toMatchObject({ verdict, sourced, citations: [expect.objectContaining({ stance })] })
      // MiniCheck's own prompt, as plain text: no system prompt, no response format; the document is the quote
      // with the sentence after it on its page.
      const [asked, ...more] = fake!.of('bespoke-minicheck')
      expect(more).toEqual([])
      expect(asked!.path).toBe('/api/chat')
      expect(asked!.system).toBe('')
      expect(asked!.body.format).toBeUndefined()
      expect(asked!.user).toBe(
        `Document: Ottawa is the capital city of Canada. It lies in the province of Ontario.\nClaim: ${CLAIM}`,
      )
      expect(fake!.requests.filter((r) => schemaName(r) === 'stances')).toEqual([])
    },
  )
})

describe('passages carry their dates', () => {
  it('the page’s publication date and its retrieval reach the models and the citation', async () => {
    await setUp(scripted(), (w) => {
      w.search = () => [{ title: 'Ottawa' }]
      const url = new URL(w.pageUrl('Ottawa'))
      w.pages.set(url.pathname + url.search, {
        body:
          '<html><head><title>Ottawa</title><meta property="article:published_time" content="2024-05-01T08:30:00+02:00">' +
          `</head><body><article><h1>Ottawa</h1><p>${OTTAWA[0]}</p></article></body></html>`,
      })
    })
    const claim = await checkT3()
    const published = '2024-05-01T06:30:00.000Z'
    expect(claim.consensus.t3.citations).toEqual([expect.objectContaining({ publishedAt: published })])
    const vote = fake!.requests.find((r) => schemaName(r) === 'web_vote')!
    // The models read the dates as days, and the page's site, not its address.
    expect(data(vote).passages[0]).toMatchObject({
      publishedAt: '2024-05-01',
      retrievedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      site: '127.0.0.1',
    })
    // Today's date is in the system prompt of the search loop, as in every other t3 request (the stances too).
    expect(searchSteps()[0]!.system).toMatch(/Today is \d{4}-\d{2}-\d{2}:/)
    const t3Requests = fake!.requests.filter((r) => schemaName(r) !== 'statements')
    expect(t3Requests.map(schemaName)).toContain('stances')
    for (const request of t3Requests) expect(request.system).toMatch(/Today is \d{4}-\d{2}-\d{2}:/)
  })
})
