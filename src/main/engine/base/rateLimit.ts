import type { Config } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import type { Clock } from './clock'

const MINUTE_MS = 60_000

/// A limit of the config file's `limits`, by name.
export type LimitName = keyof Config['limits']

/// At most `limit` requests per key (an organization) in any minute by the engine's clock. Kept in memory: the
/// limit protects this process's event loop and disk, and a restart forgets at most a minute.
export class PerMinuteLimit {
  private readonly recent = new Map<string, number[]>()

  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    /// The limit's name in the config file, which a refusal names.
    private readonly name: LimitName,
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

  /// Counts one request of `what` (in words, plural) for the organization `key`, or refuses it: 429
  /// `rate_limited` with the seconds to wait.
  require(key: string, what: string): void {
    const wait = this.take(key)
    if (wait === null) return
    throw new ApiError(
      'rate_limited',
      `This organization asked for more than ${this.limit} ${what} in a minute (limits.${this.name}); try again in ${wait} s.`,
      null,
      wait,
    )
  }
}

/// At most `limit` pieces of work per key (an organization) in flight at once.
export class AtOnceLimit {
  private readonly running = new Map<string, number>()

  constructor(
    private readonly limit: number,
    private readonly name: LimitName,
  ) {}

  /// Runs `work` for `key` once a place is free now, or refuses it: 429 `rate_limited`, to retry in a second.
  async run<T>(key: string, what: string, work: () => Promise<T>): Promise<T> {
    const count = this.running.get(key) ?? 0
    if (count >= this.limit) {
      throw new ApiError(
        'rate_limited',
        `This organization has ${this.limit} ${what} in flight already (limits.${this.name}); try again when one has ended.`,
        null,
        1,
      )
    }
    this.running.set(key, count + 1)
    try {
      return await work()
    } finally {
      const left = (this.running.get(key) ?? 1) - 1
      if (left === 0) this.running.delete(key)
      else this.running.set(key, left)
    }
  }
}

/// A store quota of `limit` reached: 413 `payload_too_large`, the message naming the limit.
export const quotaReached = (limit: LimitName, message: string): ApiError =>
  new ApiError('payload_too_large', `${message} (limits.${limit}).`)
