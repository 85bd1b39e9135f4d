// The web as the engine sees it: search, safe fetches, readable text, passages and their ranking, with a
// cache of sources per URL so one page serves every claim that needs it.
import type { Config } from '../../../shared/config'
import type { ApiKeys } from '../base/keys'
import { Limiters } from '../models/limiter'
import { FetchRefused, SafeFetcher, type FetchOptions } from './fetcher'
import { splitPassages, type Passage } from './passages'
import { rankPassages } from './rank'
import { ApiSearch, type SearchProvider, type SearchResult } from './search'
import {
  allows,
  applyPolicy,
  nothingWithheld,
  prefers,
  siteFilters,
  type SourcePolicy,
  type Withheld,
} from './sourcePolicy'
import { hasPolicy } from '../../../shared/sources'

export * from './dates'
export * from './fetcher'
export * from './passages'
export * from './quotes'
export * from './rank'
export * from './search'
export * from './sourcePolicy'

/// A fetched page: its readable text and passages (offsets into `text`), when it was read and the publication
/// date it declares (null when none).
export interface Source {
  url: string
  title: string
  text: string
  passages: Passage[]
  retrievedAt: string
  publishedAt: string | null
}

/// A passage of a source, ranked for a claim.
export interface RankedPassage extends Passage {
  url: string
  title: string
  retrievedAt: string
  publishedAt: string | null
  score: number
}

/// What reading a list of pages gave: the sources, and the pages refused or failed, with why.
export interface Reading {
  sources: Source[]
  skipped: Array<{ url: string; reason: string }>
}

export interface WebOptions {
  /// How pages and search APIs are fetched (tests inject a resolver).
  fetch?: Partial<FetchOptions>
  /// Another search provider than the configured one (tests).
  provider?: SearchProvider
  now?: () => Date
  /// The source policy of an organization (saved in Settings) or of one of its checks (as it stood when the
  /// check was submitted); without it, the configuration's `sources` for all.
  sourcePolicy?: (of: { organizationId: string; checkId?: string }) => SourcePolicy | Promise<SourcePolicy>
}

/// Sources kept in memory at most.
const MAX_CACHED = 500
/// Pages fetched at once from one site, so that reading many of its pages in parallel does not hammer it.
const PER_SITE = 2

/// The web, under a source policy (`within`): its searches keep to the sites the policy allows, its preferred
/// sites first, and count what it removed (`withheld`); pages of sites it does not allow are not read.
export class Web {
  readonly fetcher: SafeFetcher
  readonly provider: SearchProvider
  /// The policy this web follows (the configuration's, until `within` or `forOrganization` gives another).
  readonly policy: SourcePolicy
  /// What the policy kept out of this web's searches so far.
  readonly withheld: Withheld = nothingWithheld()
  private readonly policyOf: NonNullable<WebOptions['sourcePolicy']>
  private readonly cacheMs: number
  private readonly now: () => Date
  private readonly cache = new Map<string, { source: Promise<Source>; at: number }>()
  private readonly sites = new Limiters(PER_SITE)

  /// `keys` holds the search provider's API key (the app's store, then the environment).
  constructor(config: Pick<Config, 'search' | 'web' | 'sources'>, options: WebOptions = {}, keys?: ApiKeys) {
    this.fetcher = new SafeFetcher({ allowLocalTargets: config.web.allowLocalTargets, ...options.fetch })
    // The search endpoint follows the same address rules as pages (api-decisions: `web.allowLocalTargets`
    // admits loopback "for searches and page fetches").
    this.provider = options.provider ?? new ApiSearch(config.search, this.fetcher, keys)
    this.cacheMs = config.web.sourceCacheSeconds * 1000
    this.now = options.now ?? (() => new Date())
    this.policy = config.sources
    this.policyOf = options.sourcePolicy ?? (() => config.sources)
  }

  /// This web under `policy`, counting what it withholds from nothing: the search provider, the fetcher and
  /// the pages read are shared.
  within(policy: SourcePolicy): Web {
    return Object.assign(Object.create(Web.prototype) as Web, this, { policy, withheld: nothingWithheld() })
  }

  /// This web under the source policy of an organization, or of one of its checks.
  async forOrganization(organizationId: string, checkId?: string): Promise<Web> {
    return this.within(await this.policyOf({ organizationId, checkId }))
  }

  /// Whether the page is on a site the policy prefers: a trusted source.
  prefers(url: string): boolean {
    return prefers(this.policy, url)
  }

  /// The search's results the policy allows, its preferred sites first. The provider filters by site where it
  /// can and is asked for twice as many results, of which the policy may remove some.
  async search(query: string, limit: number, signal?: AbortSignal): Promise<SearchResult[]> {
    if (!hasPolicy(this.policy)) return this.provider.search(query, { limit, signal })
    const results = await this.provider.search(query, {
      limit: limit * 2,
      signal,
      sites: siteFilters(this.policy),
    })
    const { kept, removed } = applyPolicy(this.policy, results)
    this.withheld.searches++
    this.withheld.removed += removed
    if (results.length > 0 && kept.length === 0) this.withheld.emptied++
    return kept.slice(0, limit)
  }

  /// The source at `url`, from the cache while it is fresh; a failed fetch is not cached. A page of a site the
  /// policy does not allow is refused, however it was found.
  source(url: string, signal?: AbortSignal): Promise<Source> {
    if (!allows(this.policy, url)) {
      return Promise.reject(new FetchRefused(`${url} is on a site the source policy excludes`, 'policy'))
    }
    const at = this.now().getTime()
    const hit = this.cache.get(url)
    if (hit && at - hit.at < this.cacheMs) return hit.source
    const source = this.load(url, signal)
    this.cache.delete(url)
    this.cache.set(url, { source, at })
    // Oldest first: expired sources go, and the cache never holds more than MAX_CACHED pages.
    for (const [key, entry] of this.cache) {
      if (this.cache.size <= MAX_CACHED && at - entry.at < this.cacheMs) break
      this.cache.delete(key)
    }
    source.catch(() => {
      if (this.cache.get(url)?.source === source) this.cache.delete(url)
    })
    return source
  }

  private async load(url: string, signal?: AbortSignal): Promise<Source> {
    const site = URL.parse(url)?.host ?? url
    const release = await this.sites.for(site).acquire(signal ?? new AbortController().signal)
    let fetched
    try {
      fetched = await this.fetcher.fetch(url, { signal })
    } finally {
      release()
    }
    // Loaded on the first page read: Readability and linkedom are megabytes of heap an engine that only runs
    // t1 and t2 would hold.
    const { readableText } = await import('./readable')
    const { title, text, publishedAt } = readableText(fetched.body, fetched.contentType, fetched.url)
    return {
      url,
      title,
      text,
      passages: splitPassages(text),
      retrievedAt: this.now().toISOString(),
      publishedAt,
    }
  }

  /// Reads `urls` in parallel (at most PER_SITE at once from one site); refused and failed fetches are skipped
  /// and reported. Sources come in the order of `urls`.
  async read(urls: readonly string[], signal?: AbortSignal): Promise<Reading> {
    const settled = await Promise.allSettled(urls.map((url) => this.source(url, signal)))
    const reading: Reading = { sources: [], skipped: [] }
    settled.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') reading.sources.push(outcome.value)
      else if (outcome.reason instanceof FetchRefused)
        reading.skipped.push({ url: urls[index] as string, reason: outcome.reason.message })
      else throw outcome.reason
    })
    return reading
  }

  /// Searches each query, reads the top `pagesPerQuery` results of each, and ranks all their passages for the
  /// claim; returns the best `limit`.
  async research(
    claim: string,
    queries: readonly string[],
    options: { pagesPerQuery?: number; limit?: number; signal?: AbortSignal } = {},
  ): Promise<Reading & { passages: RankedPassage[] }> {
    const urls: string[] = []
    for (const query of queries) {
      const results = await this.search(query, options.pagesPerQuery ?? 3, options.signal)
      for (const result of results) if (!urls.includes(result.url)) urls.push(result.url)
    }
    const reading = await this.read(urls, options.signal)
    return { ...reading, passages: rankedPassages(claim, reading.sources).slice(0, options.limit ?? 8) }
  }
}

/// Every passage of `sources`, with its page and dates, in order of relevance to the claim.
export function rankedPassages(claim: string, sources: readonly Source[]): RankedPassage[] {
  return rankPassages(
    claim,
    sources.flatMap((source) =>
      source.passages.map((passage) => ({
        ...passage,
        url: source.url,
        title: source.title,
        retrievedAt: source.retrievedAt,
        publishedAt: source.publishedAt,
      })),
    ),
  )
}
