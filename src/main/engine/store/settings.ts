import { Channel, type Db, type Listen, type Notifications } from './database'

/// The app's settings, one JSON value per part (`models`, `search`, `writing`, `localServer`, and each
/// organization's `sources:…`), and its secrets, stored only as the secret box sealed them.
export class SettingsStore {
  /// Where a team server's replicas are told that the settings changed.
  private readonly changes: Channel

  constructor(
    private readonly db: Db,
    listenTo: Listen | null,
    sender: string,
  ) {
    this.changes = new Channel(db, 'factdesk_settings', listenTo, sender)
  }

  /// Tells the other replicas of a team server, when the transaction commits, that the settings changed.
  async tell(): Promise<void> {
    await this.changes.tell()
  }

  /// Calls `changed` whenever another replica changed the settings (or may have: see `Channel.listen`); null on SQLite.
  async listen(changed: () => void): Promise<Notifications | null> {
    return await this.changes.listen(changed)
  }

  /// Every saved part, parsed, and every sealed secret.
  async all(): Promise<{ parts: Map<string, unknown>; sealed: Map<string, Buffer> }> {
    const parts = (await this.db.prepare('SELECT name, value FROM settings').all()) as {
      name: string
      value: string
    }[]
    const sealed = (await this.db.prepare('SELECT name, sealed FROM secrets').all()) as {
      name: string
      sealed: Buffer
    }[]
    return {
      parts: new Map(parts.map((row) => [row.name, JSON.parse(row.value) as unknown])),
      sealed: new Map(sealed.map((row) => [row.name, Buffer.from(row.sealed)])),
    }
  }

  /// A saved part, parsed; null when it was never saved.
  async get(name: string): Promise<unknown> {
    const row = (await this.db.prepare('SELECT value FROM settings WHERE name = ?').get(name)) as
      { value: string } | undefined
    return row ? (JSON.parse(row.value) as unknown) : null
  }

  async put(name: string, value: unknown, at: string): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(name, JSON.stringify(value), at)
  }

  async putSealed(name: string, sealed: Buffer, at: string): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO secrets (name, sealed, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
      )
      .run(name, sealed, at)
  }

  async deleteSealed(name: string): Promise<void> {
    await this.db.prepare('DELETE FROM secrets WHERE name = ?').run(name)
  }
}
