import type { ResearchStatus } from '../../../shared/schemas'
import type { Db } from './database'
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

  /// Leases up to `limit` runs not yet ended that are due and not in an attempt, oldest first: marks them
  /// running and counts the attempt.
  async lease(now: string, limit: number): Promise<ResearchRecord[]> {
    const rows = (await this.db
      .prepare(
        `UPDATE research SET status = 'running', attempts = attempts + 1, leased = 1, updated_at = ?
         WHERE id IN (
           SELECT id FROM research
           WHERE status IN ('queued', 'running') AND leased = 0 AND (available_at IS NULL OR available_at <= ?)
           ORDER BY created_at, id LIMIT ?
         )
         RETURNING *`,
      )
      .all(now, now, limit)) as Row[]
    return rows.map(record).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
  }

  /// When the next run not yet ended and not in an attempt falls due; null when none waits.
  async nextDue(): Promise<string | null> {
    const row = (await this.db
      .prepare(
        `SELECT MIN(COALESCE(available_at, created_at)) AS at FROM research
         WHERE status IN ('queued', 'running') AND leased = 0`,
      )
      .get()) as { at: string | null }
    return row.at
  }

  /// Ends a run's attempt without ending the run: it is due again at `at`.
  async retryLater(id: string, at: string): Promise<void> {
    await this.db
      .prepare(`UPDATE research SET leased = 0, available_at = ? WHERE id = ? AND status = 'running'`)
      .run(at, id)
  }

  /// Runs left in an attempt by a process that died: due again now. Only the engine holding the lock calls this.
  async releaseAbandoned(now: string): Promise<void> {
    await this.db
      .prepare(
        `UPDATE research SET leased = 0, available_at = ? WHERE leased = 1 AND status IN ('queued', 'running')`,
      )
      .run(now)
  }

  /// Saves the steps done so far.
  async saveState(id: string, state: string, at: string): Promise<void> {
    await this.db
      .prepare(`UPDATE research SET state = ?, updated_at = ? WHERE id = ? AND status = 'running'`)
      .run(state, at, id)
  }

  /// Ends the run once: true when this call ended it.
  async complete(id: string, result: string, at: string): Promise<boolean> {
    const changed = await this.db
      .prepare(
        `UPDATE research SET status = 'completed', result = ?, updated_at = ?, completed_at = ? WHERE id = ? AND status IN ('queued', 'running')`,
      )
      .run(result, at, at, id)
    return Number(changed.changes) === 1
  }

  /// Fails the run once and records its refund: true when this call ended it.
  async fail(id: string, code: string, message: string, refunded: number, at: string): Promise<boolean> {
    const changed = await this.db
      .prepare(
        `UPDATE research SET status = 'failed', error_code = ?, error_message = ?, refunded = ?, updated_at = ?, completed_at = ?
         WHERE id = ? AND status IN ('queued', 'running')`,
      )
      .run(code, message, refunded, at, at, id)
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
