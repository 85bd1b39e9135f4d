import type { Db } from './database'

/// Idempotency keys of `POST /checks`, per organization: the first request's body hash and its check.
export class IdempotencyKeys {
  constructor(private readonly db: Db) {}

  async find(organizationId: string, key: string): Promise<{ requestHash: string; checkId: string } | null> {
    const row = (await this.db
      .prepare('SELECT request_hash, check_id FROM idempotency_keys WHERE organization_id = ? AND key = ?')
      .get(organizationId, key)) as { request_hash: string; check_id: string } | undefined
    return row ? { requestHash: row.request_hash, checkId: row.check_id } : null
  }

  async insert(
    organizationId: string,
    key: string,
    requestHash: string,
    checkId: string,
    at: string,
  ): Promise<void> {
    await this.db
      .prepare(
        'INSERT INTO idempotency_keys (organization_id, key, request_hash, check_id, created_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(organizationId, key, requestHash, checkId, at)
  }
}
