/// At most `limit` holders at once; the others wait in line, and leave it when their AbortSignal fires.
export class Limiter {
  private active = 0
  private readonly waiting: (() => void)[] = []

  constructor(readonly limit: number) {}

  /// Requests in flight right now.
  get inFlight(): number {
    return this.active
  }

  /// Resolves with the function that gives the slot back (call it exactly once).
  async acquire(signal: AbortSignal): Promise<() => void> {
    signal.throwIfAborted()
    if (this.active < this.limit) {
      this.active++
      return this.releaser()
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiting.indexOf(grant)
        if (index >= 0) this.waiting.splice(index, 1)
        reject(signal.reason as Error)
      }
      const grant = () => {
        signal.removeEventListener('abort', onAbort)
        resolve()
      }
      this.waiting.push(grant)
      signal.addEventListener('abort', onAbort, { once: true })
    })
    return this.releaser()
  }

  private releaser(): () => void {
    let released = false
    return () => {
      if (released) return
      released = true
      const next = this.waiting.shift()
      // The slot passes straight to the next in line; `active` stays the same.
      if (next) next()
      else this.active--
    }
  }
}

/// One limiter per provider endpoint.
export class Limiters {
  /// The limiters of this process for `limit`: a provider counts every request made to it, whether the
  /// resolver's, a panel model's, the judge's or deep research's, so their clients share one limit per endpoint.
  static shared(limit: number): Limiters {
    let limiters = sharedLimiters.get(limit)
    if (!limiters) sharedLimiters.set(limit, (limiters = new Limiters(limit)))
    return limiters
  }

  private readonly byKey = new Map<string, Limiter>()

  constructor(private readonly limit: number) {}

  for(key: string): Limiter {
    let limiter = this.byKey.get(key)
    if (!limiter) this.byKey.set(key, (limiter = new Limiter(this.limit)))
    return limiter
  }
}

const sharedLimiters = new Map<number, Limiters>()
