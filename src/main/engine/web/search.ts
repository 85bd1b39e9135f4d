import type { Config } from '../../../shared/config'
import { apiKeys, type ApiKeys } from '../base/keys'
import { backoffMs, MAX_RETRY_AFTER_MS, retryAfterMs } from '../models/retry'
import { PermanentError } from '../base/errors'
import { resultDate } from './dates'
import { FetchRefused, SafeFetcher, type FetchInit } from './fetcher'

/// One search hit: a page to read, with the date its provider gives for it (its publication, or a wiki page's
/// last edit) as an ISO timestamp, null when it gives none.

/// What a provider is asked to search: only these sites (none: all), never those.
export interface SiteFilters {
  only: string[]
  never: string[]
}

export interface SearchResult {
  url: string
  title: string
  snippet: string
  date: string | null
}

/// How one search is made: `sites` asks the provider to keep to some sites and leave out others, where it can
/// filter by site (its results are filtered again whatever it did).
export interface SearchOptions {
  limit: number
  signal?: AbortSignal
  sites?: SiteFilters
}

/// A web search service behind one interface: the MediaWiki action API, Brave Search, Tavily or SearXNG.
export interface SearchProvider {
  readonly name: string
  search(query: string, options: SearchOptions): Promise<SearchResult[]>
}

type SearchSettings = Config['search']
type ProviderName = SearchSettings['provider']

/// Spaces requests to one provider at least `intervalMs` apart (its rate limit), in call order.
class RateLimiter {
  private next = 0
  constructor(private readonly intervalMs: number) {}

  async wait(signal?: AbortSignal): Promise<void> {
    const now = Date.now()
    const at = Math.max(now, this.next)
    this.next = at + this.intervalMs
    if (at > now) {
      await new Promise<void>((resolve, reject) => {
        const abort = () => {
          clearTimeout(timer)
          reject(signal?.reason)
        }
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', abort)
          resolve()
        }, at - now)
        signal?.addEventListener('abort', abort, { once: true })
      })
    }
  }

  /// Holds every request, waiting ones included, for `ms` from now (a provider's Retry-After).
  pause(ms: number): void {
    this.next = Math.max(this.next, Date.now() + ms)
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

/// The URL of a MediaWiki page from the wiki's api.php URL: `…/w/api.php` → `…/w/index.php?title=Page_name`.
export function pageUrl(apiUrl: string, title: string): string {
  const url = new URL(apiUrl)
  url.pathname = url.pathname.replace(/api\.php$/, 'index.php')
  url.search = ''
  url.searchParams.set('title', title.replace(/ /g, '_'))
  return url.href
}

/// A search request as one provider's API wants it.
type ApiRequest = Pick<FetchInit, 'method' | 'headers' | 'body'> & { url: string }

/// What sets one provider apart: its name in messages, its default pace and key variable, how a query becomes
/// a request and how the answer becomes results.
interface ProviderSpec {
  label: string
  requestsPerSecond: number
  /// The environment variable read for the key when `search.apiKeyEnv` names none; null: no key needed.
  keyEnv: string | null
  request(baseURL: string, query: string, limit: number, key: string, sites: SiteFilters): ApiRequest
  results(answer: unknown, baseURL: string): SearchResult[]
}

/// The array at `key` of an API's answer (an object), as loosely typed records; none when the shape is off.
function records(value: unknown, key: string): Array<Record<string, unknown>> {
  const list = (value as Record<string, unknown> | null)?.[key]
  return Array.isArray(list) ? list.filter((item) => typeof item === 'object' && item !== null) : []
}

const text = (value: unknown): string => (typeof value === 'string' ? stripTags(value) : '')

/// Hits with a title and an http(s) URL, their snippet and date read from the provider's members of those
/// names; anything else is dropped.
function hits(list: Array<Record<string, unknown>>, snippet: string, date: string): SearchResult[] {
  return list
    .filter(
      (hit) => typeof hit.url === 'string' && /^https?:\/\//i.test(hit.url) && typeof hit.title === 'string',
    )
    .map((hit) => ({
      url: hit.url as string,
      title: text(hit.title),
      snippet: text(hit[snippet]),
      date: resultDate(hit[date]),
    }))
}

/// The longest query Brave Search takes; the site operators stop short of it.
const MAX_QUERY_CHARS = 400

/// A query with search operators for the sites (`site:` and `-site:`, as Brave Search and the engines behind
/// SearXNG read them): those of a list that would make it longer than MAX_QUERY_CHARS are left to the filter on
/// the results.
function withSiteOperators(query: string, sites: SiteFilters): string {
  const only = sites.only.map((site) => `site:${site}`).join(' OR ')
  const never = sites.never.map((site) => `-site:${site}`).join(' ')
  let written = query
  for (const operators of [only, never])
    if (operators && written.length + 1 + operators.length <= MAX_QUERY_CHARS) written += ` ${operators}`
  return written
}

/// Sites Tavily takes at most in `include_domains` and in `exclude_domains`.
const TAVILY_SITES = { only: 300, never: 150 }

const withQuery = (base: string, params: Record<string, string>): string => {
  const url = new URL(base)
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value)
  return url.href
}

const PROVIDERS: Record<ProviderName, ProviderSpec> = {
  /// The MediaWiki action API (Wikipedia, or any MediaWiki by its `api.php` URL): full-text search, no key.
  wikipedia: {
    label: 'The MediaWiki search',
    requestsPerSecond: 5,
    keyEnv: null,
    request: (baseURL, query, limit) => ({
      url: withQuery(baseURL, {
        action: 'query',
        format: 'json',
        formatversion: '2',
        list: 'search',
        srsearch: query,
        srlimit: String(Math.min(limit, 20)),
        srprop: 'snippet|timestamp',
      }),
    }),
    results: (answer, baseURL) =>
      records((answer as { query?: unknown } | null)?.query, 'search')
        .filter((hit) => typeof hit.title === 'string')
        .map((hit) => ({
          // A MediaWiki's pages live at index.php?title=…, beside api.php; `url` lets a test server point elsewhere.
          url: typeof hit.url === 'string' ? hit.url : pageUrl(baseURL, hit.title as string),
          title: hit.title as string,
          snippet: text(hit.snippet),
          date: resultDate(hit.timestamp),
        })),
  },
  /// Brave Search's web search API: `GET ?q=…&count=…` with the key in `X-Subscription-Token`.
  brave: {
    label: 'Brave Search',
    // The free plan allows one request a second.
    requestsPerSecond: 1,
    keyEnv: 'BRAVE_API_KEY',
    request: (baseURL, query, limit, key, sites) => ({
      url: withQuery(baseURL, { q: withSiteOperators(query, sites), count: String(Math.min(limit, 20)) }),
      headers: { 'x-subscription-token': key },
    }),
    results: (answer) =>
      hits(records((answer as { web?: unknown } | null)?.web, 'results'), 'description', 'page_age'),
  },
  /// Tavily's search API: `POST {query, max_results}` with the key as a bearer token, and the sites to keep
  /// to or leave out as `include_domains` and `exclude_domains` (lists longer than Tavily takes are left to the
  /// filter on the results).
  tavily: {
    label: 'Tavily',
    requestsPerSecond: 2,
    keyEnv: 'TAVILY_API_KEY',
    request: (baseURL, query, limit, key, sites) => ({
      url: baseURL,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        query,
        max_results: Math.min(limit, 20),
        ...(sites.only.length > 0 && sites.only.length <= TAVILY_SITES.only
          ? { include_domains: sites.only }
          : {}),
        ...(sites.never.length > 0 && sites.never.length <= TAVILY_SITES.never
          ? { exclude_domains: sites.never }
          : {}),
      }),
    }),
    results: (answer) => hits(records(answer, 'results'), 'content', 'published_date'),
  },
  /// A SearXNG instance: `GET {baseURL}/search?q=…&format=json` (the instance must allow the json format).
  searxng: {
    label: 'SearXNG',
    requestsPerSecond: 2,
    keyEnv: null,
    request: (baseURL, query, _limit, _key, sites) => ({
      url: withQuery(new URL('search', baseURL.endsWith('/') ? baseURL : `${baseURL}/`).href, {
        q: withSiteOperators(query, sites),
        format: 'json',
      }),
    }),
    results: (answer) => hits(records(answer, 'results'), 'content', 'publishedDate'),
  },
}

const ANY_SITE: SiteFilters = { only: [], never: [] }

/// Retries of a search the provider answered with 429, each after its Retry-After (or a backoff).
const RATE_LIMIT_RETRIES = 2

/// A search provider's API called through the safe fetcher: its key (from `keys`: the app's store, then the
/// environment), its pace (`search.requestsPerSecond`, else the provider's default) and its time cap
/// (`search.timeoutMs`). Failures read as sentences: a missing or refused key will not mend (`PermanentError`),
/// a timeout or rate limiting may.
export class ApiSearch implements SearchProvider {
  readonly name: ProviderName
  private readonly spec: ProviderSpec
  private readonly limiter: RateLimiter

  constructor(
    private readonly settings: SearchSettings,
    private readonly fetcher: SafeFetcher,
    private readonly keys: ApiKeys = apiKeys(),
  ) {
    this.name = settings.provider
    this.spec = PROVIDERS[settings.provider]
    this.limiter = new RateLimiter(1000 / (settings.requestsPerSecond ?? this.spec.requestsPerSecond))
  }

  async search(query: string, { limit, signal, sites = ANY_SITE }: SearchOptions): Promise<SearchResult[]> {
    const { label } = this.spec
    const request = this.spec.request(this.settings.baseURL, query, Math.max(1, limit), this.key(), sites)
    for (let retry = 0; ; retry++) {
      await this.limiter.wait(signal)
      try {
        const response = await this.fetcher.fetch(request.url, {
          ...request,
          signal,
          accept: ['application/json'],
          timeoutMs: this.settings.timeoutMs,
        })
        return this.spec.results(JSON.parse(response.body), this.settings.baseURL).slice(0, limit)
      } catch (error) {
        if (error instanceof SyntaxError) throw new Error(`${label} answered with something other than JSON.`)
        if (!(error instanceof FetchRefused)) throw error
        const status = error.answer?.status
        if (error.reason === 'timeout') {
          throw new Error(`${label} did not answer within ${this.settings.timeoutMs} ms (search.timeoutMs).`)
        }
        if (status === 401 || status === 403) {
          throw new PermanentError(
            this.spec.keyEnv
              ? `${label} refused the API key (HTTP ${status}): check the key in ${this.keySource()}.`
              : `${label} refused the search (HTTP ${status})` +
                  (this.name === 'searxng'
                    ? ": allow the json format in the instance's settings.yml (search.formats)."
                    : '.'),
          )
        }
        if (status === 429) {
          const retryAfter = error.answer?.retryAfter
          const waitMs = retryAfterMs({ 'retry-after': retryAfter ?? '' }) ?? backoffMs(retry, 1000)
          // Waits the provider asks for, unless it asks for longer than any search may wait.
          if (retry < RATE_LIMIT_RETRIES && waitMs < MAX_RETRY_AFTER_MS) {
            this.limiter.pause(waitMs)
            continue
          }
          throw new Error(
            `${label} is limiting the rate of searches (HTTP 429${retryAfter ? `, Retry-After: ${retryAfter}` : ''}); ` +
              'try again later or lower search.requestsPerSecond.',
          )
        }
        throw new Error(`${label} search failed: ${error.message}.`)
      }
    }
  }

  /// The key the provider needs ('' for none); a missing one says where it is looked for.
  private key(): string {
    const variable = this.keyVariable()
    if (variable === null) return ''
    const key = this.keys.search(variable)
    if (!key) {
      throw new PermanentError(`${this.spec.label} needs an API key in ${this.keySource()}.`)
    }
    return key
  }

  private keyVariable(): string | null {
    return this.spec.keyEnv === null ? null : (this.settings.apiKeyEnv ?? this.spec.keyEnv)
  }

  /// Where the key is looked for, in words.
  private keySource(): string {
    return (
      `the environment variable ${this.keyVariable()} (search.apiKeyEnv names another) ` +
      "or the app's Settings > Search"
    )
  }
}
