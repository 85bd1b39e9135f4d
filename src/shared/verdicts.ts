import { counted } from './counted'
import type { Consensus, Tier, VerdictDetail } from './schemas'

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

/// A verdict's kind in words, as every view says it ("partly true"); see VerdictDetail.
export const DETAIL_WORDS: Record<VerdictDetail, string> = {
  partly_true: 'partly true',
  missing_context: 'missing context',
  not_checkable: 'not checkable',
  no_evidence: 'no evidence',
}

/// What a model verdict rests on, in words: how many distinct sources confirmed it, or that it is the models'
/// unsourced judgement, and how far the panel agreed, e.g. "2 distinct sources, agreement 100%". Null for t1.
export function verdictBasis(
  consensus: Pick<Consensus, 'sourced' | 'sources' | 'agreement' | 'decidedBy'>,
): string | null {
  if (consensus.decidedBy === null) return null
  const basis = consensus.sourced
    ? counted(consensus.sources, 'distinct source')
    : "the models' unsourced judgement"
  return `${basis}, agreement ${Math.round(consensus.agreement * 100)}%`
}
