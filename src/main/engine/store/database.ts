import { writeFileSync } from 'node:fs'
import Database from 'libsql'
import { MIGRATIONS } from './migrations'

/// The SQLite connection (libsql's synchronous API). One per engine.
export type Db = InstanceType<typeof Database>

/// Statements prepared before are kept: preparing costs more than running most of ours, and a check runs the same
/// few for each of its units. Bounded, as a few are built per call (lists of ids, chosen columns).
const STATEMENTS_KEPT = 500

class Connection extends Database {
  private readonly statements = new Map<string, unknown>()

  override prepare<Parameters extends unknown[] | object = unknown[]>(
    sql: string,
  ): Database.Statement<Parameters> {
    let statement = this.statements.get(sql) as Database.Statement<Parameters> | undefined
    if (!statement) {
      if (this.statements.size >= STATEMENTS_KEPT) this.statements.clear()
      statement = super.prepare<Parameters>(sql)
      this.statements.set(sql, statement)
    }
    return statement
  }
}

/// Opens the database file in WAL mode and applies the migrations it has not seen yet.
export function openDatabase(file: string): Db {
  // The texts, drafts and reports are the writer's own: a new database file is readable by its owner only, and
  // SQLite gives its journal files the same rights.
  try {
    writeFileSync(file, '', { mode: 0o600, flag: 'wx' })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
  const db = new Connection(file)
  // Lets deleted rows give their space back to the file (`reclaimSpace`): a new file takes it here, before the
  // write-ahead log writes its header; one from before is rebuilt after the migrations.
  db.exec('PRAGMA auto_vacuum = INCREMENTAL')
  db.exec('PRAGMA journal_mode = WAL')
  db.exec('PRAGMA synchronous = NORMAL')
  db.exec('PRAGMA foreign_keys = ON')
  // Short CLI commands may write while a server runs on the same folder: wait for the lock, don't fail.
  db.exec('PRAGMA busy_timeout = 5000')
  migrate(db)
  rebuildForIncrementalVacuum(db)
  return db
}

const INCREMENTAL = 2

/// A database from before incremental vacuum is rebuilt once to allow it: VACUUM cannot run inside a
/// transaction (so not in a migration), and while another process holds the file it is left for the next start.
function rebuildForIncrementalVacuum(db: Db): void {
  const mode = (db.prepare('PRAGMA auto_vacuum').get() as { auto_vacuum: number }).auto_vacuum
  if (Number(mode) === INCREMENTAL) return
  try {
    db.exec('VACUUM')
  } catch (error) {
    if (!/SQLITE_BUSY|SQLITE_LOCKED|database is locked/i.test(String((error as Error).message))) throw error
  }
}

/// Gives the pages freed by deletions back to the file system: the free pages are cut off the database file
/// and the write-ahead log is folded in and emptied (a reader still at work keeps it for now).
export function reclaimSpace(db: Db): void {
  db.exec('PRAGMA incremental_vacuum')
  db.exec('PRAGMA wal_checkpoint(TRUNCATE)')
}

function migrate(db: Db): void {
  const applied = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version)
  if (applied > MIGRATIONS.length) {
    throw new Error(
      `The data folder was written by a newer Factdesk (schema ${applied}, this one knows ${MIGRATIONS.length}).`,
    )
  }
  MIGRATIONS.slice(applied).forEach((sql, index) => {
    transaction(db, () => {
      db.exec(sql)
      db.exec(`PRAGMA user_version = ${applied + index + 1}`)
    })
  })
}

/// Runs `work` in one write transaction (BEGIN IMMEDIATE, so concurrent writers queue instead of
/// failing half-way); everything it wrote is rolled back if it throws.
export function transaction<T>(db: Db, work: () => T): T {
  db.exec('BEGIN IMMEDIATE')
  try {
    const result = work()
    db.exec('COMMIT')
    return result
  } catch (error) {
    db.exec('ROLLBACK')
    throw error
  }
}
