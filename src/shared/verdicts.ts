import { withoutInlineMarks } from './markdown'
import type { Claim, Consensus, Tier } from './schemas'

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
