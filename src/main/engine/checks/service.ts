import { createHash } from 'node:crypto'
import type { Config } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import { combinedCheck, combinedReport } from '../../../shared/manuscript'
import { quote } from '../../../shared/pricing'
import {
  CHECK_ID,
  MANUSCRIPT_ID,
  TIERS,
  type Check,
  type CheckList,
  type CreateCheckRequest,
  type Credits,
  type Estimate,
  type EstimateRequest,
  type Me,
  type PatchCheckRequest,
  type Quote,
  type Report,
  type Scope,
  type SourcePolicy,
  type Tier,
  type WebhookSecret,
  type WebhookSecretRotation,
} from '../../../shared/schemas'
import type { ClaimExtractor } from '../claims/pool'
import { carriedClaims, claimsToCheck, requirePreviousCheck, type Carried } from './recheck'
import type { Clock } from '../base/clock'
import { chargeOrRefuse } from './credits'
import type { ReportEvents } from '../base/events'
import { newId, newSecret } from '../base/ids'
import type { Store } from '../store'
import type { CheckRecord } from '../store/checks'
import type { ClaimRecord, DocumentRecord } from '../store/documents'
import type { TokenRecord } from '../store/tokens'
import type { TierChecker } from '../tiers/tier'
import {
  requireCallbackUrl,
  requireCheckableText,
  requireIdempotencyKey,
  requireSourceUrl,
  requireStorableText,
} from './validation'
import { checkView, reportView } from './views'
import { lookupHost, type HostResolver } from '../base/addresses'
import { requireCallbackTarget } from './callbackTarget'
import type { Reachability } from './reachability'
import { PerMinuteLimit } from '../base/rateLimit'

/// Who is asking: the organization a token acts for, and what it may do. `owner` is the person at this
/// computer: the desktop app, or the browser session that `factdesk web` opened. Only the owner may change the
/// app's settings and keys, manage tokens and add credits; API tokens never can.
export interface Principal {
  organizationId: string
  tokenId: string
  scope: Scope
  owner: boolean
}

/// How long a rotated-out webhook secret keeps signing.
const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000

const TOKEN_SHAPE = /^fdk_[A-Za-z0-9_-]{43}$/

/// A new API token's value: shown once, stored only as its hash.
export const newTokenValue = (): string => newSecret('fdk_')
export const newWebhookSecret = (): string => newSecret('whsec_')
export const hashToken = (value: string): string => createHash('sha256').update(value).digest('hex')

/// A browser session's two halves: the cookie, which the browser also sends to every other server of the same
/// host (cookies ignore the port), and the key that only the page holds, in storage of its own origin. The store
/// keeps one hash of both: neither half alone finds the session.
export interface SessionKeys {
  cookie: string
  pageKey: string
}
export const hashSession = (keys: SessionKeys): string => hashToken(`${keys.cookie} ${keys.pageKey}`)

/// What the service asks of the job runner.
export interface Jobs {
  submitted(checkId: string): void
  abort(checkId: string): void
}

/// Sorts tiers into their canonical order and drops repeats.
const canonicalTiers = (tiers: readonly Tier[]): Tier[] => TIERS.filter((tier) => tiers.includes(tier))

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

const HOUR_MS = 3_600_000

/// The operations of the API, with organization and scope checks. The REST server, the IPC layer and the
/// CLI all call this one object; it knows nothing of HTTP.
export class Service {
  /// Claim extractions per organization: estimates, and checks of a text, which extract before they charge.
  private readonly extractions: PerMinuteLimit

  constructor(
    private readonly store: Store,
    private readonly config: Config,
    private readonly clock: Clock,
    private readonly tiers: ReadonlyMap<Tier, TierChecker>,
    private readonly jobs: Jobs,
    private readonly events: ReportEvents,
    private readonly claims: Pick<ClaimExtractor, 'extract'>,
    private readonly resolveHost: HostResolver = lookupHost,
    private readonly reachability: Pick<Reachability, 'require'> | null = null,
    /// An organization's source policy (Settings), which a check with t3 keeps from its submission.
    private readonly sourcePolicy: (organizationId: string) => SourcePolicy = () => config.sources,
  ) {
    this.extractions = new PerMinuteLimit(clock, config.limits.estimatesPerMinute, 'estimatesPerMinute')
  }

  /// Turns a bearer token's value into a principal, or refuses it: unknown, malformed and revoked tokens
  /// all get the same answer, so the reply reveals nothing about which tokens exist.
  authenticate(tokenValue: string): Principal {
    const token = this.tokenOf(tokenValue)
    // A browser session is not an API token: it is good only as `factdesk web`'s cookie.
    if (!token || token.revokedAt !== null || token.sessionExpiresAt !== null) {
      throw new ApiError('unauthorized', 'The token is not valid: it is unknown, malformed or revoked.')
    }
    return { organizationId: token.organizationId, tokenId: token.id, scope: token.scope, owner: false }
  }

  /// Turns `factdesk web`'s session cookie and its page's key into the principal of the person at this
  /// computer, or refuses them: only a browser session the server opened (never an API token), both halves of
  /// the same session, before it ends and unless revoked.
  authenticateSession(keys: SessionKeys): Principal {
    const shaped = TOKEN_SHAPE.test(keys.cookie) && TOKEN_SHAPE.test(keys.pageKey)
    const token = shaped ? this.store.tokens.findByHash(hashSession(keys)) : null
    if (!token || token.sessionExpiresAt === null || !this.stands(token)) {
      throw new ApiError(
        'unauthorized',
        'This browser session has ended or is not valid: open the link `factdesk web` printed.',
      )
    }
    return { organizationId: token.organizationId, tokenId: token.id, scope: token.scope, owner: true }
  }

  /// Whether a principal's token still stands: not revoked since, and, for a browser session, not ended. Long
  /// requests (an event stream) ask again as they go.
  isCurrent(tokenId: string): boolean {
    const token = this.store.tokens.get(tokenId)
    return token !== null && this.stands(token)
  }

  /// The stored token of a value, by its hash; null for a value of no token's shape.
  private tokenOf(value: string): TokenRecord | null {
    return TOKEN_SHAPE.test(value) ? this.store.tokens.findByHash(hashToken(value)) : null
  }

  /// Whether a token is not revoked and, for a browser session, not ended.
  private stands(token: TokenRecord): boolean {
    if (token.revokedAt !== null) return false
    return token.sessionExpiresAt === null || token.sessionExpiresAt > this.clock.now().toISOString()
  }

  me(principal: Principal): Me {
    const organization = this.store.organizations.get(principal.organizationId)
    const token = this.store.tokens.get(principal.tokenId)
    if (!organization || !token) throw new ApiError('unauthorized', 'The token no longer exists.')
    return {
      organization,
      token: { id: token.id, name: token.name, scope: token.scope, createdAt: token.createdAt },
      limits: { ...this.config.limits },
    }
  }

  credits(principal: Principal): Credits {
    return { balance: this.store.ledger.balance(principal.organizationId), prices: this.config.pricing }
  }

  webhookSecret(principal: Principal): WebhookSecret {
    requireWrite(principal)
    const [current, ...previous] = this.store.webhookSecrets.valid(principal.organizationId, this.now())
    if (!current) throw new Error(`organization ${principal.organizationId} has no webhook secret`)
    return {
      secret: current.secret,
      createdAt: current.createdAt,
      previous: previous.flatMap(({ expiresAt }) => (expiresAt ? [{ expiresAt }] : [])),
    }
  }

  rotateWebhookSecret(principal: Principal): WebhookSecretRotation {
    requireWrite(principal)
    const now = this.clock.now()
    const previousExpiresAt = new Date(now.getTime() + SECRET_OVERLAP_MS).toISOString()
    const createdAt = now.toISOString()
    const secret = newWebhookSecret()
    this.store.transaction(() => {
      this.store.webhookSecrets.retireCurrent(principal.organizationId, previousExpiresAt)
      this.store.webhookSecrets.insert(principal.organizationId, {
        id: newId('whs', now),
        secret,
        createdAt,
        expiresAt: null,
      })
    })
    return { secret, createdAt, previousExpiresAt }
  }

  /// Finds the claims of a text and quotes them; caches both under a new documentId until it is submitted or
  /// expires (`limits.estimateHours`). Charges nothing, but an organization gets `limits.estimatesPerMinute`, and
  /// keeps `limits.keptEstimates` unsubmitted (a new one expires the oldest).
  /// With a `previousCheckId`, the claims that check already decided are kept and left out of the quote.
  async estimate(principal: Principal, request: EstimateRequest): Promise<Estimate> {
    requireWrite(principal)
    requireStorableText({ text: request.text })
    requireCheckableText(request.text, this.config.limits.maxTextChars)
    this.extractions.require(principal.organizationId, 'estimates')
    const tiers = canonicalTiers(request.tiers)
    const expiresAt = new Date(this.clock.now().getTime() + this.config.limits.estimateHours * HOUR_MS)
    const { document, claims } = await this.newDocument(
      principal,
      request.text,
      tiers,
      expiresAt.toISOString(),
    )
    const carried = this.carried(principal, request.previousCheckId, document, claims)
    this.store.transaction(() => {
      this.store.documents.insert(document, claims)
      this.store.documents.expireOldest(
        principal.organizationId,
        this.config.limits.keptEstimates,
        this.now(),
      )
    })
    const credits = this.price(document, claims.length, carried)
    const balance = this.store.ledger.balance(principal.organizationId)
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

  /// Refuses a submission for what can be told without running it: the scope, the tiers, the URLs, and the
  /// text or the estimated document. Answers the tiers in their canonical order. Checks queued to run when
  /// online are refused the same way when they are queued.
  requireSubmittable(principal: Principal, request: CreateCheckRequest): Tier[] {
    requireWrite(principal)
    const { text, name, author, sourceUrl, callbackUrl } = request
    requireStorableText({ text, name, author, sourceUrl, callbackUrl })
    const tiers = canonicalTiers(request.tiers)
    requireSourceUrl(request.sourceUrl)
    requireCallbackUrl(request.callbackUrl, this.config.webhooks.allowLocalTargets)
    const missing = tiers.find((tier) => !this.tiers.has(tier))
    if (missing) throw new ApiError('unprocessable', tierUnavailable(missing))
    if (request.documentId !== undefined) this.estimatedDocument(principal, request.documentId, tiers)
    else requireCheckableText(request.text ?? '', this.config.limits.maxTextChars)
    if (request.previousCheckId)
      requirePreviousCheck(this.store, principal.organizationId, request.previousCheckId)
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
    const tiers = this.requireSubmittable(principal, request)
    if (idempotencyKey !== undefined) requireIdempotencyKey(idempotencyKey)
    const hash = requestHash(request)

    const replay = (): { check: Check; replayed: boolean } | null => {
      if (idempotencyKey === undefined) return null
      const earlier = this.store.idempotencyKeys.find(principal.organizationId, idempotencyKey)
      if (!earlier) return null
      if (earlier.requestHash !== hash) {
        throw new ApiError('unprocessable', 'This Idempotency-Key was used with a different request body.')
      }
      return { check: this.getCheck(principal, earlier.checkId), replayed: true }
    }
    const earlier = replay()
    if (earlier) return earlier
    if (request.documentId === undefined) this.requireExtraction(principal, request, tiers)
    await this.reachability?.require(tiers)
    if (request.callbackUrl) {
      await requireCallbackTarget(
        request.callbackUrl,
        this.config.webhooks.allowLocalTargets,
        this.resolveHost,
      )
    }

    let document: DocumentRecord
    let claims: ClaimRecord[]
    let fresh = false
    if (request.documentId !== undefined) {
      document = this.estimatedDocument(principal, request.documentId, tiers)
      claims = this.store.documents.claims(document.id)
    } else {
      ;({ document, claims } = await this.newDocument(principal, request.text ?? '', tiers, null))
      fresh = true
    }

    const carried = this.carried(principal, request.previousCheckId, document, claims)
    const price = this.price(document, claims.length, carried)
    const now = this.now()
    const record: CheckRecord = {
      id: newId('chk', this.clock.now()),
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
      sourcePolicy: tiers.includes('t3') ? this.sourcePolicy(principal.organizationId) : null,
    }
    const replayed = this.store.transaction(() => {
      // Checked again inside the write transaction: the first of concurrent repeats wins.
      const raced = replay()
      if (raced) return raced
      if (request.manuscript) this.requireNewPart(principal, request.manuscript, tiers)
      if (fresh) this.store.documents.insert(document, claims)
      else if (!this.store.documents.keep(document.id)) throw estimateExpired(document.id)
      this.store.checks.insert(record)
      chargeOrRefuse(this.store.ledger, principal.organizationId, price.total, record.id, now, 'This check')
      for (const claim of claims) {
        const kept = carried?.claims.get(claim.id)
        if (!kept) continue
        this.store.results.carry(
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
            (this.tiers.get(tier)?.models() ?? []).map((model) => ({ claimId: claim.id, tier, model })),
          ),
      )
      this.store.units.enqueue(record.id, units, now)
      if (idempotencyKey !== undefined) {
        this.store.idempotencyKeys.insert(principal.organizationId, idempotencyKey, hash, record.id, now)
      }
      return null
    })
    if (replayed) return replayed
    const check = checkView(this.store, record)
    this.events.emit({ type: 'check', organizationId: principal.organizationId, check })
    this.jobs.submitted(record.id)
    return { check: this.getCheck(principal, record.id), replayed: false }
  }

  /// Refuses to extract the claims of a check's text for free: an organization whose balance cannot cover one
  /// claim is refused (402) before any work (unless a re-check may carry every claim at no cost), and extractions
  /// count against `limits.estimatesPerMinute` with the estimates. Checks queued to run when online are refused
  /// the same way when they are queued.
  requireExtraction(principal: Principal, request: CreateCheckRequest, tiers: readonly Tier[]): void {
    const cheapest = quote(1, tiers, this.config.pricing).total
    const balance = this.store.ledger.balance(principal.organizationId)
    if (!request.previousCheckId && balance < cheapest) {
      throw new ApiError(
        'insufficient_credits',
        `A check of ${tiers.join(', ')} costs at least one claim's price: one claim costs ${cheapest} ${cheapest === 1 ? 'credit' : 'credits'}; the balance is ${balance}.`,
      )
    }
    this.extractions.require(principal.organizationId, 'estimates and checks of a text')
  }

  /// A check, or a manuscript's: its parts' as one.
  getCheck(principal: Principal, id: string): Check {
    const parts = this.manuscriptParts(principal, id)
    return parts ? this.manuscriptCheck(id, parts) : checkView(this.store, this.findCheck(principal, id))
  }

  /// A check's report, or a manuscript's: its parts' as one, on the offsets of its whole text.
  report(principal: Principal, id: string): Report {
    const parts = this.manuscriptParts(principal, id)
    if (!parts) return reportView(this.store, this.findCheck(principal, id))
    return combinedReport(
      this.manuscriptCheck(id, parts),
      parts.map((part) => reportView(this.store, part)),
    )
  }

  /// The checks of the organization's manuscript `id`, by part; null for an id of no manuscript's shape.
  private manuscriptParts(principal: Principal, id: string): CheckRecord[] | null {
    if (!MANUSCRIPT_ID.test(id)) return null
    const parts = this.store.checks.ofManuscript(principal.organizationId, id)
    if (parts.length === 0) throw new ApiError('not_found', `There is no check ${id}.`)
    return parts
  }

  private manuscriptCheck(id: string, parts: readonly CheckRecord[]): Check {
    const first = parts[0] as CheckRecord
    return combinedCheck(
      id,
      parts.map((part) => checkView(this.store, part)),
      first.manuscript?.parts ?? parts.length,
    )
  }

  /// Refuses a part of a manuscript that its earlier parts do not fit: another count of parts or other tiers,
  /// or a part already submitted.
  private requireNewPart(
    principal: Principal,
    manuscript: NonNullable<CreateCheckRequest['manuscript']>,
    tiers: readonly Tier[],
  ): void {
    const earlier = this.store.checks.ofManuscript(principal.organizationId, manuscript.id)
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

  /// The organization’s checks, newest first, a page of `limit` at a time (its range checked where the request
  /// came in: `CheckPage`).
  listChecks(principal: Principal, limit = 20, cursor: string | null = null): CheckList {
    const after = cursor === null ? null : Buffer.from(cursor, 'base64url').toString()
    if (after !== null && !CHECK_ID.test(after)) {
      throw new ApiError('bad_request', 'cursor is not one this API gave out.', [
        { field: 'cursor', message: 'invalid' },
      ])
    }
    const page = this.store.checks.list(principal.organizationId, limit + 1, after)
    const shown = page.slice(0, limit)
    // A manuscript once, where its first part stands.
    const data = shown.map((record) =>
      record.manuscript ? this.getCheck(principal, record.manuscript.id) : checkView(this.store, record),
    )
    const last = shown.at(-1)
    return {
      data,
      nextCursor: page.length > limit && last ? Buffer.from(last.id).toString('base64url') : null,
    }
  }

  /// Stops a check and refunds all of it, once. A cancelled check stays cancelled; an ended one cannot be.
  cancel(principal: Principal, id: string): Check {
    requireWrite(principal)
    const parts = this.manuscriptParts(principal, id)
    if (parts) {
      // A manuscript's parts still going; one whose parts have all ended is answered as a check that has.
      const going = parts.filter((part) => part.status === 'queued' || part.status === 'running')
      for (const part of going.length > 0 ? going : parts.slice(-1)) this.cancel(principal, part.id)
      return this.getCheck(principal, id)
    }
    const cancelled = this.store.transaction(() => {
      const check = this.findCheck(principal, id)
      if (check.status === 'cancelled') return false
      if (check.status === 'completed' || check.status === 'failed') {
        throw new ApiError(
          'unprocessable',
          `Check ${id} has already ${check.status === 'completed' ? 'completed' : 'failed'}.`,
        )
      }
      const at = this.now()
      this.store.checks.end(id, { status: 'cancelled', refunded: check.credits.charged, error: null, at })
      this.store.units.cancelCheck(id)
      this.store.ledger.record(check.organizationId, 'refund', check.credits.charged, id, at)
      return true
    })
    const check = this.getCheck(principal, id)
    if (cancelled) {
      this.jobs.abort(id)
      this.events.emit({ type: 'check', organizationId: principal.organizationId, check })
    }
    return check
  }

  /// Edits a check's name, author or sourceUrl, at any time.
  patch(principal: Principal, id: string, edits: PatchCheckRequest): Check {
    requireWrite(principal)
    requireStorableText({ name: edits.name, author: edits.author, sourceUrl: edits.sourceUrl })
    requireSourceUrl(edits.sourceUrl)
    const parts = this.manuscriptParts(principal, id)
    if (parts) {
      for (const part of parts) this.patch(principal, part.id, edits)
      return this.getCheck(principal, id)
    }
    this.findCheck(principal, id)
    this.store.checks.edit(id, edits, this.now())
    const check = this.getCheck(principal, id)
    this.events.emit({ type: 'check', organizationId: principal.organizationId, check })
    return check
  }

  private findCheck(principal: Principal, id: string): CheckRecord {
    const check = this.store.checks.get(principal.organizationId, id)
    if (!check) throw new ApiError('not_found', `There is no check ${id}.`)
    return check
  }

  /// The organization's document `id`, estimated for exactly `tiers`.
  private estimatedDocument(principal: Principal, id: string, tiers: readonly Tier[]): DocumentRecord {
    const cached = this.store.documents.get(principal.organizationId, id)
    if (!cached && this.store.documents.expired(principal.organizationId, id)) throw estimateExpired(id)
    if (!cached) throw new ApiError('not_found', `There is no document ${id}.`)
    if (cached.expiresAt !== null && cached.expiresAt <= this.now()) throw estimateExpired(id)
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
  private price(document: DocumentRecord, claimCount: number, carried: Carried | null): Quote {
    return quote(claimsToCheck(claimCount, document.tiers, carried), document.tiers, {
      ...this.config.pricing,
      ...document.unitPrices,
    })
  }

  /// What a re-check keeps of `previousCheckId`, or null when it is not one.
  private carried(
    principal: Principal,
    previousCheckId: string | null | undefined,
    document: DocumentRecord,
    claims: readonly ClaimRecord[],
  ): Carried | null {
    if (!previousCheckId) return null
    const previous = requirePreviousCheck(this.store, principal.organizationId, previousCheckId)
    return carriedClaims(this.store, previousCheckId, previous, document.text, claims, document.tiers)
  }

  /// A new document of `text` and its claims; `expiresAt` for an estimate, null for a submission.
  private async newDocument(
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

  private now(): string {
    return this.clock.now().toISOString()
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
function tierUnavailable(tier: Tier): string {
  return tier === 't1'
    ? 'The t1 spelling and grammar checker is not available in this engine.'
    : `${tier} needs language models: add a panel and a judge under "models" in the config file ` +
        '(factdesk serve --config FILE), or in the app under Settings > Models.'
}

/// Refuses read-only tokens.
export function requireWrite(principal: Principal): void {
  if (principal.scope !== 'write') {
    throw new ApiError('forbidden', 'This needs a token with write scope; this one is read-only.')
  }
}

/// Settings, keys, tokens and credits belong to the person at this computer, never to an API token.
export function requireOwner(principal: Principal): void {
  if (!principal.owner || principal.scope !== 'write') {
    throw new ApiError(
      'forbidden',
      'Only the desktop app or the browser session of `factdesk web` can do this; API tokens cannot.',
    )
  }
}
