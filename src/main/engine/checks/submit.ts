import { createHash } from 'node:crypto'
import type { Config } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import type { Check, CreateCheckRequest, SourcePolicy, Tier } from '../../../shared/schemas'
import type { HostResolver } from '../base/addresses'
import type { Clock } from '../base/clock'
import type { ReportEvents } from '../base/events'
import { newId } from '../base/ids'
import type { Store } from '../store'
import type { CheckRecord } from '../store/checks'
import type { ClaimRecord, DocumentRecord } from '../store/documents'
import type { TierChecker } from '../tiers/tier'
import type { Principal } from './access'
import { requireCallbackTarget } from './callbackTarget'
import { chargeOrRefuse } from './credits'
import { canonicalTiers, estimateExpired, tierUnavailable, type Estimates } from './estimate'
import type { CheckManager, Jobs } from './manage'
import type { Reachability } from './reachability'
import { requirePreviousCheck } from './recheck'
import {
  requireCallbackUrl,
  requireCheckableText,
  requireIdempotencyKey,
  requireSourceUrl,
  requireStorableText,
} from './validation'
import { checkView } from './views'

/// A stable hash of a check request, so that an `Idempotency-Key` sent again with the same request matches: the
/// same members in any order, the tiers in any order or repeated, and a member given as null or left out (null
/// means absent in this API) hash the same.
export function requestHash(request: CreateCheckRequest): string {
  const canonical = (value: unknown): unknown =>
    value && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(
          Object.entries(value)
            .filter(([, v]) => v !== undefined && v !== null)
            .sort(([a], [b]) => (a < b ? -1 : 1))
            .map(([k, v]) => [k, canonical(v)]),
        )
      : value
  return createHash('sha256')
    .update(JSON.stringify(canonical({ ...request, tiers: canonicalTiers(request.tiers) })))
    .digest('hex')
}

/// What a submission reaches beyond the store: the tiers, the runner, the events, the estimates it is charged
/// by, the checks it answers with, and the probes of its targets.
export interface SubmissionParts {
  store: Store
  config: Config
  clock: Clock
  tiers: ReadonlyMap<Tier, TierChecker>
  jobs: Jobs
  events: ReportEvents
  estimates: Estimates
  checks: CheckManager
  resolveHost: HostResolver
  reachability: Pick<Reachability, 'require'> | null
  /// An organization's source policy (Settings), which a check with t3 keeps from its submission.
  sourcePolicy: (organizationId: string) => SourcePolicy
}

/// Submissions: a check accepted, charged and queued in one transaction, once per `Idempotency-Key`.
export class Submissions {
  constructor(private readonly parts: SubmissionParts) {}

  /// Refuses a submission for what can be told without running it: the tiers, the URLs, and the text or the
  /// estimated document. Answers the tiers in their canonical order. Checks queued to run when online are
  /// refused the same way when they are queued.
  async requireSubmittable(principal: Principal, request: CreateCheckRequest): Promise<Tier[]> {
    const { config, store, estimates } = this.parts
    const { text, name, author, sourceUrl, callbackUrl } = request
    requireStorableText({ text, name, author, sourceUrl, callbackUrl })
    const tiers = canonicalTiers(request.tiers)
    requireSourceUrl(request.sourceUrl)
    requireCallbackUrl(request.callbackUrl, config.webhooks.allowLocalTargets)
    const missing = tiers.find((tier) => !this.parts.tiers.has(tier))
    if (missing) throw new ApiError('unprocessable', tierUnavailable(missing))
    if (request.documentId !== undefined)
      await estimates.estimatedDocument(principal, request.documentId, tiers)
    else requireCheckableText(request.text ?? '', config.limits.maxTextChars)
    if (request.previousCheckId)
      await requirePreviousCheck(store, principal.organizationId, request.previousCheckId)
    return tiers
  }

  /// Accepts a check: charges it, creates it and queues its units in one transaction. A repeat with the same
  /// `Idempotency-Key` and body returns the first check and charges nothing, even while the providers are
  /// unreachable. Otherwise the model and search providers the tiers need must answer a probe (503
  /// `providers_unreachable`, nothing created or charged, the key left unused). A `callbackUrl`'s host must
  /// resolve to public addresses only (loopback too when configured).
  async submit(
    principal: Principal,
    request: CreateCheckRequest,
    idempotencyKey?: string,
  ): Promise<{ check: Check; replayed: boolean }> {
    const { store, config, clock, estimates, checks } = this.parts
    const tiers = await this.requireSubmittable(principal, request)
    if (idempotencyKey !== undefined) requireIdempotencyKey(idempotencyKey)
    const hash = requestHash(request)

    /// The check an earlier request with the same key made, as `from` (the root store, or a transaction) has it.
    const earlierWith = async (from: Store): Promise<string | null> => {
      if (idempotencyKey === undefined) return null
      const earlier = await from.idempotencyKeys.find(principal.organizationId, idempotencyKey)
      if (!earlier) return null
      if (earlier.requestHash !== hash) {
        throw new ApiError('unprocessable', 'This Idempotency-Key was used with a different request body.')
      }
      return earlier.checkId
    }
    const replay = async (checkId: string) => ({
      check: await checks.getCheck(principal, checkId),
      replayed: true,
    })
    const earlier = await earlierWith(store)
    if (earlier) return replay(earlier)
    if (request.documentId === undefined) await estimates.requireExtraction(principal, request, tiers)
    await this.parts.reachability?.require(tiers)
    if (request.callbackUrl) {
      await requireCallbackTarget(
        request.callbackUrl,
        config.webhooks.allowLocalTargets,
        this.parts.resolveHost,
      )
    }

    let document: DocumentRecord
    let claims: ClaimRecord[]
    let fresh = false
    if (request.documentId !== undefined) {
      document = await estimates.estimatedDocument(principal, request.documentId, tiers)
      claims = await store.documents.claims(document.id)
    } else {
      ;({ document, claims } = await estimates.newDocument(principal, request.text ?? '', tiers, null))
      fresh = true
    }

    const carried = await estimates.carried(principal, request.previousCheckId, document, claims)
    const price = estimates.price(document, claims.length, carried)
    const now = clock.now().toISOString()
    const record: CheckRecord = {
      id: newId('chk', clock.now()),
      organizationId: principal.organizationId,
      documentId: document.id,
      status: 'queued',
      name: request.name ?? null,
      author: request.author ?? null,
      sourceUrl: request.sourceUrl ?? null,
      callbackUrl: request.callbackUrl ?? null,
      tiers,
      unitPrices: price.unitPrices,
      claimCount: claims.length,
      credits: { charged: price.total, refunded: 0 },
      createdAt: now,
      updatedAt: now,
      completedAt: null,
      error: null,
      ...(request.manuscript ? { manuscript: request.manuscript } : {}),
      sourcePolicy: tiers.includes('t3') ? this.parts.sourcePolicy(principal.organizationId) : null,
    }
    // Under the organization's lock, as it charges; the key is taken first, so that of concurrent repeats the
    // first takes it and the others, finding it taken, replay its check.
    const raced = await store.transaction(
      async (tx) => {
        if (idempotencyKey !== undefined) {
          const taken = await tx.idempotencyKeys.take(
            principal.organizationId,
            idempotencyKey,
            hash,
            record.id,
            now,
          )
          if (!taken) {
            const first = await earlierWith(tx)
            if (first) return first
            throw new Error('An Idempotency-Key was taken, and yet its row cannot be read.')
          }
        }
        if (request.manuscript) await this.requireNewPart(principal, request.manuscript, tiers, tx)
        if (fresh) await tx.documents.insert(document, claims)
        else if (!(await tx.documents.keep(document.id))) throw estimateExpired(document.id)
        await tx.checks.insert(record)
        await chargeOrRefuse(tx.ledger, principal.organizationId, price.total, record.id, now, 'This check')
        for (const claim of claims) {
          const kept = carried?.claims.get(claim.id)
          if (!kept) continue
          await tx.results.carry(
            {
              checkId: kept.previousCheckId,
              claimId: kept.previousClaim.id,
              charStart: kept.previousClaim.charStart,
            },
            { checkId: record.id, claimId: claim.id, charStart: claim.charStart },
            kept.tiers,
          )
        }
        const units = claims.flatMap((claim) =>
          tiers
            .filter((tier) => !carried?.claims.get(claim.id)?.tiers.includes(tier))
            .flatMap((tier) =>
              (this.parts.tiers.get(tier)?.models() ?? []).map((model) => ({
                claimId: claim.id,
                tier,
                model,
              })),
            ),
        )
        await tx.units.enqueue(record.id, units, now)
        return null
      },
      { lockOrg: principal.organizationId },
    )
    if (raced) return replay(raced)
    const check = await checkView(store, record)
    this.parts.events.emit({ type: 'check', organizationId: principal.organizationId, check })
    // The other replicas of a team server are told of its units after its `queued` event: none says it is
    // running before that.
    await this.parts.jobs.submitted(record.id)
    await store.units.tellQueued()
    return { check: await checks.getCheck(principal, record.id), replayed: false }
  }

  /// Refuses a part of a manuscript that its earlier parts do not fit: another count of parts or other tiers,
  /// or a part already submitted.
  private async requireNewPart(
    principal: Principal,
    manuscript: NonNullable<CreateCheckRequest['manuscript']>,
    tiers: readonly Tier[],
    store: Store,
  ): Promise<void> {
    const earlier = await store.checks.ofManuscript(principal.organizationId, manuscript.id)
    const misfit = earlier.find(
      (check) =>
        check.manuscript?.parts !== manuscript.parts ||
        check.manuscript.part === manuscript.part ||
        check.tiers.join() !== tiers.join(),
    )
    if (misfit) {
      throw new ApiError(
        'unprocessable',
        `Part ${manuscript.part} of ${manuscript.parts} does not fit manuscript ${manuscript.id}: it has part ` +
          `${misfit.manuscript?.part} of ${misfit.manuscript?.parts} for ${misfit.tiers.join(', ')} already.`,
        [{ field: 'manuscript', message: 'does not fit the parts submitted before' }],
      )
    }
  }
}
