import type { Claim, Consensus, Evaluation, Report, Tier } from '../../../shared/schemas'
import { headlineConsensus, headlineTier, verdictBasis } from '../../../shared/verdicts'

/// What an exported report says of a claim: its headline verdict, or why there is none.
export type ExportVerdict = Consensus['verdict'] | 'failed' | 'unchecked'

/// The verdicts in the order the summary lists them, with the words each export uses.
export const VERDICT_LABELS: Record<ExportVerdict, string> = {
  supported: 'Supported',
  refuted: 'Refuted',
  misleading: 'Misleading',
  unverifiable: 'Unverifiable',
  issues: 'Spelling or grammar issues',
  clean: 'No issues',
  failed: 'Failed',
  unchecked: 'Not checked',
}

/// One claim of an exported report: numbered in text order (its footnote), with the headline tier's verdict.
export interface AnnotatedClaim {
  number: number
  claim: Claim
  tier: Tier
  verdict: ExportVerdict
  consensus: Consensus | null
  /// The other tiers that decided, deepest first.
  otherTiers: { tier: Tier; consensus: Consensus }[]
  /// Every vote on the claim, the headline tier's first.
  votes: Evaluation[]
}

/// A run of the document's text: plain, or the whole text of one claim.
export interface Segment {
  text: string
  claim: AnnotatedClaim | null
}

/// A report laid out for exporting: the claims with their verdicts, the text cut at the claims' offsets, and
/// the number of claims per verdict.
export interface Annotated {
  report: Report
  title: string
  claims: AnnotatedClaim[]
  segments: Segment[]
  counts: { verdict: ExportVerdict; count: number }[]
}

/// Lays out a report for the exporters. Claims are cut out of `report.text` by their UTF-16 offsets; one whose
/// offsets do not hold its text (or overlap the previous claim) keeps its footnote but is not highlighted.
export function annotate(report: Report): Annotated {
  const { check, text } = report
  const tier = headlineTier(check.tiers)
  const claims = [...report.claims]
    .sort((a, b) => a.charStart - b.charStart)
    .map((claim, index): AnnotatedClaim => {
      const consensus = headlineConsensus(claim.consensus, check.tiers)
      return {
        number: index + 1,
        claim,
        tier,
        verdict: consensus?.verdict ?? (check.status === 'failed' ? 'failed' : 'unchecked'),
        consensus,
        otherTiers: (['t3', 't2', 't1'] as const).flatMap((other) => {
          const decided = claim.consensus[other]
          return other !== tier && decided ? [{ tier: other, consensus: decided }] : []
        }),
        votes: [...claim.evaluations].sort((a, b) => Number(b.tier === tier) - Number(a.tier === tier)),
      }
    })
  const segments: Segment[] = []
  let at = 0
  for (const annotated of claims) {
    const { charStart, charEnd, text: claimText } = annotated.claim
    if (charStart < at || text.slice(charStart, charEnd) !== claimText) continue
    if (charStart > at) segments.push({ text: text.slice(at, charStart), claim: null })
    segments.push({ text: claimText, claim: annotated })
    at = charEnd
  }
  if (at < text.length) segments.push({ text: text.slice(at), claim: null })
  const counts = (Object.keys(VERDICT_LABELS) as ExportVerdict[])
    .map((verdict) => ({ verdict, count: claims.filter((claim) => claim.verdict === verdict).length }))
    .filter(({ count }) => count > 0)
  return { report, title: check.name ?? `Check ${check.id}`, claims, segments, counts }
}

/// A share (0 to 1) as a whole percentage.
export const percent = (share: number): string => `${Math.round(share * 100)}%`

/// The tier and what stands behind a claim's verdict, e.g. "t2, Unsourced: the models’ judgement · decided by
/// the judge · agreement 67%"; t1's rules have no panel to agree.
export function verdictDetails(claim: AnnotatedClaim): string {
  if (!claim.consensus || claim.tier === 't1') return claim.tier
  return `${claim.tier}, ${verdictBasis(claim.consensus)}`
}

/// The check's facts for the summary: what was checked, by whom, when and at what cost.
export function checkFacts(report: Report): [string, string][] {
  const { check } = report
  const facts: [string, string | null][] = [
    ['Check', check.id],
    ['Author', check.author],
    ['Source', check.sourceUrl],
    ['Tiers', check.tiers.join(', ')],
    ['Status', check.status],
    ['Submitted', readableTime(check.createdAt)],
    ['Completed', check.completedAt && readableTime(check.completedAt)],
    ['Credits', `${check.credits.charged} charged, ${check.credits.refunded} refunded`],
  ]
  return facts.filter((fact): fact is [string, string] => fact[1] !== null)
}

const TIME = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  timeZone: 'UTC',
})

/// A timestamp as a reader reads it, the same on every machine: "22 Nov 2026, 09:31 UTC".
export const readableTime = (iso: string): string => `${TIME.format(new Date(iso))} UTC`

/// Whether a URL may become a link in an export: http and https only (never `javascript:` or `data:`).
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}
