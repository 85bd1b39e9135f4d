// A check's verdicts for publishing: schema.org ClaimReview in JSON-LD, the markup search engines read fact-checks
// from (https://developers.google.com/search/docs/appearance/structured-data/factcheck).
import type { Config } from '../../../shared/config'
import type { ClaimReview, Report } from '../../../shared/schemas'
import { annotate, claimWords, isWebUrl, verdictWords, type AnnotatedClaim } from './annotate'

/// Who publishes the reviews, from the configuration's `publisher`.
export type Publisher = Config['publisher']

/// The organization named as the reviews' author when the configuration names none.
const UNNAMED_PUBLISHER = 'Factdesk'

/// The verdicts a review is published for, each as a rating from WORST to BEST (a claim left unverifiable, or
/// one to check by hand, has no verdict to publish).
const RATINGS = { refuted: 1, misleading: 3, supported: 5 } as const
const WORST = 1
const BEST = 5

/// A claim with a verdict to publish.
type Rated = AnnotatedClaim & { verdict: keyof typeof RATINGS }

const isRated = (claim: AnnotatedClaim): claim is Rated => Object.hasOwn(RATINGS, claim.verdict)

/// The address of a claim in its source: a text fragment of its words (`#:~:text=`), which a browser scrolls to
/// and highlights. The characters a fragment gives a meaning of its own (`-`, `&`, `,`) are escaped too.
function claimAnchor(sourceUrl: string, words: string): string {
  const url = new URL(sourceUrl)
  url.hash = ''
  const fragment = encodeURIComponent(words).replace(
    /[-&,]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  )
  return `${url.href}#:~:text=${fragment}`
}

/// The ClaimReviews of a report: one per claim whose verdict is refuted, misleading or supported, in text order.
/// A check without a web `sourceUrl` has no `url` nor `appearance`: where the claims are published is not known
/// here (a publisher fills it in). `itemReviewed` has no `datePublished`: a check does not know when its text was
/// published.
export function toClaimReviews(report: Report, publisher: Publisher): ClaimReview[] {
  const { check } = report
  const source = check.sourceUrl !== null && isWebUrl(check.sourceUrl) ? check.sourceUrl : null
  const author: ClaimReview['author'] = {
    '@type': 'Organization',
    name: publisher.name ?? UNNAMED_PUBLISHER,
    ...(publisher.url === undefined ? {} : { url: publisher.url }),
  }
  return annotate(report)
    .claims.filter(isRated)
    .map((claim) => {
      const words = claimWords(claim)
      return {
        '@context': 'https://schema.org',
        '@type': 'ClaimReview',
        claimReviewed: words,
        reviewRating: {
          '@type': 'Rating',
          ratingValue: RATINGS[claim.verdict],
          bestRating: BEST,
          worstRating: WORST,
          alternateName: verdictWords(claim),
        },
        itemReviewed: {
          '@type': 'Claim',
          ...(source === null ? {} : { appearance: { '@type': 'CreativeWork', url: source } }),
        },
        author,
        ...(check.completedAt === null ? {} : { datePublished: check.completedAt }),
        ...(source === null ? {} : { url: claimAnchor(source, words) }),
      }
    })
}
