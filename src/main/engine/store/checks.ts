import {
  CheckStatus,
  type Check,
  type CheckManuscript,
  type SourcePolicy,
  type Tier,
} from '../../../shared/schemas'
import { hasEnded, type EndedCheckStatus } from '../../../shared/vocabulary'
import { sql, type Db } from './database'

/// A check as stored; `progress` is derived from its consensus rows when read, `webhook` from the outbox.
/// `unitPrices` are the prices per claim it was charged at, so that a partial refund pays back exactly what
/// was charged. A part of a manuscript has its `manuscript`, with its `part`. A check with t3 keeps the source
/// policy it follows (`sourcePolicy`, as it stood when the check was submitted).
export type CheckRecord = Omit<Check, 'progress' | 'webhook' | 'manuscript'> & {
  organizationId: string
  unitPrices: Partial<Record<Tier, number>>
  manuscript?: Required<CheckManuscript>
  sourcePolicy?: SourcePolicy | null
}

interface Row {
  id: string
  organization_id: string
  document_id: string
  status: CheckStatus
  name: string | null
  author: string | null
  source_url: string | null
  callback_url: string | null
  tiers: string
  unit_prices: string
  claim_count: number
  charged: number
  refunded: number
  created_at: string
  updated_at: string
  completed_at: string | null
  error_code: string | null
  error_message: string | null
  manuscript_id: string | null
  manuscript_part: number | null
  manuscript_parts: number | null
  source_policy: string | null
}

const toRecord = (row: Row): CheckRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  documentId: row.document_id,
  status: row.status,
  name: row.name,
  author: row.author,
  sourceUrl: row.source_url,
  callbackUrl: row.callback_url,
  tiers: JSON.parse(row.tiers) as Tier[],
  unitPrices: JSON.parse(row.unit_prices) as Partial<Record<Tier, number>>,
  claimCount: row.claim_count,
  credits: { charged: row.charged, refunded: row.refunded },
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  completedAt: row.completed_at,
  error: row.error_code ? { code: row.error_code, message: row.error_message ?? '' } : null,
  sourcePolicy: row.source_policy === null ? null : (JSON.parse(row.source_policy) as SourcePolicy),
  ...(row.manuscript_id === null
    ? {}
    : {
        manuscript: {
          id: row.manuscript_id,
          part: Number(row.manuscript_part),
          parts: Number(row.manuscript_parts),
        },
      }),
})

/// The fields PATCH may change.
export type CheckEdits = Partial<Pick<CheckRecord, 'name' | 'author' | 'sourceUrl'>>

/// What ends a check: its terminal status, refund and error.
export interface CheckEnding {
  status: EndedCheckStatus
  refunded: number
  error: { code: string; message: string } | null
  at: string
}

/// The statuses of a check that has not ended.
const ACTIVE = CheckStatus.options.filter((status) => !hasEnded({ status }))

/// Checks: their status, credits and metadata.
export class Checks {
  constructor(private readonly db: Db) {}

  async insert(check: CheckRecord): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO checks (id, organization_id, document_id, status, name, author, source_url, callback_url, tiers,
           unit_prices, claim_count, charged, refunded, created_at, updated_at, manuscript_id, manuscript_part,
           manuscript_parts, source_policy)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        check.id,
        check.organizationId,
        check.documentId,
        check.status,
        check.name,
        check.author,
        check.sourceUrl,
        check.callbackUrl,
        JSON.stringify(check.tiers),
        JSON.stringify(check.unitPrices),
        check.claimCount,
        check.credits.charged,
        check.credits.refunded,
        check.createdAt,
        check.updatedAt,
        check.manuscript?.id ?? null,
        check.manuscript?.part ?? null,
        check.manuscript?.parts ?? null,
        check.sourcePolicy ? JSON.stringify(check.sourcePolicy) : null,
      )
  }

  /// The check if it belongs to the organization; another organization's is as good as absent.
  async get(organizationId: string, id: string): Promise<CheckRecord | null> {
    const row = (await this.db
      .prepare('SELECT * FROM checks WHERE id = ? AND organization_id = ?')
      .get(id, organizationId)) as Row | undefined
    return row ? toRecord(row) : null
  }

  /// For the job runner, which works for every organization.
  async byId(id: string): Promise<CheckRecord | null> {
    const row = (await this.db.prepare('SELECT * FROM checks WHERE id = ?').get(id)) as Row | undefined
    return row ? toRecord(row) : null
  }

  /// The check, its row locked until the transaction ends (PostgreSQL; SQLite's writer is alone anyway). The
  /// transactions that end its units or the check take this first (jobs/settle.ts), so that they run one after
  /// the other and each reads what the one before committed (every statement after the lock sees it, under READ
  /// COMMITTED). It is the lock an UPDATE of the row takes (`NO KEY UPDATE`): a cancel waits for it, or it for the
  /// cancel, before either writes the units; a foreign key's check does not wait for it.
  async lock(id: string): Promise<CheckRecord | null> {
    const row = (await this.db
      .prepare(
        sql(this.db, {
          sqlite: 'SELECT * FROM checks WHERE id = ?',
          postgres: 'SELECT * FROM checks WHERE id = ? FOR NO KEY UPDATE',
        }),
      )
      .get(id)) as Row | undefined
    return row ? toRecord(row) : null
  }

  /// The checks of the organization's manuscript `manuscriptId`, by part.
  async ofManuscript(organizationId: string, manuscriptId: string): Promise<CheckRecord[]> {
    const rows = (await this.db
      .prepare(
        'SELECT * FROM checks WHERE organization_id = ? AND manuscript_id = ? ORDER BY manuscript_part, id',
      )
      .all(organizationId, manuscriptId)) as Row[]
    return rows.map(toRecord)
  }

  /// Newest first, `limit` of them, after the check `before` (exclusive) when given; of a manuscript's parts
  /// only the first submitted, where the manuscript stands in the list.
  async list(organizationId: string, limit: number, before: string | null): Promise<CheckRecord[]> {
    const rows = (await this.db
      .prepare(
        `SELECT * FROM checks WHERE organization_id = ? AND id < ?
           AND (manuscript_id IS NULL OR id = (SELECT MIN(part.id) FROM checks part
             WHERE part.organization_id = checks.organization_id AND part.manuscript_id = checks.manuscript_id))
         ORDER BY id DESC LIMIT ?`,
      )
      // Every check id sorts before '~'.
      .all(organizationId, before ?? '~', limit)) as Row[]
    return rows.map(toRecord)
  }

  /// Consensus entries per tier: the check's `progress.claimsDone`.
  async claimsDone(checkId: string): Promise<Partial<Record<Tier, number>>> {
    const rows = (await this.db
      .prepare('SELECT tier, COUNT(*) AS done FROM consensus WHERE check_id = ? GROUP BY tier')
      .all(checkId)) as { tier: Tier; done: number }[]
    return Object.fromEntries(rows.map((row) => [row.tier, Number(row.done)]))
  }

  /// queued -> running; false if it was not queued.
  async start(id: string, at: string): Promise<boolean> {
    return (
      (
        await this.db
          .prepare("UPDATE checks SET status = 'running', updated_at = ? WHERE id = ? AND status = 'queued'")
          .run(at, id)
      ).changes > 0
    )
  }

  /// Moves an active check to its terminal state. Only one ending can win: false if it had ended already.
  async end(id: string, ending: CheckEnding): Promise<boolean> {
    return (
      (
        await this.db
          .prepare(
            `UPDATE checks SET status = ?, refunded = ?, error_code = ?, error_message = ?, updated_at = ?, completed_at = ?
           WHERE id = ? AND status IN (${ACTIVE.map(() => '?').join(', ')})`,
          )
          .run(
            ending.status,
            ending.refunded,
            ending.error?.code ?? null,
            ending.error?.message ?? null,
            ending.at,
            ending.at,
            id,
            ...ACTIVE,
          )
      ).changes > 0
    )
  }

  async edit(id: string, edits: CheckEdits, at: string): Promise<void> {
    const columns = { name: 'name', author: 'author', sourceUrl: 'source_url' } as const
    const entries = Object.entries(edits) as [keyof CheckEdits, string | null][]
    if (entries.length === 0) return
    const sets = entries.map(([field]) => `${columns[field]} = ?`).join(', ')
    await this.db
      .prepare(`UPDATE checks SET ${sets}, updated_at = ? WHERE id = ?`)
      .run(...entries.map(([, v]) => v), at, id)
  }

  /// Ids of the checks still queued or running, oldest first.
  async activeIds(): Promise<string[]> {
    const rows = (await this.db
      .prepare("SELECT id FROM checks WHERE status IN ('queued', 'running') ORDER BY id")
      .all()) as {
      id: string
    }[]
    return rows.map((row) => row.id)
  }
}
