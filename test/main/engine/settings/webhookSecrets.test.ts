import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'libsql'
import { describe, expect, it } from 'vitest'
import { Store } from '../../../../src/main/engine/store'
import { PostgresDatabase } from '../../../../src/main/engine/store/postgres'
import { call, startServer, tempDir } from '../../../helpers/server'

/// Every byte of the data folder's SQLite files (the database and its write-ahead log).
const databaseBytes = (dataDir: string): Buffer =>
  Buffer.concat(
    readdirSync(dataDir)
      .filter((name) => name.startsWith('factdesk.db'))
      .map((name) => readFileSync(join(dataDir, name))),
  )

/// Every secret as a PostgreSQL database stores it.
async function tableBytes(url: string): Promise<Buffer> {
  const db = await PostgresDatabase.open(url)
  try {
    const rows = (await db.root.prepare('SELECT secret FROM webhook_secrets').all()) as { secret: string }[]
    return Buffer.from(rows.map((row) => row.secret).join('\n'))
  } finally {
    await db.close()
  }
}

describe('webhook signing secrets at rest', () => {
  it('are sealed in the database, read back whole, and rotate as before', async () => {
    const server = await startServer()
    try {
      const first = (await call(server, 'GET', '/webhook-secret')).json.secret as string
      const rotated = (await call(server, 'POST', '/webhook-secret/rotate')).json.secret as string
      const now = await call(server, 'GET', '/webhook-secret')
      expect(now.json.secret).toBe(rotated)
      expect(now.json.previous).toHaveLength(1)
      const bytes = server.database ? await tableBytes(server.database) : databaseBytes(server.dataDir)
      for (const secret of [first, rotated]) {
        expect(bytes.includes(Buffer.from(secret))).toBe(false)
        expect(bytes.includes(Buffer.from(secret.slice('whsec_'.length, 20)))).toBe(false)
      }
    } finally {
      await server.close()
    }
  })

  it('secrets stored in the clear by an older version are sealed at the next open and read back whole', async () => {
    const dataDir = tempDir()
    await (await Store.open(dataDir)).close()
    const db = new Database(join(dataDir, 'factdesk.db'))
    db.prepare(
      "INSERT INTO organizations (id, name, created_at) VALUES ('org_old', 'Old', '2026-01-01T00:00:00Z')",
    ).run()
    db.prepare(
      "INSERT INTO webhook_secrets (id, organization_id, secret, created_at, expires_at) VALUES ('whs_old', 'org_old', 'whsec_plain-old-secret', '2026-01-01T00:00:00Z', NULL)",
    ).run()
    db.close()

    const store = await Store.open(dataDir)
    try {
      expect(
        (await store.webhookSecrets.valid('org_old', '2026-01-02T00:00:00Z')).map((s) => s.secret),
      ).toEqual(['whsec_plain-old-secret'])
    } finally {
      await store.close()
    }
    const raw = new Database(join(dataDir, 'factdesk.db'))
    const row = raw.prepare("SELECT secret FROM webhook_secrets WHERE id = 'whs_old'").get() as {
      secret: string
    }
    raw.close()
    expect(row.secret).toMatch(/^sealed:/)
    expect(row.secret).not.toContain('plain-old-secret')
  })
})
