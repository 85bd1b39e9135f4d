import pg from 'pg'
import { ApiError } from '../../../shared/errors'
import type { Database, Db, Notifications, RunResult, Statement, TransactionOptions } from './database'
import { POSTGRES_MIGRATIONS } from './postgresSchema'

/// The advisory locks Factdesk takes, as (class, key) pairs: the two-number form keeps them apart from locks taken
/// with one number, and the class (FD and a purpose) from another application's on the same database.
const MIGRATION_LOCK = [0x46440001, 0]
const ORGANIZATION_LOCK_CLASS = 0x46440002
/// Held while events are appended (store/events.ts), so that their ids are committed in order.
export const EVENTS_LOCK = [0x46440003, 0] as const

/// How long a listening connection that was lost waits before it connects again: doubling from the first to the
/// last, while the database cannot be reached.
const RECONNECT_MS = { first: 100, last: 5_000 }

/// Translations kept: statements are written once, but a few are built per call (lists of ids, chosen columns).
const TRANSLATIONS_KEPT = 500

/// Connections a replica keeps open (pg's default pool size). They are opened at start and kept while idle: a new
/// one costs its authentication and a server process, tens of milliseconds, enough for units started together to
/// miss each other's batch (t2 gathers a model's votes for 15 ms) when a burst of work follows a quiet while.
const CONNECTIONS = 10

/// A statement's SQL with PostgreSQL's numbered parameters, and how many it takes.
interface Translated {
  text: string
  parameters: number
}

const IDENTIFIER = /[\p{L}\p{N}_$]/u

/// Numbers the `?` parameters of `sql` in order (`$1`, `$2`…), as PostgreSQL writes them; a `?` inside a string
/// ('…', E'…' with its backslash escapes, $tag$…$tag$), a quoted identifier ("…") or a comment (-- and nested
/// /* */) is left alone. PostgreSQL's operators spelled with `?` (jsonb's `?`, `?|`, `?&`) cannot be written in
/// a statement: use their functions (`jsonb_exists`, `jsonb_exists_any`, `jsonb_exists_all`).
export function numberParameters(sql: string): Translated {
  let text = ''
  let parameters = 0
  let from = 0
  let i = 0
  const skipTo = (end: number): void => {
    i = end === -1 ? sql.length : end
  }
  while (i < sql.length) {
    const c = sql.charAt(i)
    const next = sql[i + 1]
    if (c === '?') {
      text += `${sql.slice(from, i)}$${++parameters}`
      from = ++i
    } else if (c === "'") {
      const escapes = (sql[i - 1] === 'E' || sql[i - 1] === 'e') && !IDENTIFIER.test(sql[i - 2] ?? ' ')
      i++
      while (i < sql.length) {
        if (escapes && sql[i] === '\\') i += 2
        else if (sql[i] === "'") {
          i++
          if (sql[i] !== "'") break
          i++
        } else i++
      }
    } else if (c === '"') {
      // A doubled "" inside ends one quoted run and starts the next: both are skipped alike.
      skipTo(sql.indexOf('"', i + 1))
      i++
    } else if (c === '-' && next === '-') {
      skipTo(sql.indexOf('\n', i + 2))
    } else if (c === '/' && next === '*') {
      let depth = 1
      i += 2
      while (i < sql.length && depth > 0) {
        const pair = sql.slice(i, i + 2)
        if (pair === '/*') depth++
        else if (pair === '*/') depth--
        i += pair === '/*' || pair === '*/' ? 2 : 1
      }
    } else if (c === '$' && !IDENTIFIER.test(sql[i - 1] ?? ' ')) {
      const tag = /^\$(?:[\p{L}_][\p{L}\p{N}_]*)?\$/u.exec(sql.slice(i))?.[0]
      if (tag) {
        const end = sql.indexOf(tag, i + tag.length)
        skipTo(end === -1 ? -1 : end + tag.length)
      } else i++
    } else i++
  }
  return { text: text + sql.slice(from), parameters }
}

/// Reads PostgreSQL's bigint and numeric as JS numbers, as libsql reads SQLite's integers: COUNT and the bigint
/// columns are int8, SUM of bigint is numeric. An integer too large for a double stays the exact string.
function sqliteLikeTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides()
  const number = (text: string): number | string => {
    const value = Number(text)
    return Number.isInteger(value) && !Number.isSafeInteger(value) ? text : value
  }
  types.setTypeParser(pg.types.builtins.INT8, number)
  types.setTypeParser(pg.types.builtins.NUMERIC, number)
  return types
}

/// The team server's database: PostgreSQL through a pool of connections, behind the face SQLite's has. Statements on
/// `root` each take a connection of the pool; a transaction holds one from BEGIN to COMMIT, so transactions run side
/// by side, and `lockOrg` makes those of one organization wait for each other on every replica.
export class PostgresDatabase implements Database {
  readonly dialect = 'postgres'
  readonly root: Db
  private readonly translations = new Map<string, Translated>()
  private readonly listeners = new Set<ChannelListener>()
  private closing: Promise<void> | null = null

  private constructor(
    private readonly pool: pg.Pool,
    private readonly url: string,
  ) {
    this.root = {
      dialect: 'postgres',
      prepare: (sql) => this.statement(sql, (query) => this.pool.query(query)),
      exec: async (sql) => void (await this.pool.query(sql)),
      transaction: (work) => this.transaction(work),
    }
  }

  /// Connects to the database at `url` (postgres://…) and migrates it: under a session advisory lock, so that
  /// replicas starting together migrate it once, the others waiting and then finding nothing to do. Then opens
  /// the pool's other connections.
  static async open(url: string): Promise<PostgresDatabase> {
    const pool = new pg.Pool({
      connectionString: url,
      types: sqliteLikeTypes(),
      max: CONNECTIONS,
      idleTimeoutMillis: 0,
    })
    // A connection the server closes while it waits in the pool (a restart, a failover) leaves the pool, and the
    // next statement opens a new one: nothing to do, but without a listener the error would end the process.
    pool.on('error', () => undefined)
    try {
      await migrate(pool)
      const opened = await Promise.allSettled(Array.from({ length: CONNECTIONS }, () => pool.connect()))
      for (const connection of opened) if (connection.status === 'fulfilled') connection.value.release()
      const failed = opened.find((connection) => connection.status === 'rejected')
      if (failed) throw failed.reason
    } catch (error) {
      await pool.end()
      throw error
    }
    return new PostgresDatabase(pool, url)
  }

  /// Runs `work` in one transaction on one connection of the pool: BEGIN (REPEATABLE READ READ ONLY for a
  /// `readOnly` one: every read sees one snapshot, and a write fails), the organization's lock when asked, then
  /// COMMIT, or ROLLBACK if `work` throws. A transaction that failed to roll back closes its connection.
  async transaction<T>(work: (db: Db) => Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const client = await this.pool.connect()
    // A connection lost while `work` awaits something else is an error event: recorded, not thrown.
    let broken: unknown = null
    const lost = (error: Error): void => void (broken ??= error)
    client.on('error', lost)
    let open = false
    const run = (query: pg.QueryConfig): Promise<pg.QueryResult> =>
      open
        ? client.query(query)
        : Promise.reject(new Error('The transaction has ended: its statements can no longer run.'))
    const db: Db = {
      dialect: 'postgres',
      prepare: (sql) => this.statement(sql, run),
      exec: async (sql) => void (await run({ text: sql })),
      transaction: (inner) => inner(db),
    }
    const lock = options.lockOrg === undefined ? null : [ORGANIZATION_LOCK_CLASS, `org:${options.lockOrg}`]
    const takeLock = 'SELECT pg_advisory_xact_lock($1, hashtext($2))'
    try {
      try {
        if (options.readOnly) {
          // A REPEATABLE READ snapshot is taken when the first statement starts, before it waits for a lock: the
          // organization's writer is waited for first, on its own (the lock is let go at once), so that the
          // snapshot holds all it wrote.
          if (lock) await client.query(takeLock, lock)
          await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY')
        } else await client.query('BEGIN')
      } catch (error) {
        broken ??= error
        throw error
      }
      try {
        // READ COMMITTED: each statement after the lock sees all that the organization's previous writer committed.
        if (lock && !options.readOnly) await client.query(takeLock, lock)
        open = true
        const result = await work(db)
        open = false
        await client.query('COMMIT')
        return result
      } catch (error) {
        open = false
        await client.query('ROLLBACK').catch((rollback: unknown) => (broken ??= rollback))
        throw error
      }
    } finally {
      open = false
      client.removeListener('error', lost)
      client.release(broken === null ? undefined : true)
    }
  }

  /// Nothing to do: PostgreSQL's autovacuum gives the space of deleted rows back.
  async reclaimSpace(): Promise<void> {}

  /// Listens to `channel` on a connection of its own, outside the pool (a pooled one would drop its LISTEN when
  /// given back): lost, it connects again and calls `heard`, as notifications sent meanwhile were lost.
  async listen(channel: string, heard: (payload: string | null) => void): Promise<Notifications> {
    const listener = new ChannelListener(this.url, channel, heard)
    await listener.start()
    this.listeners.add(listener)
    return {
      close: async () => {
        this.listeners.delete(listener)
        await listener.close()
      },
    }
  }

  /// Stops listening, then ends the pool once every connection it lent is back. Closing again answers the first
  /// close, as SQLite's does (the pool refuses a second end).
  close(): Promise<void> {
    this.closing ??= (async () => {
      await Promise.all([...this.listeners].map((listener) => listener.close()))
      this.listeners.clear()
      await this.pool.end()
    })()
    return this.closing
  }

  private statement(sql: string, run: (query: pg.QueryConfig) => Promise<pg.QueryResult>): Statement {
    const { text } = this.translated(sql)
    // The extended protocol, even without parameters: one statement, never a script.
    const query = (values: unknown[]): pg.QueryConfig => {
      refuseNul(values)
      return { text, values, queryMode: 'extended' } as pg.QueryConfig
    }
    return {
      get: async (...params) => (await run(query(params))).rows[0],
      all: async (...params) => (await run(query(params))).rows,
      run: async (...params): Promise<RunResult> => ({ changes: (await run(query(params))).rowCount ?? 0 }),
    }
  }

  private translated(sql: string): Translated {
    let translated = this.translations.get(sql)
    if (!translated) {
      if (this.translations.size >= TRANSLATIONS_KEPT) this.translations.clear()
      translated = numberParameters(sql)
      this.translations.set(sql, translated)
    }
    return translated
  }
}

/// One channel's LISTEN on a connection of its own, connected again whenever it is lost.
class ChannelListener {
  private client: pg.Client | null = null
  private closed = false
  private retry: NodeJS.Timeout | null = null
  /// A connection being made again, for `close` to wait for.
  private connecting: Promise<void> | null = null
  private delay = RECONNECT_MS.first

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly heard: (payload: string | null) => void,
  ) {}

  /// Connects and listens; rejects when the database cannot be reached now.
  async start(): Promise<void> {
    await this.connect()
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.retry) clearTimeout(this.retry)
    this.retry = null
    const client = this.client
    this.client = null
    await client?.end().catch(() => undefined)
    await this.connecting?.catch(() => undefined)
  }

  private async connect(): Promise<void> {
    // Keep-alive probes find a connection that died without a word (a host or a network gone).
    const client = new pg.Client({
      connectionString: this.url,
      keepAlive: true,
      // Named after its channel, as pg_stat_activity shows it: factdesk-events, factdesk-units, factdesk-settings.
      application_name: this.channel.replaceAll('_', '-'),
    })
    client.on('notification', (message) => {
      if (message.channel === this.channel && client === this.client) this.heard(message.payload ?? '')
    })
    client.on('error', () => this.lost(client))
    client.on('end', () => this.lost(client))
    try {
      await client.connect()
      await client.query(`LISTEN ${pg.escapeIdentifier(this.channel)}`)
    } catch (error) {
      await client.end().catch(() => undefined)
      throw error
    }
    if (this.closed) {
      await client.end().catch(() => undefined)
      return
    }
    this.client = client
  }

  /// The connection broke: connect again, after a pause that doubles while it fails.
  private lost(client: pg.Client): void {
    if (client !== this.client) return
    this.client = null
    void client.end().catch(() => undefined)
    this.reconnect()
  }

  private reconnect(): void {
    if (this.closed || this.retry) return
    this.retry = setTimeout(() => {
      this.retry = null
      this.connecting = this.connect().then(
        () => {
          this.connecting = null
          this.delay = RECONNECT_MS.first
          if (!this.closed) this.heard(null)
        },
        () => {
          this.connecting = null
          this.delay = Math.min(this.delay * 2, RECONNECT_MS.last)
          this.reconnect()
        },
      )
    }, this.delay)
  }
}

/// Refuses a text parameter holding U+0000 before the statement is sent: PostgreSQL's text cannot hold it (SQLite
/// stores it, and its driver reads the text back cut there). Where a person typed the text, the API and the
/// engine refuse it first, naming the field (`requireStorableText`); this is the same refusal for the rest (an
/// organization's name from the CLI), a request to correct rather than the server's failure.
function refuseNul(values: readonly unknown[]): void {
  for (const value of values) {
    const at = typeof value === 'string' ? value.indexOf('\u0000') : -1
    if (at !== -1)
      throw new ApiError(
        'bad_request',
        `A text holds U+0000 at offset ${at}: the team server's database cannot store that character.`,
      )
  }
}

/// Applies the migrations the database has not seen yet, each in its own transaction with its row in
/// `schema_migrations`, holding the migration lock on one connection throughout.
async function migrate(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  let broken = false
  try {
    await client.query('SELECT pg_advisory_lock($1, $2)', MIGRATION_LOCK)
    try {
      await refuseOtherCollations(client)
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, applied_at text NOT NULL)',
      )
      const { rows } = await client.query<{ applied: number | null }>(
        'SELECT MAX(version) AS applied FROM schema_migrations',
      )
      const applied = rows[0]?.applied ?? 0
      if (applied > POSTGRES_MIGRATIONS.length) {
        throw new Error(
          `The database was written by a newer Factdesk (schema ${applied}, this one knows ${POSTGRES_MIGRATIONS.length}).`,
        )
      }
      for (const [index, migration] of POSTGRES_MIGRATIONS.entries()) {
        if (index < applied) continue
        await client.query('BEGIN')
        try {
          await client.query(migration)
          await client.query('INSERT INTO schema_migrations (version, applied_at) VALUES ($1, $2)', [
            index + 1,
            new Date().toISOString(),
          ])
          await client.query('COMMIT')
        } catch (error) {
          await client.query('ROLLBACK').catch(() => (broken = true))
          throw error
        }
      }
    } finally {
      // Closing the connection lets the lock go too.
      await client.query('SELECT pg_advisory_unlock($1, $2)', MIGRATION_LOCK).catch(() => (broken = true))
    }
  } finally {
    client.release(broken)
  }
}

/// Characters whose order differs between byte order and the usual language collations (case, punctuation,
/// accents), and the end marker `'~'` the store pages with.
const COLLATION_PROBE = ['b', 'B', 'a', '~', '_', ' ', '1', 'é', 'z', 'Z', '-', 'ab', 'a b']

/// Refuses a database whose text does not sort byte by byte, as SQLite's BINARY collation does (see
/// postgresSchema.ts): lists would come in another order, and pages would skip or repeat rows.
async function refuseOtherCollations(client: pg.PoolClient): Promise<void> {
  const { rows } = await client.query<{ sorted: string[]; collation: string }>(
    `SELECT ARRAY(SELECT probe FROM unnest($1::text[]) AS probe ORDER BY probe) AS sorted,
       (SELECT datcollate FROM pg_database WHERE datname = current_database()) AS collation`,
    [COLLATION_PROBE],
  )
  const expected = COLLATION_PROBE.toSorted((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
  if (rows[0]?.sorted.join('\u0000') !== expected.join('\u0000')) {
    throw new Error(
      `The database sorts text by the collation ${rows[0]?.collation}, Factdesk needs byte order: create it with ` +
        `CREATE DATABASE … LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0 (LOCALE_PROVIDER libc from PostgreSQL 15).`,
    )
  }
}
