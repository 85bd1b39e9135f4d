import type { Scope, TokenInfo } from '../../../shared/schemas'
import type { Db } from './database'

interface Row {
  id: string
  organization_id: string
  name: string | null
  scope: Scope
  created_at: string
  revoked_at: string | null
  session_expires_at: string | null
}

/// A token as the store keeps it: its hash only, never its value.
export interface TokenRecord extends TokenInfo {
  organizationId: string
  revokedAt: string | null
  /// A browser session's end: it authenticates only as `factdesk web`'s session cookie, and only until then.
  /// Null for an API token.
  sessionExpiresAt: string | null
}

const COLUMNS = 'id, organization_id, name, scope, created_at, revoked_at, session_expires_at'
const toRecord = (row: Row): TokenRecord => ({
  id: row.id,
  organizationId: row.organization_id,
  name: row.name,
  scope: row.scope,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
  sessionExpiresAt: row.session_expires_at,
})

/// API tokens, stored as SHA-256 hashes.
export class Tokens {
  constructor(private readonly db: Db) {}

  async insert(token: Omit<TokenRecord, 'revokedAt'>, hash: string): Promise<void> {
    await this.db
      .prepare(
        'INSERT INTO tokens (id, organization_id, name, scope, hash, created_at, session_expires_at) ' +
          'VALUES (?, ?, ?, ?, ?, ?, ?)',
      )
      .run(
        token.id,
        token.organizationId,
        token.name,
        token.scope,
        hash,
        token.createdAt,
        token.sessionExpiresAt,
      )
  }

  async findByHash(hash: string): Promise<TokenRecord | null> {
    const row = (await this.db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE hash = ?`).get(hash)) as
      Row | undefined
    return row ? toRecord(row) : null
  }

  async get(id: string): Promise<TokenRecord | null> {
    const row = (await this.db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE id = ?`).get(id)) as
      Row | undefined
    return row ? toRecord(row) : null
  }

  /// Every token, or those of one organization, oldest first.
  async list(organizationId?: string): Promise<TokenRecord[]> {
    const rows = organizationId
      ? await this.db
          .prepare(`SELECT ${COLUMNS} FROM tokens WHERE organization_id = ? ORDER BY id`)
          .all(organizationId)
      : await this.db.prepare(`SELECT ${COLUMNS} FROM tokens ORDER BY id`).all()
    return (rows as Row[]).map(toRecord)
  }

  /// Revokes the browser sessions that ended before `at`, so that the list of tokens does not fill up with them.
  async revokeEndedSessions(at: string): Promise<void> {
    await this.db
      .prepare('UPDATE tokens SET revoked_at = ? WHERE revoked_at IS NULL AND session_expires_at <= ?')
      .run(at, at)
  }

  /// Marks the token revoked; false if it does not exist or was revoked already.
  async revoke(id: string, at: string): Promise<boolean> {
    return (
      (
        await this.db
          .prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL')
          .run(at, id)
      ).changes > 0
    )
  }
}
