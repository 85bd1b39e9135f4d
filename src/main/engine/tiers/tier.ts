import type { Citation, Consensus, Evaluation, TextIssue, Tier, TokenUsage } from '../../../shared/schemas'
import type { ClaimRecord } from '../store/documents'
import type { PanelVote } from '../store/results'

/// What a tier gets to check one claim.
export interface UnitInput {
  claim: ClaimRecord
  /// The model the unit is for ('' for tiers with one checker).
  model: string
  /// The check the unit belongs to and its organization (caches and batches are scoped by them).
  checkId: string
  organizationId: string
  /// The whole submitted text; the claim's offsets index into it (context around the claim).
  documentText: string
  signal: AbortSignal
  /// The current time as an ISO string, from the engine's clock.
  now(): string
}

/// What a judge gets: the unit's input and the panel's votes on the claim.
export interface JudgeInput extends UnitInput {
  votes: PanelVote[]
}

/// What a tier found for one claim: a panel unit's evaluation, and the consensus when the tier has decided.
/// A judge unit adds no evaluation of its own, but the second-round votes of the debate it held, if any.
export interface UnitOutcome {
  evaluation?: Evaluation
  /// A judge unit's debate round: the panelists' second votes (round 2), recorded with the consensus; on a
  /// multi-fact claim each with its votes on the parts.
  debate?: Array<Evaluation & { parts?: Evaluation[] | null }>
  consensus: Consensus | null
  issues: TextIssue[]
  /// Tokens spent deciding the consensus (a judge's request), when known.
  consensusUsage?: TokenUsage | null
  /// A multi-fact claim's: the evaluation and the consensus of each part, in the claim's parts' order (the
  /// outcome's own aggregate them).
  partEvaluations?: Evaluation[]
  partConsensus?: Consensus[]
  /// A judge unit's: the panel's cited quotes with the stance it judged them to take toward the claim, which
  /// the runner gives the claim-tier's recorded votes (on a multi-fact claim, `partVoteStances` for each part's).
  voteStances?: Citation[]
  partVoteStances?: Citation[][]
}

/// The model name of a claim-tier's judge unit; never a panel model's id.
export const JUDGE_UNIT = '#judge'

/// A tier of checking: turns units into evaluations and a consensus.
export interface TierChecker {
  readonly tier: Tier
  /// The models each claim is checked by: one unit per claim and model.
  models(): string[]
  check(input: UnitInput): Promise<UnitOutcome>
  /// Checks several claims for the unit's model at once (a claim's parts), in fewer requests than one each: an
  /// outcome per claim, in order. A tier without it checks each on its own.
  checkAll?(input: UnitInput, claims: readonly ClaimRecord[]): Promise<UnitOutcome[]>
  /// Tiers with a panel: writes the consensus from the votes. Once every panel unit of a claim has ended and
  /// at least one voted, the runner queues one judge unit (model JUDGE_UNIT) for it.
  judge?(input: JudgeInput): Promise<UnitOutcome>
  /// How long one attempt at a unit may take, when the tier needs other than the runner's default.
  readonly unitTimeoutMs?: number
  /// Units worth having in flight at once (a tier that batches requests wants a whole batch per model).
  readonly concurrency?: number
  /// Starts, in the background, what the tier's first unit would otherwise wait for (t1's Harper).
  warm?(): void
  close?(): Promise<void>
}
