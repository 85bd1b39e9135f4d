import type { SafeFetcher } from './fetcher'

/// One search hit: a page to read.
export interface SearchResult {
  url: string
  title: string
  snippet: string
}

/// A web search service behind one interface (MediaWiki now; Brave, Tavily and SearXNG plug in the same way).
export interface SearchProvider {
  readonly name: string
  search(query: string, options: { limit: number; signal?: AbortSignal }): Promise<SearchResult[]>
}

/// Spaces requests to one provider at least `intervalMs` apart (its rate limit), in call order.
export class RateLimiter {
  private next = 0
  constructor(private readonly intervalMs: number) {}

  async wait(signal?: AbortSignal): Promise<void> {
    const now = Date.now()
    const at = Math.max(now, this.next)
    this.next = at + this.intervalMs
    if (at > now) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(resolve, at - now)
        signal?.addEventListener('abort', () => {
          clearTimeout(timer)
          reject(signal.reason)
        })
      })
    }
  }
}

const stripTags = (html: string): string =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')

/// The MediaWiki action API (Wikipedia by default; any MediaWiki with its `api.php` URL): a full-text search
/// whose pages come with their canonical URLs. No key needed. Requests go through the safe fetcher.
export class MediaWikiSearch implements SearchProvider {
  readonly name = 'wikipedia'
  private readonly limiter: RateLimiter

  constructor(
    private readonly baseURL: string,
    private readonly fetcher: SafeFetcher,
    intervalMs = 200,
  ) {
    this.limiter = new RateLimiter(intervalMs)
  }

  async search(
    query: string,
    { limit, signal }: { limit: number; signal?: AbortSignal },
  ): Promise<SearchResult[]> {
    const url = new URL(this.baseURL)
    const params = {
      action: 'query',
      format: 'json',
      formatversion: '2',
      list: 'search',
      srsearch: query,
      srlimit: String(Math.max(1, Math.min(limit, 20))),
      srprop: 'snippet',
    }
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
    await this.limiter.wait(signal)
    const response = await this.fetcher.fetch(url.href, { signal, accept: ['application/json'] })
    const json = JSON.parse(response.body) as {
      query?: { search?: Array<{ title?: unknown; snippet?: unknown; url?: unknown }> }
    }
    const hits = json.query?.search ?? []
    return hits
      .filter(
        (hit): hit is { title: string; snippet?: unknown; url?: unknown } => typeof hit.title === 'string',
      )
      .slice(0, limit)
      .map((hit) => ({
        // A MediaWiki's pages live at index.php?title=…, beside api.php; `url` lets a test server point elsewhere.
        url: typeof hit.url === 'string' ? hit.url : pageUrl(this.baseURL, hit.title),
        title: hit.title,
        snippet: typeof hit.snippet === 'string' ? stripTags(hit.snippet) : '',
      }))
  }
}

/// The URL of a MediaWiki page from the wiki's api.php URL: `…/w/api.php` → `…/w/index.php?title=Page_name`.
export function pageUrl(apiUrl: string, title: string): string {
  const url = new URL(apiUrl)
  url.pathname = url.pathname.replace(/api\.php$/, 'index.php')
  url.search = ''
  url.searchParams.set('title', title.replace(/ /g, '_'))
  return url.href
}
