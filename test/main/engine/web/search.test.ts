import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { Config, type ConfigInput } from '../../../../src/shared/config'
import { apiKeys } from '../../../../src/main/engine/base/keys'
import { PermanentError } from '../../../../src/main/engine/base/errors'
import { Web } from '../../../../src/main/engine/web'
import { FakeSearch, type FakeProvider } from '../../../helpers/fakeSearch'
import { FakeWiki } from '../../../helpers/fakeWiki'

// Brave, Tavily and SearXNG against protocol fakes on 127.0.0.1, reached because the tests turn on
// `web.allowLocalTargets` (which admits loopback, never private space, for searches and pages alike).

const PROVIDERS: FakeProvider[] = ['brave', 'tavily', 'searxng']
const CLAIM = 'Ottawa is the capital of Canada.'
const OTTAWA = ['Ottawa is the capital city of Canada. It lies in the province of Ontario.']

let fake: FakeSearch
let wiki: FakeWiki
beforeAll(async () => {
  wiki = await new FakeWiki().start()
  wiki.article('Ottawa', OTTAWA)
  wiki.pages.set('/to-private', { redirect: 'http://10.0.0.1/' })
})
afterAll(() => wiki.close())
beforeEach(async () => {
  fake = await new FakeSearch().start()
})
afterEach(() => fake.close())

const KEYS = apiKeys(null, { BRAVE_API_KEY: 'test-key', TAVILY_API_KEY: 'test-key', OTHER_KEY: 'other' })

function web(
  provider: FakeProvider,
  search: Partial<ConfigInput['search']> = {},
  allowLocalTargets = true,
): Web {
  const config = Config.parse({
    search: { provider, baseURL: fake.baseURL(provider), ...search },
    web: { allowLocalTargets },
  })
  return new Web(config, {}, KEYS)
}

const error = (promise: Promise<unknown>): Promise<Error> =>
  promise.then(
    () => {
      throw new Error('expected a failure')
    },
    (e: unknown) => e as Error,
  )

describe.each(PROVIDERS)('%s', (provider) => {
  it('searches in its own protocol, with its key, and reads the pages it finds', async () => {
    fake.results = (query) => [
      {
        title: `<strong>Ottawa</strong>`,
        url: wiki.pageUrl('Ottawa'),
        snippet: `${query} &amp; more`,
        published: '2024-05-01T08:30:00Z',
      },
      { title: 'Not a web page', url: 'ftp://example.org/file' },
      { title: 'Third', url: `${wiki.origin}/third` },
    ]
    const w = web(provider)
    // Each with the date its provider gives in its own member and form (none for the third).
    expect(await w.search('capital of Canada', 3)).toEqual([
      {
        title: 'Ottawa',
        url: wiki.pageUrl('Ottawa'),
        snippet: 'capital of Canada & more',
        date: '2024-05-01T08:30:00.000Z',
      },
      { title: 'Third', url: `${wiki.origin}/third`, snippet: '', date: null },
    ])
    expect(fake.requests).toEqual([
      {
        provider,
        method: provider === 'tavily' ? 'POST' : 'GET',
        query: 'capital of Canada',
        limit: provider === 'searxng' ? null : 3,
        key: provider === 'searxng' ? null : 'test-key',
        includeDomains: null,
        excludeDomains: null,
      },
    ])
    const { passages } = await w.research(CLAIM, ['Ottawa'], { pagesPerQuery: 1 })
    expect(passages[0]?.text).toBe(OTTAWA[0])
  })

  it('never fetches results in private or metadata space, nor through a redirect into it', async () => {
    fake.results = () => [
      { title: 'Private', url: 'http://10.0.0.1/' },
      { title: 'Home router', url: 'http://192.168.1.1/' },
      { title: 'Metadata', url: 'http://169.254.169.254/latest/meta-data/' },
      { title: 'Redirect', url: `${wiki.origin}/to-private` },
    ]
    const w = web(provider)
    const { sources, skipped } = await w.research(CLAIM, ['Ottawa'], { pagesPerQuery: 10 })
    expect(fake.requests).toHaveLength(1)
    expect(sources).toEqual([])
    expect(skipped.map((s) => s.url)).toHaveLength(4)
    const hosts = w.fetcher.connected.map((href) => new URL(href).hostname)
    expect(hosts.filter((host) => host !== '127.0.0.1')).toEqual([])
  })

  it('refuses a search endpoint on this computer while web.allowLocalTargets is off', async () => {
    const failure = await error(web(provider, {}, false).search('capital of Canada', 3))
    expect(failure.message).toMatch(/non-public address/)
    expect(fake.requests).toEqual([])
  })

  it('reads a timeout as a sentence naming search.timeoutMs', async () => {
    fake.force({ delayMs: 3_000 })
    const failure = await error(web(provider, { timeoutMs: 200 }).search('slow', 3))
    expect(failure.message).toMatch(/did not answer within 200 ms \(search\.timeoutMs\)/)
    expect(failure).not.toBeInstanceOf(PermanentError)
  })

  it('honours Retry-After on a 429, and says so when the limit persists', async () => {
    fake.results = () => [{ title: 'Ottawa', url: wiki.pageUrl('Ottawa') }]
    fake.force({ status: 429, retryAfter: '1' })
    const w = web(provider)
    expect(await w.search('again', 3)).toHaveLength(1)
    expect(fake.requests.map((r) => r.query)).toEqual(['again', 'again'])
    fake.force(
      { status: 429, retryAfter: '0' },
      { status: 429, retryAfter: '0' },
      { status: 429, retryAfter: '0' },
    )
    const failure = await error(w.search('busy', 3))
    expect(failure.message).toMatch(
      /limiting the rate of searches \(HTTP 429, Retry-After: 0\); try again later or lower search\.requestsPerSecond/,
    )
    expect(fake.requests.filter((r) => r.query === 'busy')).toHaveLength(3)
    // A wait longer than any search may take is not waited for.
    fake.force({ status: 429, retryAfter: '3600' })
    expect((await error(w.search('later', 3))).message).toContain('Retry-After: 3600')
    expect(fake.requests.filter((r) => r.query === 'later')).toHaveLength(1)
  })
})

describe.each(['brave', 'tavily'] as const)('%s keys', (provider) => {
  const variable = provider === 'brave' ? 'BRAVE_API_KEY' : 'TAVILY_API_KEY'

  it('a missing key fails at once, naming where it is looked for', async () => {
    const w = new Web(
      Config.parse({ search: { provider, baseURL: fake.baseURL(provider) } }),
      {},
      apiKeys(null, {}),
    )
    const failure = await error(w.search('x', 1))
    expect(failure).toBeInstanceOf(PermanentError)
    expect(failure.message).toContain(`needs an API key in the environment variable ${variable}`)
    expect(fake.requests).toEqual([])
  })

  it('search.apiKeyEnv names the variable; a refused key (401, 403) is a permanent failure', async () => {
    const failure = await error(web(provider, { apiKeyEnv: 'OTHER_KEY' }).search('x', 1))
    expect(fake.requests.map((r) => r.key)).toEqual(['other'])
    expect(failure).toBeInstanceOf(PermanentError)
    expect(failure.message).toMatch(/refused the API key \(HTTP 401\): check the key .*OTHER_KEY/)
    fake.force({ status: 403 })
    expect((await error(web(provider).search('x', 1))).message).toContain('(HTTP 403)')
  })
})

describe('provider settings', () => {
  it('spaces requests to one provider by search.requestsPerSecond, in call order', async () => {
    fake.results = () => []
    const w = web('brave', { requestsPerSecond: 0.5 })
    const first = w.search('one', 1)
    const second = w.search('two', 1)
    await first
    // The second request waits for its slot, two seconds after the first.
    expect(fake.requests.map((r) => r.query)).toEqual(['one'])
    await second
    expect(fake.requests.map((r) => r.query)).toEqual(['one', 'two'])
  })

  it('SearXNG refusing JSON (403) says how to allow it', async () => {
    fake.force({ status: 403 })
    const failure = await error(web('searxng').search('x', 1))
    expect(failure.message).toContain("allow the json format in the instance's settings.yml")
  })

  it('default endpoints, and SearXNG needs its instance address', () => {
    expect(Config.parse({ search: { provider: 'brave' } }).search.baseURL).toBe(
      'https://api.search.brave.com/res/v1/web/search',
    )
    expect(Config.parse({ search: { provider: 'tavily' } }).search.baseURL).toBe(
      'https://api.tavily.com/search',
    )
    expect(Config.parse({}).search).toMatchObject({
      provider: 'wikipedia',
      baseURL: 'https://en.wikipedia.org/w/api.php',
      timeoutMs: 10_000,
    })
    const parsed = Config.safeParse({ search: { provider: 'searxng' } })
    expect(parsed.success).toBe(false)
    expect(parsed.error?.issues[0]).toMatchObject({ path: ['search', 'baseURL'] })
    expect(parsed.error?.issues[0]?.message).toContain('SearXNG needs the address of your instance')
  })
})
