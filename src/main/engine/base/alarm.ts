// The wake-up of a background worker (the job runner, webhook deliveries, checks queued for when online): one
// timer, set for when its next piece of work falls due by the engine's clock.
import type { Clock } from './clock'

/// Never sleep longer than this: the worker looks again at least once a minute (its clock may be moved).
const MAX_SLEEP_MS = 60_000

/// After a wake-up that failed (the store busy or out of reach), the worker looks again this much later.
const AFTER_FAILURE_MS = 5_000

/// One timer that calls `wake` when the next piece of work falls due, at most a minute ahead. It keeps the
/// process alive only with `keepAlive` (the job runner's: `factdesk check` waits through a unit's retry). A wake
/// that fails is said on the console and tried again a few seconds later.
export class Alarm {
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly clock: Clock,
    private readonly wake: () => void | Promise<void>,
    private readonly options: { keepAlive?: boolean } = {},
  ) {}

  /// Wakes at `due` (an ISO time; now or soon when it has passed), but not before `minimumMs`; null clears.
  set(due: string | null, minimumMs = 0): void {
    this.clear()
    if (due === null) return
    const wait = Date.parse(due) - this.clock.now().getTime()
    this.timer = setTimeout(() => this.ring(), Math.max(minimumMs, Math.min(wait, MAX_SLEEP_MS)))
    if (!this.options.keepAlive) this.timer.unref()
  }

  private ring(): void {
    this.timer = null
    void (async () => this.wake())().catch((error: unknown) => {
      console.error('factdesk: a background worker failed; it tries again shortly', error)
      if (this.timer === null) this.set(this.clock.now().toISOString(), AFTER_FAILURE_MS)
    })
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }
}
