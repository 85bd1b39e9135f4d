import type { Config } from '../../../shared/config'
import { ApiError } from '../../../shared/errors'
import type { Clock } from './clock'

const MINUTE_MS = 60_000

/// A limit of the config file's `limits`, by name.
export type LimitName = keyof Config['limits']

/// The requests of the last minute, where a `PerMinuteLimit` counts them: the store's (store/recentRequests.ts), in
/// the database every replica of a team server shares.
export interface RequestLog {
  /// Counts a request of `organizationId` made `at` against `limit`, unless `most` of its requests were made after
  /// `since` already: then counts nothing and answers when the oldest of those was made.
  take(
    organizationId: string,
    limit: LimitName,
    most: number,
    since: string,
    at: string,
  ): Promise<string | null>
}

/// At most `limit` requests per organization in any minute by the engine's clock. Counted in the store, so that
/// an organization gets its limit in all, however many replicas of a team server its requests reach.
export class PerMinuteLimit {
  constructor(
    private readonly clock: Clock,
    private readonly limit: number,
    /// The limit's name in the config file, which a refusal names.
    private readonly name: LimitName,
  ) {}

  /// Counts one request of `what` (in words, plural) for the organization in `requests`, or refuses it: 429
  /// `rate_limited` with the whole seconds until the oldest of the minute's requests leaves it, nothing counted.
  /// `requests` is a transaction's that holds the organization's lock, so that requests made at the same moment,
  /// on any replica, are counted one after the other.
  async require(requests: RequestLog, organizationId: string, what: string): Promise<void> {
    const now = this.clock.now().getTime()
    const oldest = await requests.take(
      organizationId,
      this.name,
      this.limit,
      new Date(now - MINUTE_MS).toISOString(),
      new Date(now).toISOString(),
    )
    if (oldest === null) return
    const wait = Math.max(1, Math.ceil((Date.parse(oldest) + MINUTE_MS - now) / 1000))
    throw new ApiError(
      'rate_limited',
      `This organization asked for more than ${this.limit} ${what} in a minute (limits.${this.name}); try again in ${wait} s.`,
      null,
      wait,
    )
  }
}

/// At most `limit` pieces of work per key (an organization) in flight at once in this process: the limit guards
/// this process's memory (a file being imported is held in it whole), so each replica of a team server counts its
/// own.
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
