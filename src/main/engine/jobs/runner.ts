import type { Consensus, Evaluation, TextIssue, Tier } from '../../../shared/schemas'
import type { Clock } from '../base/clock'
import type { ReportEvents } from '../base/events'
import type { Store } from '../store'
import type { Notifications } from '../store/database'
import type { CheckRecord } from '../store/checks'
import type { UnitRecord } from '../store/units'
import type { ClaimRecord } from '../store/documents'
import type { PanelVote } from '../store/results'
import { PermanentError } from '../base/errors'
import { JUDGE_UNIT, type TierChecker, type UnitOutcome } from '../tiers/tier'
import { checkView } from '../checks/views'
import { Alarm } from '../base/alarm'
import { HeldLeases, LEASE_MS, POLL_MS, newLeaseId, nextLook } from '../store/leases'
import { queueJudge, settleCheck } from './settle'

export interface RunnerOptions {
  /// Units worked on at once; null: as many as the tiers in use ask for (t2 wants twice its providers' request
  /// slots), and at least four. Read as work is leased, so that models configured later count.
  concurrency: number | null
  /// How long one attempt at a unit may take before it is aborted and retried.
  unitTimeoutMs: number
  /// Attempts per unit before it fails.
  maxAttempts: number
  /// Wait before attempt `attempt + 1`, after `attempt` failed.
  retryDelayMs(attempt: number): number
  /// How long a lease of a unit or a job lasts; renewed every third of it while the work runs (leases.ts).
  leaseMs: number
  /// On PostgreSQL, how often the runner looks for work that other replicas queued or left behind.
  pollMs: number
}

/// Exponential backoff with jitter: about 1 s, 2 s, 4 s … capped at a minute.
export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  concurrency: null,
  unitTimeoutMs: 60_000,
  maxAttempts: 3,
  retryDelayMs: (attempt) => Math.min(60_000, 1000 * 2 ** (attempt - 1)) * (0.75 + Math.random() / 2),
  leaseMs: LEASE_MS,
  pollMs: POLL_MS,
}

const iso = (ms: number): string => new Date(ms).toISOString()
/// Units worked on at once when no tier asks for more.
const MIN_CONCURRENCY = 4

/// Durable work of another kind than the checks' units (deep research runs), kept in its own table of the same
/// database: the runner leases it beside the units as it leases them (an expiring lease under a token, renewed
/// while the attempt runs), retries a failed attempt with the same backoff, gives it back when the engine stops
/// and takes it over once the lease of a holder that died has expired.
export interface JobQueue {
  /// Jobs of this queue in flight at once (apart from the units').
  readonly concurrency: number
  /// Leases until `leaseUntil` up to `limit` jobs that are due or whose lease ended at `now`, counting an
  /// attempt of each.
  lease(now: string, leaseUntil: string, limit: number): Promise<Job[]>
  /// When a job can next be leased (one falls due, or a lease ends); null when none waits.
  nextDue(): Promise<string | null>
  /// Extends to `leaseUntil` the leases with these tokens of jobs still held; gives the ids of those jobs.
  renew(leaseIds: readonly string[], leaseUntil: string): Promise<string[]>
  /// Ends every lease at `now`, so that the next lease takes the jobs: only for SQLite's one engine at its start.
  expireLeases(now: string): Promise<void>
}

/// A leased unit with what its tier needs from the store.
interface Prepared {
  unit: UnitRecord
  check: CheckRecord
  claim: ClaimRecord
  tier: TierChecker
  documentText: string
  /// The panel's votes, for a judge unit.
  votes: PanelVote[]
}

/// One leased job.
export interface Job {
  readonly id: string
  /// The token of its lease, which every write of the attempt requires.
  readonly leaseId: string
  /// Attempts so far, this one included.
  readonly attempts: number
  /// Runs this attempt; a throw fails it (a PermanentError for good).
  run(signal: AbortSignal): Promise<void>
  /// Gives the job back to its queue, due at `at`.
  retryLater(at: string): Promise<void>
  /// Ends the job as failed, after its last attempt or a permanent failure.
  fail(reason: string): Promise<void>
}

/// How long the runner waits to lease again after the store refused a lease.
const RETRY_LEASE_MS = 5_000

/// Works the durable queue: leases due units, runs them through their tier with an AbortSignal, records the
/// outcome and the unit's end in one transaction, retries with backoff, and ends each check exactly once.
export class JobRunner {
  /// Units in flight, and the jobs of each queue.
  private inFlight = 0
  private readonly queues = new Map<JobQueue, number>()
  /// The leases of the units in flight, and of each queue's jobs.
  private readonly unitLeases: HeldLeases
  private readonly jobLeases = new Map<JobQueue, HeldLeases>()
  private running = false
  /// The pass under way, if any.
  private pumping: Promise<void> | null = null
  private pumpAgain = false
  private pumpQueued = false
  /// Hearing of units other replicas queued (PostgreSQL), while started.
  private listening: Notifications | null = null
  private readonly alarm: Alarm
  private readonly controllers = new Map<string, Set<AbortController>>()
  private readonly jobControllers = new Set<AbortController>()
  /// Claims done per tier of the running checks, counted once from the store when a check's first unit runs here
  /// and then as each consensus lands: recounting for every consensus would make a check's progress events
  /// quadratic in its claims.
  private readonly claimsDone = new Map<string, Partial<Record<Tier, number>>>()
  private readonly drained: (() => void)[] = []
  private readonly checks = new Map<string, CheckRecord>()
  /// Units of each check whose results are being written or were written and not yet announced.
  private readonly landing = new Map<string, number>()
  private lastDocument: { id: string; text: string } | null = null

  constructor(
    private readonly store: Store,
    private readonly tiers: ReadonlyMap<Tier, TierChecker>,
    private readonly events: ReportEvents,
    private readonly clock: Clock,
    private readonly options: RunnerOptions = DEFAULT_RUNNER_OPTIONS,
  ) {
    this.alarm = new Alarm(clock, () => this.pump(), { keepAlive: true })
    this.unitLeases = new HeldLeases(clock, options.leaseMs, (ids, until) => store.units.renew(ids, until))
  }

  /// Runs the jobs of `queue` too, from the next start on.
  add(queue: JobQueue): void {
    this.queues.set(queue, 0)
    this.jobLeases.set(
      queue,
      new HeldLeases(this.clock, this.options.leaseMs, (ids, until) => queue.renew(ids, until)),
    )
  }

  /// Starts working. Nothing running is reset: on PostgreSQL other replicas hold live leases, and the work of one
  /// that died is taken over as its leases expire. On SQLite the data folder's lock admits one engine that runs
  /// jobs (store/lock.ts), so whatever is still leased was left by a process of the folder that died: its leases
  /// are ended now, so that a restart resumes its checks at once rather than a lease later.
  async start(): Promise<void> {
    if (this.store.dialect === 'sqlite') {
      await this.store.units.expireLeases(this.now())
      for (const queue of this.queues.keys()) await queue.expireLeases(this.now())
    }
    this.running = true
    // On PostgreSQL, units another replica queued are leased at once rather than at the next look.
    this.listening = await this.store.units.listen(() => this.pumpSoon())
    // A process that died between a check's last unit and its ending left the check active with nothing open.
    for (const checkId of await this.store.checks.activeIds()) await this.settle(checkId)
    await this.pump()
  }

  /// New work was queued for `checkId`: start on it, or end it at once if it has nothing to do.
  async submitted(checkId: string): Promise<void> {
    await this.settle(checkId)
    await this.pump()
  }

  /// A job was queued: start on it if there is room.
  async wake(): Promise<void> {
    await this.pump()
  }

  /// Stops the check's units that are in flight (after a cancel).
  abort(checkId: string): void {
    this.claimsDone.delete(checkId)
    this.checks.delete(checkId)
    for (const controller of this.controllers.get(checkId) ?? []) controller.abort()
  }

  /// Stops taking work, aborts what is in flight and puts it back in the queue for the next start.
  async stop(): Promise<void> {
    this.running = false
    this.alarm.clear()
    await this.listening?.close()
    this.listening = null
    this.claimsDone.clear()
    this.checks.clear()
    for (const set of this.controllers.values()) for (const controller of set) controller.abort()
    for (const controller of this.jobControllers) controller.abort()
    await this.pumping
    if (!this.idle()) await new Promise<void>((resolve) => this.drained.push(resolve))
    this.unitLeases.clear()
    for (const leases of this.jobLeases.values()) leases.clear()
  }

  /// Nothing in flight: no unit, no job.
  private idle(): boolean {
    return this.inFlight === 0 && [...this.queues.values()].every((count) => count === 0)
  }

  /// The check of a unit when it is queued or running, started if it was queued; kept while it runs, so that its
  /// units do not read it again (a cancel or its end forgets it).
  private async runningCheck(checkId: string): Promise<CheckRecord | null> {
    const kept = this.checks.get(checkId)
    if (kept) return kept
    const check = await this.store.checks.byId(checkId)
    if (!check || (check.status !== 'queued' && check.status !== 'running')) return null
    if (await this.store.checks.start(check.id, this.now())) await this.emitCheck(check.id)
    this.checks.set(checkId, check)
    // Counted before any of its units here land: units that land together are written together.
    this.claimsDone.set(checkId, await this.store.checks.claimsDone(checkId))
    return check
  }

  /// One unit of the check has announced its written result (or has none to announce).
  private announced(checkId: string): void {
    const left = (this.landing.get(checkId) ?? 1) - 1
    if (left > 0) this.landing.set(checkId, left)
    else this.landing.delete(checkId)
  }

  /// A document's text; the last one read is kept, since a check's units follow one another.
  private async documentText(documentId: string): Promise<string> {
    if (this.lastDocument?.id !== documentId)
      this.lastDocument = { id: documentId, text: await this.store.documents.text(documentId) }
    return this.lastDocument.text
  }

  private now(): string {
    return this.clock.now().toISOString()
  }

  /// Units worked on at once now.
  private concurrency(): number {
    return (
      this.options.concurrency ??
      Math.max(MIN_CONCURRENCY, ...[...this.tiers.values()].map((tier) => tier.concurrency ?? 0))
    )
  }

  /// Leases what there is room for; a call while a pass is under way makes that pass look again when it ends, as
  /// room may have been made after it looked.
  private pump(): Promise<void> {
    if (!this.running) return Promise.resolve()
    if (this.pumping) {
      this.pumpAgain = true
      return this.pumping
    }
    this.pumping = (async () => {
      try {
        do {
          this.pumpAgain = false
          await this.pass()
        } while (this.pumpAgain && this.running)
      } finally {
        this.pumping = null
      }
    })()
    return this.pumping
  }

  private async pass(): Promise<void> {
    // What is in flight here stays leased, whatever the clock did meanwhile: it is not this pass's to take.
    await this.unitLeases.renewIfDue()
    for (const leases of this.jobLeases.values()) await leases.renewIfDue()
    const concurrency = this.concurrency()
    while (this.running && this.inFlight < concurrency) {
      const units = await this.store.units.lease(
        this.now(),
        this.unitLeases.until(),
        newLeaseId(),
        concurrency - this.inFlight,
      )
      if (units.length === 0) break
      if (!this.running) {
        // Stopped while leasing: they wait for the next start.
        for (const unit of units)
          await this.store.units.retryLater(unit.id, unit.leaseId, 'The engine stopped.', this.now())
        break
      }
      // Each unit's reads first, in the order leased; then their tiers start in that order, in one turn, so that
      // the units leased together are asked together (a batch of claims in one request).
      this.inFlight += units.length
      const ready: Prepared[] = []
      for (const unit of units) {
        const prepared = await this.prepare(unit).catch(async (error: unknown) => {
          await this.failedToStart(unit, error)
          return null
        })
        if (prepared) ready.push(prepared)
        else this.inFlight--
      }
      for (const prepared of ready) this.follow(this.run(prepared), () => this.inFlight--)
    }
    for (const queue of this.queues.keys()) {
      const room = queue.concurrency - (this.queues.get(queue) ?? 0)
      if (!this.running || room <= 0) continue
      const leases = this.jobLeases.get(queue) as HeldLeases
      const jobs = await queue.lease(this.now(), leases.until(), room)
      if (!this.running) {
        for (const job of jobs) await job.retryLater(this.now())
        break
      }
      this.queues.set(queue, (this.queues.get(queue) ?? 0) + jobs.length)
      for (const job of jobs)
        this.follow(this.runJob(job, leases), () => this.queues.set(queue, (this.queues.get(queue) ?? 1) - 1))
    }
    await this.scheduleNext()
  }

  /// When a piece of work ends: counts it out, tells `stop()` once nothing is in flight, and looks for more once
  /// the work ending in this turn (a batch's units) has all ended: their places are leased together.
  private follow(work: Promise<void>, ended: () => void): void {
    const settled = work.catch((error: unknown) => {
      // Its end could not be written (the store out of reach): it stays leased until the lease expires, and is
      // then taken again, here or by another replica.
      console.error(
        'factdesk: the end of a piece of work could not be written; it is taken again later',
        error,
      )
    })
    void settled.finally(() => {
      ended()
      if (this.idle()) this.drained.splice(0).forEach((resolve) => resolve())
      this.pumpSoon()
    })
  }

  private pumpSoon(): void {
    if (this.pumpQueued) return
    this.pumpQueued = true
    setImmediate(() => {
      this.pumpQueued = false
      this.pump().catch((error: unknown) => {
        // The store would not lease (busy, or out of reach): the alarm looks again shortly.
        console.error('factdesk: the job runner could not lease work; it tries again shortly', error)
        this.alarm.set(this.now(), RETRY_LEASE_MS)
      })
    })
  }

  /// Wakes up when the next unit or job waiting for a retry falls due, if there is room for it.
  private async scheduleNext(): Promise<void> {
    if (!this.running) return this.alarm.set(null)
    const due = (
      await Promise.all([
        this.inFlight < this.concurrency() ? this.store.units.nextDue() : null,
        ...[...this.queues].map(([queue, count]) => (count < queue.concurrency ? queue.nextDue() : null)),
      ])
    ).filter((at): at is string => at !== null)
    const next = due.length > 0 ? due.reduce((a, b) => (a < b ? a : b)) : null
    this.alarm.set(nextLook(this.store.dialect, this.clock, next, this.options.pollMs))
  }

  /// One attempt at a job: a failure is retried after the runner's backoff, until its last attempt or a
  /// permanent failure; a job the engine's stop aborted waits for the next start. One whose lease was lost is
  /// aborted too, and whatever it writes then is refused.
  private async runJob(job: Job, leases: HeldLeases): Promise<void> {
    const controller = new AbortController()
    this.jobControllers.add(controller)
    leases.hold(job.id, job.leaseId, () => controller.abort())
    try {
      await job.run(controller.signal)
    } catch (error) {
      if (controller.signal.aborted) return await job.retryLater(this.now())
      const reason = error instanceof Error ? error.message : String(error)
      if (job.attempts < this.options.maxAttempts && !(error instanceof PermanentError)) {
        await job.retryLater(iso(this.clock.now().getTime() + this.options.retryDelayMs(job.attempts)))
      } else {
        await job.fail(reason)
      }
    } finally {
      leases.letGo(job.id)
      this.jobControllers.delete(controller)
    }
  }

  /// What a unit needs from the store before its tier runs; null when there is nothing to run (its check ended,
  /// or its tier is not configured and it was given up).
  private async prepare(unit: UnitRecord): Promise<Prepared | null> {
    const check = await this.runningCheck(unit.checkId)
    const claim = await this.store.documents.claim(unit.claimId)
    const tier = this.tiers.get(unit.tier)
    if (!check || !claim) return null
    if (!tier) {
      await this.giveUp(unit, `The ${unit.tier} tier is not available: it is not configured.`)
      return null
    }
    return {
      unit,
      check,
      claim,
      tier,
      documentText: await this.documentText(check.documentId),
      votes: unit.model === JUDGE_UNIT ? await this.store.results.votes(check.id, claim.id, unit.tier) : [],
    }
  }

  private async run({ unit, check, claim, tier, documentText, votes }: Prepared): Promise<void> {
    const controller = new AbortController()
    const mine = this.controllers.get(check.id) ?? new Set()
    this.controllers.set(check.id, mine.add(controller))
    // A lease lost (expired and taken over) stops the tier: whatever the unit would write is refused anyway.
    this.unitLeases.hold(unit.id, unit.leaseId, () => controller.abort())
    try {
      const input = {
        claim,
        model: unit.model,
        checkId: check.id,
        organizationId: check.organizationId,
        documentText,
        signal: AbortSignal.any([
          controller.signal,
          AbortSignal.timeout(tier.unitTimeoutMs ?? this.options.unitTimeoutMs),
        ]),
        now: () => this.now(),
      }
      let outcome: UnitOutcome
      if (unit.model !== JUDGE_UNIT) outcome = await tier.check(input)
      else if (tier.judge) outcome = await tier.judge({ ...input, votes })
      else throw new PermanentError(`The ${unit.tier} tier has no judge.`)
      // Written with the other units that land in the same turn (a batch of votes): one commit for them all.
      this.landing.set(check.id, (this.landing.get(check.id) ?? 0) + 1)
      const recording = this.store.batched(async (tx) => {
        // The check's lock first, as whatever may end its claim-tier or the check (settle.ts).
        await tx.checks.lock(check.id)
        // Cancelled meanwhile, or its lease lost: nothing of it is written.
        if (!(await tx.units.finish(unit.id, unit.leaseId))) return false
        if (outcome.evaluation)
          await tx.results.addEvaluation(
            check.id,
            claim.id,
            outcome.evaluation,
            outcome.partEvaluations ?? null,
          )
        if (outcome.voteStances)
          await tx.results.judgeVoteCitations(
            check.id,
            claim.id,
            unit.tier,
            outcome.voteStances,
            outcome.partVoteStances ?? null,
          )
        // A judge unit's debate votes land with its consensus, in this one transaction: a unit that dies
        // mid-debate recorded nothing and debates again, so no round-2 vote is ever written twice.
        for (const vote of outcome.debate ?? [])
          await tx.results.addEvaluation(check.id, claim.id, vote, vote.parts ?? null)
        await tx.results.addIssues(check.id, claim.id, outcome.issues)
        if (outcome.consensus)
          await tx.results.setConsensus(
            check.id,
            claim.id,
            unit.tier,
            outcome.consensus,
            outcome.consensusUsage ?? null,
            outcome.partConsensus ?? null,
          )
        await this.queueJudge(unit, tx)
        return true
      })
      const recorded = await recording.catch((error: unknown) => {
        this.announced(check.id)
        throw error
      })
      if (!recorded) return this.announced(check.id)
      const landed = (evaluation: Evaluation | null, consensus: Consensus | null, issues: TextIssue[]) =>
        this.events.emit({
          type: 'claim',
          organizationId: check.organizationId,
          checkId: check.id,
          claimId: claim.id,
          tier: unit.tier,
          evaluation,
          consensus,
          issues,
        })
      // A debate's second votes land before the consensus they led to.
      for (const evaluation of outcome.debate ?? []) landed(evaluation, null, [])
      landed(outcome.evaluation ?? null, outcome.consensus, outcome.issues)
      // A consensus moves the check's progress (claims done per tier): say so, unless that ended the check. The
      // last of the units written together settles the check, once the others have said so.
      this.announced(check.id)
      const ended = this.landing.has(check.id) ? false : await this.settle(check.id)
      if (outcome.consensus && !ended) await this.emitProgress(check.id, unit.tier)
    } catch (error) {
      if (controller.signal.aborted) {
        // Cancelled (its units are already marked), its lease lost (another holds it) or the engine is stopping
        // (the unit waits for the next start).
        if (!this.running)
          await this.store.units.retryLater(unit.id, unit.leaseId, 'The engine stopped.', this.now())
        return
      }
      const reason = error instanceof Error ? error.message : String(error)
      if (unit.attempts < this.options.maxAttempts && !(error instanceof PermanentError)) {
        const at = this.clock.now().getTime() + this.options.retryDelayMs(unit.attempts)
        await this.store.units.retryLater(unit.id, unit.leaseId, reason, iso(at))
      } else {
        await this.giveUp(unit, reason)
      }
    } finally {
      this.unitLeases.letGo(unit.id)
      mine.delete(controller)
      if (mine.size === 0) this.controllers.delete(check.id)
    }
  }

  /// A unit whose reads failed (the store busy or out of reach) waits a while and is tried again, not counted as
  /// an attempt of its tier.
  private async failedToStart(unit: UnitRecord, error: unknown): Promise<void> {
    console.error(`factdesk: unit ${unit.id} could not start; it is tried again shortly`, error)
    const at = iso(this.clock.now().getTime() + RETRY_LEASE_MS)
    await this.store.units.retryLater(unit.id, unit.leaseId, String(error), at).catch(() => undefined)
  }

  private async giveUp(unit: UnitRecord, reason: string): Promise<void> {
    await this.store.transaction(async (tx) => {
      await tx.checks.lock(unit.checkId)
      if (await tx.units.fail(unit.id, unit.leaseId, reason)) await this.queueJudge(unit, tx)
    })
    await this.settle(unit.checkId)
  }

  /// Queues the claim-tier's judge if `unit` was its last open panel unit (`queueJudge`), in the transaction that
  /// ended the unit under its check's lock.
  private async queueJudge(unit: UnitRecord, tx: Store): Promise<void> {
    if (this.tiers.get(unit.tier)?.judge) await queueJudge(tx, unit, this.now())
  }

  /// Ends the check once none of its units is open (`settleCheck`), in a transaction under its organization's
  /// lock, as it may refund; true when this call ended it.
  private async settle(checkId: string): Promise<boolean> {
    // Most units end with others still open: that read needs no write transaction.
    if (await this.store.units.anyOpen(checkId)) return false
    const check = this.checks.get(checkId) ?? (await this.store.checks.byId(checkId))
    if (!check) return false
    const ended = await this.store.transaction((tx) => settleCheck(tx, checkId, this.now()), {
      lockOrg: check.organizationId,
    })
    if (ended) {
      this.claimsDone.delete(checkId)
      this.checks.delete(checkId)
      // A finished check's text is no longer needed here (a long one is megabytes).
      this.lastDocument = null
      await this.emitCheck(checkId)
    }
    return ended
  }

  /// The running check moved on by one consensus in `tier` (one that was cancelled meanwhile has said so).
  private async emitProgress(checkId: string, tier: Tier): Promise<void> {
    const record = await this.store.checks.byId(checkId)
    if (record?.status !== 'running') return
    const counted = this.claimsDone.get(checkId)
    const done = counted
      ? { ...counted, [tier]: (counted[tier] ?? 0) + 1 }
      : await this.store.checks.claimsDone(checkId)
    this.claimsDone.set(checkId, done)
    this.events.emit({
      type: 'check',
      organizationId: record.organizationId,
      check: await checkView(this.store, record, done),
    })
  }

  private async emitCheck(checkId: string): Promise<void> {
    const record = await this.store.checks.byId(checkId)
    if (record)
      this.events.emit({
        type: 'check',
        organizationId: record.organizationId,
        check: await checkView(this.store, record),
      })
  }
}
