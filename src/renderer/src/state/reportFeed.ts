import type { ReportUpdate } from '../../../shared/api'
import type { Check, Report } from '../../../shared/schemas'
import type { ClaimDelta } from '../editor/claims'
import { applyUpdate, deltaOf, progressOf, type ClaimProgress } from './progress'

const EARLY_LIMIT = 2000

type ClaimUpdate = Extract<ReportUpdate, { type: 'claim' }>

/// What the window knows of the running check's report as its updates come: each claim's progress, the panel's
/// size, the updates that came too early or while a report was read, and the claims' changes waiting for the
/// next frame (hundreds of pushed updates become one transaction). One per window, the checks store's.
export class ReportFeed {
  // Per-claim progress of the running check.
  private progress = new Map<string, ClaimProgress>()
  // The running check's panel size per tier, from its report (unknown until the first report is read).
  private panel: Report['panel'] = {}
  // Updates heard while a report is being read, replayed over it so that the older snapshot loses nothing.
  private heard: ReportUpdate[] | null = null
  // Updates of checks the page does not know yet, the latest few: the stream may bring a check's first events
  // before the answer to its submission arrives.
  private early: ReportUpdate[] = []
  private pending = new Map<string, ClaimDelta>()
  private scheduled = false

  /// `show` puts the claims' changes in the editor.
  constructor(private readonly show: (deltas: ClaimDelta[]) => void) {}

  /// Follows a check anew from these claims and panel; changes not shown yet are dropped.
  restart(progress: ClaimProgress[], panel: Report['panel']): void {
    this.progress = new Map(progress.map((claim) => [claim.claimId, claim]))
    this.panel = panel
    this.pending = new Map()
  }

  /// Follows the check of `report` from it; changes not shown yet are dropped.
  restartFrom(report: Report): void {
    this.restart(report.claims.map(progressOf), report.panel)
  }

  /// The claims `claimIds` (by default every one) show their progress in `check`, by the next frame.
  showProgress(
    check: Pick<Check, 'tiers' | 'status'>,
    claimIds: Iterable<string> = this.progress.keys(),
  ): void {
    for (const claimId of claimIds) {
      const claim = this.progress.get(claimId)
      if (claim) this.schedule(deltaOf(claim, check, this.panel))
    }
  }

  /// A report is about to be read: the updates heard from now on are kept, to be replayed over it. Returns
  /// them, for `caughtUp` and `doneReading` (a report read while another is also keeps them).
  startReading(): readonly ReportUpdate[] {
    this.heard ??= []
    return this.heard
  }

  /// Follows the check of `report` from it with the updates `heard` while it was read replayed over it, and
  /// shows every claim's progress in `check` (the later of the report's and the window's).
  caughtUp(report: Report, heard: readonly ReportUpdate[], check: Pick<Check, 'tiers' | 'status'>): void {
    this.restartFrom(report)
    for (const update of heard)
      if (update.type === 'claim' && update.checkId === report.check.id) this.fold(update)
    this.showProgress(check)
  }

  /// The report read with `heard` has been dealt with: unless another is being read, nothing more is kept.
  doneReading(heard: readonly ReportUpdate[]): void {
    if (this.heard === heard) this.heard = null
  }

  /// An update was heard: kept while a report is read, and, when it is of a check the page does not know yet
  /// (`known` false), kept for `takeEarly`.
  heardOf(update: ReportUpdate, known: boolean): void {
    this.heard?.push(update)
    if (known) return
    this.early.push(update)
    if (this.early.length > EARLY_LIMIT) this.early = this.early.slice(-EARLY_LIMIT / 2)
  }

  /// The updates kept of check `checkId`, in order; every kept update is forgotten.
  takeEarly(checkId: string): ReportUpdate[] {
    const taken = this.early.filter((update) =>
      update.type === 'check'
        ? update.check.id === checkId
        : update.type === 'claim' && update.checkId === checkId,
    )
    this.early = []
    return taken
  }

  /// A claim of the running check `check` changed: its progress shows by the next frame.
  claimChanged(update: ClaimUpdate, check: Pick<Check, 'tiers' | 'status'>): void {
    const claim = this.fold(update)
    if (claim) this.schedule(deltaOf(claim, check, this.panel))
  }

  /// Shows a claim's change by the next frame, merged with the others of that frame.
  schedule(delta: ClaimDelta): void {
    this.pending.set(delta.claimId, { ...this.pending.get(delta.claimId), ...delta })
    if (this.scheduled) return
    this.scheduled = true
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(this.flush)
    else setTimeout(this.flush, 0)
  }

  // Folds `update` into its claim's progress; the new progress, undefined for a claim not followed.
  private fold(update: ClaimUpdate): ClaimProgress | undefined {
    const claim = this.progress.get(update.claimId)
    if (!claim) return undefined
    const next = applyUpdate(claim, update)
    this.progress.set(update.claimId, next)
    return next
  }

  private readonly flush = (): void => {
    this.scheduled = false
    const deltas = [...this.pending.values()]
    this.pending = new Map()
    if (deltas.length > 0) this.show(deltas)
  }
}
