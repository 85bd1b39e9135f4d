import type { Citation } from './schemas'

/// A citation's dates in a few words, as the claim panel and the exports show them: "published 2024-05-01,
/// retrieved 2026-11-25", or only when it was retrieved when the page declares no date.
export const citationDates = (citation: Pick<Citation, 'publishedAt' | 'retrievedAt'>): string =>
  (citation.publishedAt ? `published ${citation.publishedAt.slice(0, 10)}, ` : '') +
  `retrieved ${citation.retrievedAt.slice(0, 10)}`

/// How the claim panel and the exports mark a citation on a site the source policy prefers.
export const PREFERRED_SOURCE = 'preferred source'

/// What a reader weighs a citation by, in a few words: "preferred source, published 2024-05-01, retrieved
/// 2026-11-25" (a preferred source is on a site the organization's source policy trusts).
export const citationFacts = (
  citation: Pick<Citation, 'preferred' | 'publishedAt' | 'retrievedAt'>,
): string => (citation.preferred ? `${PREFERRED_SOURCE}, ` : '') + citationDates(citation)

/// How a citation bears on its claim, in words; null where its stance was not judged.
export const stanceWords = (stance: Citation['stance']): string | null =>
  stance === 'supports'
    ? 'supports the claim'
    : stance === 'refutes'
      ? 'contradicts the claim'
      : stance === 'neutral'
        ? 'does not settle the claim'
        : null

/// A citation as stored: one written before pages' dates, stances and source policies were kept lacks them.
export const storedCitation = (citation: Citation): Citation => ({
  ...citation,
  publishedAt: citation.publishedAt ?? null,
  stance: citation.stance ?? null,
  preferred: citation.preferred ?? false,
})

/// `citations` with the stances judged for them (`judged`, matched by URL and quote); those not judged keep
/// theirs.
export const withStances = (citations: readonly Citation[], judged: readonly Citation[]): Citation[] =>
  citations.map((citation) => ({
    ...citation,
    stance:
      judged.find((other) => other.url === citation.url && other.quote === citation.quote)?.stance ??
      citation.stance,
  }))

/// Each distinct quote of a source once (by URL and quote), in order.
export const distinctCitations = (citations: readonly Citation[]): Citation[] =>
  citations.filter(
    (citation, index, all) =>
      all.findIndex((other) => other.url === citation.url && other.quote === citation.quote) === index,
  )
