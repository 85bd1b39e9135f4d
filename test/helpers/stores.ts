// The store's two databases for tests that must hold on both: SQLite in a fresh data folder, and PostgreSQL in a
// fresh database of the run's cluster (helpers/postgres.ts: skipped as it says, with the reason, when there is
// none). At a test file's top level:
//
//   describeStores('the ledger', (kind) => {
//     it('…', async () => { const store = await (await kind.place()).open() … })
//   })
import { join } from 'node:path'
import { describe } from 'vitest'
import { Store } from '../../src/main/engine/store'
import { SqliteDatabase, type Database, type Dialect } from '../../src/main/engine/store/database'
import { PostgresDatabase } from '../../src/main/engine/store/postgres'
import { postgresForTests } from './postgres'
import { tempDir } from './server'

/// Where one test's store lives: a data folder, and for PostgreSQL the URL of its own database too.
export interface StorePlace {
  /// The data folder (the SQLite file's, or the secret key's beside a PostgreSQL database).
  dataDir: string
  /// The PostgreSQL database's URL; undefined for SQLite.
  database: string | undefined
  /// Opens the store there, as the engine does (migrated): it may be opened again after it is closed.
  open(): Promise<Store>
  /// The database under the store, for what a test writes or reads past the store's modules (as an older
  /// version left it, or as the database refuses it). The caller closes it.
  raw(): Promise<Database>
}

/// One of the store's databases.
export interface StoreKind {
  name: Dialect
  /// Why this kind cannot run here (no PostgreSQL); null when it can.
  skip: string | null
  /// A new, empty place for a store of this kind.
  place(): Promise<StorePlace>
}

let kinds: StoreKind[] | null = null

/// SQLite and PostgreSQL, the same two for every caller in a test file (PostgreSQL's databases are dropped after
/// the file): call at a test file's top level.
export function storeKinds(): StoreKind[] {
  if (kinds) return kinds
  const postgres = postgresForTests()
  kinds = [
    {
      name: 'sqlite',
      skip: null,
      place: async () => {
        const dataDir = tempDir()
        return {
          dataDir,
          database: undefined,
          open: () => Store.open(dataDir),
          raw: async () => SqliteDatabase.open(join(dataDir, 'factdesk.db')),
        }
      },
    },
    {
      name: 'postgres',
      skip: postgres.skip,
      place: async () => {
        const dataDir = tempDir()
        const url = await postgres.database()
        return {
          dataDir,
          database: url,
          open: () => Store.connect(url),
          raw: () => PostgresDatabase.open(url),
        }
      },
    },
  ]
  return kinds
}

/// The tests `body` declares, once on each store (`title (sqlite)`, `title (postgres)`); those of a store that
/// cannot run here are skipped.
export function describeStores(title: string, body: (kind: StoreKind) => void): void {
  for (const kind of storeKinds())
    describe.skipIf(kind.skip !== null)(`${title} (${kind.name})`, () => body(kind))
}
