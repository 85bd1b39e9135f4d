import type { Db } from './database'

/// The app's settings, one JSON value per part (`models`, `search`, `writing`, `localServer`, and each
/// organization's `sources:…`), and its secrets, stored only as the secret box sealed them.
export class SettingsStore {
  constructor(private readonly db: Db) {}

  /// A saved part, parsed; null when it was never saved.
  get(name: string): unknown {
    const row = this.db.prepare('SELECT value FROM settings WHERE name = ?').get(name) as
      { value: string } | undefined
    return row ? (JSON.parse(row.value) as unknown) : null
  }

  put(name: string, value: unknown, at: string): void {
    this.db
      .prepare(
        `INSERT INTO settings (name, value, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
      )
      .run(name, JSON.stringify(value), at)
  }

  sealed(name: string): Buffer | null {
    const row = this.db.prepare('SELECT sealed FROM secrets WHERE name = ?').get(name) as
      { sealed: Buffer } | undefined
    return row ? Buffer.from(row.sealed) : null
  }

  putSealed(name: string, sealed: Buffer, at: string): void {
    this.db
      .prepare(
        `INSERT INTO secrets (name, sealed, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET sealed = excluded.sealed, updated_at = excluded.updated_at`,
      )
      .run(name, sealed, at)
  }

  deleteSealed(name: string): void {
    this.db.prepare('DELETE FROM secrets WHERE name = ?').run(name)
  }

  /// The names of every saved secret.
  sealedNames(): string[] {
    return (this.db.prepare('SELECT name FROM secrets ORDER BY name').all() as { name: string }[]).map(
      (row) => row.name,
    )
  }
}
