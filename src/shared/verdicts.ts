import { counted } from './counted'
import { withoutInlineMarks } from './markdown'
import type { Claim, Consensus, Evaluation, Fallback, Tier, VerdictDetail } from './schemas'

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

/// The details each verdict may have: misleading is partly true or missing context, unverifiable not checkable
/// or without evidence; the others have none.
const DETAILS: Partial<Record<Evaluation['verdict'], readonly VerdictDetail[]>> = {
  misleading: ['partly_true', 'missing_context'],
  unverifiable: ['not_checkable', 'no_evidence'],
}

/// A model's detail if it fits its verdict, else null (a "supported" that says "partly_true" says nothing).
export const consistentDetail = (
  verdict: Evaluation['verdict'],
  detail: VerdictDetail | null,
): VerdictDetail | null => (detail !== null && DETAILS[verdict]?.includes(detail) ? detail : null)

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

/// How a verdict that no verified source bears on is shown: the models' own judgement.
const UNSOURCED = 'Unsourced: the models’ judgement'

/// What stands behind a model tier's verdict, in words, in place of the judge's self-reported confidence
/// (which says little about being right): whether a source bears on it and how many distinct sites, who
/// decided, and the panel's agreement, or the calibrated confidence when a calibration map was fitted for these
/// models. E.g. "Unsourced: the models’ judgement · decided by the judge · agreement 67%", or "2 distinct
/// sources · decided by the judge · calibrated confidence 81%". Null for t1, whose rules have no panel.
export function verdictBasis(
  consensus: Pick<Consensus, 'sourced' | 'sources' | 'agreement' | 'decidedBy' | 'calibratedConfidence'>,
): string | null {
  if (consensus.decidedBy === null) return null
  const { calibratedConfidence } = consensus
  return [
    consensus.sourced ? counted(consensus.sources, 'distinct source') : UNSOURCED,
    `decided by the ${DECIDERS[consensus.decidedBy]}`,
    calibratedConfidence === null
      ? `agreement ${Math.round(consensus.agreement * 100)}%`
      : `calibrated confidence ${Math.round(calibratedConfidence * 100)}%`,
  ].join(' · ')
}

/// A model tier's verdict as the editor notes it beside the verdict: its kind (the exports say it with the
/// verdict instead) and what stands behind it, e.g. "missing context · Unsourced: the models’ judgement ·
/// decided by the judge · agreement 67%".
export function verdictNote(consensus: Consensus): string | null {
  const basis = verdictBasis(consensus)
  if (basis === null) return null
  return consensus.detail ? `${DETAIL_WORDS[consensus.detail]} · ${basis}` : basis
}
