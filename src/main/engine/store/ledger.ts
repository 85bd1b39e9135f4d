import { requireOrganizationLock, type Db } from './database'

/// What a ledger row records: credits granted, charged for work, or refunded.
export type LedgerKind = 'grant' | 'charge' | 'refund'

/// Thrown when a charge would take the balance below zero (the database refuses it too).
export class InsufficientCreditsError extends Error {
  constructor(
    readonly balance: number,
    readonly amount: number,
  ) {
    super(`The balance of ${balance} credits does not cover ${amount}.`)
    this.name = 'InsufficientCreditsError'
  }
}

/// The credits ledger: every grant, charge and refund is a row; the balance is their sum. Callers write
/// inside a transaction so that a charge and the work it pays for land together or not at all, and one that
/// holds the organization's lock (`lockOrg`): on PostgreSQL two charges in two transactions would otherwise each
/// read the balance without the other and both pass. A row written without the lock is refused on SQLite too
/// (`requireOrganizationLock`).
export class Ledger {
  constructor(
    private readonly db: Db,
    /// The organization whose lock the transaction holds; null outside a transaction or without `lockOrg`.
    private readonly lockedOrganization: string | null,
  ) {}

  async balance(organizationId: string): Promise<number> {
    const row = (await this.db
      .prepare(
        `SELECT COALESCE(SUM(CASE kind WHEN 'charge' THEN -amount ELSE amount END), 0) AS balance
         FROM ledger_entries WHERE organization_id = ?`,
      )
      .get(organizationId)) as { balance: number }
    return Number(row.balance)
  }

  /// Adds a row. A zero amount records nothing; a charge larger than the balance throws.
  async record(
    organizationId: string,
    kind: LedgerKind,
    amount: number,
    subject: string | null,
    at: string,
  ): Promise<void> {
    if (!Number.isSafeInteger(amount) || amount < 0) throw new RangeError(`invalid credit amount ${amount}`)
    requireOrganizationLock(this.lockedOrganization, organizationId, 'A ledger row')
    if (amount === 0) return
    if (kind === 'charge') {
      const balance = await this.balance(organizationId)
      if (balance < amount) throw new InsufficientCreditsError(balance, amount)
    }
    await this.db
      .prepare(
        'INSERT INTO ledger_entries (organization_id, kind, amount, subject, created_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(organizationId, kind, amount, subject, at)
  }

  /// Sums per kind, for audits and the ledger invariant.
  async totals(organizationId: string): Promise<Record<LedgerKind, number>> {
    const rows = (await this.db
      .prepare(
        'SELECT kind, SUM(amount) AS total FROM ledger_entries WHERE organization_id = ? GROUP BY kind',
      )
      .all(organizationId)) as { kind: LedgerKind; total: number }[]
    const totals: Record<LedgerKind, number> = { grant: 0, charge: 0, refund: 0 }
    for (const row of rows) totals[row.kind] = Number(row.total)
    return totals
  }
}
