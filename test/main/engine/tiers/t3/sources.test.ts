import { describe, expect, it } from 'vitest'
import type { ConfigInput } from '../../../../../src/shared/config'
import { DATA_CLOSE, DATA_OPEN } from '../../../../../src/main/engine/tiers/t2/prompts'
import { startFakeOpenAI, type FakeOpenAI, type RecordedRequest } from '../../../../helpers/fakeOpenAI'
import { FakeWiki, type FakeHit } from '../../../../helpers/fakeWiki'
import { call, startServer, waitForEnd, type TestServer } from '../../../../helpers/server'
import { closeAfterEach } from '../../../../helpers/teardown'
import { report, t2Config } from '../t2/setup'

// t3 under a newsroom's source policy: the fake MediaWiki's search finds pages of a preferred site, of a content
// farm the policy never cites and of another site; all are served by the fake on 127.0.0.1, where the engine's
// resolver sends every host name.

const TEXT = 'Ottawa is the capital of Canada.'
const SAYS = {
  trusted: 'Ottawa is the capital city of Canada, the national archive records.',
  farm: 'Ottawa is the capital of Canada, according to this page of generated text.',
  other: 'Ottawa has been the capital of Canada since Queen Victoria chose it.',
}
type Site = keyof typeof SAYS
const HOSTS: Record<Site, string> = {
  trusted: 'www.trusted.example',
  farm: 'farm.example',
  other: 'other.example',
}

let fake: FakeOpenAI
let server: TestServer
let wiki: FakeWiki
closeAfterEach(() => [server, fake, wiki])

const schemaName = (request: RecordedRequest): string => request.body.response_format?.json_schema?.name ?? ''
/// The JSON inside the request's data block.
function data(request: RecordedRequest): any {
  const start = request.user.indexOf(`${DATA_OPEN}\n`) + DATA_OPEN.length + 1
  return JSON.parse(request.user.slice(start, request.user.lastIndexOf(`\n${DATA_CLOSE}`)))
}

/// A model that reads every result, keeps every passage, and as a voter or judge cites each passage's first
/// sentence and finds the claim supported (unverifiable when it is shown no passage); as the verifier it finds
/// every quote supports the claim.
function reader(request: RecordedRequest): unknown {
  const name = schemaName(request)
  if (name === 'search_step')
    return {
      reasoning: 'Read them.',
      read: data(request).results.map((r: { id: string }) => r.id),
      nextQuery: null,
    }
  if (name === 'stances')
    return {
      stances: data(request).quotes.map((q: { id: string }) => ({
        quote: q.id,
        reasoning: 'Says so.',
        stance: 'supports',
      })),
    }
  const passages: Array<{ id: string; text: string }> = data(request).passages ?? []
  if (name === 'relevant_passages') return { passages: passages.map((p) => p.id) }
  const citations = passages.map((p) => ({ passage: p.id, quote: p.text }))
  const verdict = citations.length > 0 ? 'supported' : 'unverifiable'
  const common = { verdict, detail: citations.length > 0 ? null : 'no_evidence', confidence: 0.9, citations }
  return name === 'web_decision'
    ? {
        ...common,
        reasoning: citations.length > 0 ? 'The sources say so.' : 'Nothing was found.',
        correction: null,
      }
    : { ...common, rationale: 'The passages say so.' }
}

async function setUp(sources: ConfigInput['sources'], found: Site[]): Promise<void> {
  wiki = await new FakeWiki().start()
  const port = new URL(wiki.origin).port
  const hits: FakeHit[] = found.map((site) => ({
    title: `About Ottawa (${site})`,
    url: `http://${HOSTS[site]}:${port}/${site}`,
  }))
  for (const site of found)
    wiki.pages.set(`/${site}`, {
      body: `<html><head><title>${site}</title></head><body><p>${SAYS[site]}</p></body></html>`,
    })
  wiki.search = () => hits
  fake = await startFakeOpenAI({
    'model-a': { answer: reader },
    'model-b': { answer: reader },
    'model-judge': { answer: reader },
  })
  server = await startServer({
    config: {
      ...t2Config(fake, ['a', 'b']),
      search: { baseURL: wiki.apiUrl },
      web: { allowLocalTargets: true },
      sources,
    },
    runner: { retryDelayMs: () => 10 },
    web: { fetch: { resolveHost: async () => ['127.0.0.1'] } },
  })
}

async function runT3(): Promise<Awaited<ReturnType<typeof report>>> {
  const res = await call(server, 'POST', '/checks', { body: { text: TEXT, tiers: ['t3'] } })
  expect(res.status).toBe(202)
  const end = await waitForEnd(server, res.json.id)
  expect(end.status).toBe('completed')
  return report(server, res.json.id)
}

const POLICY = { prefer: ['trusted.example'], never: ['farm.example'] }

describe('t3 under a source policy', () => {
  it('never reads or cites a site it excludes, shows the preferred site first and marks its citations', async () => {
    await setUp(POLICY, ['other', 'farm', 'trusted'])
    const result = await runT3()
    expect(result.sources).toEqual({ prefer: ['trusted.example'], only: [], never: ['farm.example'] })
    // The model reading the results saw the preferred site first and never the farm.
    // (The first step writes the query, before any result.)
    const [step] = fake.requests.filter((r) => schemaName(r) === 'search_step' && data(r).results.length > 0)
    expect(data(step!).results.map((r: { site: string }) => r.site)).toEqual([HOSTS.trusted, HOSTS.other])
    expect(wiki.requests).not.toContain('/farm')
    const consensus = result.claims[0]!.consensus.t3!
    expect(consensus.verdict).toBe('supported')
    const cited = consensus.citations.map((c) => [new URL(c.url).hostname, c.preferred])
    expect(cited).toEqual(
      expect.arrayContaining([
        [HOSTS.trusted, true],
        [HOSTS.other, false],
      ]),
    )
    expect(cited).toHaveLength(2)
    for (const vote of result.claims[0]!.evaluations)
      for (const citation of vote.citations) expect(new URL(citation.url).hostname).not.toBe(HOSTS.farm)
    // Nothing the policy removed bore on a verdict that stands on its sources: the reasoning does not dwell on it.
    expect(consensus.reasoning).not.toContain('source policy')
  })

  it('a search that found only pages of excluded sites says so in the verdict, not a silent "no evidence"', async () => {
    await setUp(POLICY, ['farm'])
    const consensus = (await runT3()).claims[0]!.consensus.t3!
    expect(consensus).toMatchObject({ verdict: 'unverifiable', sourced: false, citations: [] })
    expect(consensus.reasoning).toContain(
      'The source policy removed 1 search result: the search found only pages of sites it excludes.',
    )
    expect(wiki.requests).not.toContain('/farm')
  })

  it("follows the organization's policy saved in Settings, as it stood when the check was submitted", async () => {
    await setUp(POLICY, ['trusted', 'other'])
    const { engine } = server
    const owner = await engine.localPrincipal()
    await engine.settings.update(owner, { sources: { prefer: [], never: ['trusted.example'] } })
    const result = await runT3()
    const saved = { prefer: [], only: [], never: ['trusted.example'] }
    expect(result.sources).toEqual(saved)
    const consensus = result.claims[0]!.consensus.t3!
    expect(consensus.citations.map((c) => [new URL(c.url).hostname, c.preferred])).toEqual([
      [HOSTS.other, false],
    ])
    expect(wiki.requests).not.toContain('/trusted')
    // A later change is the next check's: this check's report keeps what it followed.
    await engine.settings.update(owner, { sources: { never: [] } })
    expect((await report(server, result.check.id)).sources).toEqual(saved)
  })

  it('with only sites, t3 reads and cites nothing else', async () => {
    await setUp({ only: ['other.example'] }, ['trusted', 'other'])
    const consensus = (await runT3()).claims[0]!.consensus.t3!
    expect(consensus.citations.map((c) => new URL(c.url).hostname)).toEqual([HOSTS.other])
    expect(wiki.requests).not.toContain('/trusted')
  })
})
