import { existsSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { exited, factdesk, startFactdesk } from '../../helpers/cli'
import { postgresForTests } from '../../helpers/postgres'
import { tempDir } from '../../helpers/server'

// `factdesk` on a team server's PostgreSQL: the database named by --database, FACTDESK_DATABASE_URL or the config
// file, replicas that start together, and a database that cannot be used said in one line.

const postgres = postgresForTests()

/// The variables that choose the database and its key, which the tests set themselves.
const CHOOSING = new Set(['FACTDESK_DATABASE_URL', 'FACTDESK_SECRET_KEY', 'FACTDESK_DATA_DIR', 'PGPASSWORD'])

/// This process's environment without the variables that choose the database and its key, and with `extra`.
function environment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const inherited = Object.entries(process.env).filter(([name]) => !CHOOSING.has(name))
  return { ...Object.fromEntries(inherited), ...extra }
}

/// The names of the organizations in the database at `url`.
async function organizations(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<{ name: string }>('SELECT name FROM organizations ORDER BY name')).rows.map(
      (row) => row.name,
    )
  } finally {
    await client.end()
  }
}

/// The URL as `factdesk` shows it: without its password.
const shown = (url: string): string => {
  const parsed = new URL(url)
  parsed.password = ''
  return parsed.toString()
}

// Each run of the CLI compiles it on start, several at once here on a machine of two cores.
describe.skipIf(postgres.skip)('factdesk on PostgreSQL', { timeout: 180_000 }, () => {
  it('three serve replicas started together on a fresh database all answer GET /me with the same organization', async () => {
    const database = await postgres.database()
    const dirs = [tempDir(), tempDir(), tempDir()]
    const env = environment()
    const replicas = await Promise.all(
      dirs.map((dir) =>
        startFactdesk(['serve', '--port', '0', '--database', database, '--data-dir', dir], env),
      ),
    )
    try {
      const token = await factdesk(
        ['token', 'create', '--scope', 'read', '--database', database, '--data-dir', tempDir()],
        env,
      )
      expect(token.code, token.stderr).toBe(0)
      const answers = await Promise.all(
        replicas.map(async ({ line }) => {
          expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+\/api\/v1$/)
          const response = await fetch(`${line.replace('listening on ', '')}/me`, {
            headers: { Authorization: `Bearer ${token.stdout.trim()}` },
          })
          expect(response.status).toBe(200)
          return ((await response.json()) as { organization: { id: string; name: string } }).organization
        }),
      )
      expect(answers[0]?.name).toBe('Default organization')
      expect(answers.map((organization) => organization.id)).toEqual(Array(3).fill(answers[0]?.id))
      expect(await organizations(database)).toEqual(['Default organization'])
      for (const { said } of replicas) {
        // Said before the ready line, on the other stream: it may come a moment later.
        for (let waited = 0; !said().includes('models from') && waited < 5000; waited += 50)
          await new Promise((resolve) => setTimeout(resolve, 50))
        expect(said()).toContain(`factdesk: store: PostgreSQL at ${shown(database)} (from --database)\n`)
        if (new URL(database).password) expect(said()).not.toContain(new URL(database).password)
      }
      // A replica's data folder holds its lock, and nothing the others need.
      for (const dir of dirs) expect(readdirSync(dir)).toEqual(['engine.lock'])
    } finally {
      for (const { child } of replicas) child.kill('SIGTERM')
      for (const { child } of replicas) expect(await exited(child)).toBe(0)
    }
    for (const dir of dirs) expect(readdirSync(dir)).toEqual([])
  })

  it("--database wins over FACTDESK_DATABASE_URL, which wins over the config file's; without any, the data folder's SQLite", async () => {
    const [flag, variable, file] = [
      await postgres.database(),
      await postgres.database(),
      await postgres.database(),
    ]
    const dir = tempDir()
    const config = join(dir, 'team.json')
    writeFileSync(config, JSON.stringify({ database: file }))
    const data = join(dir, 'data')
    const create = async (name: string, args: string[], env: NodeJS.ProcessEnv) => {
      const result = await factdesk(['org', 'create', name, '--data-dir', data, ...args], env)
      expect(result.code, result.stderr).toBe(0)
    }
    await create(
      'by flag',
      ['--database', flag, '--config', config],
      environment({ FACTDESK_DATABASE_URL: variable }),
    )
    await create('by variable', ['--config', config], environment({ FACTDESK_DATABASE_URL: variable }))
    await create('by file', ['--config', config], environment())
    // An empty variable is an unset one.
    await create('by file again', ['--config', config], environment({ FACTDESK_DATABASE_URL: '' }))
    expect(existsSync(join(data, 'factdesk.db'))).toBe(false)
    await create('in the folder', [], environment())
    expect(existsSync(join(data, 'factdesk.db'))).toBe(true)

    expect(await organizations(flag)).toEqual(['Default organization', 'by flag'])
    expect(await organizations(variable)).toEqual(['Default organization', 'by variable'])
    expect(await organizations(file)).toEqual(['Default organization', 'by file', 'by file again'])
  })

  it('a database that cannot be used, or a URL that is not one, is one line and an exit status', async () => {
    const dir = tempDir()
    const config = join(dir, 'wrong.json')
    writeFileSync(config, JSON.stringify({ database: 'mysql://factdesk@db.example.org/factdesk' }))
    const unreachable = 'postgres://factdesk:hunter2@127.0.0.1:1/factdesk'
    const database = await postgres.database()
    const cases: [string[], Record<string, string>, number, RegExp][] = [
      [['serve', '--database', 'db.example.org'], {}, 2, /^factdesk: --database must be a PostgreSQL URL/],
      [['token', 'list', '--database', ''], {}, 2, /^factdesk: --database must be a PostgreSQL URL/],
      [
        ['token', 'list'],
        { FACTDESK_DATABASE_URL: 'http://db.example.org' },
        1,
        /^factdesk: FACTDESK_DATABASE_URL must be a PostgreSQL URL, such as postgres:\/\/\S+\.\n$/,
      ],
      [['token', 'list', '--config', config], {}, 1, /\n {2}database: must be a PostgreSQL URL/],
      [
        ['serve', '--port', '0', '--database', unreachable],
        {},
        1,
        /^factdesk: Cannot connect to the database postgres:\/\/factdesk@127\.0\.0\.1:1\/factdesk: nothing listens at that address \(is PostgreSQL running there, on that port\?\)\.\n$/,
      ],
      [
        ['credits', 'grant', '--org', 'org_x', '5'],
        { FACTDESK_DATABASE_URL: unreachable },
        1,
        /^factdesk: Cannot connect to the database postgres:\/\/factdesk@127\.0\.0\.1:1\/factdesk: /,
      ],
      [
        ['token', 'list', '--database', database],
        { FACTDESK_SECRET_KEY: 'too short' },
        1,
        /^factdesk: FACTDESK_SECRET_KEY must be a key of 32 bytes, written as 64 hexadecimal digits .*\n$/,
      ],
    ]
    for (const [args, variables, code, message] of cases) {
      const result = await factdesk([...args, '--data-dir', dir], environment(variables))
      const what = `${args.join(' ')} ${JSON.stringify(variables)}`
      expect(result.code, what).toBe(code)
      expect(result.stderr, what).toMatch(message)
      expect(result.stderr, what).not.toMatch(/hunter2|\n\s+at /)
    }
  })
})
