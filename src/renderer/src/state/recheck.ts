import { counted, formatted } from '../../../shared/counted'
import type { FactdeskApi } from '../../../shared/api'
import { TIERS, type Check, type Claim, type Estimate, type Report, type Tier } from '../../../shared/schemas'
import { writtenDay } from '../dates'
import { hasSettled, type ClaimInfo, type ClaimMark } from '../editor/claims'

/// What a re-check's estimate keeps and what the rest cost ("12 claims unchanged, kept · 3 to check: 42
/// credits"; "11 claims unchanged, kept for t1 · 11 to check: 44 credits" when another tier checks them all);
/// null for an estimate that keeps nothing.
export function keptWords(estimate: Estimate): string | null {
  const carried = estimate.claims.filter((claim) => claim.carriedFrom !== null).length
  if (carried === 0) return null
  // A claim is checked when any tier checks it; the tier that checks the most counts them.
  const lines = estimate.credits.breakdown
  const toCheck = Math.max(0, ...lines.map((line) => line.claims))
  const whole = estimate.claimCount - toCheck
  const keptFor = lines.filter((line) => line.claims < estimate.claimCount).map((line) => line.tier)
  const kept = [
    whole > 0 && `${counted(whole, 'claim')} unchanged, kept`,
    carried > whole && `${counted(carried - whole, 'claim')} unchanged, kept for ${keptFor.join(', ')}`,
  ].filter(Boolean)
  return `${kept.join(' · ')} · ${formatted(toCheck)} to check: ${counted(estimate.credits.total, 'credit')}`
}

/// The requested tiers an estimate says cannot run, and why, in words; empty when all can.
export const unavailableWords = (estimate: Estimate): string =>
  estimate.unavailable.map(({ reason }) => reason).join(' ')

/// The estimate's opening words: how many claims were found, or what a re-check keeps.
export const estimateLead = (estimate: Estimate): string =>
  keptWords(estimate) ??
  `${counted(estimate.claimCount, 'claim')} found. Nothing is charged until you press Check.`

/// What a claim of `check` kept from the check it is carried from: the tiers whose verdicts were reached before
/// this check began (the others are this check's own), and that check's day in words; null for a claim that
/// kept nothing. Shown from the report of the check it is kept from (an estimate's kept claim), all its tiers.
export function keptSince(claim: Claim, check: Check): { day: string; tiers: Tier[] } | null {
  if (claim.carriedFrom === null) return null
  const fromThisReport = claim.carriedFrom === check.id
  const kept = TIERS.flatMap((tier) => {
    const consensus = claim.consensus[tier]
    return consensus && (fromThisReport || consensus.decidedAt < check.createdAt)
      ? [{ tier, at: consensus.decidedAt }]
      : []
  })
  const latest = kept
    .map(({ at }) => at)
    .sort()
    .at(-1)
  return latest ? { day: writtenDay(latest), tiers: kept.map(({ tier }) => tier) } : null
}

/// What a kept claim of `estimate` (its claims at `offset` in the text) shows from the moment it is estimated:
/// the verdict the editor already shows on its words, from the check `since` it is kept from, and that check's
/// day in its badge's title. Claims to check are not in the map.
export function keptMarks(
  shown: ReadonlyMap<string, { from: number; to: number; info: ClaimInfo }>,
  estimate: Estimate,
  offset: number,
  since: Check | null,
): Map<string, Omit<ClaimMark, 'claimId' | 'from' | 'to'>> {
  const at = new Map<string, ClaimInfo>()
  for (const { from, to, info } of shown.values())
    if (hasSettled(info.stage) && !info.stale) at.set(`${from}:${to}`, info)
  const day = since?.completedAt ? writtenDay(since.completedAt) : null
  const kept = new Map<string, Omit<ClaimMark, 'claimId' | 'from' | 'to'>>()
  for (const claim of estimate.claims) {
    const from = claim.charStart + offset
    const info =
      claim.carriedFrom !== null &&
      claim.carriedFrom === since?.id &&
      at.get(`${from}:${claim.charEnd + offset}`)
    if (!info) continue
    const when = day && `unchanged since the check of ${day}`
    kept.set(claim.claimId, {
      stage: info.stage,
      votes: info.votes,
      panel: info.panel,
      basis: [info.basis, when].filter(Boolean).join(' · ') || null,
      attention: info.attention,
      issues: info.issues.map((issue) => ({ ...issue, from: issue.from + from, to: issue.to + from })),
    })
  }
  return kept
}

/// The report a kept claim of `estimate` shows its detail from before its check runs: that of the check it is
/// kept from, with the claim under its new id (the first of the earlier claims with its words not yet taken by
/// an earlier kept claim of the same words). Null for a claim that is not kept.
export async function keptReport(
  api: FactdeskApi,
  estimate: Estimate,
  claimId: string,
): Promise<Report | null> {
  const claim = estimate.claims.find((each) => each.claimId === claimId)
  if (!claim?.carriedFrom) return null
  const previous = await api.report(claim.carriedFrom)
  const sameWords = (each: { text: string }): boolean => each.text === claim.text
  const nth = estimate.claims.filter((each) => each.carriedFrom !== null && sameWords(each)).indexOf(claim)
  const earlier = previous.claims.filter(sameWords)[nth]
  if (!earlier) return null
  return {
    ...previous,
    claims: [
      {
        ...earlier,
        claimId,
        charStart: claim.charStart,
        charEnd: claim.charEnd,
        carriedFrom: previous.check.id,
      },
    ],
  }
}
