import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type FakeProvider = 'brave' | 'tavily' | 'searxng'

/// A hit the fake search APIs return.
export interface FakeResult {
  title: string
  url: string
  snippet?: string
  /// When the page was published (ISO), sent in the provider's own member and form.
  published?: string
}

/// One request a fake search API received, in arrival order.
export interface SearchRequest {
  provider: FakeProvider
  method: string
  query: string
  /// `count` (Brave) or `max_results` (Tavily); null where the API has none (SearXNG).
  limit: number | null
  /// The key as sent (Brave's header, Tavily's bearer token); null when none came.
  key: string | null
  /// Tavily's `include_domains` and `exclude_domains`; null when not sent (and for the others).
  includeDomains: string[] | null
  excludeDomains: string[] | null
}

/// An answer forced on the next request instead of results: an HTTP status (with a Retry-After), or a
/// delay before the results.
export interface ForcedAnswer {
  status?: number
  retryAfter?: string
  delayMs?: number
}

/// Brave Search, Tavily and SearXNG on real HTTP at 127.0.0.1, each in its own shape: `GET
/// /res/v1/web/search?q&count` with `X-Subscription-Token`, `POST /search` with a bearer token and
/// `{query, max_results}`, and `GET /searxng/search?q&format=json`. A wrong or missing key answers 401,
/// SearXNG without `format=json` 403. Every request is logged.
export class FakeSearch {
  readonly requests: SearchRequest[] = []
  /// The key Brave and Tavily accept.
  key = 'test-key'
  results: (query: string) => FakeResult[] = () => []
  private readonly forced: ForcedAnswer[] = []
  private readonly server = createServer((request, response) => void this.handle(request, response))
  origin = ''

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve))
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  /// The `search.baseURL` of `provider` on this server.
  baseURL(provider: FakeProvider): string {
    return {
      brave: `${this.origin}/res/v1/web/search`,
      tavily: `${this.origin}/search`,
      searxng: `${this.origin}/searxng`,
    }[provider]
  }

  /// Answers the next requests (one each, in order) with `answers` instead of results.
  force(...answers: ForcedAnswer[]): void {
    this.forced.push(...answers)
  }

  close(): Promise<void> {
    this.server.closeAllConnections()
    return new Promise((resolve) => this.server.close(() => resolve()))
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', this.origin)
    const chunks: Buffer[] = []
    for await (const chunk of request) chunks.push(chunk as Buffer)
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers })
      response.end(JSON.stringify(body))
    }
    let logged: SearchRequest
    if (url.pathname === '/res/v1/web/search' && request.method === 'GET') {
      const token = request.headers['x-subscription-token']
      logged = {
        provider: 'brave',
        method: 'GET',
        query: url.searchParams.get('q') ?? '',
        limit: Number(url.searchParams.get('count')),
        key: typeof token === 'string' ? token : null,
        includeDomains: null,
        excludeDomains: null,
      }
    } else if (url.pathname === '/search' && request.method === 'POST') {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
        query?: string
        max_results?: number
        include_domains?: string[]
        exclude_domains?: string[]
      }
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')
      logged = {
        provider: 'tavily',
        method: 'POST',
        query: body.query ?? '',
        limit: body.max_results ?? null,
        key: bearer?.[1] ?? null,
        includeDomains: body.include_domains ?? null,
        excludeDomains: body.exclude_domains ?? null,
      }
    } else if (url.pathname === '/searxng/search' && request.method === 'GET') {
      logged = {
        provider: 'searxng',
        method: 'GET',
        query: url.searchParams.get('q') ?? '',
        limit: null,
        key: null,
        includeDomains: null,
        excludeDomains: null,
      }
      if (url.searchParams.get('format') !== 'json') {
        this.requests.push(logged)
        response.writeHead(403, { 'content-type': 'text/html' }).end('Forbidden')
        return
      }
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
      return
    }
    this.requests.push(logged)
    const forced = this.forced.shift()
    if (forced?.delayMs) await new Promise((resolve) => setTimeout(resolve, forced.delayMs))
    if (forced?.status) {
      json(forced.status, { error: 'forced' }, forced.retryAfter ? { 'retry-after': forced.retryAfter } : {})
      return
    }
    if (logged.provider !== 'searxng' && logged.key !== this.key) {
      json(401, { error: 'invalid key' })
      return
    }
    const results = this.results(logged.query).slice(0, logged.limit ?? undefined)
    if (logged.provider === 'brave') {
      json(200, {
        type: 'search',
        web: {
          type: 'search',
          results: results.map((r) => ({
            title: r.title,
            url: r.url,
            description: r.snippet ?? '',
            // Brave's page_age is ISO without a zone; its age is for people ("May 1, 2024", "2 days ago").
            ...(r.published ? { page_age: r.published.replace(/Z$/, ''), age: '2 days ago' } : {}),
          })),
        },
      })
    } else if (logged.provider === 'tavily') {
      json(200, {
        query: logged.query,
        results: results.map((r) => ({
          title: r.title,
          url: r.url,
          content: r.snippet ?? '',
          score: 0.9,
          // An HTTP date, as Tavily writes it.
          ...(r.published ? { published_date: new Date(r.published).toUTCString() } : {}),
        })),
      })
    } else {
      json(200, {
        query: logged.query,
        results: results.map((r) => ({
          title: r.title,
          url: r.url,
          content: r.snippet ?? '',
          engine: 'fake',
          publishedDate: r.published ?? null,
        })),
      })
    }
  }
}
