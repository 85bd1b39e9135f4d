import { ApiError } from '../../../shared/errors'
import {
  MANUSCRIPT_ID,
  type Check,
  type CreateCheckRequest,
  type PendingCheck,
  type PendingCheckList,
} from '../../../shared/schemas'
import type { Clock } from '../base/clock'
import { Alarm } from '../base/alarm'
import { HeldLeases, LEASE_MS, POLL_MS, newLeaseId, nextLook } from '../store/leases'
import { hasEnded } from '../../../shared/vocabulary'
import { type ReportEvents } from '../base/events'
import { newId, newSecret } from '../base/ids'
import { unreachableError, type Reachability } from './reachability'
import type { Principal } from './access'
import { estimateExpired } from './estimate'
import type { Service } from './service'
import { requestHash } from './submit'
import type { Store } from '../store'
import type { PendingRecord } from '../store/pendingChecks'
import { quotaReached } from '../base/rateLimit'
import { requireIdempotencyKey } from './validation'

// "Check when online": checks whose model or search providers could not be reached wait in the store, each with
// the Idempotency-Key it will be submitted with. A worker tries each when it falls due: it probes the providers
// afresh, and while they stay unreachable waits longer each time (backoff); once they answer, it submits through
// the service's normal path with the key, so a crash between submitting and recording the check makes the next
// attempt replay the same check rather than create and charge a second one. Each attempt holds a lease on its
// check, so that replicas of a team server never try one check at once, and one that died is taken over.

export interface PendingOptions {
  /// How long to wait after the `attempts`-th attempt could not submit.
  retryDelayMs(attempts: number): number
  /// How long the lease of a check lasts while an attempt at it runs; renewed every third of it (leases.ts).
  leaseMs: number
  /// On PostgreSQL, how often the worker looks for checks another replica left behind.
  pollMs: number
}

/// 5 s after the first attempt, doubling up to 5 minutes.
const DEFAULT_PENDING_OPTIONS: PendingOptions = {
  retryDelayMs: (attempts) => Math.min(5_000 * 2 ** Math.max(0, attempts - 1), 300_000),
  leaseMs: LEASE_MS,
  pollMs: POLL_MS,
}

/// Pending checks listed at most.
const LIST_LIMIT = 100
/// Characters of the text a label keeps.
const LABEL_CHARS = 60
/// Checks tried per pass over the due ones.
const BATCH = 16
/// The longest the worker sleeps before looking at the queue again.
/// How long the worker waits after a pass it could not finish.
const HOLD_AFTER_FAILURE_MS = 5_000

/// The public shape of a pending check.
function pendingView(record: PendingRecord): PendingCheck {
  return {
    id: record.id,
    status: record.status,
    label: record.label,
    tiers: record.request.tiers,
    documentId: record.request.documentId ?? null,
    idempotencyKey: record.idempotencyKey,
    attempts: record.attempts,
    nextAttemptAt: record.nextAttemptAt,
    lastError: record.lastError,
    checkId: record.checkId,
    error: record.error,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  }
}

/// The public shape of the pending parts of the manuscript `id` (at least one, in order): one pending check,
/// waiting while a part waits, else failed if one failed, cancelled if one was, and else submitted; once a part
/// is submitted its check is the manuscript's.
function manuscriptView(id: string, parts: readonly PendingRecord[]): PendingCheck {
  const first = parts[0] as PendingRecord
  const waiting = parts.filter((part) => part.status === 'waiting')
  const status =
    waiting.length > 0
      ? 'waiting'
      : ((['failed', 'cancelled'] as const).find((each) => parts.some((part) => part.status === each)) ??
        'submitted')
  const dates = (pick: (part: PendingRecord) => string | null): string[] =>
    parts.flatMap((part) => pick(part) ?? []).sort()
  return {
    ...pendingView(first),
    id,
    status,
    documentId: id,
    attempts: Math.max(...parts.map((part) => part.attempts)),
    nextAttemptAt: dates((part) => (part.status === 'waiting' ? part.nextAttemptAt : null))[0] ?? null,
    lastError: waiting.find((part) => part.lastError)?.lastError ?? null,
    checkId: parts.some((part) => part.checkId !== null) ? id : null,
    error: parts.find((part) => part.error)?.error ?? null,
    updatedAt: dates((part) => part.updatedAt).at(-1) ?? first.updatedAt,
    manuscript: { id, parts: first.request.manuscript?.parts ?? parts.length },
  }
}

/// What the writer recognises a check by: its name, or the start of its text.
function labelOf(name: string | null | undefined, text: string): string {
  const named = name?.trim()
  if (named) return named
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > LABEL_CHARS ? `${flat.slice(0, LABEL_CHARS - 1).trimEnd()}…` : flat
}

/// The queue of checks to run when online: its operations (queue, list, get, cancel) and the worker that
/// submits them when their providers can be reached.
export class PendingQueue {
  private running = false
  private readonly alarm: Alarm
  private passes: Promise<void> = Promise.resolve()
  private readonly options: PendingOptions
  private readonly leases: HeldLeases

  constructor(
    private readonly store: Store,
    private readonly service: Service,
    private readonly reachability: Pick<Reachability, 'unreachable'>,
    private readonly clock: Clock,
    private readonly events: ReportEvents,
    /// Checks an organization may have waiting at once (`limits.pendingChecks`).
    private readonly waitingLimit: number,
    options: Partial<PendingOptions> = {},
  ) {
    this.options = { ...DEFAULT_PENDING_OPTIONS, ...options }
    this.alarm = new Alarm(clock, () => this.kick())
    this.leases = new HeldLeases(clock, this.options.leaseMs, (ids, until) =>
      store.pendingChecks.renew(ids, until),
    )
  }

  /// Queues `request` to be submitted as the principal's token once its providers answer. It is refused now
  /// for whatever a submission would be refused for regardless of the network (scope, tiers, URLs, text, a
  /// balance that covers no claim, the minute's extractions), and past `limits.pendingChecks` waiting. A
  /// repeat with the same `idempotencyKey` and request answers the first (`replayed`); without one, a key is
  /// made up. The key is the one the check is submitted with.
  async queue(
    principal: Principal,
    request: CreateCheckRequest,
    idempotencyKey?: string,
  ): Promise<{ pending: PendingCheck; replayed: boolean }> {
    const tiers = await this.service.requireSubmittable(principal, request)
    if (idempotencyKey !== undefined) requireIdempotencyKey(idempotencyKey)
    const key = idempotencyKey ?? newSecret('pending-', 18)
    const now = this.clock.now()
    const text =
      request.documentId === undefined
        ? (request.text ?? '')
        : ((await this.store.documents.get(principal.organizationId, request.documentId))?.text ?? '')
    const id = newId('pnd', now)
    // Under the organization's lock: the checks waiting are counted and this one queued in one step, so that
    // requests at once, on any replica, never pass the quota together.
    const earlier = await this.store.transaction(
      async (tx) => {
        // A repeat answers the first without counting against a limit.
        const existing = await tx.pendingChecks.byKey(principal.organizationId, key)
        if (existing) return existing
        if ((await tx.pendingChecks.waiting(principal.organizationId)) >= this.waitingLimit) {
          throw quotaReached(
            'pendingChecks',
            `This organization has ${this.waitingLimit} checks waiting to run when online, the most it may: ` +
              'cancel one or wait until they run',
          )
        }
        if (request.documentId === undefined)
          await this.service.requireExtraction(principal, request, tiers, tx)
        // A queued estimate is as good as submitted: it must not expire while it waits.
        if (request.documentId !== undefined && !(await tx.documents.keep(request.documentId))) {
          throw estimateExpired(request.documentId)
        }
        await tx.pendingChecks.insert({
          id,
          organizationId: principal.organizationId,
          tokenId: principal.tokenId,
          request,
          label: labelOf(request.name, text),
          idempotencyKey: key,
          createdAt: now.toISOString(),
        })
        return null
      },
      { lockOrg: principal.organizationId },
    )
    if (earlier) {
      if (requestHash(earlier.request) !== requestHash(request)) {
        throw new ApiError('unprocessable', 'This Idempotency-Key was used with a different request body.')
      }
      return { pending: await this.view(earlier), replayed: true }
    }
    const pending = await this.get(principal, id)
    this.emit(principal.organizationId, pending, null)
    this.kick()
    return { pending, replayed: false }
  }

  /// The organization's pending checks, newest first, a manuscript's parts as one; only the waiting ones when
  /// `waiting`.
  async list(principal: Principal, waiting = false): Promise<PendingCheckList> {
    const records = await this.store.pendingChecks.list(
      principal.organizationId,
      LIST_LIMIT,
      waiting ? 'waiting' : null,
    )
    return { data: await Promise.all(records.map((record) => this.view(record))) }
  }

  /// A pending check; a manuscript's (by its id or a part's) as one.
  async get(principal: Principal, id: string): Promise<PendingCheck> {
    return await this.view(await this.find(principal, id))
  }

  /// Cancels a check that still waits, a manuscript's parts all at once; a cancelled one stays cancelled. One
  /// that has started (a part of it, for a manuscript) is the check's to cancel (422), one that failed has
  /// nothing to cancel (422).
  async cancel(principal: Principal, id: string): Promise<PendingCheck> {
    const found = await this.find(principal, id)
    const at = this.clock.now().toISOString()
    const cancelled = await this.store.transaction(async (tx) => {
      const records = await this.recordsOf(found, tx)
      if (records.some((record) => record.status === 'submitted')) return false
      let ended = false
      for (const record of records) if (await tx.pendingChecks.cancel(record.id, at)) ended = true
      await tx.pendingChecks.forgetEnded(principal.organizationId, this.waitingLimit)
      return ended
    })
    const pending = await this.view(await this.find(principal, id))
    if (pending.checkId !== null) {
      throw new ApiError(
        'unprocessable',
        `This check has already started as ${pending.checkId}: cancel that check instead.`,
      )
    }
    if (pending.status === 'failed' && !cancelled)
      throw new ApiError('unprocessable', 'This check has already failed.')
    if (cancelled) this.emit(principal.organizationId, pending, null)
    return pending
  }

  /// Starts the worker: what is due now at once, the rest when it falls due. On SQLite the data folder's one
  /// engine first ends the leases a process that died left (as the job runner does).
  start(): void {
    if (this.running) return
    this.running = true
    if (this.store.dialect === 'sqlite') {
      const at = this.clock.now().toISOString()
      this.passes = this.passes.then(() => this.store.pendingChecks.expireLeases(at)).catch(() => undefined)
    }
    this.kick()
  }

  /// Stops the worker; an attempt in flight finishes first (a submission is then recorded).
  async stop(): Promise<void> {
    this.running = false
    this.alarm.clear()
    await this.passes
  }

  /// Tries every pending check that is due by the engine's clock now, one pass at a time; resolves when the
  /// pass has ended. The timer calls it; tests call it after moving their clock or changing the network.
  runDue(): Promise<void> {
    const pass = this.passes.then(() => this.pass())
    this.passes = pass.catch(() => undefined)
    return pass
  }

  private kick(): void {
    if (this.running) void this.runDue().catch(() => undefined)
  }

  /// Tries up to BATCH due checks, one after the other, each leased as its turn comes (so that the others stay free
  /// for other replicas meanwhile).
  private async pass(): Promise<void> {
    let held = 0
    try {
      for (let tried = 0; tried < BATCH; tried++) {
        const record = await this.store.pendingChecks.lease(
          this.clock.now().toISOString(),
          this.leases.until(),
          newLeaseId(),
        )
        if (!record) break
        const leaseId = record.leaseId as string
        this.leases.hold(record.id, leaseId, () => undefined)
        try {
          await this.attempt(record, leaseId)
        } finally {
          // An attempt whose outcome could not be recorded (the store refused) leaves the check due again.
          this.leases.letGo(record.id)
          await this.store.pendingChecks.release(record.id, leaseId)
        }
      }
    } catch {
      // The store refused to record an attempt (busy, say): that check is still due, so wait a while first.
      held = HOLD_AFTER_FAILURE_MS
    } finally {
      await this.schedule(held)
    }
  }

  /// Sleeps until the next waiting check falls due, but at least `minimumMs` (at most a minute, then looks
  /// again).
  private async schedule(minimumMs = 0): Promise<void> {
    const next = this.running ? await this.store.pendingChecks.nextDue() : null
    this.alarm.set(
      this.running ? nextLook(this.store.dialect, this.clock, next, this.options.pollMs) : null,
      minimumMs,
    )
  }

  /// One attempt, under the lease `leaseId`: probe the providers afresh; submit with the key when they answer, else
  /// wait longer. An attempt whose lease was lost meanwhile records nothing (the submission, made with the check's
  /// key, is the same check another attempt makes or made).
  private async attempt(record: PendingRecord, leaseId: string): Promise<void> {
    const attempt = record.attempts + 1
    const token = await this.store.tokens.get(record.tokenId)
    if (!token || token.revokedAt !== null) {
      await this.end(record, leaseId, attempt, {
        code: 'unauthorized',
        message: 'The token that queued this check was revoked.',
      })
      return
    }
    const principal: Principal = {
      organizationId: record.organizationId,
      tokenId: record.tokenId,
      scope: 'write',
      owner: false,
    }
    const down = await this.reachability.unreachable(record.request.tiers, true)
    if (down.length > 0) {
      // A configuration that can never work fails the check now; an endpoint that is down is waited for.
      const refusal = unreachableError(down)
      if (refusal.code === 'unprocessable')
        await this.end(record, leaseId, attempt, { code: refusal.code, message: refusal.message })
      else await this.retryLater(record, leaseId, attempt, refusal.message)
      return
    }
    let check: Check
    try {
      ;({ check } = await this.service.submit(principal, record.request, record.idempotencyKey))
    } catch (error) {
      // The minute's extractions used up is as passing as a provider that is down.
      if (
        error instanceof ApiError &&
        !['providers_unreachable', 'rate_limited', 'internal_error'].includes(error.code)
      ) {
        await this.end(record, leaseId, attempt, { code: error.code, message: error.message })
      } else if (error instanceof ApiError) {
        await this.retryLater(record, leaseId, attempt, error.message)
      } else {
        // Its text may hold SQL or a path: logged here, and only named in the queue.
        console.error('factdesk: a pending check could not be submitted', error)
        await this.retryLater(
          record,
          leaseId,
          attempt,
          'Something went wrong on our side; it will be tried again.',
        )
      }
      return
    }
    const at = this.clock.now().toISOString()
    if (await this.store.pendingChecks.submitted(record.id, leaseId, attempt, check.id, at)) {
      this.emit(record.organizationId, await this.get(principal, record.id), check)
    } else if ((await this.find(principal, record.id)).status === 'cancelled') {
      // Cancelled while it was being submitted: the check it became is cancelled too, and refunded in full
      // (unless it has ended already, as a short t1 check may have).
      if (!hasEnded(await this.service.getCheck(principal, check.id)))
        await this.service.cancel(principal, check.id)
    }
  }

  private async retryLater(
    record: PendingRecord,
    leaseId: string,
    attempt: number,
    reason: string,
  ): Promise<void> {
    const now = this.clock.now()
    const nextAttemptAt = new Date(now.getTime() + this.options.retryDelayMs(attempt)).toISOString()
    const retry = { nextAttemptAt, reason }
    if (await this.store.pendingChecks.retryLater(record.id, leaseId, attempt, retry, now.toISOString())) {
      await this.emitRecord(record.organizationId, record.id)
    }
  }

  private async end(
    record: PendingRecord,
    leaseId: string,
    attempt: number,
    error: { code: string; message: string },
  ): Promise<void> {
    const at = this.clock.now().toISOString()
    if (await this.store.pendingChecks.fail(record.id, leaseId, attempt, error, at)) {
      await this.emitRecord(record.organizationId, record.id)
      await this.store.pendingChecks.forgetEnded(record.organizationId, this.waitingLimit)
    }
  }

  private async emitRecord(organizationId: string, id: string): Promise<void> {
    const record = await this.store.pendingChecks.get(organizationId, id)
    if (record) this.emit(organizationId, await this.view(record), null)
  }

  private emit(organizationId: string, pending: PendingCheck, check: Check | null): void {
    this.events.emit({ type: 'pending', organizationId, pending, check })
  }

  /// The public shape of the pending check `record` is, or is a part of.
  private async view(record: PendingRecord): Promise<PendingCheck> {
    const manuscript = record.request.manuscript?.id
    return manuscript === undefined
      ? pendingView(record)
      : manuscriptView(manuscript, await this.recordsOf(record))
  }

  /// As they are now in `store` (the root's, or a transaction's): `record`, or the parts of the manuscript it is
  /// a part of.
  private async recordsOf(record: PendingRecord, store = this.store): Promise<PendingRecord[]> {
    const manuscript = record.request.manuscript?.id
    if (manuscript !== undefined) return store.pendingChecks.ofManuscript(record.organizationId, manuscript)
    return [(await store.pendingChecks.get(record.organizationId, record.id)) ?? record]
  }

  /// The pending check `id`; for a manuscript's id, its first part.
  private async find(principal: Principal, id: string): Promise<PendingRecord> {
    const record = MANUSCRIPT_ID.test(id)
      ? (await this.store.pendingChecks.ofManuscript(principal.organizationId, id))[0]
      : await this.store.pendingChecks.get(principal.organizationId, id)
    if (!record) throw new ApiError('not_found', `There is no pending check ${id}.`)
    return record
  }
}
