import type { SecretBox } from '../base/secrets'
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

/// How a sealed secret starts in the `secret` column; rows of older versions hold the secret itself.
const SEALED = 'sealed:'

/// Webhook signing secrets per organization, sealed by the box before they are stored.
export class WebhookSecrets {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  async insert(organizationId: string, record: SecretRecord): Promise<void> {
    await this.db
      .prepare(
        'INSERT INTO webhook_secrets (id, organization_id, secret, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(record.id, organizationId, this.seal(record.secret), record.createdAt, record.expiresAt)
  }

  /// Seals the secrets that older versions stored as they were (called inside a transaction); returns how many.
  async sealPlaintext(): Promise<number> {
    const rows = (await this.db
      // Compared byte for byte, as `valid` reads them (LIKE ignores case in SQLite, and not in PostgreSQL).
      .prepare(
        `SELECT id, secret FROM webhook_secrets WHERE substr(secret, 1, ${SEALED.length}) <> '${SEALED}'`,
      )
      .all()) as { id: string; secret: string }[]
    const update = this.db.prepare('UPDATE webhook_secrets SET secret = ? WHERE id = ?')
    for (const row of rows) await update.run(this.seal(row.secret), row.id)
    return rows.length
  }

  /// The secrets that still sign at `at`: the current one first, then rotated-out ones, last retired first.
  async valid(organizationId: string, at: string): Promise<SecretRecord[]> {
    const rows = (await this.db
      .prepare(
        `SELECT id, secret, created_at, expires_at FROM webhook_secrets
         WHERE organization_id = ? AND (expires_at IS NULL OR expires_at > ?)
         ORDER BY expires_at IS NOT NULL, expires_at DESC, created_at DESC`,
      )
      .all(organizationId, at)) as Row[]
    return rows.map((row) => ({
      id: row.id,
      secret: row.secret.startsWith(SEALED) ? this.unseal(row.secret) : row.secret,
      createdAt: row.created_at,
      expiresAt: row.expires_at,
    }))
  }

  /// Gives the current secret an expiry, making room for a new current one.
  async retireCurrent(organizationId: string, expiresAt: string): Promise<void> {
    await this.db
      .prepare('UPDATE webhook_secrets SET expires_at = ? WHERE organization_id = ? AND expires_at IS NULL')
      .run(expiresAt, organizationId)
  }

  private seal(secret: string): string {
    return SEALED + this.box.encrypt(secret).toString('base64')
  }

  private unseal(stored: string): string {
    return this.box.decrypt(Buffer.from(stored.slice(SEALED.length), 'base64'))
  }
}
