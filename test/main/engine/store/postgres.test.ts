import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SqliteDatabase, type Db } from '../../../../src/main/engine/store/database'
import { numberParameters, PostgresDatabase } from '../../../../src/main/engine/store/postgres'
import { POSTGRES_MIGRATIONS } from '../../../../src/main/engine/store/postgresSchema'
import { postgresForTests } from '../../../helpers/postgres'

const postgres = postgresForTests()
const AT = '2026-01-01T00:00:00.000Z'

describe('numbering the parameters', () => {
  it('numbers each ? in order, and leaves those in strings, quoted identifiers and comments', () => {
    expect(numberParameters('SELECT a FROM t WHERE b = ? AND c IN (?, ?)')).toEqual({
      text: 'SELECT a FROM t WHERE b = $1 AND c IN ($2, $3)',
      parameters: 3,
    })
    const kept: [string, string][] = [
      ["SELECT 'why?', 'it''s ?', ?", "SELECT 'why?', 'it''s ?', $1"],
      ['SELECT "odd?""col" FROM t WHERE x = ?', 'SELECT "odd?""col" FROM t WHERE x = $1'],
      ["SELECT E'\\'?', ? -- and this?\n", "SELECT E'\\'?', $1 -- and this?\n"],
      ['SELECT /* a /* nested? */ comment? */ ?', 'SELECT /* a /* nested? */ comment? */ $1'],
      ['SELECT $$ ? $$, $tag$ ?$$? $tag$, ?', 'SELECT $$ ? $$, $tag$ ?$$? $tag$, $1'],
      ['SELECT a$b, ? FROM t', 'SELECT a$b, $1 FROM t'],
    ]
    for (const [sql, text] of kept) expect(numberParameters(sql), sql).toEqual({ text, parameters: 1 })
    // An unterminated string or comment is the server's to refuse.
    expect(numberParameters("SELECT ?, 'open ?").text).toBe("SELECT $1, 'open ?")
  })
})

describe.skipIf(postgres.skip)('the PostgreSQL database', () => {
  let url: string
  let database: PostgresDatabase

  beforeAll(async () => {
    url = await postgres.database()
    database = await PostgresDatabase.open(url)
    await database.root
      .prepare('INSERT INTO organizations (id, name, is_default, created_at) VALUES (?, ?, ?, ?)')
      .run('org_a', 'A', 1, AT)
  })
  afterAll(() => database?.close())

  /// A new organization with `credits` granted.
  let organizations = 0
  async function organization(credits = 0): Promise<string> {
    const id = `org_${++organizations}`
    await database.root
      .prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)')
      .run(id, id, AT)
    if (credits > 0) await grant(database.root, id, credits)
    return id
  }
  const grant = (db: Db, id: string, amount: number) =>
    db
      .prepare(
        "INSERT INTO ledger_entries (organization_id, kind, amount, created_at) VALUES (?, 'grant', ?, ?)",
      )
      .run(id, amount, AT)
  const balance = async (db: Db, id: string): Promise<number> => {
    const row = (await db
      .prepare(
        `SELECT COALESCE(SUM(CASE kind WHEN 'charge' THEN -amount ELSE amount END), 0) AS balance
         FROM ledger_entries WHERE organization_id = ?`,
      )
      .get(id)) as { balance: number }
    return row.balance
  }
  const charge = (db: Db, id: string, amount: number) =>
    db
      .prepare(
        "INSERT INTO ledger_entries (organization_id, kind, amount, created_at) VALUES (?, 'charge', ?, ?)",
      )
      .run(id, amount, AT)

  it('sends ? as parameters, but not a ? inside a string', async () => {
    const row = await database.root
      .prepare(
        `SELECT 'is it? yes' AS text, ?::bigint + ? AS sum, "name" AS "who?" FROM organizations WHERE id = ?`,
      )
      .get(1, 2, 'org_a')
    expect(row).toEqual({ text: 'is it? yes', sum: 3, 'who?': 'A' })
  })

  it('get gives the first row or undefined, all every row, run how many rows changed', async () => {
    const id = await organization()
    const tokens = database.root.prepare(
      'INSERT INTO tokens (id, organization_id, name, scope, hash, created_at) VALUES (?, ?, ?, ?, ?, ?)',
    )
    for (const n of [1, 2, 3])
      expect(await tokens.run(`tok_${id}_${n}`, id, null, 'read', `h_${id}_${n}`, AT)).toEqual({ changes: 1 })
    const list = database.root.prepare('SELECT id, name FROM tokens WHERE organization_id = ? ORDER BY id')
    expect(await list.all(id)).toEqual([1, 2, 3].map((n) => ({ id: `tok_${id}_${n}`, name: null })))
    expect(await list.get(id)).toEqual({ id: `tok_${id}_1`, name: null })
    expect(await list.get('org_none')).toBeUndefined()
    expect(await list.all('org_none')).toEqual([])
    const revoke = database.root.prepare(
      'UPDATE tokens SET revoked_at = ? WHERE organization_id = ? AND revoked_at IS NULL',
    )
    expect(await revoke.run(AT, id)).toEqual({ changes: 3 })
    expect(await revoke.run(AT, id)).toEqual({ changes: 0 })
  })

  it('reads integers, counts and sums as numbers, REAL as numbers and BLOB as bytes, as SQLite does', async () => {
    const id = await organization(7)
    await grant(database.root, id, 5)
    const row = await database.root
      .prepare(
        `SELECT COUNT(*) AS n, SUM(amount) AS total, MAX(id) AS last, 9007199254740993::bigint AS huge, 1.5::numeric AS half
         FROM ledger_entries WHERE organization_id = ?`,
      )
      .get(id)
    expect(row).toEqual({ n: 2, total: 12, last: expect.any(Number), huge: '9007199254740993', half: 1.5 })
    expect(
      await database.root.prepare('SELECT is_default FROM organizations WHERE id = ?').get('org_a'),
    ).toEqual({
      is_default: 1,
    })
    const sealed = Buffer.from([0, 1, 2, 255])
    await database.root
      .prepare('INSERT INTO secrets (name, sealed, updated_at) VALUES (?, ?, ?)')
      .run('k', sealed, AT)
    expect(await database.root.prepare('SELECT sealed FROM secrets WHERE name = ?').get('k')).toEqual({
      sealed,
    })
  })

  it('runs a script of several statements', async () => {
    await database.root.exec(`
      INSERT INTO settings (name, value, updated_at) VALUES ('one', '1', '${AT}');
      -- is this a parameter? no
      INSERT INTO settings (name, value, updated_at) VALUES ('two', '2', '${AT}');
    `)
    expect(
      await database.root.prepare("SELECT COUNT(*) AS n FROM settings WHERE name IN ('one', 'two')").get(),
    ).toEqual({ n: 2 })
  })

  it("rejects a failing statement with PostgreSQL's message, the SQLSTATE of a unique violation at hand", async () => {
    const insert = database.root.prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)')
    const error = await insert.run('org_a', 'again', AT).catch((failed: unknown) => failed)
    expect(error).toBeInstanceOf(pg.DatabaseError)
    expect(error).toMatchObject({ code: '23505', message: expect.stringMatching(/duplicate key value/) })
    await expect(database.root.prepare('SELECT nothing FROM organizations').all()).rejects.toThrow(
      'column "nothing" does not exist',
    )
  })

  it('the ledger refuses a charge beyond the balance, as SQLite does', async () => {
    const id = await organization(5)
    await expect(charge(database.root, id, 6)).rejects.toThrow('insufficient_credits')
    await charge(database.root, id, 5)
    await expect(charge(database.root, id, 1)).rejects.toThrow('insufficient_credits')
    expect(await balance(database.root, id)).toBe(0)
  })

  it('a transaction that throws leaves nothing behind, and its connection goes back to the pool', async () => {
    const id = await organization()
    // More transactions than the pool has connections: each must give its own back.
    for (let n = 0; n < 15; n++) {
      await expect(
        database.transaction(async (db) => {
          await grant(db, id, 10)
          await db.transaction((inner) => grant(inner, id, 5))
          expect(await balance(db, id)).toBe(15)
          throw new Error('half-way')
        }),
      ).rejects.toThrow('half-way')
    }
    // A statement that fails inside also rolls back what came before it.
    await expect(
      database.root.transaction(async (db) => {
        await grant(db, id, 10)
        await charge(db, id, 11)
      }),
    ).rejects.toThrow('insufficient_credits')
    expect(await balance(database.root, id)).toBe(0)
    expect(await database.transaction((db) => grant(db, id, 3))).toEqual({ changes: 1 })
    expect(await balance(database.root, id)).toBe(3)
  })

  it("refuses statements on a transaction's connection once it has ended", async () => {
    let kept: Db | undefined
    await database.transaction(async (db) => void (kept = db))
    await expect(kept?.prepare('SELECT 1').get() ?? Promise.resolve()).rejects.toThrow(
      /transaction has ended/,
    )
  })

  it('lockOrg: five concurrent charges of 10 against a balance of 10, one succeeds; the others see its charge', async () => {
    const id = await organization(10)
    const results = await Promise.allSettled(
      [1, 2, 3, 4, 5].map(() =>
        database.transaction(
          async (db) => {
            const before = await balance(db, id)
            // Long enough for the others to reach the lock.
            await db.prepare('SELECT pg_sleep(0.05)').get()
            if (before < 10) throw new Error(`balance ${before}`)
            await charge(db, id, 10)
          },
          { lockOrg: id },
        ),
      ),
    )
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1)
    for (const result of results)
      if (result.status === 'rejected') expect(result.reason).toEqual(new Error('balance 0'))
    expect(await balance(database.root, id)).toBe(0)
  })

  it('without lockOrg, concurrent charges all pass the trigger (READ COMMITTED): why the engine charges under it', async () => {
    const id = await organization(10)
    // Every transaction charges before any commits.
    const together = (count: number) => {
      let arrived = 0
      let all: () => void = () => undefined
      const done = new Promise<void>((resolve) => (all = resolve))
      return () => {
        if (++arrived === count) all()
        return done
      }
    }
    const charged = together(3)
    const results = await Promise.allSettled(
      [1, 2, 3].map(() =>
        database.transaction(async (db) => {
          expect(await balance(db, id)).toBe(10)
          await charge(db, id, 10)
          await charged()
        }),
      ),
    )
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled'])
    expect(await balance(database.root, id)).toBe(-20)
  })

  it("one organization's lock does not hold up another's transactions", async () => {
    const [a, b] = [await organization(), await organization()]
    let bDone: () => void = () => undefined
    const bFinished = new Promise<void>((resolve) => (bDone = resolve))
    await Promise.all([
      database.transaction(
        async (db) => {
          await grant(db, a, 1)
          await bFinished
        },
        { lockOrg: a },
      ),
      database.transaction((db) => grant(db, b, 1), { lockOrg: b }).then(bDone),
    ])
    expect([await balance(database.root, a), await balance(database.root, b)]).toEqual([1, 1])
  })

  it('a read-only transaction reads one snapshot and cannot write', async () => {
    const id = await organization(10)
    await database.transaction(
      async (db) => {
        expect(await balance(db, id)).toBe(10)
        await grant(database.root, id, 5)
        expect(await balance(database.root, id)).toBe(15)
        expect(await balance(db, id)).toBe(10)
        await expect(grant(db, id, 1)).rejects.toThrow(/read-only transaction/)
      },
      { readOnly: true, lockOrg: id },
    )
    expect(await balance(database.root, id)).toBe(15)
  })

  it("a read-only transaction with lockOrg waits for the organization's writer and sees what it wrote", async () => {
    const id = await organization()
    let writing: () => void = () => undefined
    const started = new Promise<void>((resolve) => (writing = resolve))
    const writer = database.transaction(
      async (db) => {
        writing()
        await db.prepare('SELECT pg_sleep(0.1)').get()
        await grant(db, id, 4)
      },
      { lockOrg: id },
    )
    await started
    const seen = await database.transaction((db) => balance(db, id), { readOnly: true, lockOrg: id })
    await writer
    expect(seen).toBe(4)
  })

  it('migrates a fresh database once when two replicas open it at the same time', async () => {
    const fresh = await postgres.database()
    const replicas = await Promise.all([PostgresDatabase.open(fresh), PostgresDatabase.open(fresh)])
    try {
      const applied = await replicas[0].root
        .prepare('SELECT version FROM schema_migrations ORDER BY version')
        .all()
      expect(applied).toEqual(POSTGRES_MIGRATIONS.map((_, index) => ({ version: index + 1 })))
      await replicas[1].root
        .prepare('INSERT INTO organizations (id, name, created_at) VALUES (?, ?, ?)')
        .run('org_x', 'X', AT)
      expect(await replicas[0].root.prepare('SELECT name FROM organizations').all()).toEqual([{ name: 'X' }])
    } finally {
      await Promise.all(replicas.map((replica) => replica.close()))
    }
    // Opened again, nothing to do.
    await (await PostgresDatabase.open(fresh)).close()
  })

  it('refuses a database migrated by a newer Factdesk', async () => {
    const fresh = await postgres.database()
    const first = await PostgresDatabase.open(fresh)
    await first.root
      .prepare('INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)')
      .run(POSTGRES_MIGRATIONS.length + 1, AT)
    await first.close()
    await expect(PostgresDatabase.open(fresh)).rejects.toThrow(
      `The database was written by a newer Factdesk (schema ${POSTGRES_MIGRATIONS.length + 1}, this one knows ${POSTGRES_MIGRATIONS.length}).`,
    )
  })

  it('refuses a database that does not sort text byte by byte', async (context) => {
    const fresh = await postgres.database()
    const name = `${new URL(fresh).pathname.slice(1)}_icu`
    const admin = new pg.Client({ connectionString: fresh })
    await admin.connect()
    try {
      try {
        await admin.query(
          `CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8' LOCALE_PROVIDER icu ICU_LOCALE 'en-US' LOCALE 'C'`,
        )
      } catch (error) {
        context.skip(`no ICU collation on this server: ${(error as Error).message}`)
      }
      const other = new URL(fresh)
      other.pathname = `/${name}`
      await expect(PostgresDatabase.open(other.toString())).rejects.toThrow(
        /sorts text by the collation .*byte order/,
      )
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  })

  it('has the tables, columns, keys, indexes and triggers of the SQLite schema', async () => {
    const sqlite = SqliteDatabase.open(join(mkdtempSync(join(tmpdir(), 'factdesk-schema-')), 'factdesk.db'))
    try {
      const [expected, actual] = [await sqliteSchema(sqlite.root), await postgresSchema(database.root)]
      expect(Object.keys(actual.tables).sort()).toEqual(Object.keys(expected.tables).sort())
      for (const [table, columns] of Object.entries(expected.tables)) {
        expect(actual.tables[table], table).toEqual(columns)
        expect(actual.keys[table]?.sort(), table).toEqual(expected.keys[table]?.sort())
      }
      expect(actual.triggers.sort()).toEqual(expected.triggers.sort())
    } finally {
      await sqlite.close()
    }
  })
})

/// A schema as the test compares it: per table its columns in order (name, type as SQLite would declare it,
/// NOT NULL, default), its keys and indexes (primary key, unique constraints, foreign keys and named indexes with
/// their columns and condition) and how many CHECKs it has (PostgreSQL rewrites their text), and the triggers'
/// names.
interface Schema {
  tables: Record<string, string[]>
  keys: Record<string, string[]>
  triggers: string[]
}

/// A default or index condition with PostgreSQL's casts, parentheses and spacing taken out.
const plain = (sql: string | null): string =>
  (sql ?? '')
    .replace(/::[a-z ]+/g, '')
    .replace(/[()]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase()

async function sqliteSchema(db: Db): Promise<Schema> {
  const schema: Schema = { tables: {}, keys: {}, triggers: [] }
  const objects = (await db
    .prepare("SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")
    .all()) as { type: string; name: string; tbl_name: string; sql: string | null }[]
  for (const { type, name, sql } of objects) {
    if (type === 'trigger') schema.triggers.push(name)
    if (type !== 'table') continue
    const columns = (await db.prepare(`PRAGMA table_info(${name})`).all()) as {
      name: string
      type: string
      notnull: number
      dflt_value: string | null
      pk: number
    }[]
    schema.tables[name] = columns.map(
      (column) =>
        `${column.name} ${column.type.toLowerCase()}${column.notnull || column.pk ? ' not null' : ''}` +
        (column.dflt_value === null ? '' : ` default ${plain(column.dflt_value)}`),
    )
    const keys: string[] = []
    const pk = columns.filter((column) => column.pk > 0).sort((a, b) => a.pk - b.pk)
    keys.push(`primary key (${pk.map((column) => column.name).join(', ')})`)
    const indexes = (await db.prepare(`PRAGMA index_list(${name})`).all()) as {
      name: string
      unique: number
      origin: string
    }[]
    for (const index of indexes) {
      if (index.origin === 'pk') continue
      const on = ((await db.prepare(`PRAGMA index_info(${index.name})`).all()) as { name: string }[])
        .map((column) => column.name)
        .join(', ')
      if (index.origin === 'u') keys.push(`unique (${on})`)
      else {
        const sql = objects.find((object) => object.name === index.name)?.sql ?? ''
        const where = / WHERE (.*)$/s.exec(sql)?.[1] ?? null
        keys.push(
          `${index.unique ? 'unique ' : ''}index ${index.name} (${on})${where ? ` where ${plain(where)}` : ''}`,
        )
      }
    }
    const references = (await db.prepare(`PRAGMA foreign_key_list(${name})`).all()) as {
      table: string
      from: string
      to: string
    }[]
    for (const reference of references)
      keys.push(`foreign key (${reference.from}) references ${reference.table} (${reference.to})`)
    keys.push(`${sql?.match(/\bCHECK\s*\(/gi)?.length ?? 0} checks`)
    schema.keys[name] = keys
  }
  return schema
}

/// SQLite's declared type of each PostgreSQL type of the schema.
const SQLITE_TYPE: Record<string, string> = {
  text: 'text',
  bigint: 'integer',
  integer: 'integer',
  'double precision': 'real',
  bytea: 'blob',
}

async function postgresSchema(db: Db): Promise<Schema> {
  const schema: Schema = { tables: {}, keys: {}, triggers: [] }
  const columns = (await db
    .prepare(
      `SELECT table_name, column_name, data_type, is_nullable, column_default FROM information_schema.columns
       WHERE table_schema = current_schema() AND table_name <> 'schema_migrations'
       ORDER BY table_name, ordinal_position`,
    )
    .all()) as {
    table_name: string
    column_name: string
    data_type: string
    is_nullable: string
    column_default: string | null
  }[]
  for (const column of columns) {
    const type = SQLITE_TYPE[column.data_type] ?? column.data_type
    ;(schema.tables[column.table_name] ??= []).push(
      `${column.column_name} ${type}${column.is_nullable === 'NO' ? ' not null' : ''}` +
        (column.column_default === null ? '' : ` default ${plain(column.column_default)}`),
    )
  }
  const indexes = (await db
    .prepare(
      `SELECT t.relname AS table_name, i.relname AS name, x.indisprimary AS primary, x.indisunique AS unique,
         c.contype AS constraint, pg_get_expr(x.indpred, x.indrelid) AS condition,
         ARRAY(SELECT a.attname::text FROM unnest(x.indkey) WITH ORDINALITY AS k(attnum, n)
               JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = k.attnum ORDER BY k.n) AS columns
       FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
       LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype IN ('p', 'u')
       WHERE t.relnamespace = current_schema()::regnamespace AND t.relname <> 'schema_migrations'`,
    )
    .all()) as {
    table_name: string
    name: string
    primary: boolean
    unique: boolean
    constraint: string | null
    condition: string | null
    columns: string[]
  }[]
  for (const index of indexes) {
    const on = index.columns.join(', ')
    ;(schema.keys[index.table_name] ??= []).push(
      index.primary
        ? `primary key (${on})`
        : index.constraint === 'u'
          ? `unique (${on})`
          : `${index.unique ? 'unique ' : ''}index ${index.name} (${on})` +
            (index.condition ? ` where ${plain(index.condition)}` : ''),
    )
  }
  const references = (await db
    .prepare(
      `SELECT t.relname AS table_name, a.attname AS "from", r.relname AS "table", b.attname AS "to"
       FROM pg_constraint c JOIN pg_class t ON t.oid = c.conrelid JOIN pg_class r ON r.oid = c.confrelid
       JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
       JOIN pg_attribute b ON b.attrelid = c.confrelid AND b.attnum = c.confkey[1]
       WHERE c.contype = 'f' AND t.relnamespace = current_schema()::regnamespace`,
    )
    .all()) as { table_name: string; from: string; table: string; to: string }[]
  for (const reference of references)
    (schema.keys[reference.table_name] ??= []).push(
      `foreign key (${reference.from}) references ${reference.table} (${reference.to})`,
    )
  const checks = (await db
    .prepare(
      `SELECT t.relname AS table_name, COUNT(c.oid) AS checks
       FROM pg_class t LEFT JOIN pg_constraint c ON c.conrelid = t.oid AND c.contype = 'c'
       WHERE t.relkind = 'r' AND t.relnamespace = current_schema()::regnamespace AND t.relname <> 'schema_migrations'
       GROUP BY t.relname`,
    )
    .all()) as { table_name: string; checks: number }[]
  for (const { table_name, checks: count } of checks) (schema.keys[table_name] ??= []).push(`${count} checks`)
  const triggers = (await db
    .prepare(
      `SELECT tgname AS name FROM pg_trigger g JOIN pg_class t ON t.oid = g.tgrelid
       WHERE NOT tgisinternal AND t.relnamespace = current_schema()::regnamespace`,
    )
    .all()) as { name: string }[]
  schema.triggers = triggers.map((trigger) => trigger.name)
  return schema
}
