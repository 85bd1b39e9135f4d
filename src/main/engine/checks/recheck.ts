import { ApiError } from '../../../shared/errors'
import type { Tier } from '../../../shared/schemas'
import type { Store } from '../store'
import type { CheckRecord } from '../store/checks'
import type { ClaimRecord } from '../store/documents'

/// Characters of context either side of a claim that must be unchanged for a re-check to keep its verdicts: an
/// edit to the neighbouring words can change what the claim means ("not", "in 1990", a name).
const CONTEXT_CHARS = 32

/// A claim of a re-check whose verdicts an earlier check already holds, in the tiers it holds them for.
export interface CarriedClaim {
  previousCheckId: string
  previousClaim: ClaimRecord
  tiers: Tier[]
}

/// What a re-check keeps from an earlier check (a manuscript's: from any of its parts): the earlier check as
/// asked for and the kept claims by their new claim id.
export interface Carried {
  previousCheckId: string
  claims: Map<string, CarriedClaim>
}

/// A claim with its context, as compared between two versions of a draft.
const fingerprint = (text: string, claim: ClaimRecord): string =>
  [
    text.slice(Math.max(0, claim.charStart - CONTEXT_CHARS), claim.charStart),
    text.slice(claim.charStart, claim.charEnd),
    text.slice(claim.charEnd, claim.charEnd + CONTEXT_CHARS),
  ].join('\u0000')

/// The organization's completed check `previousCheckId`, or the parts of its manuscript `previousCheckId` whose
/// parts have all completed. Any other id, another organization's included, is refused with the same answer, so
/// the reply reveals nothing about which checks exist.
export async function requirePreviousCheck(
  store: Store,
  organizationId: string,
  previousCheckId: string,
): Promise<CheckRecord[]> {
  const check = await store.checks.get(organizationId, previousCheckId)
  const previous = check ? [check] : await store.checks.ofManuscript(organizationId, previousCheckId)
  const whole = previous.length === (previous[0]?.manuscript?.parts ?? 1)
  if (!whole || previous.some((each) => each.status !== 'completed')) {
    throw new ApiError(
      'unprocessable',
      `previousCheckId ${previousCheckId} is not a completed check of this organization.`,
      [{ field: 'previousCheckId', message: 'not a completed check of this organization' }],
    )
  }
  return previous
}

/// The claims of `claims` (found in `text`) that the checks `previous` (of `previousCheckId`) already decided in
/// some of `tiers`.
export async function carriedClaims(
  store: Store,
  previousCheckId: string,
  previous: readonly CheckRecord[],
  text: string,
  claims: readonly ClaimRecord[],
  tiers: readonly Tier[],
): Promise<Carried> {
  const byFingerprint = new Map<string, { previousCheckId: string; previousClaim: ClaimRecord }>()
  const decided = new Map<string, Tier[]>()
  for (const check of previous) {
    const previousText = await store.documents.text(check.documentId)
    for (const claim of await store.documents.claims(check.documentId))
      byFingerprint.set(fingerprint(previousText, claim), { previousCheckId: check.id, previousClaim: claim })
    for (const { claimId, tier } of await store.results.decided(check.id)) {
      if (tiers.includes(tier)) decided.set(claimId, [...(decided.get(claimId) ?? []), tier])
    }
  }
  const carried = new Map<string, CarriedClaim>()
  for (const claim of claims) {
    const found = byFingerprint.get(fingerprint(text, claim))
    const kept = found && decided.get(found.previousClaim.id)
    if (found && kept) carried.set(claim.id, { ...found, tiers: kept })
  }
  return { previousCheckId, claims: carried }
}

/// The claims to check in each tier once the carried ones are set aside.
export function claimsToCheck(
  claimCount: number,
  tiers: readonly Tier[],
  carried: Carried | null,
): Partial<Record<Tier, number>> {
  const carriedIn = (tier: Tier): number =>
    carried ? [...carried.claims.values()].filter((claim) => claim.tiers.includes(tier)).length : 0
  return Object.fromEntries(tiers.map((tier) => [tier, claimCount - carriedIn(tier)]))
}
