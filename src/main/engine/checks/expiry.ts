import type { Clock } from '../base/clock'
import { Alarm } from '../base/alarm'
import type { Store } from '../store'

/// How long to wait after the store refused a sweep (busy, say), or to look again when no estimate waits.
const LOOK_AGAIN_MS = 60_000
/// How long an expired estimate's id is remembered, to tell a late submission it expired (422, not 404).
const REMEMBER_EXPIRED_MS = 30 * 24 * 3_600_000

/// Expires estimates not submitted in time (`limits.estimateHours`): their text and claims are deleted when
/// they fall due by the engine's clock, and the space they took is given back to the file system, so that free
/// estimates cannot fill the disk.
export class EstimateExpiry {
  private readonly alarm: Alarm
  private running = false

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {
    this.alarm = new Alarm(clock, () => this.wake())
  }

  /// Expires what is due now, then wakes when the next estimate falls due.
  async start(): Promise<void> {
    this.running = true
    await this.wake()
  }

  stop(): void {
    this.running = false
    this.alarm.clear()
  }

  /// Expires the estimates due by the engine's clock now and answers how many. The timer calls it; tests call
  /// it after moving their clock.
  async sweep(): Promise<number> {
    const now = this.clock.now()
    const forgetBefore = new Date(now.getTime() - REMEMBER_EXPIRED_MS).toISOString()
    const expired = await this.store.transaction(
      async (tx) => await tx.documents.expire(now.toISOString(), forgetBefore),
    )
    if (expired > 0) await this.store.reclaimSpace()
    return expired
  }

  private async wake(): Promise<void> {
    let holdMs = 0
    try {
      await this.sweep()
    } catch {
      holdMs = LOOK_AGAIN_MS
    }
    if (!this.running) return
    // New estimates may come at any time: with none waiting, look again in a while.
    const fallback = new Date(this.clock.now().getTime() + LOOK_AGAIN_MS).toISOString()
    this.alarm.set((await this.store.documents.nextExpiry()) ?? fallback, holdMs)
  }
}
