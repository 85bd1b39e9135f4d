// A newsroom's source policy applied to the web t3 and deep research see: search results of sites it never
// cites or does not search are removed (after the provider's own site filters, where it has them), its
// preferred sites ranked first, and what it removed counted, so that a search it emptied says so rather than
// reading as "no evidence".
import type { SourcePolicy } from '../../../shared/schemas'
import { covers, hostOf, isIpAddress } from '../../../shared/sources'
import type { SearchResult, SiteFilters } from './search'

export type { SourcePolicy }

/// The policy that says nothing: every site, none preferred.
export const NO_POLICY: SourcePolicy = { prefer: [], only: [], never: [] }

/// Whether the policy lets a page be searched, read and cited: not on a `never` site and, when it has `only`
/// sites, on one of them. A URL without a host is let through to the fetcher, which refuses it.
export function allows(policy: SourcePolicy, url: string): boolean {
  const host = hostOf(url)
  if (host === null) return true
  return (
    !policy.never.some((site) => covers(site, host)) &&
    (policy.only.length === 0 || policy.only.some((site) => covers(site, host)))
  )
}

/// Whether the page is on a site the policy prefers (a trusted source).
export function prefers(policy: SourcePolicy, url: string): boolean {
  const host = hostOf(url)
  return host !== null && policy.prefer.some((site) => covers(site, host)) && allows(policy, url)
}

/// The sites a search provider is asked to keep to and to leave out, where it can filter by site: names only
/// (search engines index no IP addresses), the policy's other sites being filtered from the results anyway.
export const siteFilters = (policy: SourcePolicy): SiteFilters => ({
  only: policy.only.filter((site) => !isIpAddress(site)),
  never: policy.never.filter((site) => !isIpAddress(site)),
})

/// Search results as the policy has them: those it allows, preferred sites first (each group in the provider's
/// order), and how many it removed.
export function applyPolicy(
  policy: SourcePolicy,
  results: readonly SearchResult[],
): { kept: SearchResult[]; removed: number } {
  const allowed = results.filter((result) => allows(policy, result.url))
  const preferred = allowed.filter((result) => prefers(policy, result.url))
  return {
    kept: [...preferred, ...allowed.filter((result) => !preferred.includes(result))],
    removed: results.length - allowed.length,
  }
}

/// What the policy kept out of a claim's searches: the searches made, the results it removed and the
/// searches that found only pages it removes.
export interface Withheld {
  searches: number
  removed: number
  emptied: number
}

export const nothingWithheld = (): Withheld => ({ searches: 0, removed: 0, emptied: 0 })

export const addWithheld = (a: Withheld, b: Withheld): Withheld => ({
  searches: a.searches + b.searches,
  removed: a.removed + b.removed,
  emptied: a.emptied + b.emptied,
})

/// What the policy kept out, in a sentence for a verdict's reasoning; null when it removed nothing.
export function withheldWords(withheld: Withheld): string | null {
  if (withheld.removed === 0) return null
  const results = `${withheld.removed} search result${withheld.removed === 1 ? '' : 's'}`
  const emptied =
    withheld.emptied === 0
      ? ''
      : withheld.emptied === withheld.searches
        ? withheld.searches === 1
          ? ': the search found only pages of sites it excludes'
          : `: all ${withheld.searches} searches found only pages of sites it excludes`
        : `: ${withheld.emptied} of ${withheld.searches} searches found only pages of sites it excludes`
  return `The source policy removed ${results}${emptied}.`
}

/// A verdict with what the policy kept out of its searches said in its reasoning, where no source bears it out
/// (a search the policy emptied is then why, not a silent "no evidence").
export function withheldNoted<T extends { reasoning: string; sourced: boolean }>(
  verdict: T,
  withheld: Withheld,
): T {
  const words = withheldWords(withheld)
  return verdict.sourced || words === null
    ? verdict
    : { ...verdict, reasoning: `${verdict.reasoning} ${words}`.trim() }
}
