import type { Clock } from './clock'

const MINUTE_MS = 60_000

/// At most `limit` requests per key (an organization) in any minute by the engine's clock. Kept in memory: the
/// limit protects this process's event loop and disk, and a restart forgets at most a minute.
export class PerMinuteLimit {
  private readonly recent = new Map<string, number[]>()

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
  ) {}

  /// Counts one request for `key` and answers null, or, when the minute's are used up, counts nothing and
  /// answers the whole seconds until the oldest of them leaves the minute.
  take(key: string): number | null {
    const now = this.clock.now().getTime()
    const within = (this.recent.get(key) ?? []).filter((at) => at > now - MINUTE_MS)
    if (within.length >= this.limit) {
      this.recent.set(key, within)
      return Math.max(1, Math.ceil(((within[0] as number) + MINUTE_MS - now) / 1000))
    }
    within.push(now)
    this.recent.set(key, within)
    return null
  }
}
