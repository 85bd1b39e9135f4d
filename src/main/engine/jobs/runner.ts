import type { Consensus, Evaluation, TextIssue, Tier } from '../../../shared/schemas'
import type { Clock } from '../base/clock'
import type { ReportEvents } from '../base/events'
import type { Store } from '../store'
import type { CheckRecord } from '../store/checks'
import type { UnitRecord } from '../store/units'
import { PermanentError } from '../base/errors'
import { JUDGE_UNIT, type TierChecker, type UnitOutcome } from '../tiers/tier'
import { checkView } from '../checks/views'
import { Alarm } from '../base/alarm'
import { queueCheckEvent } from '../webhooks/event'

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
}

/// Exponential backoff with jitter: about 1 s, 2 s, 4 s … capped at a minute.
export const DEFAULT_RUNNER_OPTIONS: RunnerOptions = {
  concurrency: null,
  unitTimeoutMs: 60_000,
  maxAttempts: 3,
  retryDelayMs: (attempt) => Math.min(60_000, 1000 * 2 ** (attempt - 1)) * (0.75 + Math.random() / 2),
}

const iso = (ms: number): string => new Date(ms).toISOString()
/// Units worked on at once when no tier asks for more.
const MIN_CONCURRENCY = 4

/// Durable work of another kind than the checks' units (deep research runs), kept in its own table of the same
/// database: the runner leases it beside the units, retries a failed attempt with the same backoff, gives it
/// back when the engine stops and takes it back after a crash.
export interface JobQueue {
  /// Jobs of this queue in flight at once (apart from the units').
  readonly concurrency: number
  /// Leases up to `limit` jobs that are due, counting an attempt of each.
  lease(now: string, limit: number): Promise<Job[]>
  /// When the next job falls due; null when none waits.
  nextDue(): Promise<string | null>
  /// Jobs left leased by a process that died: due again now. Only the engine holding the lock calls this.
  releaseAbandoned(now: string): Promise<void>
}

/// One leased job.
export interface Job {
  /// Attempts so far, this one included.
  readonly attempts: number
  /// Runs this attempt; a throw fails it (a PermanentError for good).
  run(signal: AbortSignal): Promise<void>
  /// Gives the job back to its queue, due at `at`.
  retryLater(at: string): Promise<void>
  /// Ends the job as failed, after its last attempt or a permanent failure.
  fail(reason: string): Promise<void>
}

/// Works the durable queue: leases due units, runs them through their tier with an AbortSignal, records the
/// outcome and the unit's end in one transaction, retries with backoff, and ends each check exactly once.
export class JobRunner {
  /// Units in flight, and the jobs of each queue.
  private inFlight = 0
  private readonly queues = new Map<JobQueue, number>()
  private running = false
  private pumping = false
  private pumpQueued = false
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
  }

  /// Runs the jobs of `queue` too, from the next start on.
  add(queue: JobQueue): void {
    this.queues.set(queue, 0)
  }

  /// Starts working, first taking back what a previous process left unfinished when it died.
  start(): void {
    this.store.units.releaseAbandoned(this.now())
    for (const queue of this.queues.keys()) queue.releaseAbandoned(this.now())
    this.running = true
    // A process that died between a check's last unit and its ending left the check active with nothing open.
    for (const checkId of this.store.checks.activeIds()) this.settle(checkId)
    this.pump()
  }

  /// New work was queued for `checkId`: start on it, or end it at once if it has nothing to do.
  submitted(checkId: string): void {
    this.settle(checkId)
    this.pump()
  }

  /// A job was queued: start on it if there is room.
  wake(): void {
    this.pump()
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
    this.claimsDone.clear()
    this.checks.clear()
    for (const set of this.controllers.values()) for (const controller of set) controller.abort()
    for (const controller of this.jobControllers) controller.abort()
    if (!this.idle()) await new Promise<void>((resolve) => this.drained.push(resolve))
  }

  /// Nothing in flight: no unit, no job.
  private idle(): boolean {
    return this.inFlight === 0 && [...this.queues.values()].every((count) => count === 0)
  }

  /// The check of a unit when it is queued or running, started if it was queued; kept while it runs, so that its
  /// units do not read it again (a cancel or its end forgets it).
  private runningCheck(checkId: string): CheckRecord | null {
    const kept = this.checks.get(checkId)
    if (kept) return kept
    const check = this.store.checks.byId(checkId)
    if (!check || (check.status !== 'queued' && check.status !== 'running')) return null
    if (this.store.checks.start(check.id, this.now())) this.emitCheck(check.id)
    this.checks.set(checkId, check)
    // Counted before any of its units here land: units that land together are written together.
    this.claimsDone.set(checkId, this.store.checks.claimsDone(checkId))
    return check
  }

  /// One unit of the check has announced its written result (or has none to announce).
  private announced(checkId: string): void {
    const left = (this.landing.get(checkId) ?? 1) - 1
    if (left > 0) this.landing.set(checkId, left)
    else this.landing.delete(checkId)
  }

  /// A document's text; the last one read is kept, since a check's units follow one another.
  private documentText(documentId: string): string {
    if (this.lastDocument?.id !== documentId)
      this.lastDocument = { id: documentId, text: this.store.documents.text(documentId) }
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

  private pump(): void {
    if (!this.running || this.pumping) return
    this.pumping = true
    try {
      const concurrency = this.concurrency()
      while (this.inFlight < concurrency) {
        const now = this.clock.now().getTime()
        const units = this.store.transaction(() =>
          this.store.units.lease(
            iso(now),
            iso(now + this.options.unitTimeoutMs),
            concurrency - this.inFlight,
          ),
        )
        if (units.length === 0) break
        for (const unit of units) {
          this.inFlight++
          this.follow(this.run(unit), () => this.inFlight--)
        }
      }
      for (const [queue, count] of this.queues) {
        if (count >= queue.concurrency) continue
        const jobs = queue.lease(this.now(), queue.concurrency - count)
        this.queues.set(queue, count + jobs.length)
        for (const job of jobs)
          this.follow(this.runJob(job), () => this.queues.set(queue, (this.queues.get(queue) ?? 1) - 1))
      }
      this.scheduleNext()
    } finally {
      this.pumping = false
    }
  }

  /// When a piece of work ends: counts it out, tells `stop()` once nothing is in flight, and looks for more once
  /// the work ending in this turn (a batch's units) has all ended: their places are leased together.
  private follow(work: Promise<void>, ended: () => void): void {
    void work.finally(() => {
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
      this.pump()
    })
  }

  /// Wakes up when the next unit or job waiting for a retry falls due, if there is room for it.
  private scheduleNext(): void {
    if (!this.running) return this.alarm.set(null)
    const due = [
      this.inFlight < this.concurrency() ? this.store.units.nextDue() : null,
      ...[...this.queues].map(([queue, count]) => (count < queue.concurrency ? queue.nextDue() : null)),
    ].filter((at): at is string => at !== null)
    this.alarm.set(due.length > 0 ? due.reduce((a, b) => (a < b ? a : b)) : null)
  }

  /// One attempt at a job: a failure is retried after the runner's backoff, until its last attempt or a
  /// permanent failure; a job the engine's stop aborted waits for the next start.
  private async runJob(job: Job): Promise<void> {
    const controller = new AbortController()
    this.jobControllers.add(controller)
    try {
      await job.run(controller.signal)
    } catch (error) {
      if (controller.signal.aborted) return job.retryLater(this.now())
      const reason = error instanceof Error ? error.message : String(error)
      if (job.attempts < this.options.maxAttempts && !(error instanceof PermanentError)) {
        job.retryLater(iso(this.clock.now().getTime() + this.options.retryDelayMs(job.attempts)))
      } else {
        job.fail(reason)
      }
    } finally {
      this.jobControllers.delete(controller)
    }
  }

  private async run(unit: UnitRecord): Promise<void> {
    const check = this.runningCheck(unit.checkId)
    const claim = this.store.documents.claim(unit.claimId)
    const tier = this.tiers.get(unit.tier)
    if (!check || !claim) return
    if (!tier) return this.giveUp(unit, `The ${unit.tier} tier is not available: it is not configured.`)

    const controller = new AbortController()
    const mine = this.controllers.get(check.id) ?? new Set()
    this.controllers.set(check.id, mine.add(controller))
    try {
      const input = {
        claim,
        model: unit.model,
        checkId: check.id,
        organizationId: check.organizationId,
        documentText: this.documentText(check.documentId),
        signal: AbortSignal.any([
          controller.signal,
          AbortSignal.timeout(tier.unitTimeoutMs ?? this.options.unitTimeoutMs),
        ]),
        now: () => this.now(),
      }
      let outcome: UnitOutcome
      if (unit.model !== JUDGE_UNIT) outcome = await tier.check(input)
      else if (tier.judge)
        outcome = await tier.judge({
          ...input,
          votes: this.store.results.votes(check.id, claim.id, unit.tier),
        })
      else throw new PermanentError(`The ${unit.tier} tier has no judge.`)
      // Written with the other units that land in the same turn (a batch of votes): one commit for them all.
      this.landing.set(check.id, (this.landing.get(check.id) ?? 0) + 1)
      const recording = this.store.batched(() => {
        if (!this.store.units.finish(unit.id)) return false // cancelled meanwhile
        if (outcome.evaluation)
          this.store.results.addEvaluation(
            check.id,
            claim.id,
            outcome.evaluation,
            outcome.partEvaluations ?? null,
          )
        if (outcome.voteStances)
          this.store.results.judgeVoteCitations(
            check.id,
            claim.id,
            unit.tier,
            outcome.voteStances,
            outcome.partVoteStances ?? null,
          )
        // A judge unit's debate votes land with its consensus, in this one transaction: a unit that dies
        // mid-debate recorded nothing and debates again, so no round-2 vote is ever written twice.
        for (const vote of outcome.debate ?? [])
          this.store.results.addEvaluation(check.id, claim.id, vote, vote.parts ?? null)
        this.store.results.addIssues(check.id, claim.id, outcome.issues)
        if (outcome.consensus)
          this.store.results.setConsensus(
            check.id,
            claim.id,
            unit.tier,
            outcome.consensus,
            outcome.consensusUsage ?? null,
            outcome.partConsensus ?? null,
          )
        this.queueJudge(unit)
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
      const ended = this.landing.has(check.id) ? false : this.settle(check.id)
      if (outcome.consensus && !ended) this.emitProgress(check.id, unit.tier)
    } catch (error) {
      if (controller.signal.aborted) {
        // Cancelled (its units are already marked) or the engine is stopping (the unit waits for the next start).
        if (!this.running) this.store.units.retryLater(unit.id, 'The engine stopped.', this.now())
        return
      }
      const reason = error instanceof Error ? error.message : String(error)
      if (unit.attempts < this.options.maxAttempts && !(error instanceof PermanentError)) {
        const at = this.clock.now().getTime() + this.options.retryDelayMs(unit.attempts)
        this.store.units.retryLater(unit.id, reason, iso(at))
      } else {
        this.giveUp(unit, reason)
      }
    } finally {
      mine.delete(controller)
      if (mine.size === 0) this.controllers.delete(check.id)
    }
  }

  private giveUp(unit: UnitRecord, reason: string): void {
    this.store.transaction(() => {
      if (this.store.units.fail(unit.id, reason)) this.queueJudge(unit)
    })
    this.settle(unit.checkId)
  }

  /// Called in the transaction that ends a panel unit (done or failed): when it was the claim-tier's last open
  /// one and at least one vote is in, queues the judge unit. If every panel unit failed there is no judge, and
  /// the claim-tier ends without consensus (refunded when the check settles).
  private queueJudge(unit: UnitRecord): void {
    if (unit.model === JUDGE_UNIT || !this.tiers.get(unit.tier)?.judge) return
    if (this.store.units.openFor(unit.checkId, unit.claimId, unit.tier) > 0) return
    if (this.store.results.votes(unit.checkId, unit.claimId, unit.tier).length === 0) return
    this.store.units.enqueueOnce(
      unit.checkId,
      { claimId: unit.claimId, tier: unit.tier, model: JUDGE_UNIT },
      this.now(),
    )
  }

  /// Ends the check once none of its units is open: completed when all succeeded, otherwise failed with the
  /// claim-tiers that reached no consensus refunded. The conditional update lets only one ending win; true when
  /// this call ended it.
  private settle(checkId: string): boolean {
    // Most units end with others still open: that read needs no write transaction.
    if (this.store.units.anyOpen(checkId)) return false
    const ended = this.store.transaction(() => {
      if (this.store.units.anyOpen(checkId)) return false
      const check = this.store.checks.byId(checkId)
      if (!check) return false
      const failed = this.store.units.failedUndecided(checkId)
      const at = this.now()
      if (failed === 0) {
        if (!this.store.checks.end(checkId, { status: 'completed', refunded: 0, error: null, at }))
          return false
        queueCheckEvent(this.store, checkId, at) // the webhook event, with the ending or not at all
        return true
      }
      const decided = this.store.results.decided(checkId)
      const refund = check.tiers.reduce((sum, tier) => {
        const undecided = check.claimCount - decided.filter((entry) => entry.tier === tier).length
        return sum + undecided * (check.unitPrices[tier] ?? 0)
      }, 0)
      const error = {
        code: 'unit_failed',
        message: `${failed} claim check${failed === 1 ? '' : 's'} failed: ${this.store.units.lastError(checkId) ?? 'unknown error'}`,
      }
      if (!this.store.checks.end(checkId, { status: 'failed', refunded: refund, error, at })) return false
      this.store.ledger.record(check.organizationId, 'refund', refund, checkId, at)
      queueCheckEvent(this.store, checkId, at)
      return true
    })
    if (ended) {
      this.claimsDone.delete(checkId)
      this.checks.delete(checkId)
      // A finished check's text is no longer needed here (a long one is megabytes).
      this.lastDocument = null
      this.emitCheck(checkId)
    }
    return ended
  }

  /// The running check moved on by one consensus in `tier` (one that was cancelled meanwhile has said so).
  private emitProgress(checkId: string, tier: Tier): void {
    const record = this.store.checks.byId(checkId)
    if (record?.status !== 'running') return
    const counted = this.claimsDone.get(checkId)
    const done = counted
      ? { ...counted, [tier]: (counted[tier] ?? 0) + 1 }
      : this.store.checks.claimsDone(checkId)
    this.claimsDone.set(checkId, done)
    this.events.emit({
      type: 'check',
      organizationId: record.organizationId,
      check: checkView(this.store, record, done),
    })
  }

  private emitCheck(checkId: string): void {
    const record = this.store.checks.byId(checkId)
    if (record)
      this.events.emit({
        type: 'check',
        organizationId: record.organizationId,
        check: checkView(this.store, record),
      })
  }
}
