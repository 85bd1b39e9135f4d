import type { Tier } from '../../../shared/schemas'
import { Channel, sql, type Db, type Listen, type Notifications } from './database'

/// One unit of work: a claim checked in one tier (by one model, where a tier has several).
export interface UnitRecord {
  id: number
  checkId: string
  claimId: string
  tier: Tier
  model: string
  attempts: number
  /// The token of the lease the unit is held under: its end and its results are written only with it.
  leaseId: string
}

interface Row {
  id: number
  check_id: string
  claim_id: string
  tier: Tier
  model: string
  attempts: number
  lease_id: string
}

const toRecord = (row: Row): UnitRecord => ({
  id: Number(row.id),
  checkId: row.check_id,
  claimId: row.claim_id,
  tier: row.tier,
  model: row.model,
  attempts: Number(row.attempts),
  leaseId: row.lease_id,
})

/// The units of one check, read through the (check_id, status) index: SQLite is told so (`INDEXED BY`, a hint
/// PostgreSQL has no word for; its planner takes the index by itself).
const UNITS_OF_CHECK = (db: Db): string =>
  sql(db, { sqlite: 'units INDEXED BY units_by_check', postgres: 'units' })

/// The durable work queue, in the same database as the checks it serves.
export class Units {
  /// Where a team server's replicas are told that units were queued, so that idle ones lease them at once.
  private readonly queued: Channel

  constructor(
    private readonly db: Db,
    listenTo: Listen | null,
    sender: string,
  ) {
    this.queued = new Channel(db, 'factdesk_units', listenTo, sender)
  }

  /// Calls `heard` whenever another replica queued units (or may have: see `Channel.listen`); null on SQLite.
  async listen(heard: () => void): Promise<Notifications | null> {
    return await this.queued.listen(heard)
  }

  /// Tells the replicas that units were queued (`enqueue` does not: a check's are told once its `queued` event is
  /// out, so that no replica starts it, and says so, before that event).
  async tellQueued(): Promise<void> {
    await this.queued.tell()
  }

  async enqueue(
    checkId: string,
    units: readonly { claimId: string; tier: Tier; model: string }[],
    at: string,
  ): Promise<void> {
    const insert = this.db.prepare(
      'INSERT INTO units (check_id, claim_id, tier, model, available_at) VALUES (?, ?, ?, ?, ?)',
    )
    for (const unit of units) await insert.run(checkId, unit.claimId, unit.tier, unit.model, at)
  }

  /// Leases up to `limit` units, oldest first, until `leaseUntil` under the token `leaseId`, counting an attempt of
  /// each: pending units that are due, and running ones whose lease ended at `now` (their holder died or lost
  /// touch). On PostgreSQL the rows another replica is leasing at the same moment are skipped, not waited for, so
  /// that no unit is leased twice; SQLite's one writer leases one batch at a time.
  async lease(now: string, leaseUntil: string, leaseId: string, limit: number): Promise<UnitRecord[]> {
    const rows = (await this.db
      .prepare(
        `UPDATE units SET status = 'running', attempts = attempts + 1, lease_until = ?, lease_id = ?
         WHERE id IN (${sql(this.db, {
           sqlite: `SELECT id FROM units WHERE status = 'pending' AND available_at <= ?
             UNION ALL SELECT id FROM units WHERE status = 'running' AND lease_until <= ?
             ORDER BY id LIMIT ?`,
           postgres: `SELECT id FROM units
             WHERE (status = 'pending' AND available_at <= ?) OR (status = 'running' AND lease_until <= ?)
             ORDER BY id LIMIT ? FOR UPDATE SKIP LOCKED`,
         })})
         RETURNING id, check_id, claim_id, tier, model, attempts, lease_id`,
      )
      .all(leaseUntil, leaseId, now, now, limit)) as Row[]
    return rows.map(toRecord).sort((a, b) => a.id - b.id)
  }

  /// When a unit can next be leased: the next pending one falls due, or the first lease of a running one ends;
  /// null when there is neither.
  async nextDue(): Promise<string | null> {
    const row = (await this.db
      .prepare(
        `SELECT (SELECT MIN(available_at) FROM units WHERE status = 'pending') AS due,
           (SELECT MIN(lease_until) FROM units WHERE status = 'running') AS expires`,
      )
      .get()) as { due: string | null; expires: string | null }
    return [row.due, row.expires].reduce((a, b) => (a === null || (b !== null && b < a) ? b : a), null)
  }

  /// Extends to `leaseUntil` the leases with these tokens of units still running; gives the ids of those units.
  async renew(leaseIds: readonly string[], leaseUntil: string): Promise<string[]> {
    if (leaseIds.length === 0) return []
    const rows = (await this.db
      .prepare(
        `UPDATE units SET lease_until = ?
         WHERE status = 'running' AND lease_id IN (${leaseIds.map(() => '?').join(', ')}) RETURNING id`,
      )
      .all(leaseUntil, ...leaseIds)) as { id: number }[]
    return rows.map((row) => String(row.id))
  }

  /// Ends the lease of every running unit at `now`, so that the next lease takes them: only for SQLite's one
  /// engine at its start, whose units still running were left by a process of the data folder that died.
  async expireLeases(now: string): Promise<void> {
    await this.db.prepare("UPDATE units SET lease_until = ? WHERE status = 'running'").run(now)
  }

  /// Marks a unit done while its lease `leaseId` holds; false if it no longer does (cancelled meanwhile, or its
  /// lease expired and another took it over), and then nothing of the unit's may be written.
  async finish(id: number, leaseId: string): Promise<boolean> {
    return (
      (
        await this.db
          .prepare(
            "UPDATE units SET status = 'done', lease_until = NULL WHERE id = ? AND status = 'running' AND lease_id = ?",
          )
          .run(id, leaseId)
      ).changes > 0
    )
  }

  /// Puts a unit whose lease `leaseId` holds back to wait until `availableAt` (after a transient failure, or when
  /// the engine stops).
  async retryLater(id: number, leaseId: string, error: string, availableAt: string): Promise<void> {
    await this.db
      .prepare(
        `UPDATE units SET status = 'pending', lease_until = NULL, last_error = ?, available_at = ?
         WHERE id = ? AND status = 'running' AND lease_id = ?`,
      )
      .run(error, availableAt, id, leaseId)
  }

  /// Gives up on a unit while its lease `leaseId` holds; false if it no longer does (cancelled meanwhile, or taken
  /// over).
  async fail(id: number, leaseId: string, error: string): Promise<boolean> {
    return (
      (
        await this.db
          .prepare(
            `UPDATE units SET status = 'failed', lease_until = NULL, last_error = ?
             WHERE id = ? AND status = 'running' AND lease_id = ?`,
          )
          .run(error, id, leaseId)
      ).changes > 0
    )
  }

  /// Queues one unit unless the check has it already; true if it was queued.
  async enqueueOnce(
    checkId: string,
    unit: { claimId: string; tier: Tier; model: string },
    at: string,
  ): Promise<boolean> {
    const queued =
      (
        await this.db
          .prepare(
            `INSERT INTO units (check_id, claim_id, tier, model, available_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (check_id, claim_id, tier, model) DO NOTHING`,
          )
          .run(checkId, unit.claimId, unit.tier, unit.model, at)
      ).changes > 0
    if (queued) await this.queued.tell()
    return queued
  }

  /// How many units of one claim-tier of a check are still pending or running.
  async openFor(checkId: string, claimId: string, tier: Tier): Promise<number> {
    const row = (await this.db
      .prepare(
        `SELECT COUNT(*) AS open FROM units
         WHERE check_id = ? AND claim_id = ? AND tier = ? AND status IN ('pending', 'running')`,
      )
      .get(checkId, claimId, tier)) as { open: number }
    return Number(row.open)
  }

  /// The models queued per claim for each tier of the check that has a panel: distinct named models other than
  /// the judge's unit name `judge`.
  async panelSizes(checkId: string, judge: string): Promise<Partial<Record<Tier, number>>> {
    const rows = (await this.db
      .prepare(
        `SELECT tier, COUNT(DISTINCT model) AS models FROM units
         WHERE check_id = ? AND model NOT IN ('', ?) GROUP BY tier`,
      )
      .all(checkId, judge)) as { tier: Tier; models: number }[]
    return Object.fromEntries(rows.map((row) => [row.tier, Number(row.models)]))
  }

  /// Stops every unit of a check that has not finished.
  async cancelCheck(checkId: string): Promise<void> {
    await this.db
      .prepare(
        "UPDATE units SET status = 'cancelled', lease_until = NULL WHERE check_id = ? AND status IN ('pending', 'running')",
      )
      .run(checkId)
  }

  /// Whether any unit of the check is still pending or running: one probe of the (check_id, status) index, as
  /// this is asked each time a unit ends (counting every unit of a large check each time made checks quadratic).
  async anyOpen(checkId: string): Promise<boolean> {
    return (
      (await this.db
        .prepare(
          `SELECT 1 FROM ${UNITS_OF_CHECK(this.db)}
           WHERE check_id = ? AND status IN ('pending', 'running') LIMIT 1`,
        )
        .get(checkId)) !== undefined
    )
  }

  /// How many units of the check failed without their claim-tier reaching a consensus (a panel model that failed
  /// while the others' votes were judged costs the check nothing).
  async failedUndecided(checkId: string): Promise<number> {
    const row = (await this.db
      .prepare(
        `SELECT COUNT(*) AS failed FROM ${UNITS_OF_CHECK(this.db)}
         WHERE check_id = ? AND status = 'failed' AND NOT EXISTS (
           SELECT 1 FROM consensus c
           WHERE c.check_id = units.check_id AND c.claim_id = units.claim_id AND c.tier = units.tier)`,
      )
      .get(checkId)) as { failed: number }
    return Number(row.failed)
  }

  /// The last error of the check's failed units, for its `error` message.
  async lastError(checkId: string): Promise<string | null> {
    const row = (await this.db
      .prepare(
        `SELECT last_error FROM units WHERE check_id = ? AND status = 'failed' AND NOT EXISTS (
           SELECT 1 FROM consensus c
           WHERE c.check_id = units.check_id AND c.claim_id = units.claim_id AND c.tier = units.tier)
         ORDER BY id DESC LIMIT 1`,
      )
      .get(checkId)) as { last_error: string | null } | undefined
    return row?.last_error ?? null
  }
}
