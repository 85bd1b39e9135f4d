// Leases: how replicas of a team server share durable work (units, deep research runs, webhook deliveries,
// pending checks) on one PostgreSQL database. A worker leases a row for a while (LEASE_MS) under a token of its
// own, renews the lease every third of that while the work runs, and writes the work's results only where the row
// still carries its token. A replica that dies stops renewing: once its leases have expired another one takes the
// rows over (a new token), and should the first one come back it writes nothing.
import { randomUUID } from 'node:crypto'
import type { Clock } from '../base/clock'
import type { Dialect } from './database'

/// How long a lease lasts unless renewed: the longest a dead replica's work waits before another takes it over.
export const LEASE_MS = 30_000

/// How often a worker on PostgreSQL looks for work when nothing it knows of falls due: another replica may queue
/// work, or die holding some, at any time. On SQLite the one engine of the data folder knows all its work.
export const POLL_MS = 5_000

/// A new lease's token: written on the rows leased together, and required by every write of their results.
export const newLeaseId = (): string => randomUUID()

/// When a worker looks for work next: when its next piece falls due, and on PostgreSQL at the latest in `pollMs`.
export function nextLook(dialect: Dialect, clock: Clock, due: string | null, pollMs: number): string | null {
  if (dialect !== 'postgres') return due
  const poll = new Date(clock.now().getTime() + pollMs).toISOString()
  return due !== null && due < poll ? due : poll
}

/// The time a lease of `leaseMs` taken now ends.
export const leaseEnd = (clock: Clock, leaseMs: number): string =>
  new Date(clock.now().getTime() + leaseMs).toISOString()

/// The leases a worker holds on the rows of one table while their work runs: renewed together (one statement)
/// every third of their length by a timer, and before the worker looks for more work, so that a clock moved
/// forward (tests') never makes it take its own rows over. A row whose lease turns out lost (taken over after it
/// expired, or ended meanwhile, as by a cancel) is let go and its work told to stop: whatever it would write is
/// refused anyway.
export class HeldLeases {
  private readonly held = new Map<string, { leaseId: string; lost: () => void }>()
  private timer: NodeJS.Timeout | null = null
  /// When (by the engine's clock) the leases held were last taken or renewed.
  private renewedAt = 0
  private renewing: Promise<void> | null = null

  constructor(
    private readonly clock: Clock,
    private readonly leaseMs: number,
    /// Extends the leases with these tokens to `until`, and gives the ids of the rows whose lease is still held.
    private readonly renew: (leaseIds: string[], until: string) => Promise<string[]>,
  ) {}

  /// When a lease taken now ends.
  until(): string {
    return leaseEnd(this.clock, this.leaseMs)
  }

  /// Holds the lease `leaseId` of row `id` (just taken) until `letGo`; `lost` is called if it is lost before.
  hold(id: string | number, leaseId: string, lost: () => void): void {
    if (this.held.size === 0) this.renewedAt = this.clock.now().getTime()
    this.held.set(String(id), { leaseId, lost })
    if (this.timer) return
    this.timer = setInterval(() => {
      this.renewNow().catch((error: unknown) => {
        // The store is out of reach: the leases may expire meanwhile, and the next renewal says which were lost.
        console.error('factdesk: leases could not be renewed; they are tried again shortly', error)
      })
    }, this.leaseMs / 3)
    this.timer.unref()
  }

  /// The work of row `id` has ended (its results written or refused): its lease is no longer renewed.
  letGo(id: string | number): void {
    this.held.delete(String(id))
    if (this.held.size === 0) this.clear()
  }

  /// Renews the leases held if a third of their length has passed since they were last renewed.
  async renewIfDue(): Promise<void> {
    if (this.held.size > 0 && this.clock.now().getTime() - this.renewedAt >= this.leaseMs / 3)
      await this.renewNow()
  }

  /// Stops renewing (the worker stops; what it holds it gives back or leaves to expire).
  clear(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  private renewNow(): Promise<void> {
    this.renewing ??= (async () => {
      try {
        const entries = [...this.held]
        if (entries.length === 0) return
        const at = this.clock.now().getTime()
        const still = new Set(
          await this.renew([...new Set(entries.map(([, { leaseId }]) => leaseId))], this.until()),
        )
        this.renewedAt = at
        for (const [id, entry] of entries) {
          if (still.has(id) || this.held.get(id) !== entry) continue
          this.letGo(id)
          entry.lost()
        }
      } finally {
        this.renewing = null
      }
    })()
    return this.renewing
  }
}
