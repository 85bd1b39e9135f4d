import type { Consensus, Tier } from './schemas'

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
