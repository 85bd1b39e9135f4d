import { ApiError } from '../../shared/errors'
import type { Tier } from '../../shared/schemas'
import type { Store } from './store'
import type { CheckRecord } from './store/checks'
import type { ClaimRecord } from './store/documents'

/// Characters of context either side of a claim that must be unchanged for a re-check to keep its verdicts: an
/// edit to the neighbouring words can change what the claim means ("not", "in 1990", a name).
const CONTEXT_CHARS = 32

/// A claim of a re-check whose verdicts an earlier check already holds, in the tiers it holds them for.
export interface CarriedClaim {
  previousClaim: ClaimRecord
  tiers: Tier[]
}

/// What a re-check keeps from an earlier check: the earlier check and the kept claims by their new claim id.
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

/// The organization's completed check `previousCheckId`. Any other id, another organization's included, is
/// refused with the same answer, so the reply reveals nothing about which checks exist.
export function requirePreviousCheck(
  store: Store,
  organizationId: string,
  previousCheckId: string,
): CheckRecord {
  const previous = store.checks.get(organizationId, previousCheckId)
  if (previous?.status !== 'completed') {
    throw new ApiError(
      'unprocessable',
      `previousCheckId ${previousCheckId} is not a completed check of this organization.`,
      [{ field: 'previousCheckId', message: 'not a completed check of this organization' }],
    )
  }
  return previous
}

/// The claims of `claims` (found in `text`) that the check `previous` already decided in some of `tiers`.
export function carriedClaims(
  store: Store,
  previous: CheckRecord,
  text: string,
  claims: readonly ClaimRecord[],
  tiers: readonly Tier[],
): Carried {
  const previousText = store.documents.text(previous.documentId)
  const byFingerprint = new Map(
    store.documents
      .claims(previous.documentId)
      .map((claim) => [fingerprint(previousText, claim), claim] as const),
  )
  const decided = new Map<string, Tier[]>()
  for (const { claimId, tier } of store.results.decided(previous.id)) {
    if (tiers.includes(tier)) decided.set(claimId, [...(decided.get(claimId) ?? []), tier])
  }
  const carried = new Map<string, CarriedClaim>()
  for (const claim of claims) {
    const previousClaim = byFingerprint.get(fingerprint(text, claim))
    const kept = previousClaim && decided.get(previousClaim.id)
    if (previousClaim && kept) carried.set(claim.id, { previousClaim, tiers: kept })
  }
  return { previousCheckId: previous.id, claims: carried }
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
