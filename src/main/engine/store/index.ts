import { join } from 'node:path'
import { fileSecretBox, type SecretBox } from '../base/secrets'
import { openDatabase, reclaimSpace, transaction, type Db } from './database'
import { Checks } from './checks'
import { Documents } from './documents'
import { Drafts } from './drafts'
import { IdempotencyKeys } from './idempotency'
import { Ledger } from './ledger'
import { Organizations } from './organizations'
import { Outbox } from './outbox'
import { PendingChecks } from './pendingChecks'
import { ResearchRuns } from './research'
import { Results } from './results'
import { SettingsStore } from './settings'
import { Tokens } from './tokens'
import { Units } from './units'
import { VoteCache } from './voteCache'
import { WebhookSecrets } from './webhookSecrets'

/// The engine's SQLite store: one module per aggregate over one connection.
export class Store {
  readonly organizations: Organizations
  readonly tokens: Tokens
  readonly ledger: Ledger
  readonly webhookSecrets: WebhookSecrets
  readonly documents: Documents
  readonly checks: Checks
  readonly units: Units
  readonly results: Results
  readonly idempotencyKeys: IdempotencyKeys
  readonly outbox: Outbox
  readonly voteCache: VoteCache
  readonly research: ResearchRuns
  readonly settings: SettingsStore
  readonly drafts: Drafts
  readonly pendingChecks: PendingChecks

  private readonly batch: {
    work: () => unknown
    resolve(result: unknown): void
    reject(error: unknown): void
  }[] = []

  private constructor(
    private readonly db: Db,
    box: SecretBox,
  ) {
    this.organizations = new Organizations(db)
    this.tokens = new Tokens(db)
    this.ledger = new Ledger(db)
    this.webhookSecrets = new WebhookSecrets(db, box)
    this.documents = new Documents(db)
    this.checks = new Checks(db)
    this.units = new Units(db)
    this.results = new Results(db)
    this.idempotencyKeys = new IdempotencyKeys(db)
    this.outbox = new Outbox(db)
    this.voteCache = new VoteCache(db, (work) => this.batched(work))
    this.research = new ResearchRuns(db)
    this.settings = new SettingsStore(db)
    this.drafts = new Drafts(db)
    this.pendingChecks = new PendingChecks(db)
  }

  /// Opens (creating if needed) `factdesk.db` in the data folder and migrates it. Webhook signing secrets are
  /// sealed with the folder's key file (`secret.key`), in every mode alike, so that whichever of the app,
  /// `factdesk serve` and `factdesk web` runs the folder can sign; ones stored in the clear by older versions are
  /// sealed now.
  static open(dataDir: string): Store {
    const store = new Store(openDatabase(join(dataDir, 'factdesk.db')), fileSecretBox(dataDir))
    try {
      store.webhookSecrets.sealPlaintext()
    } catch (error) {
      store.close()
      throw error
    }
    return store
  }

  /// Runs `work` as one read transaction: every query in it sees the same snapshot.
  snapshot<T>(work: () => T): T {
    this.db.exec('BEGIN')
    try {
      return work()
    } finally {
      this.db.exec('COMMIT')
    }
  }

  /// Runs `work` as one write transaction.
  transaction<T>(work: () => T): T {
    return transaction(this.db, work)
  }

  /// Runs `work` in one write transaction with the other work batched in the same turn of the event loop, so that
  /// writes that land together (a batch of votes) cost one commit. Each work's writes are all in or all out: when
  /// one throws, the others are written again, each alone.
  batched<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.batch.push({ work, resolve: resolve as (result: unknown) => void, reject })
      if (this.batch.length === 1) setImmediate(() => this.writeBatch())
    })
  }

  private writeBatch(): void {
    const batch = this.batch.splice(0)
    let results: unknown[]
    try {
      results = this.transaction(() => batch.map(({ work }) => work()))
    } catch {
      for (const { work, resolve, reject } of batch) {
        try {
          resolve(this.transaction(work))
        } catch (error) {
          reject(error)
        }
      }
      return
    }
    batch.forEach(({ resolve }, i) => resolve(results[i]))
  }

  /// Gives the space of deleted rows back to the file system.
  reclaimSpace(): void {
    reclaimSpace(this.db)
  }

  /// Folds the write-ahead log back into the database file first, so that the file alone is a whole copy (a backup
  /// of factdesk.db after a stop); a folder another process still writes keeps its log.
  close(): void {
    try {
      this.db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    } catch {
      // busy or read-only: the log stays beside the file, and the next open reads it
    }
    this.db.close()
  }
}
