import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { setTimeout as sleep } from 'node:timers/promises'
import { failureReason, lookupHost, pinnedLookup, resolveTarget, type HostResolver } from '../base/addresses'
import type { Config } from '../../../shared/config'
import type { Clock } from '../base/clock'
import type { ReportEvents } from '../base/events'
import type { Store } from '../store'
import type { AttemptOutcome, OutboxRecord } from '../store/outbox'
import { Alarm } from '../base/alarm'
import { HeldLeases, LEASE_MS, POLL_MS, newLeaseId, nextLook } from '../store/leases'
import { requireCallbackUrl } from '../checks/validation'
import { checkView } from '../checks/views'
import { signatureHeader } from './sign'

export interface DeliveryOptions {
  /// Resolves callback hosts before every attempt (tests inject one to play changing DNS answers).
  resolveHost: HostResolver
  /// How long one attempt may take, connection and response headers included.
  timeoutMs: number
  /// How long the lease of an event lasts while an attempt at it runs; renewed every third of it (leases.ts).
  leaseMs: number
  /// On PostgreSQL, how often the worker looks for events another replica left behind.
  pollMs: number
}

const DEFAULT_DELIVERY_OPTIONS: DeliveryOptions = {
  resolveHost: lookupHost,
  timeoutMs: 10_000,
  leaseMs: LEASE_MS,
  pollMs: POLL_MS,
}

/// Attempts started together at most, per pass over the due events.
const BATCH = 16
/// The longest the worker sleeps before looking at the outbox again.
/// How long an event whose attempt could not be recorded is held back before it is tried again.
const HOLD_UNRECORDED_MS = 5_000

/// `promise`, or a rejection as soon as `signal` aborts.
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise((resolve, reject) => {
    const abort = () => reject(signal.reason)
    signal.addEventListener('abort', abort, { once: true })
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', abort))
  })
}

/// What came of sending: the receiver's status code, or why there was none.
interface Sent {
  statusCode: number | null
  error: string | null
}

/// Delivers the outbox's webhook events: signs each attempt afresh, re-checks the target's addresses before
/// connecting (and connects only to the addresses checked), never follows redirects, and retries on the
/// configured schedule until an attempt is acknowledged or the schedule runs out. Everything it knows is in
/// the store, so a restarted engine continues where the last one stopped. An attempt holds a lease on its event, so
/// that replicas of a team server never send one event at once, and one that died is taken over.
export class WebhookDeliveries {
  private running = false
  /// Ending the leases a process that died left, before the first look at the outbox (SQLite only).
  private recovered: Promise<void> = Promise.resolve()
  private readonly leases: HeldLeases
  private readonly alarm: Alarm
  private stopping = new AbortController()
  private unsubscribe: (() => void) | null = null
  private readonly inFlight = new Map<string, Promise<void>>()
  /// The pass that is leasing, if any: the next waits for it.
  private leasing: Promise<unknown> = Promise.resolve()
  private readonly options: DeliveryOptions

  constructor(
    private readonly store: Store,
    private readonly config: Config['webhooks'],
    private readonly clock: Clock,
    private readonly events: ReportEvents,
    options: Partial<DeliveryOptions> = {},
  ) {
    this.options = { ...DEFAULT_DELIVERY_OPTIONS, ...options }
    this.alarm = new Alarm(clock, () => this.kick())
    this.leases = new HeldLeases(clock, this.options.leaseMs, (ids, until) => store.outbox.renew(ids, until))
  }

  /// Starts delivering: what is due now at once, the rest on schedule, and each new event as its check ends. On
  /// SQLite the data folder's one engine first ends the leases a process that died left (as the job runner does).
  start(): void {
    if (this.running) return
    this.running = true
    this.stopping = new AbortController()
    if (this.store.dialect === 'sqlite')
      this.recovered = this.store.outbox.expireLeases(this.clock.now().toISOString()).catch(() => undefined)
    this.unsubscribe = this.events.subscribe((event) => {
      if (
        event.type === 'check' &&
        event.check.callbackUrl !== null &&
        (event.check.status === 'completed' || event.check.status === 'failed')
      )
        this.kick()
    })
    this.kick()
  }

  /// Stops: no new attempts; attempts in flight are abandoned unrecorded, so the next start makes them again.
  async stop(): Promise<void> {
    this.running = false
    this.unsubscribe?.()
    this.unsubscribe = null
    this.alarm.clear()
    this.stopping.abort()
    await Promise.allSettled([...this.inFlight.values()])
    this.leases.clear()
  }

  /// Makes every attempt that is due by the engine's clock now, and resolves when they (and any attempt
  /// already in flight here) are recorded. The timer loop calls it; tests call it after moving their clock.
  async deliverDue(): Promise<void> {
    await this.recovered
    const tried = new Set<string>() // one attempt per event and pass, whatever happens to it
    while (this.running) {
      // What is in flight here stays leased, whatever the clock did meanwhile.
      await this.leases.renewIfDue()
      const started = await this.startDue(tried)
      // Every attempt in flight here, also those another pass (the timer's) started: leased and started in one
      // step, none is between the two while this pass looks.
      await Promise.all(this.inFlight.values())
      if (started === 0) break
    }
    await this.schedule()
  }

  /// Leases what is due and starts an attempt of each event not `tried` yet in the calling pass: how many it
  /// started. One pass at a time leases, so that an event leased here is in flight before another pass looks.
  private startDue(tried: Set<string>): Promise<number> {
    const step = this.leasing.then(async () => {
      const leased = await this.store.outbox.lease(
        this.clock.now().toISOString(),
        this.leases.until(),
        newLeaseId(),
        BATCH,
      )
      let started = 0
      for (const event of leased) {
        if (tried.has(event.id) || this.inFlight.has(event.id)) {
          await this.store.outbox.release(event.id, event.leaseId as string)
        } else {
          tried.add(event.id)
          started++
          void this.attempt(event)
        }
      }
      return started
    })
    this.leasing = step.catch(() => undefined)
    return step
  }

  private kick(): void {
    if (this.running) void this.deliverDue().catch(() => undefined)
  }

  /// Sleeps until the next pending event can be leased (at most a minute, then looks again; on PostgreSQL, at most
  /// `pollMs`).
  private async schedule(): Promise<void> {
    const next = this.running ? await this.store.outbox.nextDue() : null
    this.alarm.set(this.running ? nextLook(this.store.dialect, this.clock, next, this.options.pollMs) : null)
  }

  private attempt(event: OutboxRecord): Promise<void> {
    const leaseId = event.leaseId as string
    // A lease lost meanwhile (taken over after it expired) is let go: this attempt's outcome will not be recorded.
    this.leases.hold(event.id, leaseId, () => undefined)
    const run = this.send(event, leaseId)
      .catch(() => false)
      .then(async (recorded) => {
        // An attempt the store would not record stays in flight a while, so that it is not sent again at once;
        // then its event is due again (unless its lease went to another replica).
        if (recorded) return
        if (this.running)
          await sleep(HOLD_UNRECORDED_MS, undefined, { signal: this.stopping.signal }).catch(() => undefined)
        await this.store.outbox.release(event.id, leaseId)
      })
      .catch(() => undefined)
      .finally(() => {
        this.leases.letGo(event.id)
        this.inFlight.delete(event.id)
        // The store would not say what is due next: look again a while later.
        this.schedule().catch(() => this.alarm.set(this.clock.now().toISOString(), HOLD_UNRECORDED_MS))
      })
    this.inFlight.set(event.id, run)
    return run
  }

  /// One attempt under the lease `leaseId`: check the target, sign, POST, record the outcome and the next attempt.
  /// True once recorded.
  private async send(event: OutboxRecord, leaseId: string): Promise<boolean> {
    const attempt = event.attempts + 1
    const attemptedAt = this.clock.now()
    const sent = await this.post(event)
    if (!this.running || this.stopping.signal.aborted) {
      // Stopping: this attempt does not count, and the event is due again at once (here or on another replica).
      await this.store.outbox.release(event.id, leaseId)
      return true
    }
    const delays = this.config.retryDelaysSeconds
    const acknowledged = sent.statusCode !== null && sent.statusCode >= 200 && sent.statusCode < 300
    const delay = delays[attempt - 1]
    const outcome: AttemptOutcome = acknowledged
      ? { status: 'delivered' }
      : delay === undefined
        ? { status: 'failed' }
        : {
            status: 'pending',
            nextAttemptAt: new Date(this.clock.now().getTime() + delay * 1000).toISOString(),
          }
    const recorded = await this.store.transaction(
      async (tx) =>
        await tx.outbox.recordAttempt(
          event.id,
          leaseId,
          { attempt, attemptedAt: attemptedAt.toISOString(), statusCode: sent.statusCode, error: sent.error },
          outcome,
        ),
    )
    if (recorded) await this.emitCheck(event.checkId)
    return recorded
  }

  /// Re-checks the target, signs with the secrets valid now and POSTs, all within the attempt's timeout;
  /// never throws.
  private async post(event: OutboxRecord): Promise<Sent> {
    const deadline = AbortSignal.timeout(this.options.timeoutMs)
    const signal = AbortSignal.any([this.stopping.signal, deadline])
    try {
      const allowLocal = this.config.allowLocalTargets
      requireCallbackUrl(event.url, allowLocal)
      const url = new URL(event.url)
      const addresses = await untilAborted(resolveTarget(url, allowLocal, this.options.resolveHost), signal)
      const now = this.clock.now()
      const secrets = (await this.store.webhookSecrets.valid(event.organizationId, now.toISOString())).map(
        (record) => record.secret,
      )
      if (secrets.length === 0) return { statusCode: null, error: 'The organization has no signing secret.' }
      const headers: OutgoingHttpHeaders = {
        'Content-Type': 'application/json',
        'Content-Length': Buffer.byteLength(event.body),
        'User-Agent': 'Factdesk-Webhooks/1',
        'X-SVC-Signature': signatureHeader(event.body, secrets, Math.floor(now.getTime() / 1000)),
        'X-SVC-Event': event.type,
        'X-SVC-Delivery': event.id,
        Connection: 'close',
      }
      const statusCode = await this.request(url, addresses, headers, event.body, signal)
      if (statusCode >= 200 && statusCode < 300) return { statusCode, error: null }
      return {
        statusCode,
        error:
          statusCode >= 300 && statusCode < 400
            ? `The receiver answered ${statusCode}: redirects are not followed.`
            : `The receiver answered ${statusCode}.`,
      }
    } catch (error) {
      if (deadline.aborted && !this.stopping.signal.aborted) {
        return { statusCode: null, error: `No response within ${this.options.timeoutMs / 1000} s.` }
      }
      return { statusCode: null, error: failureReason(error, event.url) }
    }
  }

  /// POSTs `body` to `url`, connecting only to `addresses` (those just checked, whatever DNS says a moment
  /// later), and resolves with the status code once the response headers arrive. Node's client never follows
  /// redirects.
  private request(
    url: URL,
    addresses: readonly string[],
    headers: OutgoingHttpHeaders,
    body: string,
    signal: AbortSignal,
  ): Promise<number> {
    const pinned = pinnedLookup(addresses)
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest
    return new Promise((resolve, reject) => {
      const request = send(
        url,
        { method: 'POST', headers, lookup: pinned, agent: false, signal },
        (response) => {
          resolve(response.statusCode ?? 0)
          response.destroy()
        },
      )
      request.on('error', reject)
      request.end(body)
    })
  }

  private async emitCheck(checkId: string): Promise<void> {
    const record = await this.store.checks.byId(checkId)
    if (record) {
      this.events.emit({
        type: 'check',
        organizationId: record.organizationId,
        check: await checkView(this.store, record),
      })
    }
  }
}
