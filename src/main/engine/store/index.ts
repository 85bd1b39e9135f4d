import { join } from 'node:path'
import { openDatabase, transaction, type Db } from './database'
import { Checks } from './checks'
import { Documents } from './documents'
import { IdempotencyKeys } from './idempotency'
import { Ledger } from './ledger'
import { Organizations } from './organizations'
import { Outbox } from './outbox'
import { ResearchRuns } from './research'
import { Results } from './results'
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

  private constructor(private readonly db: Db) {
    this.organizations = new Organizations(db)
    this.tokens = new Tokens(db)
    this.ledger = new Ledger(db)
    this.webhookSecrets = new WebhookSecrets(db)
    this.documents = new Documents(db)
    this.checks = new Checks(db)
    this.units = new Units(db)
    this.results = new Results(db)
    this.idempotencyKeys = new IdempotencyKeys(db)
    this.outbox = new Outbox(db)
    this.voteCache = new VoteCache(db)
    this.research = new ResearchRuns(db)
  }

  /// Opens (creating if needed) `factdesk.db` in the data folder and migrates it.
  static open(dataDir: string): Store {
    return new Store(openDatabase(join(dataDir, 'factdesk.db')))
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

  close(): void {
    this.db.close()
  }
}
