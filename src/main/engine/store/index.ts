import { join } from 'node:path'
import { openDatabase, transaction, type Db } from './database'
import { Ledger } from './ledger'
import { Organizations } from './organizations'
import { Tokens } from './tokens'
import { WebhookSecrets } from './webhookSecrets'

/// The engine's SQLite store: one module per aggregate over one connection.
export class Store {
  readonly organizations: Organizations
  readonly tokens: Tokens
  readonly ledger: Ledger
  readonly webhookSecrets: WebhookSecrets

  private constructor(private readonly db: Db) {
    this.organizations = new Organizations(db)
    this.tokens = new Tokens(db)
    this.ledger = new Ledger(db)
    this.webhookSecrets = new WebhookSecrets(db)
  }

  /// Opens (creating if needed) `factdesk.db` in the data folder and migrates it.
  static open(dataDir: string): Store {
    return new Store(openDatabase(join(dataDir, 'factdesk.db')))
  }

  /// Runs `work` as one write transaction.
  transaction<T>(work: () => T): T {
    return transaction(this.db, work)
  }

  close(): void {
    this.db.close()
  }
}
