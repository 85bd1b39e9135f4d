import pg from 'pg'
import { PostgresDatabase } from './postgres'

/// How long the first connection to a team server's database may take before it is said not to answer.
const CONNECT_TIMEOUT_MS = 10_000

/// A team server's database that cannot be used, in one line for the person starting it: it does not answer,
/// refuses the login, does not exist, or cannot be Factdesk's as it is. The URL in it is shown without its
/// password.
export class DatabaseUnusableError extends Error {
  override name = 'DatabaseUnusableError'
}

/// A database URL as it may be shown: without its password, whether in the URL or as a parameter.
export function shownUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'the database (its URL cannot be read)'
  }
  parsed.password = ''
  for (const name of [...parsed.searchParams.keys()]) if (/pass/i.test(name)) parsed.searchParams.delete(name)
  return parsed.toString()
}

/// Connects to the team server's database at `url` and migrates it (`PostgresDatabase.open`). A failure is a
/// `DatabaseUnusableError` saying why.
export async function openTeamDatabase(url: string): Promise<PostgresDatabase> {
  const where = shownUrl(url)
  // One connection first, with a time limit: the pool would wait for ever on an address that never answers.
  try {
    const probe = new pg.Client({ connectionString: url, connectionTimeoutMillis: CONNECT_TIMEOUT_MS })
    probe.on('error', () => undefined)
    try {
      await probe.connect()
    } finally {
      await probe.end().catch(() => undefined)
    }
  } catch (error) {
    throw new DatabaseUnusableError(`Cannot connect to the database ${where}: ${why(error)}`)
  }
  try {
    return await PostgresDatabase.open(url)
  } catch (error) {
    throw new DatabaseUnusableError(`Cannot use the database ${where}: ${why(error)}`)
  }
}

/// Why a connection or the migration failed, in words, on one line.
function why(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string }
  // Node tries each address of a name in turn and reports every failure together.
  const first = (error as { errors?: { code?: string }[] }).errors?.[0]?.code
  const text = (message || String(error)).split('\n')[0] ?? ''
  switch (code ?? first) {
    case 'ECONNREFUSED':
      return 'nothing listens at that address (is PostgreSQL running there, on that port?).'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'its host name is not known.'
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'the host cannot be reached.'
    case '28P01':
    case '28000':
      return `${text} (check the user and the password: PGPASSWORD, or the URL's).`
    case '3D000':
      return `${text}: create it first, sorting text byte by byte (LC_COLLATE 'C'), as docs/team-server.md shows.`
  }
  if (/timeout/i.test(text)) return `no answer within ${CONNECT_TIMEOUT_MS / 1000} s.`
  return text
}
