// PostgreSQL for the tests: one throwaway cluster per test run, started by the first test file that asks for a
// database and stopped by the run's teardown (test/globalSetup.ts), and a fresh database for each file.
//
// - FACTDESK_TEST_DATABASE_URL=postgres://user:password@host:port/db: use that server instead (its user creates and
//   drops the databases); nothing is started.
// - FACTDESK_POSTGRES_BIN=/path/to/bin: where initdb and pg_ctl are; else the newest /usr/lib/postgresql/*/bin
//   (Debian's `postgresql`), else the PATH.
// - Without either, the PostgreSQL tests are skipped with the reason printed; with CI set, that is a failure.
//
// The cluster lives in the run's temporary folder: its data, its log and its Unix socket. It listens on 127.0.0.1
// only, on a free port, with a random password, and trades durability for speed (fsync, synchronous_commit and
// full_page_writes off): it is deleted at the end. initdb and postgres refuse to run as root, so a run as root
// starts it as the `postgres` user.
import { execFile, spawn, spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { isMainThread } from 'node:worker_threads'
import pg from 'pg'
import { afterAll } from 'vitest'
import { closedPort } from './ports'

const run = promisify(execFile)

/// What the cluster's starter leaves for the other test files and for the teardown.
interface Cluster {
  /// The superuser's URL, to the `postgres` database.
  url: string
  bin: string
  data: string
  /// The user the server runs as, when the tests run as root.
  user: string | null
  /// The process that stops the cluster should the run die without its teardown.
  watchdog: number | undefined
}

/// The run's main process (a forked worker's parent, or a worker thread's own process), read when a test file
/// loads this: a worker whose main process has died since has init for its parent.
const MAIN_PROCESS = isMainThread ? process.ppid : process.pid

/// Where the run's cluster lives: in the run's temporary folder (test/globalSetup.ts).
const clusterDir = (root = tmpdir()): string => join(root, 'postgres')

/// The folder of initdb and pg_ctl, or null.
function findBinaries(): string | null {
  const has = (dir: string): boolean => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))
  const given = process.env.FACTDESK_POSTGRES_BIN
  if (given) return has(given) ? given : null
  const debian = '/usr/lib/postgresql'
  const versions = existsSync(debian)
    ? readdirSync(debian)
        .filter((version) => has(join(debian, version, 'bin')))
        .sort((a, b) => Number(b) - Number(a))
    : []
  if (versions[0]) return join(debian, versions[0], 'bin')
  return (process.env.PATH ?? '').split(':').find((dir) => dir !== '' && has(dir)) ?? null
}

/// Why PostgreSQL tests cannot run here; null when they can. In CI they must: there it throws instead.
export function postgresMissing(): string | null {
  if (process.env.FACTDESK_TEST_DATABASE_URL || findBinaries()) return null
  const reason =
    'no PostgreSQL binaries (initdb, pg_ctl) in FACTDESK_POSTGRES_BIN, /usr/lib/postgresql/*/bin or the PATH, ' +
    "and no FACTDESK_TEST_DATABASE_URL: install Debian's postgresql or set one of them"
  if (process.env.CI && process.env.CI !== 'false')
    throw new Error(`PostgreSQL tests cannot run in CI: ${reason}`)
  return reason
}

/// The URL of the test server: FACTDESK_TEST_DATABASE_URL, or the run's own cluster, started by the first caller.
let server: Promise<string> | null = null

/// A fresh empty database (C collation, UTF-8) on the test server, and its URL; removed with the run's cluster.
export async function freshDatabase(): Promise<{ url: string; name: string; admin: string }> {
  const missing = postgresMissing()
  if (missing) throw new Error(missing)
  const external = process.env.FACTDESK_TEST_DATABASE_URL
  server ??= external ? Promise.resolve(external) : clusterUrl(findBinaries() ?? '')
  const admin = await server
  const name = `factdesk_test_${process.pid}_${randomBytes(6).toString('hex')}`
  await createDatabase(admin, name)
  return { url: withDatabase(admin, name), name, admin }
}

/// PostgreSQL for one test file: call it at the file's top level. `skip` says why there is none (null when there
/// is); `database()` makes a fresh empty database (C collation, UTF-8) and gives its URL. The file's databases are
/// dropped after its tests.
export function postgresForTests(): { skip: string | null; database: () => Promise<string> } {
  const skip = postgresMissing()
  if (skip) {
    console.warn(`PostgreSQL tests skipped: ${skip}`)
    return { skip, database: () => Promise.reject(new Error(skip)) }
  }
  const made: { name: string; admin: string }[] = []
  afterAll(async () => {
    for (const { admin, name } of made) await dropDatabase(admin, name)
  })
  return {
    skip: null,
    database: async () => {
      const { url, name, admin } = await freshDatabase()
      made.push({ name, admin })
      return url
    },
  }
}

const withDatabase = (url: string, name: string): string => {
  const parsed = new URL(url)
  parsed.pathname = `/${name}`
  return parsed.toString()
}

async function adminQuery<T>(
  url: string,
  work: (client: pg.Client, version: number) => Promise<T>,
): Promise<T> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    const { rows } = await client.query<{ version: number }>(
      "SELECT current_setting('server_version_num')::integer AS version",
    )
    return await work(client, rows[0]?.version ?? 0)
  } finally {
    await client.end()
  }
}

/// Creates an empty database that sorts text byte by byte, as the store needs (postgresSchema.ts).
function createDatabase(url: string, name: string): Promise<void> {
  return adminQuery(url, async (client, version) => {
    const provider = version >= 150000 ? ' LOCALE_PROVIDER libc' : ''
    await client.query(
      `CREATE DATABASE ${pg.escapeIdentifier(name)} TEMPLATE template0 ENCODING 'UTF8'${provider} ` +
        `LC_COLLATE 'C' LC_CTYPE 'C'`,
    )
  })
}

/// Drops a test's database, closing the connections a test left open.
function dropDatabase(url: string, name: string): Promise<void> {
  return adminQuery(url, async (client, version) => {
    const force = version >= 130000 ? ' WITH (FORCE)' : ''
    await client.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)}${force}`)
  })
}

/// The URL of the run's cluster: the first caller of the run starts it, the others wait until it is up.
async function clusterUrl(bin: string): Promise<string> {
  const dir = clusterDir()
  const ready = join(dir, 'cluster.json')
  const failed = join(dir, 'failed.txt')
  let starter = true
  try {
    // Its owner's only: the file that tells the other test files the cluster's URL holds its password.
    mkdirSync(dir, { mode: 0o700 })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    starter = false
  }
  if (starter) {
    try {
      const cluster = await startCluster(bin, dir)
      // Written whole, then renamed: a waiting file never reads half of it.
      writeFileSync(`${ready}.part`, JSON.stringify(cluster))
      renameSync(`${ready}.part`, ready)
      return cluster.url
    } catch (error) {
      writeFileSync(failed, String((error as Error).message))
      throw error
    }
  }
  for (const deadline = Date.now() + 90_000; Date.now() < deadline;) {
    if (existsSync(ready)) return (JSON.parse(readFileSync(ready, 'utf8')) as Cluster).url
    if (existsSync(failed))
      throw new Error(`The tests' PostgreSQL did not start: ${readFileSync(failed, 'utf8')}`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`The tests' PostgreSQL did not start within 90 s (${dir})`)
}

/// A command of the PostgreSQL binaries, as the user the server runs as.
const asUser = (user: string | null, command: string, args: string[]): [string, string[]] =>
  user ? ['runuser', ['-u', user, '--', command, ...args]] : [command, args]

async function startCluster(bin: string, dir: string): Promise<Cluster> {
  const started = Date.now()
  const user = process.getuid?.() === 0 ? 'postgres' : null
  const data = join(dir, 'data')
  const password = randomBytes(18).toString('base64url')
  const passwordFile = join(dir, 'password')
  writeFileSync(passwordFile, password, { mode: 0o600 })
  if (user) {
    const id = (flag: string): number => Number(spawnSync('id', [flag, user], { encoding: 'utf8' }).stdout)
    const [uid, gid] = [id('-u'), id('-g')]
    if (!uid) throw new Error('the tests run as root and there is no `postgres` user to run PostgreSQL as')
    // The run's folder is its owner's only: the server's user may pass through it to its own.
    chmodSync(join(dir, '..'), 0o711)
    chownSync(dir, uid, gid)
    chownSync(passwordFile, uid, gid)
  }
  const pgRun = (command: string, args: string[]) => {
    const [file, all] = asUser(user, join(bin, command), args)
    return run(file, all, { cwd: dir, timeout: 60_000 })
  }
  await pgRun('initdb', [
    ...['-D', data, '-U', 'postgres', '--locale=C', '--encoding=UTF8'],
    ...['--auth=scram-sha-256', `--pwfile=${passwordFile}`, '--no-sync'],
  ])
  rmSync(passwordFile)
  appendFileSync(
    join(data, 'postgresql.conf'),
    [
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${dir}'`,
      'fsync = off',
      'synchronous_commit = off',
      'full_page_writes = off',
      // Each test file's pools, side by side.
      'max_connections = 300',
      '',
    ].join('\n'),
  )
  for (let attempt = 1; ; attempt++) {
    const port = await closedPort()
    try {
      await pgRun('pg_ctl', [
        'start',
        '-D',
        data,
        '-w',
        '-t',
        '60',
        '-l',
        join(dir, 'server.log'),
        '-o',
        `-p ${port}`,
      ])
    } catch (error) {
      // Another process took the port in between: another one.
      const log = existsSync(join(dir, 'server.log')) ? readFileSync(join(dir, 'server.log'), 'utf8') : ''
      if (attempt < 3 && /could not bind|already in use/i.test(log)) continue
      throw new Error(`pg_ctl start failed: ${(error as Error).message}\n${log}`)
    }
    const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`
    const cluster: Cluster = { url, bin, data, user, watchdog: startWatchdog(bin, data, dir, user) }
    console.info(`PostgreSQL for the tests: ${bin}, 127.0.0.1:${port}, up in ${Date.now() - started} ms`)
    return cluster
  }
}

/// Stops the cluster when the run's main process ends without its teardown (killed): a process of its own that
/// polls the main process, as this file runs in a worker that ends before the run does.
function startWatchdog(bin: string, data: string, dir: string, user: string | null): number | undefined {
  const [stop, args] = asUser(user, join(bin, 'pg_ctl'), ['stop', '-D', data, '-m', 'immediate'])
  const watchdog = spawn(
    'sh',
    [
      '-c',
      'main=$1; dir=$2; shift 2; while kill -0 "$main" 2>/dev/null; do sleep 1; done; "$@" >/dev/null 2>&1; rm -rf "$dir"',
      'watchdog',
      String(MAIN_PROCESS),
      dir,
      stop,
      ...args,
    ],
    { detached: true, stdio: 'ignore' },
  )
  watchdog.unref()
  return watchdog.pid
}

/// Stops and deletes the run's cluster, if a test file started one: the run's teardown, in its main process.
export function stopTestCluster(root: string): void {
  const ready = join(clusterDir(root), 'cluster.json')
  if (!existsSync(ready)) return
  const cluster = JSON.parse(readFileSync(ready, 'utf8')) as Cluster
  if (cluster.watchdog) {
    try {
      process.kill(cluster.watchdog)
    } catch {
      // it has ended already
    }
  }
  const [file, args] = asUser(cluster.user, join(cluster.bin, 'pg_ctl'), [
    'stop',
    '-D',
    cluster.data,
    '-m',
    'immediate',
  ])
  spawnSync(file, args, { stdio: 'ignore', timeout: 30_000 })
  rmSync(clusterDir(root), { recursive: true, force: true })
}
