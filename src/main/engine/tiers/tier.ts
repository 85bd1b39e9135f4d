import type { Consensus, Evaluation, TextIssue, Tier } from '../../../shared/schemas'
import type { ClaimRecord } from '../store/documents'

/// What a tier gets to check one claim.
export interface UnitInput {
  claim: ClaimRecord
  /// The model the unit is for ('' for tiers with one checker).
  model: string
  signal: AbortSignal
  /// The current time as an ISO string, from the engine's clock.
  now(): string
}

/// What a tier found for one claim: one evaluation, and the consensus when the tier has decided.
export interface UnitOutcome {
  evaluation: Evaluation
  consensus: Consensus | null
  issues: TextIssue[]
}

/// A tier of checking: turns units into evaluations and a consensus.
export interface TierChecker {
  readonly tier: Tier
  /// The models each claim is checked by: one unit per claim and model.
  models(): string[]
  check(input: UnitInput): Promise<UnitOutcome>
  close?(): Promise<void>
}
