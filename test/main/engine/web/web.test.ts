import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Config } from '../../../../src/shared/config'
import {
  ApiSearch,
  pageUrl,
  quoteOnPage,
  SafeFetcher,
  splitPassages,
  Web,
} from '../../../../src/main/engine/web'
import { readableText } from '../../../../src/main/engine/web/readable'
import { FakeWiki } from '../../../helpers/fakeWiki'

let wiki: FakeWiki
const resolver = async (host: string): Promise<string[]> => {
  if (host === 'wiki.loop.test') return ['127.0.0.1']
  throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' })
}
const config = () => Config.parse({ search: { baseURL: wiki.apiUrl }, web: { allowLocalTargets: true } })

const OTTAWA = [
  'Ottawa is the capital city of Canada. It is located in the southern portion of the province of Ontario.',
  'The city had a population of 1,017,449 in the 2021 census, making it the fourth-largest city in Canada.',
  'Ottawa was chosen as the capital by Queen Victoria in 1857.',
]

beforeAll(async () => {
  wiki = await new FakeWiki().start()
  wiki.article('Ottawa', OTTAWA)
  wiki.article('Toronto', [
    'Toronto is the capital of the province of Ontario and the largest city in Canada.',
  ])
  wiki.pages.set('/redirect-private', { redirect: 'http://10.0.0.1/' })
  wiki.search = (query) =>
    query.includes('Ottawa')
      ? [
          {
            title: 'Ottawa',
            snippet: '<span class="searchmatch">Ottawa</span> is the capital',
            timestamp: '2024-03-02T10:00:00Z',
          },
          { title: 'Loopback', url: 'http://127.0.0.1:1/admin' },
          { title: 'Private', url: 'http://10.0.0.1/' },
          { title: 'Metadata', url: 'http://169.254.169.254/latest/meta-data/' },
          { title: 'Bounce', url: `${wiki.origin}/redirect-private` },
          { title: 'Toronto' },
        ]
      : []
})
afterAll(() => wiki.close())

describe('readable text and passages', () => {
  it('keeps the article, drops scripts, navigation and footer, and splits with exact offsets', () => {
    const html =
      '<html><head><title>T</title><script>alert("x")</script></head><body><nav>Menu Home</nav>' +
      `<article><h1>Ottawa</h1>${OTTAWA.map((p) => `<p>${p}</p>`).join('')}</article><footer>Licence</footer></body></html>`
    const { text } = readableText(html, 'text/html', 'http://x.test/')
    expect(text).toContain(OTTAWA[0])
    expect(text).not.toContain('alert')
    expect(text).not.toContain('Menu Home')
    const passages = splitPassages(text)
    expect(passages.length).toBeGreaterThanOrEqual(3)
    for (const passage of passages) expect(text.slice(passage.start, passage.end)).toBe(passage.text)
  })

  it('cuts a long paragraph at sentence ends, offsets intact', () => {
    const sentence = 'The river flows north past the old mill and into the lake. '
    const text = `Intro line.\n\n${sentence.repeat(40).trim()}\n\nOutro.`
    const passages = splitPassages(text, 300)
    expect(passages.length).toBeGreaterThan(5)
    for (const passage of passages) {
      expect(text.slice(passage.start, passage.end)).toBe(passage.text)
      expect(passage.text.length).toBeLessThanOrEqual(300)
    }
  })

  it('reads plain text by paragraphs', () => {
    expect(readableText('One  two\nthree.\n\n\nFour.', 'text/plain', 'u').text).toBe(
      'One two three.\n\nFour.',
    )
  })
})

describe('a quote on its page', () => {
  const page =
    'The Eiffel Tower\u00a0was completed in 1889 for the World’s Fair — on time.\n\n' +
    'Ottawa is the capital\n city of   Canada. It lies in “Ontario”.'

  it('is found through whitespace, and the citation keeps the page’s own words', () => {
    expect(quoteOnPage('Ottawa is the capital city of Canada.', page)).toBe(
      'Ottawa is the capital city of Canada.',
    )
    expect(quoteOnPage('Ottawa  is the capital city of  Canada.', page)).toBe(
      'Ottawa is the capital city of Canada.',
    )
  })

  it.each([
    ['straight apostrophes for curly ones', "completed in 1889 for the World's Fair"],
    ['a dash written as a hyphen between spaces', "the World's Fair - on time."],
    ['a dash written as two hyphens without spaces', "the World's Fair--on time."],
    ['a non-breaking space written as a space, and another case', 'the eiffel tower was completed in 1889'],
  ])('through %s, keeping the page’s typography', (_, quote) => {
    const found = quoteOnPage(quote, page)
    expect(found).not.toBeNull()
    expect(page.replace(/\s+/g, ' ')).toContain(found)
    expect(found).not.toContain("'")
  })

  it('through punctuation or an ellipsis at its ends: the page’s full stop is kept', () => {
    for (const quote of [
      'Ottawa is the capital city of Canada',
      '"Ottawa is the capital city of Canada."',
      '…Ottawa is the capital city of Canada…',
      '... Ottawa is the capital city of Canada.',
      '[Ottawa is the capital city of Canada]',
    ])
      expect(quoteOnPage(quote, page)).toBe('Ottawa is the capital city of Canada.')
    // Closing punctuation the page does not have there is the page's; quote marks the page has are kept.
    expect(quoteOnPage('the capital city of Canada!', page)).toBe('the capital city of Canada.')
    expect(quoteOnPage('Ottawa is the capital city,', page)).toBe('Ottawa is the capital city')
    expect(quoteOnPage('It lies in "Ontario".', page)).toBe('It lies in “Ontario”.')
  })

  it('refuses words that are not on the page, and quotes too short to tell', () => {
    expect(quoteOnPage('Ottawa is the capital of Canada.', page)).toBeNull()
    expect(quoteOnPage('The Eiffel Tower was completed in 1899', page)).toBeNull()
    expect(quoteOnPage('Ottawa is … Canada.', page)).toBeNull()
    expect(quoteOnPage('Ottawa', page)).toBeNull()
    expect(quoteOnPage('"…Ottawa…"', page)).toBeNull()
  })
})

describe('MediaWiki search and the web', () => {
  it('derives page URLs from the API URL', () => {
    expect(pageUrl('https://en.wikipedia.org/w/api.php', 'Albert Einstein')).toBe(
      'https://en.wikipedia.org/w/index.php?title=Albert_Einstein',
    )
  })

  it('searches a MediaWiki at a configured base URL, also by host name pinned to checked addresses', async () => {
    const port = new URL(wiki.origin).port
    const fetcher = new SafeFetcher({ allowLocalTargets: true, resolveHost: resolver })
    const settings = Config.parse({ search: { baseURL: `http://wiki.loop.test:${port}/w/api.php` } }).search
    const search = new ApiSearch(settings, fetcher)
    const hits = await search.search('Ottawa capital', { limit: 2 })
    expect(hits[0]).toEqual({
      title: 'Ottawa',
      url: `http://wiki.loop.test:${port}/w/index.php?title=Ottawa`,
      snippet: 'Ottawa is the capital',
      // The page's last edit, which MediaWiki gives with each hit.
      date: '2024-03-02T10:00:00.000Z',
    })
    expect(hits).toHaveLength(2)
    expect(wiki.requests.some((r) => r.startsWith('/w/api.php?') && r.includes('srsearch=Ottawa'))).toBe(true)
  })

  it('reads the results, skips every non-public one without connecting, and ranks passages', async () => {
    const web = new Web(config())
    const before = wiki.requests.length
    const { passages, sources, skipped } = await web.research(
      'Ottawa is the capital of Canada.',
      ['Ottawa'],
      {
        pagesPerQuery: 10,
      },
    )
    expect(sources.map((s) => s.title)).toEqual(['Ottawa - Fakepedia', 'Toronto - Fakepedia'])
    expect(skipped.map((s) => s.url)).toEqual([
      'http://127.0.0.1:1/admin',
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      `${wiki.origin}/redirect-private`,
    ])
    // 127.0.0.1:1 is loopback, allowed in this test configuration, but nothing listens there.
    expect(
      web.fetcher.connected.filter((u) => !u.startsWith(wiki.origin) && !u.startsWith('http://127.0.0.1:1/')),
    ).toEqual([])
    expect(passages[0]!.text).toBe(OTTAWA[0])
    expect(passages[0]!.url).toBe(wiki.pageUrl('Ottawa'))
    const source = sources[0]!
    for (const passage of passages.filter((p) => p.url === source.url)) {
      expect(source.text.slice(passage.start, passage.end)).toBe(passage.text)
    }
    expect(wiki.requests.slice(before).filter((r) => r === '/redirect-private')).toHaveLength(1)
  })

  it('with allowLocalTargets off, a search result at 127.0.0.1 is never fetched', async () => {
    const port = new URL(wiki.origin).port
    const web = new Web(config(), {
      fetch: { allowLocalTargets: false },
      provider: {
        name: 'fixed',
        search: async () => [
          { title: 'L', url: `http://127.0.0.1:${port}/w/index.php?title=Ottawa`, snippet: '', date: null },
        ],
      },
    })
    const before = wiki.requests.length
    const { sources, skipped } = await web.research('Ottawa is the capital.', ['Ottawa'])
    expect(sources).toEqual([])
    expect(skipped).toHaveLength(1)
    expect(web.fetcher.connected).toEqual([])
    expect(wiki.requests.length).toBe(before)
  })

  it('reads HTML and plain text; skips PDF and other types with the reason', async () => {
    wiki.pages.set('/notes.txt', {
      body: 'Ottawa is the capital of Canada.\n\nIt is in Ontario.',
      contentType: 'text/plain',
    })
    wiki.pages.set('/report.pdf', { body: '%PDF-1.7 Ottawa is the capital', contentType: 'application/pdf' })
    wiki.pages.set('/logo.png', { body: 'PNG', contentType: 'image/png' })
    const urls = [wiki.pageUrl('Ottawa'), '/notes.txt', '/report.pdf', '/logo.png'].map(
      (u) => new URL(u, wiki.origin).href,
    )
    const web = new Web(config(), {
      provider: {
        name: 'fixed',
        search: async () => urls.map((url) => ({ url, title: url, snippet: '', date: null })),
      },
    })
    const { sources, skipped } = await web.research('Ottawa is the capital of Canada.', ['Ottawa'], {
      pagesPerQuery: 4,
    })
    expect(sources.map((s) => s.url)).toEqual(urls.slice(0, 2))
    expect(sources[1]!.text).toBe('Ottawa is the capital of Canada.\n\nIt is in Ontario.')
    expect(skipped).toEqual([
      {
        url: urls[2],
        reason:
          'content type application/pdf is not read (only text/html, application/xhtml+xml, text/plain)',
      },
      {
        url: urls[3],
        reason: 'content type image/png is not read (only text/html, application/xhtml+xml, text/plain)',
      },
    ])
  })

  it('caches a source per URL for the configured time', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z')
    const web = new Web(
      Config.parse({
        search: { baseURL: wiki.apiUrl },
        web: { allowLocalTargets: true, sourceCacheSeconds: 60 },
      }),
      { now: () => new Date(now) },
    )
    const url = wiki.pageUrl('Toronto')
    const count = () => wiki.requests.filter((r) => r === new URL(url).pathname + new URL(url).search).length
    const start = count()
    const [a, b] = await Promise.all([web.source(url), web.source(url)])
    expect(a).toBe(b)
    now += 30_000
    await web.source(url)
    expect(count() - start).toBe(1)
    now += 60_000
    await web.source(url)
    expect(count() - start).toBe(2)
  })
})
