import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Config, type ConfigInput } from '../../../../src/shared/config'
import { siteName } from '../../../../src/shared/sources'
import { apiKeys } from '../../../../src/main/engine/base/keys'
import { allows, FetchRefused, prefers, Web, withheldWords } from '../../../../src/main/engine/web'
import { FakeSearch, type FakeProvider } from '../../../helpers/fakeSearch'
import { FakeWiki } from '../../../helpers/fakeWiki'

// The source policy on the search providers' protocol fakes and a fake web on 127.0.0.1: every host name below
// resolves there (the fetcher's resolver is the test's), so that pages of several sites can be served.

const KEYS = apiKeys(null, { BRAVE_API_KEY: 'test-key', TAVILY_API_KEY: 'test-key' })
const POLICY = { prefer: ['trusted.example'], never: ['farm.example'] }

let fake: FakeSearch
let wiki: FakeWiki
beforeAll(async () => {
  wiki = await new FakeWiki().start()
  for (const site of ['trusted', 'farm', 'other'])
    wiki.pages.set(`/${site}`, {
      body: `<html><body><p>Ottawa is the capital of Canada, says ${site}.</p></body></html>`,
    })
})
afterAll(() => wiki.close())
beforeEach(async () => {
  fake = await new FakeSearch().start()
})
afterEach(() => fake.close())

/// A page of `site` served by the fake web (`www.trusted.example` is a subdomain of a preferred site).
const page = (host: string, path: string): string => `http://${host}:${new URL(wiki.origin).port}/${path}`
const HITS = () => [
  { title: 'Other', url: page('other.example', 'other') },
  { title: 'Farm', url: page('news.farm.example', 'farm') },
  { title: 'Trusted', url: page('www.trusted.example', 'trusted') },
]

function web(provider: FakeProvider | 'wikipedia', sources: ConfigInput['sources']): Web {
  const config = Config.parse({
    search: { provider, baseURL: provider === 'wikipedia' ? wiki.apiUrl : fake.baseURL(provider) },
    web: { allowLocalTargets: true },
    sources,
  })
  return new Web(config, { fetch: { resolveHost: async () => ['127.0.0.1'] } }, KEYS)
}

describe('sites as a policy names them', () => {
  it('reads a domain, an address pasted whole and an IP address; refuses a path', () => {
    expect(siteName(' Reuters.COM. ')).toBe('reuters.com')
    expect(siteName('https://www.bbc.co.uk/')).toBe('www.bbc.co.uk')
    expect(siteName('192.0.2.7')).toBe('192.0.2.7')
    expect(siteName('2001:db8::1')).toBe('[2001:db8::1]')
    expect(siteName('example.com/news')).toBeNull()
    expect(siteName('not a site')).toBeNull()
    expect(siteName('')).toBeNull()
  })

  it('a site covers its subdomains, an IP address only itself; never wins over prefer and only', () => {
    const policy = { prefer: ['example.org', 'farm.example'], only: [], never: ['farm.example', '192.0.2.7'] }
    expect(allows(policy, 'https://news.example.org/a')).toBe(true)
    expect(prefers(policy, 'https://news.example.org/a')).toBe(true)
    expect(prefers(policy, 'https://badexample.org/a')).toBe(false)
    expect(allows(policy, 'https://a.farm.example/')).toBe(false)
    expect(prefers(policy, 'https://a.farm.example/')).toBe(false)
    expect(allows(policy, 'http://192.0.2.7/')).toBe(false)
    expect(allows(policy, 'http://192.0.2.70/')).toBe(true)
    const only = { prefer: [], only: ['example.org'], never: [] }
    expect(allows(only, 'https://example.org/')).toBe(true)
    expect(allows(only, 'https://example.com/')).toBe(false)
  })

  it('the configuration file writes them as the policy keeps them, and names a wrong one', () => {
    expect(Config.parse({ sources: { prefer: ['https://Reuters.com/', 'reuters.com'] } }).sources).toEqual({
      prefer: ['reuters.com'],
      only: [],
      never: [],
    })
    const wrong = Config.safeParse({ sources: { never: ['example.com/news'] } })
    expect(wrong.error?.issues[0]?.path).toEqual(['sources', 'never', 0])
  })
})

describe.each(['brave', 'tavily', 'searxng'] as const)('%s under a source policy', (provider) => {
  it('is asked for the sites in its own way; the results it gives are filtered anyway, preferred first', async () => {
    // The fake ignores every site filter, as a provider may.
    fake.results = HITS
    const w = web(provider, { ...POLICY, only: ['trusted.example', 'other.example', '192.0.2.7'] })
    const found = await w.search('capital of Canada', 3)
    expect(found.map((result) => result.title)).toEqual(['Trusted', 'Other'])
    const [request] = fake.requests
    if (provider === 'tavily') {
      expect(request).toMatchObject({
        query: 'capital of Canada',
        includeDomains: ['trusted.example', 'other.example'],
        excludeDomains: ['farm.example'],
      })
    } else {
      expect(request?.query).toBe(
        'capital of Canada site:trusted.example OR site:other.example -site:farm.example',
      )
    }
    // Twice the results are asked for, of which the policy may remove some.
    if (provider !== 'searxng') expect(request?.limit).toBe(6)
    expect(w.withheld).toEqual({ searches: 1, removed: 1, emptied: 0 })
  })
})

describe('the web under a source policy', () => {
  it('searches the MediaWiki, which filters by no site, and filters its results', async () => {
    wiki.search = () => HITS()
    const w = web('wikipedia', POLICY)
    expect((await w.search('capital of Canada', 5)).map((result) => result.title)).toEqual([
      'Trusted',
      'Other',
    ])
    expect(w.prefers(page('www.trusted.example', 'trusted'))).toBe(true)
  })

  it('never reads a page of a site it excludes, however the page was found', async () => {
    const w = web('wikipedia', POLICY)
    const before = wiki.requests.length
    await expect(w.source(page('news.farm.example', 'farm'))).rejects.toBeInstanceOf(FetchRefused)
    const reading = await w.read([page('news.farm.example', 'farm'), page('other.example', 'other')])
    expect(reading.sources.map((source) => source.url)).toEqual([page('other.example', 'other')])
    expect(reading.skipped).toEqual([
      { url: page('news.farm.example', 'farm'), reason: expect.stringContaining('source policy') as string },
    ])
    expect(wiki.requests.slice(before)).toEqual(['/other'])
  })

  it('counts a search whose every result it removed, and says so', async () => {
    wiki.search = () => HITS().filter((hit) => hit.title === 'Farm')
    const w = web('wikipedia', POLICY)
    expect(await w.search('capital of Canada', 5)).toEqual([])
    expect(await w.search('Ottawa', 5)).toEqual([])
    expect(w.withheld).toEqual({ searches: 2, removed: 2, emptied: 2 })
    expect(withheldWords(w.withheld)).toBe(
      'The source policy removed 2 search results: all 2 searches found only pages of sites it excludes.',
    )
    // Each view under a policy counts its own searches; the pages and the provider are shared.
    const again = w.within(w.policy)
    expect(again.withheld).toEqual({ searches: 0, removed: 0, emptied: 0 })
    expect(withheldWords(again.withheld)).toBeNull()
  })

  it('without a policy, asks the provider for what was asked and keeps every result', async () => {
    fake.results = HITS
    const w = web('brave', {})
    expect(await w.search('capital of Canada', 3)).toHaveLength(3)
    expect(fake.requests[0]).toMatchObject({ query: 'capital of Canada', limit: 3 })
    expect(w.withheld.searches).toBe(0)
  })
})
