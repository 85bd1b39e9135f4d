// The store the engines of a test run use. `npm test` runs the tests that touch the store twice: on the data
// folder's SQLite file, as the desktop app does, and with FACTDESK_TEST_STORE=postgres on PostgreSQL, as a team
// server does (vitest.config.ts, project `postgres`).
import { freshDatabase } from './postgres'

/// Whether this run's engines use PostgreSQL.
export const onPostgres = process.env.FACTDESK_TEST_STORE === 'postgres'

const databases = new Map<string, Promise<string>>()

/// The `database` option of an engine over `dataDir`: none on SQLite; on PostgreSQL a database of the folder's
/// own, the same each time the folder is opened again (a restart, a second engine on the folder).
export async function databaseOf(dataDir: string): Promise<{ database?: string }> {
  if (!onPostgres) return {}
  let database = databases.get(dataDir)
  if (!database) {
    database = freshDatabase().then(({ url }) => url)
    databases.set(dataDir, database)
  }
  return { database: await database }
}
