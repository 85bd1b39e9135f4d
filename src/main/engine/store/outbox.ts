import { sql, type Db } from './database'

export type WebhookEventType = 'check.completed' | 'check.failed'
export type DeliveryStatus = 'pending' | 'delivered' | 'failed'

/// A webhook event in the outbox: its exact body, where it goes and how its delivery stands.
export interface OutboxRecord {
  id: string
  organizationId: string
  checkId: string
  type: WebhookEventType
  url: string
  /// The JSON body exactly as every attempt sends it.
  body: string
  status: DeliveryStatus
  attempts: number
  createdAt: string
  /// When the next attempt is due; null once delivered or failed.
  nextAttemptAt: string | null
  lastAttemptAt: string | null
  lastStatusCode: number | null
  lastError: string | null
  /// The token of the event's last lease: an attempt is recorded only while it holds it.
  leaseId: string | null
}

/// One delivery attempt: the receiver's status code, or why there was none.
export interface AttemptRecord {
  attempt: number
  attemptedAt: string
  statusCode: number | null
  error: string | null
}

/// How an attempt ended: acknowledged, to be retried at `nextAttemptAt`, or the last one, failed.
export type AttemptOutcome =
  { status: 'delivered' } | { status: 'pending'; nextAttemptAt: string } | { status: 'failed' }

interface Row {
  id: string
  organization_id: string
  check_id: string
  type: WebhookEventType
  url: string
  body: string
  status: DeliveryStatus
  attempts: number
  created_at: string
  next_attempt_at: string | null
  last_attempt_at: string | null
  last_status_code: number | null
  last_error: string | null
  lease_id: string | null
}

const toRecord = (row: Row): OutboxRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  checkId: row.check_id,
  type: row.type,
  url: row.url,
  body: row.body,
  status: row.status,
  attempts: Number(row.attempts),
  createdAt: row.created_at,
  nextAttemptAt: row.next_attempt_at,
  lastAttemptAt: row.last_attempt_at,
  lastStatusCode: row.last_status_code === null ? null : Number(row.last_status_code),
  lastError: row.last_error,
  leaseId: row.lease_id,
})

/// The durable outbox of webhook events and the log of their delivery attempts.
export class Outbox {
  constructor(private readonly db: Db) {}

  /// Queues an event, due at once. Callers write it in the transaction that ends its check; a check has at
  /// most one event (the unique check_id refuses a second).
  async insert(
    event: Pick<OutboxRecord, 'id' | 'organizationId' | 'checkId' | 'type' | 'url' | 'body' | 'createdAt'>,
  ): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO webhook_events (id, organization_id, check_id, type, url, body, created_at, next_attempt_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        event.id,
        event.organizationId,
        event.checkId,
        event.type,
        event.url,
        event.body,
        event.createdAt,
        event.createdAt,
      )
  }

  async get(id: string): Promise<OutboxRecord | null> {
    const row = (await this.db.prepare('SELECT * FROM webhook_events WHERE id = ?').get(id)) as
      Row | undefined
    return row ? toRecord(row) : null
  }

  async forCheck(checkId: string): Promise<OutboxRecord | null> {
    const row = (await this.db.prepare('SELECT * FROM webhook_events WHERE check_id = ?').get(checkId)) as
      Row | undefined
    return row ? toRecord(row) : null
  }

  /// The event's attempts, first first.
  async attempts(eventId: string): Promise<AttemptRecord[]> {
    const rows = (await this.db
      .prepare(
        'SELECT attempt, attempted_at, status_code, error FROM webhook_attempts WHERE event_id = ? ORDER BY attempt',
      )
      .all(eventId)) as {
      attempt: number
      attempted_at: string
      status_code: number | null
      error: string | null
    }[]
    return rows.map((row) => ({
      attempt: Number(row.attempt),
      attemptedAt: row.attempted_at,
      statusCode: row.status_code === null ? null : Number(row.status_code),
      error: row.error,
    }))
  }

  /// Leases until `leaseUntil`, under the token `leaseId`, up to `limit` pending events due at `now` that no
  /// attempt holds (or whose attempt's lease ended: its holder died), earliest first. On PostgreSQL the events
  /// another replica is leasing at the same moment are skipped: one attempt at a time per event.
  async lease(now: string, leaseUntil: string, leaseId: string, limit: number): Promise<OutboxRecord[]> {
    const rows = (await this.db
      .prepare(
        `UPDATE webhook_events SET lease_until = ?, lease_id = ?
         WHERE id IN (
           SELECT id FROM webhook_events
           WHERE status = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
           ORDER BY next_attempt_at, id LIMIT ?${sql(this.db, { sqlite: '', postgres: ' FOR UPDATE SKIP LOCKED' })}
         )
         RETURNING *`,
      )
      .all(leaseUntil, leaseId, now, now, limit)) as Row[]
    return rows
      .map(toRecord)
      .sort(
        (a, b) => (a.nextAttemptAt ?? '').localeCompare(b.nextAttemptAt ?? '') || a.id.localeCompare(b.id),
      )
  }

  /// When a pending event can next be leased: its next attempt falls due, or the lease of an attempt at it ends,
  /// whichever is later; null when none is pending.
  async nextDue(): Promise<string | null> {
    const row = (await this.db
      .prepare(
        `SELECT MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END) AS at
         FROM webhook_events WHERE status = 'pending' AND next_attempt_at IS NOT NULL`,
      )
      .get()) as { at: string | null }
    return row.at
  }

  /// Extends to `leaseUntil` the leases with these tokens of events still pending; gives the ids of those events.
  async renew(leaseIds: readonly string[], leaseUntil: string): Promise<string[]> {
    if (leaseIds.length === 0) return []
    const rows = (await this.db
      .prepare(
        `UPDATE webhook_events SET lease_until = ?
         WHERE status = 'pending' AND lease_until IS NOT NULL AND lease_id IN (${leaseIds.map(() => '?').join(', ')})
         RETURNING id`,
      )
      .all(leaseUntil, ...leaseIds)) as { id: string }[]
    return rows.map((row) => row.id)
  }

  /// Gives back the lease `leaseId` of an event whose attempt did not happen (the engine stopped): it is due again
  /// at once.
  async release(id: string, leaseId: string): Promise<void> {
    await this.db
      .prepare('UPDATE webhook_events SET lease_until = NULL WHERE id = ? AND lease_id = ?')
      .run(id, leaseId)
  }

  /// Ends every lease of a pending event at `now`: only for SQLite's one engine at its start, whose leases were
  /// left by a process of the data folder that died.
  async expireLeases(now: string): Promise<void> {
    await this.db
      .prepare(
        "UPDATE webhook_events SET lease_until = ? WHERE status = 'pending' AND lease_until IS NOT NULL",
      )
      .run(now)
  }

  /// Records attempt number `attempt` and its outcome, made under the lease `leaseId`, and ends the lease. Only
  /// the attempt that follows the recorded ones of a pending event, while its lease holds, counts: false (and
  /// nothing written) otherwise.
  async recordAttempt(
    eventId: string,
    leaseId: string,
    attempt: AttemptRecord,
    outcome: AttemptOutcome,
  ): Promise<boolean> {
    const changed = (
      await this.db
        .prepare(
          `UPDATE webhook_events SET status = ?, attempts = ?, next_attempt_at = ?, last_attempt_at = ?,
           last_status_code = ?, last_error = ?, lease_until = NULL
         WHERE id = ? AND status = 'pending' AND attempts = ? AND lease_id = ? AND lease_until IS NOT NULL`,
        )
        .run(
          outcome.status,
          attempt.attempt,
          outcome.status === 'pending' ? outcome.nextAttemptAt : null,
          attempt.attemptedAt,
          attempt.statusCode,
          attempt.error,
          eventId,
          attempt.attempt - 1,
          leaseId,
        )
    ).changes
    if (changed === 0) return false
    await this.db
      .prepare(
        'INSERT INTO webhook_attempts (event_id, attempt, attempted_at, status_code, error) VALUES (?, ?, ?, ?, ?)',
      )
      .run(eventId, attempt.attempt, attempt.attemptedAt, attempt.statusCode, attempt.error)
    return true
  }
}
