import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

/// A page the fake web serves: HTML by default; `redirect` answers 302 to that location.
export interface FakePage {
  body?: string
  contentType?: string
  status?: number
  redirect?: string
}

/// A search hit the fake MediaWiki returns: a title, and a `url` when the hit should point anywhere but the
/// wiki's own page of that title.
export interface FakeHit {
  title: string
  snippet?: string
  url?: string
  /// The page's last edit (ISO), as MediaWiki's `timestamp`.
  timestamp?: string
}

/// A fake MediaWiki on real HTTP at 127.0.0.1: `GET /w/api.php?action=query&list=search&srsearch=…` answers
/// from `search`, and `GET /w/index.php?title=…` or any other path serves `pages` (keyed by path and query).
/// Every request is logged, so tests can assert what was never fetched.
export class FakeWiki {
  readonly requests: string[] = []
  /// The headers of each request, in the order of `requests`.
  readonly headers: IncomingMessage['headers'][] = []
  readonly pages = new Map<string, FakePage>()
  search: (query: string) => FakeHit[] = () => []
  private readonly server = createServer((request, response) => this.handle(request, response))
  origin = ''

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  get apiUrl(): string {
    return `${this.origin}/w/api.php`
  }

  /// The wiki's URL of the page `title` (what MediaWikiSearch derives from the API URL).
  pageUrl(title: string): string {
    return `${this.origin}/w/index.php?title=${encodeURIComponent(title.replace(/ /g, '_'))}`
  }

  /// Serves an article titled `title` whose paragraphs are `paragraphs`, at the wiki's page URL.
  article(title: string, paragraphs: readonly string[]): string {
    const url = this.pageUrl(title)
    const body =
      `<!doctype html><html><head><title>${title} - Fakepedia</title><script>var x = "script text"</script></head>` +
      `<body><nav><a href="/">Main page</a> <a href="/random">Random</a></nav><main><article><h1>${title}</h1>` +
      paragraphs.map((p) => `<p>${p}</p>`).join('\n') +
      `</article></main><footer>Text is available under a licence.</footer></body></html>`
    this.pages.set(new URL(url).pathname + new URL(url).search, { body })
    return url
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.origin)
    this.requests.push(url.pathname + url.search)
    this.headers.push(request.headers)
    if (url.pathname === '/w/api.php') {
      const hits = this.search(url.searchParams.get('srsearch') ?? '')
      const limit = Number(url.searchParams.get('srlimit') ?? 10)
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' })
      response.end(JSON.stringify({ batchcomplete: true, query: { search: hits.slice(0, limit) } }))
      return
    }
    const page = this.pages.get(url.pathname + url.search) ?? this.pages.get(url.pathname)
    if (!page) {
      response.writeHead(404, { 'content-type': 'text/plain' })
      response.end('not found')
      return
    }
    if (page.redirect) {
      response.writeHead(page.status ?? 302, { location: page.redirect })
      response.end()
      return
    }
    response.writeHead(page.status ?? 200, { 'content-type': page.contentType ?? 'text/html; charset=utf-8' })
    response.end(page.body ?? '')
  }
}
