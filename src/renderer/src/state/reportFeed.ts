import type { ReportUpdate } from '../../../shared/api'
import type { Report } from '../../../shared/schemas'
import type { ClaimDelta } from '../editor/claims'
import type { ClaimProgress } from './progress'

const EARLY_LIMIT = 2000

/// What the window knows of the running check's report as its updates come: each claim's progress, the panel's
/// size, the updates that came too early or while a report was read, and the claims' changes waiting for the
/// next frame (hundreds of pushed updates become one transaction). One per window, the checks store's.
export class ReportFeed {
  /// Per-claim progress of the running check.
  progress = new Map<string, ClaimProgress>()
  /// The running check's panel size per tier, from its report (unknown until the first report is read).
  panel: Report['panel'] = {}
  /// Updates heard while a report is being read, replayed over it so that the older snapshot loses nothing.
  replay: ReportUpdate[] | null = null
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

  /// Keeps an update of a check the page does not know yet.
  keepEarly(update: ReportUpdate): void {
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

  /// Shows a claim's change by the next frame, merged with the others of that frame.
  schedule(delta: ClaimDelta): void {
    this.pending.set(delta.claimId, { ...this.pending.get(delta.claimId), ...delta })
    if (this.scheduled) return
    this.scheduled = true
    if (typeof requestAnimationFrame === 'function') requestAnimationFrame(this.flush)
    else setTimeout(this.flush, 0)
  }

  private readonly flush = (): void => {
    this.scheduled = false
    const deltas = [...this.pending.values()]
    this.pending = new Map()
    if (deltas.length > 0) this.show(deltas)
  }
}
