import { writeFileSync } from 'node:fs'
import Libsql from 'libsql'
import { MIGRATIONS } from './migrations'

/// Which SQL a database speaks: the desktop's and a single server's SQLite file, or a team server's PostgreSQL.
export type Dialect = 'sqlite' | 'postgres'

/// What a statement that writes reports: how many rows it changed.
export interface RunResult {
  changes: number
}

/// A statement of one connection. Parameters are written `?` in the SQL, in order, in both dialects.
export interface Statement {
  /// The first row, or undefined.
  get(...params: unknown[]): Promise<unknown>
  all(...params: unknown[]): Promise<unknown[]>
  run(...params: unknown[]): Promise<RunResult>
}

/// A connection to the store's database, as the store's modules see it: the root one (each statement on its own)
/// or one transaction's.
export interface Db {
  readonly dialect: Dialect
  prepare(sql: string): Statement
  exec(sql: string): Promise<void>
  /// Runs `work` in one transaction: a new one from the root, the same one inside a transaction.
  transaction<T>(work: (db: Db) => Promise<T>): Promise<T>
}

/// Picks the SQL of the database's dialect, for the few statements the two do not share.
export const sql = (db: Db, both: Record<Dialect, string>): string => both[db.dialect]

/// A subquery of the strings of a JSON array given as one parameter (a list of ids, of tiers), for
/// `column IN (…)`: one parameter however long the list, so that the statement is prepared once.
export const jsonStrings = (db: Db): string =>
  sql(db, {
    sqlite: 'SELECT value FROM json_each(?)',
    postgres: 'SELECT json_array_elements_text(CAST(? AS json))',
  })

export interface TransactionOptions {
  /// Only reads, all from one snapshot of the database.
  readOnly?: boolean
  /// Takes the organization's lock first (its ledger, its limits): transactions of one organization that write
  /// its money run one after the other on every replica.
  lockOrg?: string
}

/// Thrown when a row that must be written under its organization's lock (a ledger row, a request counted against a
/// limit) is written outside a transaction holding it.
export class OrganizationUnlockedError extends Error {
  constructor(what: string, organizationId: string) {
    super(
      `${what} of ${organizationId} was written outside its organization's lock: write it in ` +
        `store.transaction(work, { lockOrg: '${organizationId}' }).`,
    )
    this.name = 'OrganizationUnlockedError'
  }
}

/// Refuses to write `what` of `organizationId` unless the transaction holds that organization's lock (`locked`:
/// null outside a transaction or without `lockOrg`). SQLite's single writer needs no lock, but the rule holds there
/// too, so that code that forgets it fails on the store every test runs on.
export function requireOrganizationLock(locked: string | null, organizationId: string, what: string): void {
  if (locked !== organizationId) throw new OrganizationUnlockedError(what, organizationId)
}

/// A channel's notifications being listened to (`Database.listen`).
export interface Notifications {
  /// Stops listening and closes the connection it had.
  close(): Promise<void>
}

/// Listens to a channel of the database (`Database.listen`); absent on SQLite. `heard` is given the notification's
/// payload, or null when the listening connection came back (something may have been told meanwhile).
export type Listen = (channel: string, heard: (payload: string | null) => void) => Promise<Notifications>

/// A channel a team server's replicas tell each other on that something changed: `NOTIFY` with the telling store's
/// `sender` as its payload, sent when the telling transaction commits. A store does not hear itself: what it changed
/// it already knows. On SQLite, where one process keeps the data folder, nobody is told.
export class Channel {
  constructor(
    private readonly db: Db,
    private readonly name: string,
    private readonly listenTo: Listen | null,
    /// Who tells: the same for a store and its transactions, another for every store opened.
    private readonly sender: string,
  ) {}

  /// Tells the other replicas listening, once the transaction commits.
  async tell(): Promise<void> {
    if (this.db.dialect === 'postgres')
      await this.db.prepare('SELECT pg_notify(?, ?)').get(this.name, this.sender)
  }

  /// Calls `heard` whenever another replica told, and each time the listening connection came back (something may
  /// have been told meanwhile); null on SQLite.
  async listen(heard: () => void): Promise<Notifications | null> {
    if (!this.listenTo) return null
    return await this.listenTo(this.name, (payload) => {
      if (payload !== this.sender) heard()
    })
  }
}

/// A database the store runs on: statements one by one on `root`, or `transaction`'s connection for a unit of work
/// that lands whole or not at all.
export interface Database {
  readonly dialect: Dialect
  readonly root: Db
  transaction<T>(work: (db: Db) => Promise<T>, options?: TransactionOptions): Promise<T>
  /// Calls `heard` for each notification on `channel` (PostgreSQL's LISTEN), from now until closed, and again
  /// whenever its connection came back after being lost; resolves once listening. Absent on SQLite, which one
  /// process at a time writes.
  listen?(channel: string, heard: (payload: string | null) => void): Promise<Notifications>
  /// Gives the space of deleted rows back to the file system (SQLite only; PostgreSQL's autovacuum does it).
  reclaimSpace(): Promise<void>
  close(): Promise<void>
}

/// A first-come, first-served lock: the one SQLite connection serves one transaction, or one statement, at a time.
class Mutex {
  private held = false
  private readonly waiting: (() => void)[] = []

  async hold<T>(work: () => Promise<T> | T): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve))
    else this.held = true
    try {
      return await work()
    } finally {
      const next = this.waiting.shift()
      if (next) next()
      else this.held = false
    }
  }
}

/// Statements prepared before are kept: preparing costs more than running most of ours, and a check runs the same
/// few for each of its units. Bounded, as a few are built per call (lists of ids, chosen columns).
const STATEMENTS_KEPT = 500

type Libsqlite = InstanceType<typeof Libsql>

/// A statement libsql prepared, as this file runs it.
interface Prepared {
  get(...params: unknown[]): unknown
  all(...params: unknown[]): unknown[]
  run(...params: unknown[]): { changes: number | bigint }
}

/// The SQLite file through libsql's synchronous API, behind the asynchronous face both dialects share. One
/// connection, so every statement and every transaction takes the mutex: a transaction holds it from BEGIN to
/// COMMIT, and nothing else runs on the connection in between.
export class SqliteDatabase implements Database {
  readonly dialect = 'sqlite'
  readonly root: Db
  private readonly mutex = new Mutex()
  private readonly statements = new Map<string, Prepared>()
  /// The connection without the mutex: only for work that holds it.
  private readonly held: Db

  private constructor(private readonly connection: Libsqlite) {
    const statement = (sql: string, guard: <T>(work: () => T) => Promise<T>): Statement => ({
      get: (...params) => guard(() => this.prepared(sql).get(...params)),
      all: (...params) => guard(() => this.prepared(sql).all(...params)),
      run: (...params) => guard(() => ({ changes: Number(this.prepared(sql).run(...params).changes) })),
    })
    const direct = async <T>(work: () => T): Promise<T> => work()
    const locked = <T>(work: () => T): Promise<T> => this.mutex.hold(work)
    const held: Db = {
      dialect: 'sqlite',
      prepare: (sql) => statement(sql, direct),
      exec: (sql) => direct(() => void this.connection.exec(sql)),
      transaction: async (work) => await work(held),
    }
    this.held = held
    this.root = {
      dialect: 'sqlite',
      prepare: (sql) => statement(sql, locked),
      exec: (sql) => locked(() => void this.connection.exec(sql)),
      transaction: (work) => this.transaction(work),
    }
  }

  /// Opens the database file in WAL mode and applies the migrations it has not seen yet.
  static open(file: string): SqliteDatabase {
    // The texts, drafts and reports are the writer's own: a new database file is readable by its owner only, and
    // SQLite gives its journal files the same rights.
    try {
      writeFileSync(file, '', { mode: 0o600, flag: 'wx' })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const connection = new Libsql(file)
    // Lets deleted rows give their space back to the file (`reclaimSpace`): a new file takes it here, before the
    // write-ahead log writes its header; one from before is rebuilt after the migrations.
    connection.exec('PRAGMA auto_vacuum = INCREMENTAL')
    connection.exec('PRAGMA journal_mode = WAL')
    connection.exec('PRAGMA synchronous = NORMAL')
    connection.exec('PRAGMA foreign_keys = ON')
    // Short CLI commands may write while a server runs on the same folder: wait for the lock, don't fail.
    connection.exec('PRAGMA busy_timeout = 5000')
    try {
      migrate(connection)
      rebuildForIncrementalVacuum(connection)
    } catch (error) {
      connection.close()
      throw error
    }
    return new SqliteDatabase(connection)
  }

  private prepared(sql: string): Prepared {
    let statement = this.statements.get(sql)
    if (!statement) {
      if (this.statements.size >= STATEMENTS_KEPT) this.statements.clear()
      statement = this.connection.prepare(sql) as Prepared
      this.statements.set(sql, statement)
    }
    return statement
  }

  /// Runs `work` in one transaction holding the connection: BEGIN IMMEDIATE for a writer, so that concurrent
  /// writers (another process on the folder) queue instead of failing half-way; everything it wrote is rolled back
  /// if it throws. One writer at a time is also what `lockOrg` asks for.
  transaction<T>(work: (db: Db) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    return this.mutex.hold(async () => {
      this.connection.exec(options.readOnly ? 'BEGIN' : 'BEGIN IMMEDIATE')
      try {
        const result = await work(this.held)
        this.connection.exec('COMMIT')
        return result
      } catch (error) {
        if (this.connection.inTransaction) this.connection.exec('ROLLBACK')
        throw error
      }
    })
  }

  /// Gives the pages freed by deletions back to the file system: the free pages are cut off the database file
  /// and the write-ahead log is folded in and emptied (a reader still at work keeps it for now).
  reclaimSpace(): Promise<void> {
    return this.mutex.hold(() => {
      this.connection.exec('PRAGMA incremental_vacuum')
      this.connection.exec('PRAGMA wal_checkpoint(TRUNCATE)')
    })
  }

  /// Folds the write-ahead log back into the database file first, so that the file alone is a whole copy (a backup
  /// of factdesk.db after a stop); a folder another process still writes keeps its log.
  close(): Promise<void> {
    return this.mutex.hold(() => {
      try {
        this.connection.exec('PRAGMA wal_checkpoint(TRUNCATE)')
      } catch {
        // busy or read-only: the log stays beside the file, and the next open reads it
      }
      this.connection.close()
    })
  }
}

const INCREMENTAL = 2

/// A database from before incremental vacuum is rebuilt once to allow it: VACUUM cannot run inside a
/// transaction (so not in a migration), and while another process holds the file it is left for the next start.
function rebuildForIncrementalVacuum(connection: Libsqlite): void {
  const mode = (connection.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum
  if (Number(mode) === INCREMENTAL) return
  try {
    connection.exec('VACUUM')
  } catch (error) {
    if (!/SQLITE_BUSY|SQLITE_LOCKED|database is locked/i.test(String((error as Error).message))) throw error
  }
}

function migrate(connection: Libsqlite): void {
  const applied = Number(
    (connection.prepare('PRAGMA user_version').get() as { user_version: number }).user_version,
  )
  if (applied > MIGRATIONS.length) {
    throw new Error(
      `The data folder was written by a newer Factdesk (schema ${applied}, this one knows ${MIGRATIONS.length}).`,
    )
  }
  MIGRATIONS.slice(applied).forEach((migration, index) => {
    connection.exec('BEGIN IMMEDIATE')
    try {
      connection.exec(migration)
      connection.exec(`PRAGMA user_version = ${applied + index + 1}`)
      connection.exec('COMMIT')
    } catch (error) {
      connection.exec('ROLLBACK')
      throw error
    }
  })
}
