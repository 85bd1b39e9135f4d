import { AsyncLocalStorage } from 'node:async_hooks'
import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import { fileSecretBox, parseSecretKey, type SecretBox } from '../base/secrets'
import { DatabaseUnusableError, openTeamDatabase } from './connection'
import { teamSecretBox } from './engineKeys'
import { SqliteDatabase, type Database, type Db, type Statement, type TransactionOptions } from './database'
import { Checks } from './checks'
import { Documents, type ResolvedListener } from './documents'
import { Drafts } from './drafts'
import { Events } from './events'
import { IdempotencyKeys } from './idempotency'
import { Ledger } from './ledger'
import { Organizations } from './organizations'
import { Outbox } from './outbox'
import { PendingChecks } from './pendingChecks'
import { RecentRequests } from './recentRequests'
import { ResearchRuns } from './research'
import { Results } from './results'
import { SettingsStore } from './settings'
import { Tokens } from './tokens'
import { Units } from './units'
import { VoteCache } from './voteCache'
import { WebhookSecrets } from './webhookSecrets'

/// Thrown when work inside a transaction reaches the root store: on SQLite it would wait for the connection its own
/// transaction holds, and on PostgreSQL it would write outside the transaction. Use the transaction's store.
export class RootStoreInTransactionError extends Error {
  constructor() {
    super('The root store was called inside a transaction: use the store the transaction gives its work.')
    this.name = 'RootStoreInTransactionError'
  }
}

/// The transaction the current asynchronous work runs inside, and whether it is still open.
const inside = new AsyncLocalStorage<{ database: Database; open: boolean }>()

/// What every store over one database shares, the root's and each transaction's.
interface Shared {
  readonly database: Database
  readonly box: SecretBox
  readonly resolvedListeners: Set<ResolvedListener>
  /// Who this store is when it tells the other replicas on a channel (see Channel).
  readonly sender: string
  readonly batch: {
    work: (tx: Store) => Promise<unknown>
    resolve(result: unknown): void
    reject(error: unknown): void
  }[]
  /// The batch being written, if any: the next one waits for it.
  writing: Promise<void>
}

/// The engine's store: one module per aggregate over one database (SQLite, or PostgreSQL on a team server). The
/// root store runs each statement on its own; `transaction` gives its work a store of its own, whose statements all
/// land together or not at all.
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
  readonly recentRequests: RecentRequests
  readonly events: Events

  private constructor(
    private readonly shared: Shared,
    /// The transaction's connection; null for the root store.
    private readonly connection: Db | null,
    /// The organization whose lock the transaction holds (`lockOrg`), if any.
    lockedOrganization: string | null = null,
  ) {
    const db = connection ?? guarded(shared.database)
    this.organizations = new Organizations(db)
    this.tokens = new Tokens(db)
    this.ledger = new Ledger(db, lockedOrganization)
    this.webhookSecrets = new WebhookSecrets(db, shared.box)
    this.documents = new Documents(db, shared.resolvedListeners)
    this.checks = new Checks(db)
    const listen = shared.database.listen?.bind(shared.database) ?? null
    this.units = new Units(db, listen, shared.sender)
    this.results = new Results(db)
    this.idempotencyKeys = new IdempotencyKeys(db)
    this.outbox = new Outbox(db)
    this.voteCache = new VoteCache(db, async (work) => await this.root().batched((tx) => work(tx.voteCache)))
    this.research = new ResearchRuns(db)
    this.settings = new SettingsStore(db, listen, shared.sender)
    this.drafts = new Drafts(db)
    this.pendingChecks = new PendingChecks(db)
    this.recentRequests = new RecentRequests(db, lockedOrganization)
    this.events = new Events(db, listen)
  }

  /// Opens (creating if needed) `factdesk.db` in the data folder and migrates it. Webhook signing secrets are
  /// sealed with the folder's key file (`secret.key`), in every mode alike, so that whichever of the app,
  /// `factdesk serve` and `factdesk web` runs the folder can sign; ones stored in the clear by older versions are
  /// sealed now.
  static async open(dataDir: string): Promise<Store> {
    return await Store.over(SqliteDatabase.open(join(dataDir, 'factdesk.db')), fileSecretBox(dataDir))
  }

  /// Connects to the PostgreSQL database at `url` (a team server's), creating or migrating its schema. Its stored
  /// secrets are sealed with `secretKey` (FACTDESK_SECRET_KEY, 32 bytes in hex or base64) when given, else with the
  /// key the database keeps: never with a data folder's, which the other replicas do not have (`teamSecretBox`).
  static async connect(url: string, secretKey?: string): Promise<Store> {
    const given = secretKey === undefined ? null : parseSecretKey(secretKey)
    if (given === null && secretKey !== undefined)
      throw new DatabaseUnusableError(
        'FACTDESK_SECRET_KEY must be a key of 32 bytes, written as 64 hexadecimal digits (openssl rand -hex 32) ' +
          'or in base64.',
      )
    const database = await openTeamDatabase(url)
    let box: SecretBox
    try {
      box = await teamSecretBox(database.root, given, new Date().toISOString())
    } catch (error) {
      await database.close()
      throw error
    }
    return await Store.over(database, box)
  }

  /// The store over an opened and migrated database.
  static async over(database: Database, box: SecretBox): Promise<Store> {
    const store = new Store(
      {
        database,
        box,
        resolvedListeners: new Set(),
        sender: randomUUID(),
        batch: [],
        writing: Promise.resolve(),
      },
      null,
    )
    try {
      await store.transaction(async (tx) => await tx.webhookSecrets.sealPlaintext())
    } catch (error) {
      await store.close()
      throw error
    }
    return store
  }

  /// Seals the secrets this store keeps (webhook signing secrets): a data folder's `secret.key`, or the key a
  /// team server's replicas share.
  get secretBox(): SecretBox {
    return this.shared.box
  }

  /// Which SQL the database speaks.
  get dialect(): Database['dialect'] {
    return this.shared.database.dialect
  }

  /// Runs `work` as one read transaction: every query in it sees the same snapshot.
  async snapshot<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    return await this.transaction(work, { readOnly: true })
  }

  /// Runs `work` as one write transaction, with a store of its own: everything it wrote lands, or nothing if it
  /// throws. Inside a transaction, the same transaction, with the lock it holds (another `lockOrg` is not taken,
  /// and the ledger refuses that organization's rows).
  async transaction<T>(work: (tx: Store) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    if (this.connection) return await work(this)
    return await within(
      this.shared.database,
      (connection) => work(new Store(this.shared, connection, options.lockOrg ?? null)),
      options,
    )
  }

  /// Runs `work` in one write transaction with the other work batched in the same turn of the event loop, so that
  /// writes that land together (a batch of votes) cost one commit. Each work's writes are all in or all out: when
  /// one throws, the others are written again, each alone. One batch is written at a time, and the work that
  /// arrives meanwhile is the next: on PostgreSQL, two batches side by side could take their checks' locks in
  /// opposite orders.
  batched<T>(work: (tx: Store) => Promise<T>): Promise<T> {
    const { batch } = this.shared
    return new Promise<T>((resolve, reject) => {
      batch.push({ work, resolve: resolve as (result: unknown) => void, reject })
      if (batch.length === 1)
        setImmediate(() =>
          inside.exit(() => {
            const root = this.root()
            this.shared.writing = this.shared.writing.then(() => root.writeBatch())
          }),
        )
    })
  }

  private async writeBatch(): Promise<void> {
    const batch = this.shared.batch.splice(0)
    let results: unknown[]
    try {
      results = await this.transaction(async (tx) => {
        const done: unknown[] = []
        for (const { work } of batch) done.push(await work(tx))
        return done
      })
    } catch {
      for (const { work, resolve, reject } of batch) {
        try {
          resolve(await this.transaction(work))
        } catch (error) {
          reject(error)
        }
      }
      return
    }
    batch.forEach(({ resolve }, i) => resolve(results[i]))
  }

  private root(): Store {
    return this.connection ? new Store(this.shared, null) : this
  }

  /// Gives the space of deleted rows back to the file system.
  reclaimSpace(): Promise<void> {
    return this.shared.database.reclaimSpace()
  }

  close(): Promise<void> {
    return this.shared.database.close()
  }
}

/// Runs `work` in a transaction of `database`, marking the asynchronous work inside it so that the root store
/// refuses it.
async function within<T>(
  database: Database,
  work: (db: Db) => Promise<T>,
  options: TransactionOptions,
): Promise<T> {
  if (insideOpen(database)) return Promise.reject(new RootStoreInTransactionError())
  return await database.transaction((connection) => {
    const context = { database, open: true }
    return inside.run(context, async () => {
      try {
        return await work(connection)
      } finally {
        context.open = false
      }
    })
  }, options)
}

function insideOpen(database: Database): boolean {
  const context = inside.getStore()
  return context !== undefined && context.database === database && context.open
}

/// The root connection, refusing statements from work inside one of its transactions.
function guarded(database: Database): Db {
  const { root } = database
  const check = (): void => {
    if (insideOpen(database)) throw new RootStoreInTransactionError()
  }
  const statement = (sql: string): Statement => {
    const prepared = root.prepare(sql)
    return {
      get: async (...params) => (check(), await prepared.get(...params)),
      all: async (...params) => (check(), await prepared.all(...params)),
      run: async (...params) => (check(), await prepared.run(...params)),
    }
  }
  return {
    dialect: root.dialect,
    prepare: statement,
    exec: async (sql) => (check(), await root.exec(sql)),
    transaction: async (work) => await within(database, work, {}),
  }
}
