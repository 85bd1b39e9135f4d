import { describe, expect, it } from 'vitest'
import { Research } from '../../../../src/shared/schemas'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../../helpers/fakeOpenAI'
import { FakeWiki } from '../../../helpers/fakeWiki'
import { call, type TestServer } from '../../../helpers/server'
import { closeAfterEach } from '../../../helpers/teardown'
import { t2Config } from '../tiers/t2/setup'
import { CAPITAL_PLAN, CLAIM, serveCapitalArticles } from './capital'
import { data, schemaName, startResearchServer, waitForResearch } from './setup'

// Deep research under the organization's source policy, saved in Settings. The fake encyclopedia is served at
// 127.0.0.1, so the policy names it by its IP address (an IP address is a site too).

let fake: FakeOpenAI
let server: TestServer
let wiki: FakeWiki
closeAfterEach(() => [server, fake, wiki])

/// A model that plans the capital's searches, keeps every passage, maps a proof on Ottawa and a dissent on
/// Toronto with a sentence of each, finds the Ottawa quote supports the claim, and votes and finds supported.
function researcher(request: RecordedRequest): unknown {
  const passages: Array<{ id: string; text: string }> = data(request).passages ?? []
  const cite = (start: string, quote: string) =>
    passages.filter((p) => p.text.startsWith(start)).map((p) => ({ passage: p.id, quote }))
  switch (schemaName(request)) {
    case 'research_plan':
      return CAPITAL_PLAN
    case 'relevant_passages':
      return { passages: passages.map((p) => p.id) }
    case 'argument_map':
      return {
        arguments: [
          {
            kind: 'proof',
            text: 'Ottawa is named.',
            citations: cite('Ottawa is', 'Ottawa is the capital city of Canada.'),
          },
          {
            kind: 'dissent',
            text: 'Toronto once was.',
            citations: cite('Toronto', 'Toronto is the largest city in Canada'),
          },
        ],
      }
    case 'stances':
      return {
        stances: data(request).quotes.map((q: { id: string; quote: string }) => ({
          quote: q.id,
          reasoning: 'What it says.',
          stance: q.quote.startsWith('Ottawa') ? 'supports' : 'neutral',
        })),
      }
    case 'map_vote':
      return { verdict: 'supported', confidence: 0.9, rationale: 'The proof is sourced.' }
    case 'research_finding':
      return { verdict: 'supported', confidence: 0.85, summary: 'Ottawa is the capital.' }
    default:
      return {}
  }
}

async function research(sources: { prefer?: string[]; never?: string[] }): Promise<Research> {
  wiki = await new FakeWiki().start()
  serveCapitalArticles(wiki)
  fake = await startFakeOpenAI({ '*': { answer: researcher } })
  server = await startResearchServer({
    ...t2Config(fake, ['a', 'b']),
    search: { baseURL: wiki.apiUrl },
    web: { allowLocalTargets: true },
  })
  await server.engine.settings.update(await server.engine.localPrincipal(), { sources })
  const res = await call(server, 'POST', '/research', { body: { text: CLAIM } })
  expect(res.status).toBe(202)
  return Research.parse(await waitForResearch(server, res.json.id))
}

describe('deep research under a source policy', () => {
  it("marks the quotes of the organization's preferred site", async () => {
    const { result } = await research({ prefer: ['127.0.0.1'] })
    expect(result?.verdict).toBe('supported')
    expect(result?.sources.map((source) => source.quote).sort()).toEqual([
      'Ottawa is the capital city of Canada.',
      'Toronto is the largest city in Canada',
    ])
    for (const source of result?.sources ?? []) expect(source.preferred).toBe(true)
  })

  it('reads nothing of a site it never cites, and says the policy removed every result', async () => {
    // A run that read no source fails and is refunded, saying why.
    const run = await research({ never: ['127.0.0.1'] })
    expect(run).toMatchObject({ status: 'failed', result: null, credits: { refunded: run.credits.charged } })
    expect(run.error?.message).toContain(
      'The source policy removed 3 search results: all 3 searches found only pages of sites it excludes.',
    )
    expect(wiki.requests.filter((r) => r.startsWith('/w/index.php'))).toEqual([])
  })
})
