import { isRewrite } from '../../../shared/corrections'
import { counted } from '../../../shared/counted'
import { EXPORT_FORMATS } from '../../../shared/exportFormats'
import { withoutInlineMarks } from '../../../shared/markdown'
import type { Claim, Consensus, Evaluation, ExportComments, Report, Tier } from '../../../shared/schemas'
import { policyWords } from '../../../shared/sources'
import {
  attentionOf,
  DETAIL_WORDS,
  fallbackWords,
  headlineConsensus,
  headlineTier,
  verdictBasis,
  type Attention,
} from '../../../shared/verdicts'
import { EXPORT_VERDICTS, VOCABULARY, type ExportVerdict } from '../../../shared/vocabulary'
import { OPENABLE } from '../files/formats'
import { claimFixes, type SpellingFix } from './fixes'

/// One claim of an exported report: numbered in text order (its footnote), with the headline tier's verdict.
export interface AnnotatedClaim {
  number: number
  claim: Claim
  tier: Tier
  verdict: ExportVerdict
  consensus: Consensus | null
  /// Why the claim needs the editor's attention (see `attentionOf`), or null.
  attention: Attention | null
  /// Nothing confirmed it and nothing is to be done about it (see `isQuiet`): it gets no comment or note of its
  /// own, a lighter mark and a line in the list at the end. Never so in an export that notes every claim.
  quiet: boolean
  /// The words that would replace the claim, when the correction of the headline tier (or of a tier that found
  /// it refuted or misleading) is a rewrite of it; the claim's spelling fixes made in it (see `claimFixes`).
  correction: string | null
  /// The other tiers that decided, deepest first.
  otherTiers: { tier: Tier; consensus: Consensus }[]
  /// Every model's vote on the claim (not the spelling checker's), deepest tier first, then by round and model.
  votes: Evaluation[]
}

/// The extensions a check's name may end in when it is a file's name: a document's Factdesk opens, or an
/// export's.
const NAMED_EXTENSIONS = new Set([
  ...OPENABLE.map((extension) => extension.slice(1)),
  ...Object.values(EXPORT_FORMATS).map((format) => format.extension),
])
/// A check's name that is a file's name ends in this: its extension (dropped from its export's name; the
/// title is then the article's headline).
export const NAMED_FILE = new RegExp(`\\.(?:${[...NAMED_EXTENSIONS].join('|')})$`, 'i')

const TIER_ORDER: Record<Tier, number> = { t3: 0, t2: 1, t1: 2 }

/// The votes of a claim in the order every export lists them, the spelling checker's left out.
const modelVotes = (evaluations: readonly Evaluation[]): Evaluation[] =>
  evaluations
    .filter((vote) => vote.tier !== 't1')
    .sort(
      (a, b) =>
        TIER_ORDER[a.tier] - TIER_ORDER[b.tier] ||
        a.round - b.round ||
        (a.model < b.model ? -1 : a.model > b.model ? 1 : 0),
    )

/// A run of the document's text: plain, or the whole text of one claim.
export interface Segment {
  text: string
  claim: AnnotatedClaim | null
}

/// A report laid out for exporting: the claims with their verdicts, the text cut at the claims' offsets, the
/// number of claims per verdict, and the spelling fixes.
export interface Annotated {
  report: Report
  claims: AnnotatedClaim[]
  segments: Segment[]
  counts: { verdict: ExportVerdict; count: number }[]
  /// The spelling fixes of the claims, in text order (see `claimFixes`).
  fixes: SpellingFix[]
}

/// Whether a claim is one an editor need not read about: its verdict is unverifiable, it has no spelling or
/// grammar finding and it needs no attention (a disputed claim does).
const isQuiet = (claim: Pick<AnnotatedClaim, 'verdict' | 'attention' | 'claim'>): boolean =>
  claim.verdict === 'unverifiable' && claim.attention === null && claim.claim.issues.length === 0

/// Lays out a report for the exporters. Claims are cut out of `report.text` by their UTF-16 offsets; one whose
/// offsets do not hold its text (or overlap the previous claim) keeps its footnote but is not highlighted.
/// `comments` says which claims are noted one by one (`needed`: all but the quiet ones).
export function annotate(report: Report, comments: ExportComments = 'needed'): Annotated {
  const { check, text } = report
  const tier = headlineTier(check.tiers)
  const fixes: SpellingFix[] = []
  const claims = [...report.claims]
    .sort((a, b) => a.charStart - b.charStart)
    .map((claim, index): AnnotatedClaim => {
      const consensus = headlineConsensus(claim.consensus, check.tiers)
      const attention = attentionOf(claim, check)
      const disputed = attention?.disputed === true && consensus?.verdict === 'unverifiable'
      const suggested = consensus?.correction ?? attention?.correction ?? null
      const { correction, fixes: fixed } = claimFixes(
        text,
        claim,
        suggested && isRewrite(claim.text, suggested) ? suggested : null,
      )
      fixes.push(...fixed)
      const verdict: ExportVerdict = disputed
        ? 'disputed'
        : (consensus?.verdict ?? (check.status === 'failed' ? 'failed' : 'unchecked'))
      return {
        number: index + 1,
        claim,
        tier,
        verdict,
        consensus,
        attention,
        quiet: comments === 'needed' && isQuiet({ verdict, attention, claim }),
        correction,
        otherTiers: (['t3', 't2', 't1'] as const).flatMap((other) => {
          const decided = claim.consensus[other]
          return other !== tier && decided ? [{ tier: other, consensus: decided }] : []
        }),
        votes: modelVotes(claim.evaluations),
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
  const counts = EXPORT_VERDICTS.map((verdict) => ({
    verdict,
    count: claims.filter((claim) => claim.verdict === verdict).length,
  })).filter(({ count }) => count > 0)
  return { report, claims, segments, counts, fixes }
}

/// The claims that need the editor's attention (see `attentionOf`), in text order: every export's "Needs
/// attention" list.
export const needingAttention = <C extends AnnotatedClaim>(claims: readonly C[]): C[] =>
  claims.filter((claim) => claim.attention !== null)

/// A claim's words as a reader reads them, on one line: without the Markdown marks its text may hold (`**`,
/// `_`, backticks, a link's address), as every export quotes it.
export const claimWords = (claim: Pick<AnnotatedClaim, 'claim'>): string =>
  withoutInlineMarks(claim.claim.text).replace(/\s+/g, ' ').trim()

/// The quiet claims (see `AnnotatedClaim.quiet`), in text order: the list at the end of every export.
export const quietClaims = <C extends AnnotatedClaim>(claims: readonly C[]): C[] =>
  claims.filter((claim) => claim.quiet)

/// The summary's line on the quiet claims: "41 claims could not be confirmed: see the list at the end".
export const quietLine = (quiet: readonly AnnotatedClaim[]): string =>
  `${counted(quiet.length, 'claim')} could not be confirmed: see the list at the end`

/// The heading of the list of quiet claims at the end.
export const QUIET_HEADING = 'Could not be confirmed'

/// A claim's words for a line of the list of quiet claims: on one line, cut at a word after 80 characters.
export const shortClaim = (claim: AnnotatedClaim): string => cutAtWord(claimWords(claim), 80)

/// Text on one line of at most `most` characters: whole, or cut at its last word that fits (in its second half),
/// without the commas and spaces before the cut, and "…".
function cutAtWord(text: string, most: number): string {
  const chars = Array.from(text)
  if (chars.length <= most) return text
  const cut = chars.slice(0, most - 1).join('')
  const space = cut.lastIndexOf(' ')
  return `${(space > cut.length / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, '')}…`
}

/// What a line of the list of quiet claims says of why: the kind of unverifiable it is ("no evidence found"), or
/// nothing.
export function quietWhy(claim: AnnotatedClaim): string {
  const detail = claim.consensus?.detail
  return detail ? DETAIL_WORDS[detail] : ''
}

/// A claim's verdict in words with its kind, e.g. "Misleading: partly true", "Check by hand".
export function verdictWords(claim: Pick<AnnotatedClaim, 'verdict' | 'consensus'>): string {
  const detail = claim.verdict === 'disputed' ? null : claim.consensus?.detail
  const { label } = VOCABULARY[claim.verdict]
  return detail ? `${label}: ${DETAIL_WORDS[detail]}` : label
}

/// The tier and what a claim's verdict rests on, e.g. "t2, the models' unsourced judgement, agreement 100%".
export function verdictDetails(claim: AnnotatedClaim): string {
  const basis = claim.consensus && verdictBasis(claim.consensus)
  return basis ? `${claim.tier}, ${basis}` : claim.tier
}

/// Another tier's verdict in words, with the steps that fell back on the way to it: "t2: Refuted".
export function otherVerdictWords({ tier, consensus }: AnnotatedClaim['otherTiers'][number]): string {
  const fellBack = fallbackWords(consensus)
  return `${tier}: ${VOCABULARY[consensus.verdict].label}${fellBack ? ` (${fellBack})` : ''}`
}

/// One line of why a claim has its verdict: the deciding model's own reasoning up to its first sentence's end (the
/// judge's, or for a panel that decided without it the surest agreeing panelist's in its last round, never the
/// panel's count of its votes), or what a tier found when the headline verdict does not say it.
export function reasonLine(claim: AnnotatedClaim): string {
  if (claim.attention?.disputed) return claim.attention.why
  const reasoning = claim.consensus?.reasoning.replace(/\s+/g, ' ').trim() ?? ''
  if (reasoning === '')
    return claim.verdict === 'failed' ? 'The check failed before this claim was decided.' : ''
  // The judge's own words argued for the verdict its quotes did not bear out: the line says why it is not that.
  const overruled = OVERRULED.exec(reasoning)?.[1]
  if (overruled) return `${overruled.charAt(0).toUpperCase()}${overruled.slice(1)}.`
  return shortened(decidingVote(claim)?.rationale ?? reasoning)
}

/// The vote whose reasoning speaks for a decision the panel made without the judge: of the headline tier's votes
/// for the verdict in their last round, the surest (the first of equals, in the models' order); none for the
/// judge's decision, or when no vote gave a reason.
function decidingVote({ consensus, tier, votes }: AnnotatedClaim): Evaluation | undefined {
  if (consensus?.decidedBy !== 'panel' && consensus?.decidedBy !== 'majority') return undefined
  const agreeing = votes.filter(
    (vote) => vote.tier === tier && vote.verdict === consensus.verdict && vote.rationale.trim() !== '',
  )
  const last = Math.max(...agreeing.map((vote) => vote.round))
  return agreeing
    .filter((vote) => vote.round === last)
    .reduce<Evaluation | undefined>(
      (surest, vote) => (surest && surest.confidence >= vote.confidence ? surest : vote),
      undefined,
    )
}

/// A text's first sentence on one line, cut at a word with "…" when it is longer than 160 characters.
const shortened = (text: string): string =>
  cutAtWord(
    text
      .replace(/\s+/g, ' ')
      .trim()
      .split(/(?<=[.!?])\s/u)[0] as string,
    160,
  )

/// What the "Needs attention" list says of a claim after its verdict: why, the models' reason when the
/// headline verdict does not give it (the first sentence), and where the correction is.
export function attentionLine(claim: AnnotatedClaim): string {
  const { attention } = claim
  const reason = attention?.disputed ? shortened(attention.reason) : ''
  return [reasonLine(claim), reason ? `The models’ reason: ${reason}` : ''].filter(Boolean).join(' ')
}

/// The check's facts for the summary: what was checked, by whom, when, at what cost, and the source policy its
/// web research followed.
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
    ['Sources', report.sources && policyWords(report.sources)],
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
const readableTime = (iso: string): string => `${TIME.format(new Date(iso))} UTC`

/// Whether a URL may become a link in an export: http and https only (never `javascript:` or `data:`).
export function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

/// The note t3 adds to a verdict its verified quotes do not bear out, which then becomes unverifiable
/// ("The sources confirm it. (Unverifiable: no verified quote supports the claim.)"); its reason in group 1.
const OVERRULED = /\s*\(Unverifiable: ([^()]+)\.\)$/u

/// The judge's reasoning after its line in `reasonLine`: what the details add. Reasoning the quotes did not bear
/// out is said to be the judge's first reading, never as the verdict's grounds.
export function reasoningRest(claim: AnnotatedClaim): string {
  const reason = reasonLine(claim)
  const reasoning = claim.consensus?.reasoning.trim() ?? ''
  if (OVERRULED.test(reasoning))
    return `The judge first read it otherwise, on quotes that were not verified: ${reasoning.replace(OVERRULED, '')}`
  return reasoning.startsWith(reason) ? reasoning.slice(reason.length).trim() : reasoning
}

/// The other tiers' model verdicts where they differ from the headline one (t1's findings are listed apart).
export const otherVerdicts = (claim: AnnotatedClaim): AnnotatedClaim['otherTiers'] =>
  claim.otherTiers.filter(
    (other) => other.tier !== 't1' && other.consensus.verdict !== claim.consensus?.verdict,
  )
