import { describe, expect, it } from 'vitest'
import { Config } from '../../../../../src/shared/config'
import { verifiedCitations } from '../../../../../src/main/engine/tiers/t3'
import { rankedPassages, Web } from '../../../../../src/main/engine/web'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../../../helpers/fakeOpenAI'
import { FakeWiki } from '../../../../helpers/fakeWiki'
import { call, waitForEnd, type TestServer } from '../../../../helpers/server'
import { closeAfterEach } from '../../../../helpers/teardown'
import { data, schemaName } from '../../research/setup'
import { report, startT2Server, t2Config } from '../t2/setup'

// Issue 31's headline case: a four-claim text that exact answers check as one supported and one refuted claim,
// each cited, checked again by a model that makes the slips small local models make. It must give the same
// verdicts, on the same quotes, without falling back.

const TEXT =
  'Ottawa is the capital of Canada. The Eiffel Tower was completed in 1899. ' +
  'The Brooklyn Bridge opened in 1883 with a parade of 21 elephants. ' +
  'Mount Everest was first climbed in 1953 by a team of 400 people.'

/// Per claim (by its subject): the first query the model writes, the word a passage needs to bear on the
/// claim, and the verdict, with the sentence of the page it cites.
const SUBJECTS = {
  Ottawa: {
    query: 'Ottawa capital Canada',
    bears: 'capital',
    verdict: 'supported',
    quote: 'Ottawa is the capital city of Canada.',
  },
  Eiffel: {
    query: 'Eiffel Tower completion',
    bears: '1889',
    verdict: 'refuted',
    quote: 'The Eiffel Tower was completed in 1889 for the World’s Fair.',
  },
  Brooklyn: { query: 'Brooklyn Bridge opening', bears: 'Brooklyn', verdict: 'unverifiable', quote: null },
  Everest: { query: 'Everest first ascent', bears: '1953', verdict: 'unverifiable', quote: null },
} as const
type Subject = keyof typeof SUBJECTS

const subjectOf = (text: string): Subject =>
  (Object.keys(SUBJECTS) as Subject[]).find((subject) => text.includes(subject)) ?? 'Everest'

/// The pages the fake wiki serves, and what each subject's searches find.
function pages(wiki: FakeWiki): void {
  wiki.article('Ottawa', ['Ottawa is the capital city of Canada. It lies in the province of Ontario.'])
  wiki.article('Eiffel Tower', [
    'The Eiffel Tower was completed in 1889 for the World’s Fair. It is 330 metres tall.',
  ])
  wiki.article('Brooklyn Bridge', [
    'The Brooklyn Bridge opened on May 24, 1883, linking Manhattan and Brooklyn.',
  ])
  wiki.article('Mount Everest', ['Mount Everest is the highest mountain on Earth above sea level.'])
  const titles = {
    Ottawa: 'Ottawa',
    Eiffel: 'Eiffel Tower',
    Brooklyn: 'Brooklyn Bridge',
    Everest: 'Mount Everest',
  }
  wiki.search = (query) => {
    const title = titles[subjectOf(query)]
    return [{ title, snippet: `${title}, from the encyclopedia.` }]
  }
}

/// A model that answers every t3 request exactly: it writes its subject's query first, reads every result not
/// read in vain (else searches again while it may), keeps the passages holding its subject's word, votes and
/// decides its subject's verdict citing its sentence by the passage's id, and judges each quote's stance by
/// the verdict.
function exact(request: RecordedRequest): unknown {
  const input = data(request)
  const subject = SUBJECTS[subjectOf(input.claim)]
  switch (schemaName(request)) {
    case 'search_step': {
      const vain: string[] = input.readWithoutEvidence ?? []
      const unread = (input.results as Array<{ id: string }>).filter((r) => !vain.includes(r.id))
      const first = input.queries.length === 0
      return {
        reasoning: 'What the results show.',
        read: first ? [] : unread.map((r) => r.id),
        nextQuery: first
          ? subject.query
          : unread.length === 0 && input.searchesLeft > 0
            ? `${subject.query} ${input.queries.length + 1}`
            : null,
      }
    }
    case 'relevant_passages':
      return {
        passages: (input.passages as Array<{ id: string; text: string }>)
          .filter((p) => p.text.includes(subject.bears))
          .map((p) => p.id),
      }
    case 'stances':
      return {
        stances: (input.quotes as Array<{ id: string }>).map((q) => ({
          quote: q.id,
          reasoning: 'What it says about the claim.',
          stance: subject.verdict === 'supported' ? 'supports' : 'refutes',
        })),
      }
    default: {
      const passage = (input.passages as Array<{ id: string; text: string }>).find(
        (p) => subject.quote !== null && p.text.includes(subject.quote),
      )
      const citations = passage ? [{ passage: passage.id, quote: subject.quote }] : []
      const vote = {
        verdict: subject.verdict,
        detail: subject.verdict === 'unverifiable' ? 'no_evidence' : null,
        confidence: 0.9,
        citations,
      }
      return schemaName(request) === 'web_decision'
        ? { ...vote, reasoning: 'The sources settle it.', correction: null }
        : { ...vote, rationale: 'The source says so.' }
    }
  }
}

/// Ids as small models write them back, one way per claim, and a quote as they copy it: straight apostrophes,
/// a doubled space, no final full stop.
const PASSAGE_IDS = [
  (id: string) => id.toLowerCase(),
  (id: string) => `[${id}]`,
  (id: string) => `Passage ${id.slice(1)}`,
  (id: string) => `${id}.`,
]
const RESULT_IDS = [(id: string) => id.toLowerCase(), (id: string) => `Result ${id.slice(1)}`]
const copied = (quote: string): string => quote.replace(/’/g, "'").replace(' ', '  ').replace(/\.$/, '')

/// The exact model's answers with the slips: ids written each claim's way, the evidence named by a passage's
/// own words for one claim, quotes copied loosely and named in the stance answer by their words.
function withSlips(request: RecordedRequest): unknown {
  const input = data(request)
  const way = Object.keys(SUBJECTS).indexOf(subjectOf(input.claim))
  const answer = exact(request) as Record<string, any>
  const passageId = PASSAGE_IDS[way % PASSAGE_IDS.length]!
  switch (schemaName(request)) {
    case 'search_step':
      return { ...answer, read: answer.read.map(RESULT_IDS[way % RESULT_IDS.length]!) }
    case 'relevant_passages': {
      const passages = input.passages as Array<{ id: string; text: string }>
      return {
        passages: answer.passages.map((id: string) =>
          way === 0 ? passages.find((p) => p.id === id)!.text.split('. ')[0] : passageId(id),
        ),
      }
    }
    case 'stances': {
      const quotes = input.quotes as Array<{ id: string; quote: string }>
      return {
        stances: answer.stances.map((entry: { quote: string }) => ({
          ...entry,
          quote: quotes.find((q) => q.id === entry.quote)!.quote,
        })),
      }
    }
    default:
      return {
        ...answer,
        citations: answer.citations.map((c: { passage: string; quote: string }) => ({
          passage: passageId(c.passage),
          quote: copied(c.quote),
        })),
      }
  }
}

let fake: FakeOpenAI | undefined
let server: TestServer | undefined
let wiki: FakeWiki | undefined
closeAfterEach(
  () => [server, fake, wiki],
  () => (server = fake = wiki = undefined),
)

/// Each claim's t3 consensus, by its words, checked by a panel of two and a judge all answering `answer`.
async function checked(answer: (request: RecordedRequest) => unknown) {
  wiki = await new FakeWiki().start()
  pages(wiki)
  fake = await startFakeOpenAI({ '*': { answer } })
  server = await startT2Server({
    ...t2Config(fake, ['a', 'b']),
    search: { baseURL: wiki.apiUrl },
    web: { allowLocalTargets: true },
  })
  const res = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t3'] } })
  expect(res.status).toBe(202)
  expect((await waitForEnd(server, res.json.id)).status).toBe('completed')
  const claims = (await report(server, res.json.id)).claims
  const outcome = Object.fromEntries(claims.map((claim) => [claim.text, claim.consensus.t3!]))
  const askedAgain = fake.requests.filter((r) => r.user.includes('Your answer could not be used')).length
  for (const closing of [server, fake, wiki]) await closing.close()
  server = fake = wiki = undefined
  return { outcome, askedAgain }
}

describe('t3 with the slips small models make', () => {
  // Two checks of four claims each, end to end: longer than one check on a busy machine.
  it('gives the verdicts, quotes and sources exact answers give', async () => {
    const { outcome: exactly } = await checked(exact)
    expect(Object.values(exactly).map((c) => c.verdict)).toEqual([
      'supported',
      'refuted',
      'unverifiable',
      'unverifiable',
    ])
    const [ottawa, eiffel] = Object.values(exactly)
    expect(ottawa!.citations.map((c) => c.quote)).toEqual([SUBJECTS.Ottawa.quote])
    expect(eiffel!.citations.map((c) => c.quote)).toEqual([SUBJECTS.Eiffel.quote])

    const { outcome: sloppily, askedAgain } = await checked(withSlips)
    // Every slip was read as meant: no answer was asked for again, and nothing fell back.
    expect(askedAgain).toBe(0)
    for (const [claim, consensus] of Object.entries(exactly)) {
      const slipped = sloppily[claim]!
      expect(slipped).toMatchObject({
        verdict: consensus.verdict,
        detail: consensus.detail,
        sourced: consensus.sourced,
        sources: consensus.sources,
        fallbacks: [],
      })
      // The citations keep the page's own words (its curly apostrophe and its full stop), as exactly.
      const cited = (citations: typeof consensus.citations) =>
        citations.map(({ url, quote, stance }) => ({ page: new URL(url).search, quote, stance }))
      expect(cited(slipped.citations)).toEqual(cited(consensus.citations))
    }
  }, 60_000)
})

describe('a citation as a model writes it', () => {
  const EIFFEL = 'The Eiffel Tower was completed in 1889 for the World’s Fair.'
  const BRIDGE = 'The Brooklyn Bridge opened on May 24, 1883, linking Manhattan and Brooklyn.'

  /// The fake wiki's two pages as ranked passages, P1 the tower's and P2 the bridge's, and the web reading them.
  async function passagesRead() {
    wiki = await new FakeWiki().start()
    wiki.article('Eiffel Tower', [EIFFEL])
    wiki.article('Brooklyn Bridge', [BRIDGE])
    const web = new Web(Config.parse({ search: { baseURL: wiki.apiUrl }, web: { allowLocalTargets: true } }))
    const { sources } = await web.read([wiki.pageUrl('Eiffel Tower'), wiki.pageUrl('Brooklyn Bridge')])
    return { web, passages: sources.flatMap((source) => rankedPassages('', [source])) }
  }

  it('is verified on the page of the passage it names, however named, keeping the page’s words', async () => {
    const { web, passages } = await passagesRead()
    const cited = await verifiedCitations(web, passages, [
      { passage: 'Passage 1', quote: "The Eiffel Tower was completed in 1889 for the World's Fair" },
      {
        passage: 'the Brooklyn Bridge opened on May 24',
        quote: '“The Brooklyn Bridge  opened on May 24, 1883”',
      },
      // The wrong id: the quote is found on the page of the passage that holds it.
      { passage: 'P2', quote: 'completed in 1889 for the World’s Fair.' },
      // Another passage's id for the same quote again: once.
      { passage: 'P1.', quote: EIFFEL },
    ])
    expect(cited.map(({ url, quote }) => ({ url, quote }))).toEqual([
      { url: wiki!.pageUrl('Eiffel Tower'), quote: EIFFEL },
      { url: wiki!.pageUrl('Brooklyn Bridge'), quote: 'The Brooklyn Bridge opened on May 24, 1883' },
      { url: wiki!.pageUrl('Eiffel Tower'), quote: 'completed in 1889 for the World’s Fair.' },
    ])
  })

  it('is refused when its words are not on any page read', async () => {
    const { web, passages } = await passagesRead()
    expect(
      await verifiedCitations(web, passages, [
        { passage: 'P1', quote: 'The Eiffel Tower was completed in 1899 for the World’s Fair.' },
        { passage: 'P2', quote: 'The Brooklyn Bridge opened … 1883.' },
        { passage: 'P3', quote: 'The Eiffel Tower was completed in 1890.' },
        { passage: 'P1', quote: 'The Eiffel Tower was finished in 1889 for the World’s Fair.' },
      ]),
    ).toEqual([])
  })
})
