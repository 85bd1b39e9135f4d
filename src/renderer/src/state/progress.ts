import type { ReportUpdate } from '../../../shared/api'
import type { Check, Claim, Consensus, Evaluation, Report, Tier } from '../../../shared/schemas'
import { TIERS } from '../../../shared/schemas'
import type { ClaimDelta, ClaimMark, ClaimStage } from '../editor/claims'
import { UNKNOWN_WORD_RULES } from '../../../shared/findings'
import { attentionOf, headlineTier, latestVotes, verdictNote } from '../../../shared/verdicts'

/// What the page knows of one claim of the running check, per tier: votes landed, consensus, issues.
export interface ClaimProgress {
  claimId: string
  charStart: number
  /// Each model's latest vote that landed, per tier (a vote seen twice counts once; a debate vote replaces the
  /// model's first).
  votes: Partial<Record<Tier, readonly Evaluation[]>>
  consensus: Partial<Record<Tier, Consensus>>
  issues: Claim['issues']
}

/// The tier whose outcome a claim's badge shows (shared with the exported reports).
export { headlineTier }

/// The badge's stage for a claim of a check: waiting, the panel voting, deciding once every vote of the panel
/// (of `panel` models per tier, when known) is in (the agreeing panel, or a debate round and the judge), then
/// the verdict.
export function stageOf(
  progress: ClaimProgress,
  check: Pick<Check, 'tiers' | 'status'>,
  panel: Report['panel'] = {},
): ClaimStage {
  const tier = headlineTier(check.tiers)
  const consensus = progress.consensus[tier]
  if (consensus) return consensus.verdict
  if (check.status === 'failed') return 'failed'
  if (check.status === 'cancelled') return 'unchecked'
  const votes = progress.votes[tier]?.length ?? 0
  const size = panel[tier]
  if (votes === 0) return 'waiting'
  return size !== undefined && votes >= size ? 'judging' : 'voting'
}

/// The delta that shows a claim's progress.
export function deltaOf(
  progress: ClaimProgress,
  check: Pick<Check, 'tiers' | 'status'>,
  panel: Report['panel'] = {},
): ClaimDelta {
  const tier = headlineTier(check.tiers)
  const consensus = progress.consensus[tier]
  return {
    claimId: progress.claimId,
    stage: stageOf(progress, check, panel),
    votes: progress.votes[tier]?.length ?? 0,
    panel: panel[tier] ?? null,
    // t1's rules have no panel to agree, nor sources.
    basis: consensus && tier !== 't1' ? verdictNote(consensus) : null,
    attention:
      attentionOf({ consensus: progress.consensus, evaluations: Object.values(progress.votes).flat() }, check)
        ?.why ?? null,
    issues: progress.issues.map((issue) => ({
      from: issue.charStart - progress.charStart,
      to: issue.charEnd - progress.charStart,
      message: issue.message,
      spelling: UNKNOWN_WORD_RULES.includes(issue.rule),
    })),
  }
}

/// A claim of a report as the page's progress record.
export function progressOf(claim: Claim): ClaimProgress {
  const votes: Partial<Record<Tier, Evaluation[]>> = {}
  for (const tier of TIERS) {
    const latest = latestVotes(claim.evaluations, tier)
    if (latest.length > 0) votes[tier] = latest
  }
  return {
    claimId: claim.claimId,
    charStart: claim.charStart,
    votes,
    consensus: { ...claim.consensus },
    issues: claim.issues,
  }
}

/// Folds a pushed claim update into a claim's progress; returns the new record. Idempotent: an update already
/// in a report read later (or earlier) changes nothing.
export function applyUpdate(
  progress: ClaimProgress,
  update: Extract<ReportUpdate, { type: 'claim' }>,
): ClaimProgress {
  const votes = { ...progress.votes }
  if (update.evaluation)
    votes[update.tier] = latestVotes([...(votes[update.tier] ?? []), update.evaluation], update.tier)
  const consensus = { ...progress.consensus }
  if (update.consensus) consensus[update.tier] = update.consensus
  const issues = update.tier === 't1' && update.issues.length > 0 ? update.issues : progress.issues
  return { ...progress, votes, consensus, issues }
}

/// The marks of a report's claims, at their submitted offsets shifted by nothing (a fresh document).
export function marksOf(
  claims: Claim[],
  check: Pick<Check, 'tiers' | 'status'>,
  panel: Report['panel'] = {},
): ClaimMark[] {
  return claims.map((claim) => {
    const progress = progressOf(claim)
    const delta = deltaOf(progress, check, panel)
    return {
      claimId: claim.claimId,
      from: claim.charStart,
      to: claim.charEnd,
      stage: delta.stage ?? 'waiting',
      votes: delta.votes ?? 0,
      panel: delta.panel ?? null,
      basis: delta.basis ?? null,
      attention: delta.attention ?? null,
      issues: (delta.issues ?? []).map((issue) => ({
        from: issue.from + claim.charStart,
        to: issue.to + claim.charStart,
        message: issue.message,
        spelling: issue.spelling,
      })),
    }
  })
}
