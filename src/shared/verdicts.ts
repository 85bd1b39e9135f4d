import { counted } from './counted'
import { withoutInlineMarks } from './markdown'
import type { Check, Claim, Consensus, Evaluation, Fallback, Tier, VerdictDetail } from './schemas'
import { detailsOf, isProblem, type Problem } from './vocabulary'

/// What a claim was checked as, when that is not its own words ("It was completed in 1889." checked as "The
/// Brooklyn Bridge was completed in 1889."); null when it was checked as written or is not resolved yet.
export function checkedAs(claim: Pick<Claim, 'text' | 'statement'>): string | null {
  const words = (text: string) => text.trim().replace(/\s+/g, ' ')
  const { statement } = claim
  if (statement === null) return null
  const same = [claim.text, withoutInlineMarks(claim.text)].some((text) => words(text) === words(statement))
  return same ? null : statement
}

/// The tier whose outcome stands for a claim: the deepest one the check runs (t3, then t2, then t1's clean
/// or issues). The editor's badges and the exported reports show this tier's verdict.
export function headlineTier(tiers: readonly Tier[]): Tier {
  return tiers.includes('t3') ? 't3' : tiers.includes('t2') ? 't2' : 't1'
}

/// A claim's consensus in the headline tier of a check that ran `tiers`; null until that tier decided.
export function headlineConsensus(
  consensus: Partial<Record<Tier, Consensus>>,
  tiers: readonly Tier[],
): Consensus | null {
  return consensus[headlineTier(tiers)] ?? null
}

/// A model's detail if it fits its verdict, else null (a "supported" that says "partly_true" says nothing).
export const consistentDetail = (
  verdict: Evaluation['verdict'],
  detail: VerdictDetail | null,
): VerdictDetail | null => (detail !== null && detailsOf(verdict).includes(detail) ? detail : null)

/// A verdict's kind in words, as every view says it ("partly true"); see VerdictDetail.
export const DETAIL_WORDS: Record<VerdictDetail, string> = {
  partly_true: 'partly true',
  missing_context: 'missing context',
  not_checkable: 'not checkable',
  no_evidence: 'no evidence found',
}

/// Who decided a model tier's verdict, in words.
const DECIDERS: Record<NonNullable<Consensus['decidedBy']>, string> = {
  panel: 'agreeing panel',
  majority: 'panel’s majority',
  judge: 'judge',
}

/// Each fallback in words, as the report and the claim panel say it beside the verdict.
export const FALLBACK_WORDS: Record<Fallback, string> = {
  statement_unresolved: 'checked as written, with the sentences around it (no statement could be made)',
  statement_rejected:
    'checked as written, with the sentences around it (the rewritten statement dropped what the claim says)',
  evidence_ranked_by_words: 'evidence chosen by its words (the model named no passage)',
  search_top_results: 'top search results read (the model named none)',
  quotes_not_stance_checked: 'quotes not stance-checked',
  judge_unusable: 'the judge’s answer could not be used: the panel’s majority decided',
}

/// The steps that fell back on the way to a verdict, in words ("quotes not stance-checked; …"), or null when
/// none did: said beside the verdict wherever it is shown.
export function fallbackWords(consensus: Pick<Consensus, 'fallbacks'>): string | null {
  return consensus.fallbacks.length === 0
    ? null
    : consensus.fallbacks.map((fallback) => FALLBACK_WORDS[fallback]).join('; ')
}

/// How a verdict that no verified source bears on is shown: the models' own judgement.
const UNSOURCED = 'Unsourced: the models’ judgement'

/// What stands behind a model tier's verdict, in words, in place of the judge's self-reported confidence
/// (which says little about being right): whether a source bears on it and how many distinct sites, who
/// decided, and the panel's agreement, or the calibrated confidence when a calibration map was fitted for these
/// models; then the steps that fell back. E.g. "Unsourced: the models’ judgement · decided by the judge ·
/// agreement 67%", or "2 distinct sources · decided by the judge · calibrated confidence 81% · quotes not
/// stance-checked". Agreement is said only where some vote gave the verdict: a verdict no vote gave (the judge's
/// own, or one the sources set: none bore the votes' verdict out, or they disagree) has none to speak of, and
/// one the panel or its majority "decided" that no vote gave is the sources' word against theirs. Null for t1,
/// whose rules have no panel.
export function verdictBasis(
  consensus: Pick<
    Consensus,
    'sourced' | 'sources' | 'agreement' | 'decidedBy' | 'calibratedConfidence' | 'fallbacks'
  >,
): string | null {
  const { decidedBy, calibratedConfidence, agreement } = consensus
  if (decidedBy === null) return null
  const notBorneOut = agreement === 0 && decidedBy !== 'judge'
  return [
    consensus.sourced ? counted(consensus.sources, 'distinct source') : UNSOURCED,
    notBorneOut
      ? `the sources did not bear out the verdict of the ${DECIDERS[decidedBy]}`
      : `decided by the ${DECIDERS[decidedBy]}`,
    calibratedConfidence !== null
      ? `calibrated confidence ${Math.round(calibratedConfidence * 100)}%`
      : agreement > 0
        ? `agreement ${Math.round(agreement * 100)}%`
        : null,
    fallbackWords(consensus),
  ]
    .filter((part) => part !== null)
    .join(' · ')
}

/// A model tier's verdict as the editor notes it beside the verdict: its kind (the exports say it with the
/// verdict instead) and what stands behind it, e.g. "missing context · Unsourced: the models’ judgement ·
/// decided by the judge · agreement 67%".
export function verdictNote(consensus: Consensus): string | null {
  const basis = verdictBasis(consensus)
  if (basis === null) return null
  return consensus.detail ? `${DETAIL_WORDS[consensus.detail]} · ${basis}` : basis
}

/// What a tier found, as a phrase after who found it.
const FOUND: Record<Problem, string> = { refuted: 'refuted it', misleading: 'found it misleading' }

/// The model tiers, deepest first: the order their findings are told in.
const MODEL_TIERS = ['t3', 't2'] as const

/// Each model's latest vote in a tier (its debate vote where it cast one, else its first), by model name.
export function latestVotes(evaluations: readonly Evaluation[], tier: Tier): Evaluation[] {
  const latest = new Map<string, Evaluation>()
  for (const vote of evaluations)
    if (vote.tier === tier && vote.round >= (latest.get(vote.model)?.round ?? 0)) latest.set(vote.model, vote)
  return [...latest.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0))
}

/// A problem one model tier found with a claim: its verdict said refuted or misleading, or most of its latest
/// votes did (together, two at least), the verdict saying otherwise.
interface Finding {
  tier: (typeof MODEL_TIERS)[number]
  verdict: Problem
  consensus: Consensus | null
  /// The latest votes that found a problem, of all the tier's latest votes.
  votes: Evaluation[]
  of: number
}

function findingOf(
  claim: Pick<Claim, 'consensus' | 'evaluations'>,
  tier: (typeof MODEL_TIERS)[number],
): Finding | null {
  const consensus = claim.consensus[tier] ?? null
  const latest = latestVotes(claim.evaluations, tier)
  const votes = latest.filter((vote) => isProblem(vote.verdict))
  if (consensus && isProblem(consensus.verdict))
    return { tier, verdict: consensus.verdict, consensus, votes, of: latest.length }
  // One vote is no panel (nor, while a panel votes, its first vote a majority).
  if (votes.length < 2 || votes.length * 2 <= latest.length) return null
  const refuted = votes.filter((vote) => vote.verdict === 'refuted').length
  return {
    tier,
    verdict: refuted * 2 >= votes.length ? 'refuted' : 'misleading',
    consensus: null,
    votes,
    of: latest.length,
  }
}

/// Who found it, and what: "The t2 judge refuted it, with 2 of 3 models", "2 of 3 t3 models found it misleading".
function findingWords({ tier, verdict, consensus, votes, of }: Finding): string {
  const count = `${votes.length} of ${of}`
  if (!consensus)
    return votes.length === of
      ? `The ${tier} panel ${FOUND[verdict]}`
      : `${count} ${tier} models ${FOUND[verdict]}`
  const who =
    consensus.decidedBy === 'panel'
      ? `The ${tier} panel`
      : consensus.decidedBy === 'majority'
        ? `Most of the ${tier} panel`
        : `The ${tier} judge`
  return consensus.decidedBy === 'judge' && votes.length > 0
    ? `${who} ${FOUND[verdict]}, with ${count} models`
    : `${who} ${FOUND[verdict]}`
}

/// Why a claim needs the editor's attention, and what to do about it. See `attentionOf`.
export interface Attention {
  /// The claim's headline verdict does not say what a tier found (it is unverifiable, supported, or not
  /// decided): the editor checks it by hand.
  disputed: boolean
  /// Why, in one sentence: "The t2 judge refuted it, with 2 of 3 models; no source confirmed it: check by hand."
  why: string
  /// The models' own reason: the finding tier's reasoning, or the rationale of a vote that found it.
  reason: string
  /// The correction a tier that found the problem suggested (the deepest one's), or null.
  correction: string | null
}

/// Whether a claim needs the editor's attention and why: every export's "Needs attention" and the editor's
/// claim panel ask this one function. It does when any model tier's verdict, or most of any model tier's latest
/// votes, found it refuted or misleading, whatever the headline verdict (a t3 that found no source does not
/// clear a claim t2's panel refuted), or when the check failed before its headline tier decided it.
export function attentionOf(
  claim: Pick<Claim, 'consensus' | 'evaluations'>,
  check: Pick<Check, 'tiers' | 'status'>,
): Attention | null {
  const tier = headlineTier(check.tiers)
  const headline = claim.consensus[tier] ?? null
  const findings = MODEL_TIERS.flatMap((each) => {
    const finding = check.tiers.includes(each) ? findingOf(claim, each) : null
    return finding ? [finding] : []
  })
  const correction = findings.find((finding) => finding.consensus?.correction)?.consensus?.correction ?? null
  // The headline tier is the deepest the check runs: its finding, when it has one, comes first.
  const [first] = findings
  if (first && first.tier === tier && first.consensus)
    return { disputed: false, why: `${findingWords(first)}.`, reason: first.consensus.reasoning, correction }
  if (first) {
    const standing =
      headline === null
        ? `${tier} has not decided it`
        : tier === 't3' && headline.verdict === 'unverifiable' && !headline.sourced
          ? 'no source confirmed it'
          : `${tier} found it ${headline.verdict}`
    return {
      disputed: true,
      why: `${findingWords(first)}; ${standing}: check by hand.`,
      reason:
        first.consensus?.reasoning ??
        first.votes.find((vote) => vote.verdict === first.verdict)?.rationale ??
        '',
      correction,
    }
  }
  if (headline === null && check.status === 'failed')
    return {
      disputed: false,
      why: 'The check failed before this claim was decided.',
      reason: '',
      correction: null,
    }
  return null
}
