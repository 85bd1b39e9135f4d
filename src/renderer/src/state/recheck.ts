import { counted, formatted } from '../../../shared/counted'
import type { Claim, Estimate } from '../../../shared/schemas'

/// What a re-check's estimate keeps and what the rest cost ("12 claims unchanged, kept · 3 to check: 42
/// credits"); null for an estimate that keeps nothing.
export function keptWords(estimate: Estimate): string | null {
  const kept = estimate.claims.filter((claim) => claim.carriedFrom !== null).length
  if (kept === 0) return null
  return (
    `${counted(kept, 'claim')} unchanged, kept · ${formatted(estimate.claimCount - kept)} to check: ` +
    counted(estimate.credits.total, 'credit')
  )
}

/// The estimate's opening words: how many claims were found, or what a re-check keeps.
export const estimateLead = (estimate: Estimate): string =>
  keptWords(estimate) ??
  `${counted(estimate.claimCount, 'claim')} found. Nothing is charged until you press Check.`

/// When a kept claim's verdicts were reached: the day of the check they come from, in words; null for a claim
/// checked by its own check.
export function keptSince(claim: Claim): string | null {
  if (claim.carriedFrom === null) return null
  const decided = Object.values(claim.consensus).map((consensus) => consensus.decidedAt)
  const latest = decided.sort().at(-1)
  return latest ? new Date(latest).toLocaleDateString() : null
}
