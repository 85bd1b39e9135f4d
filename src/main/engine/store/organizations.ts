import type { Organization } from '../../../shared/schemas'
import type { Db } from './database'

interface Row {
  id: string
  name: string
  created_at: string
}

const toOrganization = (row: Row): Organization => ({ id: row.id, name: row.name, createdAt: row.created_at })

/// Organizations: the owners of tokens, credits, checks and webhook secrets.
export class Organizations {
  constructor(private readonly db: Db) {}

  async insert(organization: Organization, isDefault: boolean): Promise<void> {
    await this.db
      .prepare('INSERT INTO organizations (id, name, is_default, created_at) VALUES (?, ?, ?, ?)')
      .run(organization.id, organization.name, isDefault ? 1 : 0, organization.createdAt)
  }

  async get(id: string): Promise<Organization | null> {
    const row = (await this.db
      .prepare('SELECT id, name, created_at FROM organizations WHERE id = ?')
      .get(id)) as Row | undefined
    return row ? toOrganization(row) : null
  }

  async getDefault(): Promise<Organization | null> {
    const row = (await this.db
      .prepare('SELECT id, name, created_at FROM organizations WHERE is_default = 1')
      .get()) as Row | undefined
    return row ? toOrganization(row) : null
  }
}
