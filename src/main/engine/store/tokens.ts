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

  insert(token: Omit<TokenRecord, 'revokedAt'>, hash: string): void {
    this.db
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

  findByHash(hash: string): TokenRecord | null {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE hash = ?`).get(hash) as Row | undefined
    return row ? toRecord(row) : null
  }

  get(id: string): TokenRecord | null {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM tokens WHERE id = ?`).get(id) as Row | undefined
    return row ? toRecord(row) : null
  }

  /// Every token, or those of one organization, oldest first.
  list(organizationId?: string): TokenRecord[] {
    const rows = organizationId
      ? this.db
          .prepare(`SELECT ${COLUMNS} FROM tokens WHERE organization_id = ? ORDER BY id`)
          .all(organizationId)
      : this.db.prepare(`SELECT ${COLUMNS} FROM tokens ORDER BY id`).all()
    return (rows as Row[]).map(toRecord)
  }

  /// Revokes the browser sessions that ended before `at`, so that the list of tokens does not fill up with them.
  revokeEndedSessions(at: string): void {
    this.db
      .prepare('UPDATE tokens SET revoked_at = ? WHERE revoked_at IS NULL AND session_expires_at <= ?')
      .run(at, at)
  }

  /// Marks the token revoked; false if it does not exist or was revoked already.
  revoke(id: string, at: string): boolean {
    return (
      this.db.prepare('UPDATE tokens SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id)
        .changes > 0
    )
  }
}
