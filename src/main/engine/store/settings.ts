import type { Db, Notifications } from './database'

/// The channel a team server's replicas are told on that the settings changed (no payload).
export const SETTINGS_CHANNEL = 'factdesk_settings'

/// The app's settings, one JSON value per part (`models`, `search`, `writing`, `localServer`, and each
/// organization's `sources:…`), and its secrets, stored only as the secret box sealed them.
export class SettingsStore {
  constructor(
    private readonly db: Db,
    private readonly listenTo: ((channel: string, heard: () => void) => Promise<Notifications>) | null,
  ) {}

  /// Tells the other replicas of a team server, when the transaction commits, that the settings changed
  /// (`NOTIFY`); nothing on SQLite, where one process keeps the data folder.
  async tell(): Promise<void> {
    if (this.db.dialect === 'postgres')
      await this.db.prepare('SELECT pg_notify(?, ?)').get(SETTINGS_CHANNEL, '')
  }

  /// Calls `changed` whenever another replica changed the settings (and each time the listening connection came
  /// back, as a change may have been missed meanwhile); null on SQLite.
  async listen(changed: () => void): Promise<Notifications | null> {
    return this.listenTo ? await this.listenTo(SETTINGS_CHANNEL, changed) : null
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
