import { sql, type Db } from './database'

/// Idempotency keys of `POST /checks`, per organization: the first request's body hash and its check.
export class IdempotencyKeys {
  constructor(private readonly db: Db) {}

  async find(organizationId: string, key: string): Promise<{ requestHash: string; checkId: string } | null> {
    const row = (await this.db
      .prepare('SELECT request_hash, check_id FROM idempotency_keys WHERE organization_id = ? AND key = ?')
      .get(organizationId, key)) as { request_hash: string; check_id: string } | undefined
    return row ? { requestHash: row.request_hash, checkId: row.check_id } : null
  }

  /// Takes the key for the check `checkId` about to be written in this transaction, before anything else is:
  /// false when an earlier request has it (the caller replays that one's check). On PostgreSQL a concurrent
  /// request's uncommitted key makes this wait for its end, then answers false if it committed. The reference to
  /// the check is checked at COMMIT, when the check is written.
  async take(
    organizationId: string,
    key: string,
    requestHash: string,
    checkId: string,
    at: string,
  ): Promise<boolean> {
    await this.db.exec(
      sql(this.db, {
        sqlite: 'PRAGMA defer_foreign_keys = ON',
        postgres: 'SET CONSTRAINTS idempotency_keys_check_id_fkey DEFERRED',
      }),
    )
    const { changes } = await this.db
      .prepare(
        `INSERT INTO idempotency_keys (organization_id, key, request_hash, check_id, created_at) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (organization_id, key) DO NOTHING`,
      )
      .run(organizationId, key, requestHash, checkId, at)
    return changes > 0
  }
}
