import type { Config } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import { quote } from '../../../shared/pricing'
import {
  TIERS,
  type CreateCheckRequest,
  type Estimate,
  type EstimateRequest,
  type Quote,
  type Tier,
} from '../../../shared/schemas'
import type { Clock } from '../base/clock'
import { newId } from '../base/ids'
import { PerMinuteLimit } from '../base/rateLimit'
import type { ClaimExtractor } from '../claims/pool'
import type { Store } from '../store'
import type { ClaimRecord, DocumentRecord } from '../store/documents'
import type { TierChecker } from '../tiers/tier'
import type { Principal } from './access'
import { carriedClaims, claimsToCheck, requirePreviousCheck, type Carried } from './recheck'
import { requireCheckableText, requireStorableText } from './validation'

const HOUR_MS = 3_600_000

/// Sorts tiers into their canonical order and drops repeats.
export const canonicalTiers = (tiers: readonly Tier[]): Tier[] => TIERS.filter((tier) => tiers.includes(tier))

/// Estimates: a text's claims found and priced, kept as a document until submitted or expired. Submissions
/// read their documents, prices and carried claims here too, so a check is charged what its estimate said.
export class Estimates {
  /// Claim extractions per organization: estimates, and checks of a text, which extract before they charge.
  private readonly extractions: PerMinuteLimit

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly tiers: ReadonlyMap<Tier, TierChecker>,
    private readonly claims: Pick<ClaimExtractor, 'extract'>,
  ) {
    this.extractions = new PerMinuteLimit(clock, config.limits.estimatesPerMinute, 'estimatesPerMinute')
  }

  /// Finds the claims of a text and quotes them; caches both under a new documentId until it is submitted or
  /// expires (`limits.estimateHours`). Charges nothing, but an organization gets `limits.estimatesPerMinute`, and
  /// keeps `limits.keptEstimates` unsubmitted (a new one expires the oldest).
  /// With a `previousCheckId`, the claims that check already decided are kept and left out of the quote.
  async estimate(principal: Principal, request: EstimateRequest): Promise<Estimate> {
    requireStorableText({ text: request.text })
    requireCheckableText(request.text, this.config.limits.maxTextChars)
    await this.countExtraction(principal.organizationId, 'estimates')
    const tiers = canonicalTiers(request.tiers)
    const expiresAt = new Date(this.clock.now().getTime() + this.config.limits.estimateHours * HOUR_MS)
    const { document, claims } = await this.newDocument(
      principal,
      request.text,
      tiers,
      expiresAt.toISOString(),
    )
    const carried = await this.carried(principal, request.previousCheckId, document, claims)
    await this.store.transaction(async (tx) => {
      await tx.documents.insert(document, claims)
      await tx.documents.expireOldest(
        principal.organizationId,
        this.config.limits.keptEstimates,
        this.clock.now().toISOString(),
      )
    })
    const credits = this.price(document, claims.length, carried)
    const balance = await this.store.ledger.balance(principal.organizationId)
    return {
      documentId: document.id,
      claimCount: claims.length,
      claims: claims.map((claim) => ({
        claimId: claim.id,
        text: claim.text,
        charStart: claim.charStart,
        charEnd: claim.charEnd,
        carriedFrom: carried?.claims.has(claim.id) ? carried.previousCheckId : null,
      })),
      credits,
      balance,
      sufficient: balance >= credits.total,
      unavailable: tiers
        .filter((tier) => !this.tiers.has(tier))
        .map((tier) => ({ tier, reason: tierUnavailable(tier) })),
    }
  }

  /// Refuses to extract the claims of a check's text for free: an organization whose balance cannot cover one
  /// claim is refused (402) before any work (unless a re-check may carry every claim at no cost), and extractions
  /// count against `limits.estimatesPerMinute` with the estimates. Checks queued to run when online are refused
  /// the same way when they are queued, in `store`'s transaction (one that holds the organization's lock).
  async requireExtraction(
    principal: Principal,
    request: CreateCheckRequest,
    tiers: readonly Tier[],
    store = this.store,
  ): Promise<void> {
    const cheapest = quote(1, tiers, this.config.pricing).total
    const balance = await store.ledger.balance(principal.organizationId)
    if (!request.previousCheckId && balance < cheapest) {
      throw new ApiError(
        'insufficient_credits',
        `A check of ${tiers.join(', ')} costs at least one claim's price: one claim costs ${cheapest} ${cheapest === 1 ? 'credit' : 'credits'}; the balance is ${balance}.`,
      )
    }
    await this.countExtraction(principal.organizationId, 'estimates and checks of a text', store)
  }

  /// Counts an extraction of `what` against `limits.estimatesPerMinute`, or refuses it (429), under the
  /// organization's lock: in `store`'s transaction, or in one of its own from the root store.
  private async countExtraction(organizationId: string, what: string, store = this.store): Promise<void> {
    await store.transaction((tx) => this.extractions.require(tx.recentRequests, organizationId, what), {
      lockOrg: organizationId,
    })
  }

  /// The organization's document `id`, estimated for exactly `tiers`.
  async estimatedDocument(principal: Principal, id: string, tiers: readonly Tier[]): Promise<DocumentRecord> {
    const cached = await this.store.documents.get(principal.organizationId, id)
    if (!cached && (await this.store.documents.expired(principal.organizationId, id)))
      throw estimateExpired(id)
    if (!cached) throw new ApiError('not_found', `There is no document ${id}.`)
    if (cached.expiresAt !== null && cached.expiresAt <= this.clock.now().toISOString()) {
      throw estimateExpired(id)
    }
    if (cached.tiers.join() !== tiers.join()) {
      throw new ApiError(
        'unprocessable',
        `Document ${cached.id} was estimated for ${cached.tiers.join(', ')}; submit the same tiers or estimate again.`,
      )
    }
    return cached
  }

  /// A document's quote: at the prices per claim it was quoted at (a check of an estimate is charged exactly
  /// what the estimate said, even if the prices changed since), else at today's; kept claims cost nothing.
  price(document: DocumentRecord, claimCount: number, carried: Carried | null): Quote {
    return quote(claimsToCheck(claimCount, document.tiers, carried), document.tiers, {
      ...this.config.pricing,
      ...document.unitPrices,
    })
  }

  /// What a re-check keeps of `previousCheckId`, or null when it is not one.
  async carried(
    principal: Principal,
    previousCheckId: string | null | undefined,
    document: DocumentRecord,
    claims: readonly ClaimRecord[],
  ): Promise<Carried | null> {
    if (!previousCheckId) return null
    const previous = await requirePreviousCheck(this.store, principal.organizationId, previousCheckId)
    return await carriedClaims(this.store, previousCheckId, previous, document.text, claims, document.tiers)
  }

  /// A new document of `text` and its claims; `expiresAt` for an estimate, null for a submission.
  async newDocument(
    principal: Principal,
    text: string,
    tiers: Tier[],
    expiresAt: string | null,
  ): Promise<{ document: DocumentRecord; claims: ClaimRecord[] }> {
    const found = await this.claims.extract(text)
    const now = this.clock.now()
    const document: DocumentRecord = {
      id: newId('doc', now),
      organizationId: principal.organizationId,
      text,
      tiers,
      unitPrices: quote(0, tiers, this.config.pricing).unitPrices,
      createdAt: now.toISOString(),
      expiresAt,
    }
    const claims = found.map((claim) => ({
      id: newId('clm', now),
      documentId: document.id,
      text: claim.text,
      charStart: claim.charStart,
      charEnd: claim.charEnd,
      statement: null,
      parts: null,
      statementState: null,
    }))
    return { document, claims }
  }
}

/// An estimate not submitted in time: its claims are gone.
export const estimateExpired = (documentId: string): ApiError =>
  new ApiError(
    'unprocessable',
    `The estimate ${documentId} has expired: an estimate is kept until it is submitted, for a limited time ` +
      '(limits.estimateHours). Estimate the text again.',
  )

/// Why a tier cannot run, and how to make it run.
export function tierUnavailable(tier: Tier): string {
  return tier === 't1'
    ? 'The t1 spelling and grammar checker is not available in this engine.'
    : `${tier} needs language models: add a panel and a judge under "models" in the config file ` +
        '(factdesk serve --config FILE), or in the app under Settings > Models.'
}
