import type { Db } from './database'

/// A webhook signing secret. The current one has no expiry; a rotated-out one expires 24 hours later.
export interface SecretRecord {
  id: string
  secret: string
  createdAt: string
  expiresAt: string | null
}

interface Row {
  id: string
  secret: string
  created_at: string
  expires_at: string | null
}

const toRecord = (row: Row): SecretRecord => ({
  id: row.id,
  secret: row.secret,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
})

/// Webhook signing secrets per organization.
export class WebhookSecrets {
  constructor(private readonly db: Db) {}

  insert(organizationId: string, record: SecretRecord): void {
    this.db
      .prepare(
        'INSERT INTO webhook_secrets (id, organization_id, secret, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(record.id, organizationId, record.secret, record.createdAt, record.expiresAt)
  }

  /// The secrets that still sign at `at`: the current one first, then rotated-out ones, last retired first.
  valid(organizationId: string, at: string): SecretRecord[] {
    const rows = this.db
      .prepare(
        `SELECT id, secret, created_at, expires_at FROM webhook_secrets
         WHERE organization_id = ? AND (expires_at IS NULL OR expires_at > ?)
         ORDER BY expires_at IS NOT NULL, expires_at DESC, created_at DESC`,
      )
      .all(organizationId, at) as Row[]
    return rows.map(toRecord)
  }

  /// Gives the current secret an expiry, making room for a new current one.
  retireCurrent(organizationId: string, expiresAt: string): void {
    this.db
      .prepare('UPDATE webhook_secrets SET expires_at = ? WHERE organization_id = ? AND expires_at IS NULL')
      .run(expiresAt, organizationId)
  }
}
