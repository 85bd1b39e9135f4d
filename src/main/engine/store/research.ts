import type { ResearchStatus } from '../../../shared/schemas'
import { sql, type Db } from './database'
import { claimColumns, toClaim, type ClaimRecord, type ClaimRow } from './documents'

/// A deep-research run as stored. `state` is the JSON of the steps done so far; `result` the finished run's.
export interface ResearchRecord {
  id: string
  organizationId: string
  claimId: string | null
  text: string
  context: string
  status: ResearchStatus
  charged: number
  refunded: number
  state: string
  attempts: number
  result: string | null
  errorCode: string | null
  errorMessage: string | null
  createdAt: string
  updatedAt: string
  completedAt: string | null
  /// The token of the run's current lease (null before its first): an attempt writes only while it holds it.
  leaseId: string | null
}

interface Row {
  id: string
  organization_id: string
  claim_id: string | null
  text: string
  context: string
  status: ResearchStatus
  charged: number
  refunded: number
  state: string
  attempts: number
  result: string | null
  error_code: string | null
  error_message: string | null
  created_at: string
  updated_at: string
  completed_at: string | null
  lease_id: string | null
}

const record = (row: Row): ResearchRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  claimId: row.claim_id,
  text: row.text,
  context: row.context,
  status: row.status,
  charged: Number(row.charged),
  refunded: Number(row.refunded),
  state: row.state,
  attempts: Number(row.attempts),
  result: row.result,
  errorCode: row.error_code,
  errorMessage: row.error_message,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
  leaseId: row.lease_id,
})

/// Deep-research runs. Writes that must land with a ledger row run inside the caller's transaction.
export class ResearchRuns {
  constructor(private readonly db: Db) {}

  async insert(
    run: Pick<
      ResearchRecord,
      'id' | 'organizationId' | 'claimId' | 'text' | 'context' | 'charged' | 'createdAt'
    >,
  ): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO research (id, organization_id, claim_id, text, context, status, charged, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'queued', ?, ?, ?)`,
      )
      .run(
        run.id,
        run.organizationId,
        run.claimId,
        run.text,
        run.context,
        run.charged,
        run.createdAt,
        run.createdAt,
      )
  }

  async get(organizationId: string, id: string): Promise<ResearchRecord | null> {
    const row = (await this.db
      .prepare('SELECT * FROM research WHERE id = ? AND organization_id = ?')
      .get(id, organizationId)) as Row | undefined
    return row ? record(row) : null
  }

  /// The organization's `limit` most recent runs, newest first.
  async recent(organizationId: string, limit: number): Promise<ResearchRecord[]> {
    const rows = (await this.db
      .prepare('SELECT * FROM research WHERE organization_id = ? ORDER BY created_at DESC, id DESC LIMIT ?')
      .all(organizationId, limit)) as Row[]
    return rows.map(record)
  }

  async byId(id: string): Promise<ResearchRecord | null> {
    const row = (await this.db.prepare('SELECT * FROM research WHERE id = ?').get(id)) as Row | undefined
    return row ? record(row) : null
  }

  /// Leases until `leaseUntil`, under the token `leaseId`, up to `limit` runs not yet ended, oldest first: those
  /// due and not in an attempt, and those whose attempt's lease ended at `now` (its holder died). Marks them running
  /// and counts the attempt. On PostgreSQL the runs another replica is leasing at the same moment are skipped.
  async lease(now: string, leaseUntil: string, leaseId: string, limit: number): Promise<ResearchRecord[]> {
    const rows = (await this.db
      .prepare(
        `UPDATE research SET status = 'running', attempts = attempts + 1, leased = 1, lease_until = ?, lease_id = ?,
           updated_at = ?
         WHERE id IN (
           SELECT id FROM research
           WHERE status IN ('queued', 'running') AND (
             (leased = 0 AND (available_at IS NULL OR available_at <= ?)) OR (leased = 1 AND lease_until <= ?))
           ORDER BY created_at, id LIMIT ?${sql(this.db, { sqlite: '', postgres: ' FOR UPDATE SKIP LOCKED' })}
         )
         RETURNING *`,
      )
      .all(leaseUntil, leaseId, now, now, now, limit)) as Row[]
    return rows.map(record).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
  }

  /// When a run can next be leased (one not in an attempt falls due, or an attempt's lease ends); null when none
  /// waits.
  async nextDue(): Promise<string | null> {
    const row = (await this.db
      .prepare(
        `SELECT MIN(CASE leased WHEN 0 THEN COALESCE(available_at, created_at) ELSE lease_until END) AS at
         FROM research WHERE status IN ('queued', 'running')`,
      )
      .get()) as { at: string | null }
    return row.at
  }

  /// Extends to `leaseUntil` the leases with these tokens of runs still in an attempt; gives the ids of those runs.
  async renew(leaseIds: readonly string[], leaseUntil: string): Promise<string[]> {
    if (leaseIds.length === 0) return []
    const rows = (await this.db
      .prepare(
        `UPDATE research SET lease_until = ?
         WHERE status = 'running' AND leased = 1 AND lease_id IN (${leaseIds.map(() => '?').join(', ')})
         RETURNING id`,
      )
      .all(leaseUntil, ...leaseIds)) as { id: string }[]
    return rows.map((row) => row.id)
  }

  /// Ends the lease of every run in an attempt at `now`, so that the next lease takes them: only for SQLite's one
  /// engine at its start, whose runs still in an attempt were left by a process of the data folder that died.
  async expireLeases(now: string): Promise<void> {
    await this.db
      .prepare(`UPDATE research SET lease_until = ? WHERE leased = 1 AND status IN ('queued', 'running')`)
      .run(now)
  }

  /// Ends a run's attempt, held under the lease `leaseId`, without ending the run: it is due again at `at`.
  async retryLater(id: string, leaseId: string, at: string): Promise<void> {
    await this.db
      .prepare(
        `UPDATE research SET leased = 0, lease_until = NULL, available_at = ?
         WHERE id = ? AND status = 'running' AND leased = 1 AND lease_id = ?`,
      )
      .run(at, id, leaseId)
  }

  /// Saves the steps done so far by the attempt holding the lease `leaseId`; false (nothing saved) when it no
  /// longer holds it.
  async saveState(id: string, leaseId: string, state: string, at: string): Promise<boolean> {
    const changed = await this.db
      .prepare(
        `UPDATE research SET state = ?, updated_at = ?
         WHERE id = ? AND status = 'running' AND leased = 1 AND lease_id = ?`,
      )
      .run(state, at, id, leaseId)
    return changed.changes > 0
  }

  /// Ends the run once, from the attempt holding the lease `leaseId`: true when this call ended it.
  async complete(id: string, leaseId: string, result: string, at: string): Promise<boolean> {
    const changed = await this.db
      .prepare(
        `UPDATE research SET status = 'completed', result = ?, updated_at = ?, completed_at = ?, leased = 0,
           lease_until = NULL
         WHERE id = ? AND status = 'running' AND leased = 1 AND lease_id = ?`,
      )
      .run(result, at, at, id, leaseId)
    return Number(changed.changes) === 1
  }

  /// Fails the run once, from the attempt holding the lease `leaseId`, and records its refund: true when this call
  /// ended it.
  async fail(
    id: string,
    leaseId: string,
    failure: { code: string; message: string; refunded: number },
    at: string,
  ): Promise<boolean> {
    const changed = await this.db
      .prepare(
        `UPDATE research SET status = 'failed', error_code = ?, error_message = ?, refunded = ?, updated_at = ?,
           completed_at = ?, leased = 0, lease_until = NULL
         WHERE id = ? AND status = 'running' AND leased = 1 AND lease_id = ?`,
      )
      .run(failure.code, failure.message, failure.refunded, at, at, id, leaseId)
    return Number(changed.changes) === 1
  }

  /// A claim of one of the organization's estimates or checks, with its document's text; null otherwise.
  async claimOfOrganization(
    organizationId: string,
    claimId: string,
  ): Promise<{ claim: ClaimRecord; documentText: string } | null> {
    const row = (await this.db
      .prepare(
        `SELECT ${claimColumns('c')}, d.text AS document_text
         FROM claims c JOIN documents d ON d.id = c.document_id
         WHERE c.id = ? AND d.organization_id = ?`,
      )
      .get(claimId, organizationId)) as (ClaimRow & { document_text: string }) | undefined
    return row ? { claim: toClaim(row), documentText: row.document_text } : null
  }
}
