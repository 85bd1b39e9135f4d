import { setTimeout as delay } from 'node:timers/promises'
import type { EngineUpdate } from '../../shared/api'
import { ApiError } from '../../shared/errors'
import { Tier, type Check, type PendingCheck, type Report, type Research } from '../../shared/schemas'
import { hasEnded } from '../../shared/vocabulary'
import type { PushListener, ResearchUpdate } from './events'

export interface PollOptions {
  /// The wait between two rounds while the service answers: the specification recommends 2-3 seconds.
  intervalMs: number
  /// After failed rounds the wait doubles per failure up to this.
  maxBackoffMs: number
  /// Waits `ms` (tests record the waits instead of spending them).
  wait(ms: number): Promise<void>
}

const DEFAULTS: PollOptions = {
  intervalMs: 2_500,
  maxBackoffMs: 30_000,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
}

/// Where the poller reads reports, research runs and pending checks.
export interface PollSource {
  report(checkId: string): Promise<Report>
  getResearch(researchId: string): Promise<Research>
  pendingCheck(pendingId: string): Promise<PendingCheck>
  getCheck(checkId: string): Promise<Check>
  /// The service's pushed research updates (see `ResearchEvents`), if it may have them.
  researchEvents?(listener: PushListener, signal: AbortSignal): Promise<boolean>
}

/// Research updates pushed before the answer that starts their run are kept this many at most (the latest of
/// each run).
const EARLY_LIMIT = 50

/// How long a run's end a round read waits for the open stream to tell it, with the steps before it.
const END_GRACE_MS = 2_000

/// Turns polled reports into the `EngineUpdate`s the embedded engine pushes: while anyone listens, it reads the
/// report of every check it was shown running (and every research run it started, and every pending check it
/// was shown waiting), one round per interval, backs off while rounds fail, and forgets each once it has ended
/// (a pending check once it no longer waits: submitted, it hands over to its check). While anyone listens it
/// also reads the service's pushed research updates when it has them, which name each step as it ends; a run
/// is passed on once per change, whichever way the change was heard first. When the pushed updates come back
/// after a break without those missed (a resync), the next round is read at once.
export class ReportPoller {
  private readonly options: PollOptions
  private readonly listeners = new Set<(update: EngineUpdate) => void>()
  /// The checks still running, with their report as last read (null before the first read).
  private readonly checks = new Map<string, Report | null>()
  /// The research runs still running, as last read.
  private readonly runs = new Map<string, Research>()
  /// The pending checks still waiting, as last read.
  private readonly waiting = new Map<string, PendingCheck>()
  /// Pushed updates of runs not (yet) followed: the answer that starts a run may come after its first steps.
  private readonly early = new Map<string, ResearchUpdate>()
  private polling = false
  private closed = false
  /// Stops reading the pushed updates; null while they are not read.
  private pushed: AbortController | null = null
  /// Whether the pushed updates' stream is open now.
  private streaming = false
  /// Runs a round saw ended while the stream was open, and when (`Date.now()`): the stream tells their last steps
  /// and then their end, later than a round may read it (a team server's stream goes through its database); a
  /// round tells the end once the stream has not for END_GRACE_MS.
  private readonly endsAhead = new Map<string, number>()
  /// Whether the service turned out to have no pushed updates.
  private unpushed = false
  /// Ends the wait before the next round at once (on a resync); set afresh before each round.
  private hurry: () => void = () => undefined

  constructor(
    private readonly source: PollSource,
    options: Partial<PollOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options }
  }

  /// Follows a check until it ends (a check seen ended needs no following).
  watchCheck(check: Check): void {
    if (hasEnded(check) || this.checks.has(check.id)) return
    this.checks.set(check.id, null)
    this.start()
  }

  /// Follows a research run until it ends, passing it on as accepted first.
  watchResearch(research: Research): void {
    if (this.runs.has(research.id) || researchEnded(research)) return
    this.runs.set(research.id, research)
    this.emit({ type: 'research', research, step: null, sourcesRead: 0 })
    const heard = this.early.get(research.id)
    this.early.delete(research.id)
    if (heard) this.hear(heard)
    this.start()
  }

  /// Follows a pending check while it waits; once submitted, its check is passed on with it and followed.
  watchPending(pending: PendingCheck): void {
    if (pending.status !== 'waiting' || this.waiting.has(pending.id)) return
    this.waiting.set(pending.id, pending)
    this.start()
  }

  /// Goes on following what `previous` followed (the same service, with another token): the window keeps hearing
  /// of the checks, runs and pending checks it was shown. What the new token may not see ends as not found.
  takeOver(previous: ReportPoller): void {
    for (const [id, report] of previous.checks) if (!this.checks.has(id)) this.checks.set(id, report)
    for (const [id, research] of previous.runs) if (!this.runs.has(id)) this.runs.set(id, research)
    for (const [id, pending] of previous.waiting) if (!this.waiting.has(id)) this.waiting.set(id, pending)
    this.start()
  }

  subscribe(listener: (update: EngineUpdate) => void): () => void {
    this.listeners.add(listener)
    this.start()
    this.listen()
    return () => {
      this.listeners.delete(listener)
      if (this.listeners.size > 0) return
      // Let go at once, not when the aborted read has unwound: a listener coming right back opens a new one.
      this.pushed?.abort()
      this.pushed = null
    }
  }

  close(): void {
    this.closed = true
    this.listeners.clear()
    this.pushed?.abort()
    this.pushed = null
  }

  /// Reads the pushed research updates while anyone listens, again after the stream ends or fails (waiting
  /// as polling does after failures), never again once the service turned out to have none.
  private listen(): void {
    const events = this.source.researchEvents?.bind(this.source)
    if (!events || this.pushed || this.unpushed || this.closed || this.listeners.size === 0) return
    const listening = new AbortController()
    this.pushed = listening
    const listener: PushListener = {
      hear: (update) => this.hear(update),
      resync: () => this.hurry(),
      open: () => (this.streaming = true),
    }
    const { intervalMs, maxBackoffMs } = this.options
    void (async () => {
      for (let failures = 0; !listening.signal.aborted;) {
        try {
          if (!(await events(listener, listening.signal))) this.unpushed = true
          failures = 0
        } catch {
          failures++
        } finally {
          this.streaming = false
        }
        if (this.unpushed) break
        const waitMs = Math.min(maxBackoffMs, intervalMs * 2 ** failures)
        await delay(waitMs, undefined, { signal: listening.signal }).catch(() => undefined)
      }
      if (this.pushed === listening) this.pushed = null
    })()
  }

  /// A pushed research update: passed on when its run is followed and it is not older than what is known, or
  /// older but naming a step (a run that ended is no longer followed); kept for later when the run is not
  /// followed yet.
  private hear(update: ResearchUpdate): void {
    const { research } = update
    const known = this.runs.get(research.id)
    if (!known) {
      this.early.delete(research.id)
      this.early.set(research.id, update)
      while (this.early.size > EARLY_LIMIT) this.early.delete(this.early.keys().next().value as string)
      return
    }
    if (research.updatedAt < known.updatedAt) {
      // A stream back from a break first sends what it missed, older than what the rounds read meanwhile: its
      // steps, which no round can tell, are passed on all the same (the page keeps the later state).
      if (update.step !== null) this.emit(update)
      return
    }
    if (researchEnded(research)) {
      this.runs.delete(research.id)
      this.endsAhead.delete(research.id)
    } else this.runs.set(research.id, research)
    this.emit(update)
  }

  private start(): void {
    if (this.polling || !this.wanted()) return
    this.polling = true
    void this.poll().finally(() => {
      this.polling = false
    })
  }

  private wanted(): boolean {
    const following = this.checks.size > 0 || this.runs.size > 0 || this.waiting.size > 0
    return !this.closed && this.listeners.size > 0 && following
  }

  private async poll(): Promise<void> {
    const { intervalMs, maxBackoffMs, wait } = this.options
    let failures = 0
    let hurried = this.nextHurry()
    while (this.wanted()) {
      const waitMs = failures === 0 ? intervalMs : Math.min(maxBackoffMs, intervalMs * 2 ** failures)
      await Promise.race([wait(waitMs), hurried])
      if (!this.wanted()) return
      // A resync during the round cuts the next wait short: the round may have read too early.
      hurried = this.nextHurry()
      try {
        await this.round()
        failures = 0
      } catch {
        failures++
      }
    }
  }

  /// Settles when `hurry` is called next.
  private nextHurry(): Promise<void> {
    return new Promise((resolve) => (this.hurry = resolve))
  }

  /// Reads every followed report, run and pending check once; throws after the round when any read failed.
  private async round(): Promise<void> {
    let failed = false
    for (const [checkId, before] of [...this.checks]) {
      try {
        const report = await this.source.report(checkId)
        for (const update of reportUpdates(before, report)) this.emit(update)
        if (hasEnded(report.check)) this.checks.delete(checkId)
        else this.checks.set(checkId, report)
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') this.checks.delete(checkId)
        else failed = true
      }
    }
    for (const researchId of [...this.runs.keys()]) {
      try {
        const research = await this.source.getResearch(researchId)
        // What is known now: a pushed update may have been heard while the run was read.
        const before = this.runs.get(researchId)
        if (!before || research.updatedAt < before.updatedAt) continue
        if (researchEnded(research) && this.streaming) {
          const seenAt = this.endsAhead.get(researchId) ?? Date.now()
          this.endsAhead.set(researchId, seenAt)
          if (Date.now() - seenAt < END_GRACE_MS) continue
        }
        this.endsAhead.delete(researchId)
        if (research.updatedAt !== before.updatedAt || research.status !== before.status) {
          const sourcesRead = research.result?.sources.length ?? 0
          this.emit({ type: 'research', research, step: null, sourcesRead })
        }
        if (researchEnded(research)) this.runs.delete(researchId)
        else this.runs.set(researchId, research)
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') {
          this.runs.delete(researchId)
          this.endsAhead.delete(researchId)
        } else failed = true
      }
    }
    for (const [pendingId, before] of [...this.waiting]) {
      try {
        const pending = await this.source.pendingCheck(pendingId)
        if (pending.updatedAt === before.updatedAt && pending.status === before.status) continue
        // The check it became is read (and so followed) before the update, so the page can follow it at once.
        const check = pending.checkId === null ? null : await this.source.getCheck(pending.checkId)
        this.emit({ type: 'pending', pending, check })
        if (pending.status === 'waiting') this.waiting.set(pendingId, pending)
        else this.waiting.delete(pendingId)
      } catch (error) {
        if (error instanceof ApiError && error.code === 'not_found') this.waiting.delete(pendingId)
        else failed = true
      }
    }
    if (failed) throw new Error('A report could not be read.')
  }

  private emit(update: EngineUpdate): void {
    for (const listener of this.listeners) listener(update)
  }
}

const researchEnded = (research: Research): boolean =>
  research.status === 'completed' || research.status === 'failed'

/// What changed from one reading of a report to the next, as the engine pushes it: each new vote, each new
/// consensus (t1's with the claim's findings), then the check if it changed.
function reportUpdates(before: Report | null, after: Report): EngineUpdate[] {
  const updates: EngineUpdate[] = []
  const earlier = new Map(before?.claims.map((claim) => [claim.claimId, claim]))
  const checkId = after.check.id
  for (const claim of after.claims) {
    const prior = earlier.get(claim.claimId)
    const voted = new Set(prior?.evaluations.map((vote) => `${vote.tier} ${vote.model}`))
    for (const evaluation of claim.evaluations) {
      if (voted.has(`${evaluation.tier} ${evaluation.model}`)) continue
      const { claimId } = claim
      updates.push({
        type: 'claim',
        checkId,
        claimId,
        tier: evaluation.tier,
        evaluation,
        consensus: null,
        issues: [],
      })
    }
    for (const tier of Tier.options) {
      const consensus = claim.consensus[tier]
      if (!consensus || prior?.consensus[tier]?.decidedAt === consensus.decidedAt) continue
      const issues = tier === 't1' ? claim.issues : []
      updates.push({
        type: 'claim',
        checkId,
        claimId: claim.claimId,
        tier,
        evaluation: null,
        consensus,
        issues,
      })
    }
  }
  if (!before || JSON.stringify(before.check) !== JSON.stringify(after.check)) {
    updates.push({ type: 'check', check: after.check })
  }
  return updates
}
