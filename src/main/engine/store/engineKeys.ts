import { randomBytes } from 'node:crypto'
import { keyFingerprint, keySecretBox, type SecretBox } from '../base/secrets'
import { DatabaseUnusableError } from './connection'
import type { Db } from './database'

/// A key the replicas share: the key itself, or null when it is kept outside the database (then only its
/// fingerprint is here, to tell a wrong key from the right one).
interface KeyRecord {
  key: Buffer | null
  fingerprint: string
}

/// The row of the key that seals stored secrets: webhook signing secrets, and API keys saved in Settings.
const SECRETS = 'secrets'

/// Keys a team server's replicas share, kept in its database (table `engine_keys`).
export class EngineKeys {
  constructor(private readonly db: Db) {}

  /// Stores `record` as `name` unless a key of that name is stored already; then the stored one stays.
  async insertIfAbsent(name: string, record: KeyRecord, at: string): Promise<void> {
    await this.db
      .prepare(
        `INSERT INTO engine_keys (name, key, fingerprint, created_at) VALUES (?, ?, ?, ?)
         ON CONFLICT (name) DO NOTHING`,
      )
      .run(name, record.key, record.fingerprint, at)
  }

  async get(name: string): Promise<KeyRecord | null> {
    const row = (await this.db
      .prepare('SELECT key, fingerprint FROM engine_keys WHERE name = ?')
      .get(name)) as { key: Uint8Array | null; fingerprint: string } | undefined
    return row ? { key: row.key === null ? null : Buffer.from(row.key), fingerprint: row.fingerprint } : null
  }
}

/// The box that seals a team server's stored secrets, the same on every replica and never a data folder's: with
/// `given` (FACTDESK_SECRET_KEY) when set, the database then keeping only its fingerprint; else with the key the
/// database keeps, made by the first replica that needs one (replicas starting together each offer one, and all
/// take the one that landed). A given key that is not the one the database's secrets are sealed with is refused,
/// and so is a start without one on a database whose key was given.
export async function teamSecretBox(db: Db, given: Buffer | null, at: string): Promise<SecretBox> {
  const keys = new EngineKeys(db)
  const offered = given ?? randomBytes(32)
  await keys.insertIfAbsent(
    SECRETS,
    { key: given ? null : offered, fingerprint: keyFingerprint(offered) },
    at,
  )
  const stored = await keys.get(SECRETS)
  if (!stored) throw new Error('The key that seals secrets was stored and cannot be read back.')
  if (given) {
    const fingerprint = keyFingerprint(given)
    if (fingerprint !== stored.fingerprint)
      throw new DatabaseUnusableError(
        `FACTDESK_SECRET_KEY (fingerprint ${fingerprint}) is not the key this database's secrets are sealed ` +
          `with (fingerprint ${stored.fingerprint}): give every replica that one` +
          (stored.key ? ', or unset it to use the key the database keeps.' : '.'),
      )
    return keySecretBox(given)
  }
  if (!stored.key)
    throw new DatabaseUnusableError(
      `This database's secrets are sealed with a key kept outside it: set FACTDESK_SECRET_KEY to that key ` +
        `(fingerprint ${stored.fingerprint}), as on the other replicas.`,
    )
  return keySecretBox(stored.key)
}
