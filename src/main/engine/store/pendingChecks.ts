import type { CreateCheckRequest, PendingCheck } from '../../../shared/schemas'
import { sql, type Db } from './database'

/// A check queued to run when its providers can be reached: the request as it will be submitted, who queued it
/// (the token it is submitted as) and the `Idempotency-Key` that makes the submission happen once.
export interface PendingRecord {
  id: string
  organizationId: string
  tokenId: string
  request: CreateCheckRequest
  label: string
  idempotencyKey: string
  status: PendingCheck['status']
  attempts: number
  nextAttemptAt: string | null
  lastError: string | null
  checkId: string | null
  error: { code: string; message: string } | null
  createdAt: string
  updatedAt: string
  /// The token of its last lease: an attempt's outcome is recorded only while the attempt holds it.
  leaseId: string | null
}

interface Row {
  id: string
  organization_id: string
  token_id: string
  request: string
  label: string
  idempotency_key: string
  status: PendingCheck['status']
  attempts: number
  next_attempt_at: string | null
  last_error: string | null
  check_id: string | null
  error_code: string | null
  error_message: string | null
  created_at: string
  updated_at: string
  lease_id: string | null
}

const toRecord = (row: Row): PendingRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  tokenId: row.token_id,
  request: JSON.parse(row.request) as CreateCheckRequest,
  label: row.label,
  idempotencyKey: row.idempotency_key,
  status: row.status,
  attempts: Number(row.attempts),
  nextAttemptAt: row.next_attempt_at,
  lastError: row.last_error,
  checkId: row.check_id,
  error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  leaseId: row.lease_id,
})

/// The manuscript the pending check `row` (a name of `pending_checks` in the query) is a part of, in SQL: the
/// `manuscript.id` of its request's JSON, null for a whole text.
const manuscriptOf = (db: Db, row: string): string =>
  sql(db, {
    sqlite: `json_extract(${row}.request, '$.manuscript.id')`,
    postgres: `(${row}.request::jsonb #>> '{manuscript,id}')`,
  })

/// The durable queue of checks waiting for their providers. Every change of state is a conditional update of a
/// waiting row, so a cancel and a submission never both win; an attempt holds a lease on its row, and records its
/// outcome only while it holds it.
export class PendingChecks {
  constructor(private readonly db: Db) {}

  /// Queues a check, due at once.
  async insert(
    record: Pick<
      PendingRecord,
      'id' | 'organizationId' | 'tokenId' | 'request' | 'label' | 'idempotencyKey' | 'createdAt'
    >,
  ): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO pending_checks (id, organization_id, token_id, request, label, idempotency_key, next_attempt_at,
           created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        record.id,
        record.organizationId,
        record.tokenId,
        JSON.stringify(record.request),
        record.label,
        record.idempotencyKey,
        record.createdAt,
        record.createdAt,
        record.createdAt,
      )
  }

  /// One of the organization's pending checks.
  async get(organizationId: string, id: string): Promise<PendingRecord | null> {
    const row = (await this.db
      .prepare('SELECT * FROM pending_checks WHERE organization_id = ? AND id = ?')
      .get(organizationId, id)) as Row | undefined
    return row ? toRecord(row) : null
  }

  async byKey(organizationId: string, idempotencyKey: string): Promise<PendingRecord | null> {
    const row = (await this.db
      .prepare('SELECT * FROM pending_checks WHERE organization_id = ? AND idempotency_key = ?')
      .get(organizationId, idempotencyKey)) as Row | undefined
    return row ? toRecord(row) : null
  }

  /// How many of the organization's checks wait.
  async waiting(organizationId: string): Promise<number> {
    const row = (await this.db
      .prepare("SELECT COUNT(*) AS n FROM pending_checks WHERE organization_id = ? AND status = 'waiting'")
      .get(organizationId)) as { n: number }
    return Number(row.n)
  }

  /// The organization's pending checks, newest first; only those in `status` when given. Of a manuscript's parts
  /// only the first queued, where the manuscript stands in the list, when any of its parts is in `status`.
  async list(
    organizationId: string,
    limit: number,
    status: PendingRecord['status'] | null,
  ): Promise<PendingRecord[]> {
    const manuscript = manuscriptOf(this.db, 'pending_checks')
    const partOf = manuscriptOf(this.db, 'part')
    // A parameter compared with NULL alone has no type PostgreSQL can tell: it is given one.
    const rows = (await this.db
      .prepare(
        `SELECT * FROM pending_checks WHERE organization_id = ?
           AND (${manuscript} IS NULL
             AND (CAST(? AS TEXT) IS NULL OR status = ?)
             OR id = (SELECT MIN(part.id) FROM pending_checks part
               WHERE part.organization_id = pending_checks.organization_id AND ${partOf} = ${manuscript})
             AND (CAST(? AS TEXT) IS NULL OR EXISTS (SELECT 1 FROM pending_checks part
               WHERE part.organization_id = pending_checks.organization_id
                 AND ${partOf} = ${manuscript} AND part.status = ?)))
         ORDER BY id DESC LIMIT ?`,
      )
      .all(organizationId, status, status, status, status, limit)) as Row[]
    return rows.map(toRecord)
  }

  /// The organization's pending parts of the manuscript `manuscriptId`, in the order they were queued.
  async ofManuscript(organizationId: string, manuscriptId: string): Promise<PendingRecord[]> {
    const rows = (await this.db
      .prepare(
        `SELECT * FROM pending_checks WHERE organization_id = ? AND ${manuscriptOf(this.db, 'pending_checks')} = ?
         ORDER BY id`,
      )
      .all(organizationId, manuscriptId)) as Row[]
    return rows.map(toRecord)
  }

  /// Leases until `leaseUntil`, under the token `leaseId`, the waiting check due at `now` that falls due first and
  /// that no attempt holds (or whose attempt's lease ended: its holder died); null when there is none. On
  /// PostgreSQL the checks another replica is leasing at the same moment are skipped.
  async lease(now: string, leaseUntil: string, leaseId: string): Promise<PendingRecord | null> {
    const row = (await this.db
      .prepare(
        `UPDATE pending_checks SET lease_until = ?, lease_id = ?
         WHERE id IN (
           SELECT id FROM pending_checks
           WHERE status = 'waiting' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
           ORDER BY next_attempt_at, id LIMIT 1${sql(this.db, { sqlite: '', postgres: ' FOR UPDATE SKIP LOCKED' })}
         )
         RETURNING *`,
      )
      .get(leaseUntil, leaseId, now, now)) as Row | undefined
    return row ? toRecord(row) : null
  }

  /// When a waiting check can next be leased: it falls due, or the lease of an attempt at it ends, whichever is
  /// later; null when none waits.
  async nextDue(): Promise<string | null> {
    const row = (await this.db
      .prepare(
        `SELECT MIN(CASE WHEN lease_until > next_attempt_at THEN lease_until ELSE next_attempt_at END) AS next
         FROM pending_checks WHERE status = 'waiting'`,
      )
      .get()) as { next: string | null }
    return row.next
  }

  /// Extends to `leaseUntil` the leases with these tokens of checks still waiting; gives the ids of those checks.
  async renew(leaseIds: readonly string[], leaseUntil: string): Promise<string[]> {
    if (leaseIds.length === 0) return []
    const rows = (await this.db
      .prepare(
        `UPDATE pending_checks SET lease_until = ?
         WHERE status = 'waiting' AND lease_until IS NOT NULL AND lease_id IN (${leaseIds.map(() => '?').join(', ')})
         RETURNING id`,
      )
      .all(leaseUntil, ...leaseIds)) as { id: string }[]
    return rows.map((row) => row.id)
  }

  /// Gives back the lease `leaseId` of a check that was not attempted (the worker stopped): due again at once.
  async release(id: string, leaseId: string): Promise<void> {
    await this.db
      .prepare('UPDATE pending_checks SET lease_until = NULL WHERE id = ? AND lease_id = ?')
      .run(id, leaseId)
  }

  /// Ends every lease of a waiting check at `now`: only for SQLite's one engine at its start, whose leases were
  /// left by a process of the data folder that died.
  async expireLeases(now: string): Promise<void> {
    await this.db
      .prepare(
        "UPDATE pending_checks SET lease_until = ? WHERE status = 'waiting' AND lease_until IS NOT NULL",
      )
      .run(now)
  }

  /// Records attempt number `attempt`, made under the lease `leaseId`, which could not submit, and when to try
  /// again; ends the lease. False (nothing written) unless the check still waits with the attempts before it
  /// recorded and the lease held.
  async retryLater(
    id: string,
    leaseId: string,
    attempt: number,
    retry: { nextAttemptAt: string; reason: string },
    at: string,
  ): Promise<boolean> {
    return (
      (
        await this.db
          .prepare(
            `UPDATE pending_checks SET attempts = ?, next_attempt_at = ?, last_error = ?, updated_at = ?,
             lease_until = NULL
           WHERE id = ? AND status = 'waiting' AND attempts = ? AND lease_id = ? AND lease_until IS NOT NULL`,
          )
          .run(attempt, retry.nextAttemptAt, retry.reason, at, id, attempt - 1, leaseId)
      ).changes > 0
    )
  }

  /// Marks a waiting check submitted as `checkId` by the attempt holding the lease `leaseId`; false when it no
  /// longer waits (cancelled meanwhile) or the lease was lost.
  async submitted(
    id: string,
    leaseId: string,
    attempt: number,
    checkId: string,
    at: string,
  ): Promise<boolean> {
    return (
      (
        await this.db
          .prepare(
            `UPDATE pending_checks SET status = 'submitted', attempts = ?, check_id = ?, next_attempt_at = NULL,
             last_error = NULL, updated_at = ?, lease_until = NULL
           WHERE id = ? AND status = 'waiting' AND lease_id = ? AND lease_until IS NOT NULL`,
          )
          .run(attempt, checkId, at, id, leaseId)
      ).changes > 0
    )
  }

  /// Ends a waiting check as failed, from the attempt holding the lease `leaseId`: its submission was refused for
  /// a reason waiting will not change. False when it no longer waits or the lease was lost.
  async fail(
    id: string,
    leaseId: string,
    attempt: number,
    error: { code: string; message: string },
    at: string,
  ): Promise<boolean> {
    return (
      (
        await this.db
          .prepare(
            `UPDATE pending_checks SET status = 'failed', attempts = ?, error_code = ?, error_message = ?,
             next_attempt_at = NULL, updated_at = ?, lease_until = NULL
           WHERE id = ? AND status = 'waiting' AND lease_id = ? AND lease_until IS NOT NULL`,
          )
          .run(attempt, error.code, error.message, at, id, leaseId)
      ).changes > 0
    )
  }

  /// Forgets the organization's ended checks that never ran (failed or cancelled) but the `keep` most recent: their
  /// texts would never be read again, and an organization that cannot pay must not fill the store with them.
  async forgetEnded(organizationId: string, keep: number): Promise<void> {
    await this.db
      .prepare(
        `DELETE FROM pending_checks WHERE organization_id = ? AND status IN ('failed', 'cancelled') AND id NOT IN (
           SELECT id FROM pending_checks WHERE organization_id = ? AND status IN ('failed', 'cancelled')
           ORDER BY updated_at DESC, id DESC LIMIT ?)`,
      )
      .run(organizationId, organizationId, keep)
  }

  /// Cancels a waiting check; false when it no longer waits.
  async cancel(id: string, at: string): Promise<boolean> {
    return (
      (
        await this.db
          .prepare(
            `UPDATE pending_checks SET status = 'cancelled', next_attempt_at = NULL, updated_at = ?
           WHERE id = ? AND status = 'waiting'`,
          )
          .run(at, id)
      ).changes > 0
    )
  }
}
