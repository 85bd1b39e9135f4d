import { existsSync, readFileSync, writeSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ApiError } from '../../shared/errors'
import { EXPORT_FORMAT_IDS, EXPORT_FORMAT_WORDS, EXPORT_FORMATS } from '../../shared/exportFormats'
import { ExportComments, ExportFormat, Scope, Tier } from '../../shared/schemas'
import { isDatabaseUrl, type Config } from '../../shared/config'
import { ConfigError, loadConfig } from '../engine/base/config'
import { openEngine, type Engine } from '../engine/engine'
import { DataFolderError, defaultDataDir } from '../engine/base/paths'
import { DataFolderLockedError } from '../engine/store/lock'
import { DatabaseUnusableError, shownUrl } from '../engine/store/connection'
import { LEASE_MS } from '../engine/store/leases'
import { textOfAnyFile } from '../engine/files/formats'
import { API_BASE } from '../../shared/rest'
import { createApp } from '../server/app'
import { listen } from '../server/listen'
import { mountWeb } from '../server/web'
import { checkLine, formatReport, runCheck } from './check'
import { CommandError, UsageError } from './errors'
import { runExport } from './export'

/// The export command's line, its formats from the registry.
const EXPORT_USAGE = `export CHECK_ID --format ${EXPORT_FORMAT_IDS.join('|')} [--out FILE] [--org ID]
         [--comments needed|all]`

const USAGE = `Usage: factdesk <command> [options]

  serve [--host 127.0.0.1] [--port 8787]   run the REST API headless
  web   [--host 127.0.0.1] [--port 8787]   run the API and the editor for a browser
  org create NAME [--credits N]            create an organization (prints its id)
  token create --scope read|write [--org ID] [--name NAME]
                                           create an API token (prints only the token)
  token list [--org ID]                    list tokens (never their values)
  token revoke ID                          revoke a token
  credits grant --org ID AMOUNT            add credits to an organization
  check FILE [--tiers t1,t2,t3] [--json] [--since CHECK_ID]
                                           estimate, run and print the report (--json:
                                           the report as one JSON document), then the
                                           check's id for export on stderr; with
                                           --since, claims unchanged since that check
                                           keep its verdicts and cost nothing
  ${EXPORT_USAGE}
                                           the annotated report (text formats to stdout
                                           without --out; pdf prints with FACTDESK_CHROMIUM
                                           or /usr/bin/chromium); the claims nothing could
                                           confirm are listed at the end, unless
                                           --comments all notes each of them too

Every command takes --data-dir DIR (default: the desktop app's data folder, or
FACTDESK_DATA_DIR) and --config FILE. The models and search provider of a --config
given to check or export win over those saved in the app's Settings; serve and web
keep the saved ones and say at start which store they use and where each comes
from. check runs t1 unless --tiers says otherwise; Ctrl+C during a check cancels
it, and its credits are refunded.

Every command also takes --database URL: a team server's PostgreSQL
(postgres://USER@HOST:PORT/DATABASE) instead of the data folder's SQLite; without
it, FACTDESK_DATABASE_URL, else the config file's "database". Each serve, web or
check needs a --data-dir of its own even then. FACTDESK_SECRET_KEY (32 bytes in
hex) seals the database's secrets instead of the key the database keeps.
FACTDESK_LEASE_MS shortens the 30 s leases of a replica's work, after which
another replica takes over the work of one that died (for tests).

Exit status: 0 done, 1 failed (or a check that did not complete), 2 a mistake in
the command line.`

const common = {
  'data-dir': { type: 'string' },
  config: { type: 'string' },
  database: { type: 'string' },
} satisfies ParseArgsConfig['options']

const serverOptions = {
  ...common,
  host: { type: 'string', default: '127.0.0.1' },
  port: { type: 'string', default: '8787' },
} satisfies ParseArgsConfig['options']

function parse<O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new UsageError((error as Error).message)
  }
}

/// An opened engine, the store it uses in words and the length of its leases when FACTDESK_LEASE_MS sets it (for
/// the servers to say at start).
interface Opened {
  engine: Engine
  store: string
  leaseMs: number | undefined
}

/// Opens the engine of `--data-dir` with `--config`, on the team server's database when one is named (`--database`,
/// else FACTDESK_DATABASE_URL, else the config file's `database`), else on the data folder's SQLite. With
/// `configWins`, a `--config` given wins over the models and search provider saved in Settings (a run of `check`
/// or `export`); the servers keep the app's order.
async function open(
  values: { 'data-dir'?: string; config?: string; database?: string },
  runJobs: boolean,
  configWins = false,
): Promise<Opened> {
  // An empty value is a mistake (an unset shell variable, say), not a wish for the default.
  if (values['data-dir'] === '') throw new UsageError('--data-dir must name a folder.')
  if (values.config === '') throw new UsageError('--config must name a file.')
  if (values.database !== undefined && !isDatabaseUrl(values.database))
    throw new UsageError(`--database ${DATABASE_URL_WANTED}`)
  const config = loadConfig(values.config)
  const database = databaseOf(values.database, process.env.FACTDESK_DATABASE_URL, config, values.config)
  const dataDir = resolve(values['data-dir'] ?? defaultDataDir())
  const secretKey = process.env.FACTDESK_SECRET_KEY || undefined
  if (!database && secretKey)
    console.error(
      "factdesk: warning: FACTDESK_SECRET_KEY is read only with a database; the data folder's secret.key seals " +
        'its secrets.',
    )
  const leaseMs = leaseMsOf(process.env.FACTDESK_LEASE_MS)
  const engine = await openEngine({
    dataDir,
    config,
    configPath: values.config,
    configWins: configWins && values.config !== undefined,
    runJobs,
    ...(database ? { database: database.url, secretKey } : {}),
    ...(leaseMs ? { runner: { leaseMs }, pending: { leaseMs }, webhooks: { leaseMs } } : {}),
  })
  for (const warning of engine.warnings) console.error(`factdesk: warning: ${warning}`)
  const store = database
    ? `PostgreSQL at ${shownUrl(database.url)} (from ${database.from})`
    : `SQLite at ${join(dataDir, 'factdesk.db')}`
  return { engine, store, leaseMs }
}

/// How long the leases of this process's work last (store/leases.ts), from FACTDESK_LEASE_MS: shorter than LEASE_MS
/// only, never longer (a dead replica's work must not wait longer), and renewed every third of it, so not too
/// short either. The tests' replicas take a dead one's work over within seconds. Unset or empty: LEASE_MS.
function leaseMsOf(variable: string | undefined): number | undefined {
  if (!variable) return undefined
  const [least, most] = [300, LEASE_MS]
  const ms = /^\d+$/.test(variable) ? Number(variable) : NaN
  if (!(ms >= least && ms <= most))
    throw new CommandError(
      `FACTDESK_LEASE_MS must be a whole number of milliseconds from ${least} to ${most}, not "${variable}".`,
    )
  return ms
}

/// What a database URL must be, after the name of where it was given.
const DATABASE_URL_WANTED =
  'must be a PostgreSQL URL, such as postgres://factdesk@db.example.org:5432/factdesk.'

/// The team server's database and where it was named: `--database` wins over FACTDESK_DATABASE_URL, which wins
/// over the config file's `database` (validated with the file); null when none names one (the data folder's
/// SQLite). An empty variable is an unset one.
function databaseOf(
  flag: string | undefined,
  variable: string | undefined,
  config: Config,
  configPath: string | undefined,
): { url: string; from: string } | null {
  if (flag !== undefined) return { url: flag, from: '--database' }
  if (variable) {
    if (!isDatabaseUrl(variable)) throw new CommandError(`FACTDESK_DATABASE_URL ${DATABASE_URL_WANTED}`)
    return { url: variable, from: 'FACTDESK_DATABASE_URL' }
  }
  if (config.database !== undefined) return { url: config.database, from: configPath ?? 'the configuration' }
  return null
}

function wholeNumber(text: string | undefined, what: string): number {
  if (text === undefined || !/^\d+$/.test(text)) throw new UsageError(`${what} must be a whole number.`)
  return Number(text)
}

/// Runs the engine with the REST API (and, for `web`, the editor) until SIGTERM or SIGINT.
async function runServer(args: string[], withEditor: boolean): Promise<void> {
  const { values, positionals } = parse(args, serverOptions)
  if (positionals.length > 0) throw new UsageError(`Unexpected argument ${positionals[0]}.`)
  const port = wholeNumber(values.port, '--port')
  if (port > 65535) throw new UsageError('--port must be at most 65535.')
  const host = values.host
  if (!host || /[\s/]/.test(host))
    throw new UsageError('--host must be an address of this computer, such as 127.0.0.1.')
  const rendererDir = withEditor ? findRenderer() : null
  const { engine, store, leaseMs } = await open(values, true)
  let oneTimeToken: string | null = null
  const makeApp = (stopping: AbortSignal) => {
    const app = createApp(engine, { acceptSessionCookie: withEditor, stopping })
    if (rendererDir) oneTimeToken = mountWeb(app, engine, rendererDir)
    return app
  }
  let server
  try {
    server = await listen(makeApp, host, port, engine.config.server.allowedHosts)
  } catch (error) {
    await engine.close()
    throw listenFailure(error, host, port)
  }
  const stop = (): void => {
    void server
      .close()
      .then(() => engine.close())
      .then(() => process.exit(0))
  }
  // Before the ready line: whoever reads it may stop the server at once.
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
  // Settings saved in the data folder win over the file here, as in the app: say which is in force.
  const sources = engine.settings.sources(values.config ?? null)
  console.error(`factdesk: store: ${store}`)
  console.error(`factdesk: models from ${sources.models}; search from ${sources.search}`)
  if (leaseMs) console.error(`factdesk: leases of ${leaseMs} ms (from FACTDESK_LEASE_MS)`)
  console.log(
    oneTimeToken
      ? `open ${server.origin}/#token=${oneTimeToken}`
      : `listening on ${server.origin}${API_BASE}`,
  )
}

/// Why the server could not listen, in words: a port in use or an address this computer does not have.
function listenFailure(error: unknown, host: string, port: number): unknown {
  const code = (error as NodeJS.ErrnoException).code
  if (code === 'EADDRINUSE')
    return new CommandError(`Port ${port} is in use on ${host}: choose another with --port.`)
  if (code === 'EACCES')
    return new CommandError(`Port ${port} needs more rights: choose one above 1023 with --port.`)
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return new CommandError(`${host} is not an address of this computer: use --host 127.0.0.1, say.`)
  return error
}

/// The built editor pages: `out/renderer` of this package, whether running from the bundle or the source.
function findRenderer(): string {
  let dir = import.meta.dirname
  while (!existsSync(join(dir, 'package.json')) && dirname(dir) !== dir) dir = dirname(dir)
  const rendererDir = join(dir, 'out', 'renderer')
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new CommandError(`The editor is not built (${rendererDir} is missing): run "npm run build" first.`)
  }
  return rendererDir
}

async function org(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { ...common, credits: { type: 'string', default: '0' } })
  const [sub, name, extra] = positionals
  if (sub !== 'create' || !name || extra)
    throw new UsageError('Usage: factdesk org create NAME [--credits N]')
  const { engine } = await open(values, false)
  try {
    console.log((await engine.admin.createOrganization(name, wholeNumber(values.credits, '--credits'))).id)
  } finally {
    await engine.close()
  }
}

async function token(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, {
    ...common,
    scope: { type: 'string' },
    org: { type: 'string' },
    name: { type: 'string' },
  })
  const [sub, id, extra] = positionals
  const { engine } = await open(values, false)
  try {
    if (sub === 'create' && !id) {
      const scope = Scope.safeParse(values.scope)
      if (!scope.success) throw new UsageError('--scope must be read or write.')
      const organizationId = values.org ?? (await engine.admin.defaultOrganization()).id
      const created = await engine.admin.createToken(scope.data, organizationId, values.name ?? null)
      try {
        writeSync(1, `${created.value}\n`)
      } catch (error) {
        // No one has seen the token: it must not stay valid.
        await engine.admin.revokeToken(created.token.id)
        throw new CommandError(
          `Cannot write the token (${(error as Error).message}); it was revoked. Create another.`,
        )
      }
    } else if (sub === 'list' && !id) {
      const rows = (await engine.admin.listTokens(values.org)).map((t) => [
        t.id,
        t.organizationId,
        t.scope,
        t.revokedAt ? 'revoked' : 'active',
        t.createdAt,
        t.revokedAt ?? '',
        t.name ?? '',
      ])
      printTable(['ID', 'ORGANIZATION', 'SCOPE', 'STATE', 'CREATED', 'REVOKED', 'NAME'], rows)
    } else if (sub === 'revoke' && id && !extra) {
      await engine.admin.revokeToken(id)
      console.log(`revoked ${id}`)
    } else {
      throw new UsageError('Usage: factdesk token create|list|revoke …')
    }
  } finally {
    await engine.close()
  }
}

async function credits(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { ...common, org: { type: 'string' } })
  const [sub, amount, extra] = positionals
  if (sub !== 'grant' || !values.org || extra)
    throw new UsageError('Usage: factdesk credits grant --org ID AMOUNT')
  const { engine } = await open(values, false)
  try {
    const balance = await engine.admin.grantCredits(values.org, wholeNumber(amount, 'AMOUNT'))
    console.log(`balance ${balance}`)
  } finally {
    await engine.close()
  }
}

/// `factdesk check FILE`: runs a whole check in this process, as the data folder's owner.
async function check(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, {
    ...common,
    tiers: { type: 'string', default: 't1' },
    json: { type: 'boolean', default: false },
    since: { type: 'string' },
  })
  const [file, extra] = positionals
  if (!file || extra)
    throw new UsageError('Usage: factdesk check FILE [--tiers t1,t2,t3] [--json] [--since CHECK_ID]')
  const tiers = values.tiers.split(',').map((tier) => {
    const parsed = Tier.safeParse(tier.trim())
    if (!parsed.success) throw new UsageError(`Unknown tier "${tier}": use t1, t2 or t3.`)
    return parsed.data
  })
  let bytes: Buffer
  try {
    bytes = readFileSync(file)
  } catch (error) {
    throw new CommandError(`Cannot read ${file}: ${(error as Error).message}`)
  }
  const text = await textOfAnyFile(file, bytes)
  const { engine } = await open(values, true, true)
  try {
    const report = await runCheck(engine, text, tiers, basename(file), values.since ?? null)
    console.log(values.json ? JSON.stringify(report, null, 2) : formatReport(report))
    console.error(checkLine(report))
    if (report.check.status !== 'completed') process.exitCode = 1
  } finally {
    await engine.close()
  }
}

/// `factdesk export CHECK_ID --format …`: a check of the local organization (or of `--org`) as a report.
async function exportReport(args: string[]): Promise<void> {
  const usage = `Usage: factdesk ${EXPORT_USAGE}`
  const { values, positionals } = parse(args, {
    ...common,
    format: { type: 'string' },
    out: { type: 'string' },
    org: { type: 'string' },
    comments: { type: 'string', default: 'needed' },
  })
  const [checkId, extra] = positionals
  if (!checkId || extra) throw new UsageError(usage)
  const format = ExportFormat.safeParse(values.format)
  if (!format.success) throw new UsageError(`--format must be ${EXPORT_FORMAT_WORDS}. ${usage}`)
  const comments = ExportComments.safeParse(values.comments)
  if (!comments.success) throw new UsageError(`--comments must be needed or all. ${usage}`)
  if (values.out === undefined && !EXPORT_FORMATS[format.data].text)
    throw new UsageError(`A ${format.data} export needs --out FILE.`)
  const { engine } = await open(values, false, true)
  try {
    await runExport(engine, checkId, format.data, values.out, values.org, comments.data)
  } finally {
    await engine.close()
  }
}

function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]?.length ?? 0)))
  for (const row of [header, ...rows])
    console.log(
      row
        .map((cell, i) => cell.padEnd(widths[i] ?? 0))
        .join('  ')
        .trimEnd(),
    )
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv
  switch (command) {
    case 'serve':
      return runServer(args, false)
    case 'web':
      return runServer(args, true)
    case 'org':
      return org(args)
    case 'token':
      return token(args)
    case 'credits':
      return credits(args)
    case 'check':
      return check(args)
    case 'export':
      return exportReport(args)
    case undefined:
    case 'help':
      console.log(USAGE)
      return
    default:
      throw new UsageError(`Unknown command "${command}".`)
  }
}

// Output piped into a reader that stops early (`| head`): the rest is dropped and the command ends as it would
// have, its exit status and its data folder's closing kept. Other write errors end it, in a line.
let readerLeft = false
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') readerLeft = true
  if (readerLeft) return
  console.error(`factdesk: cannot write the output: ${error.message}`)
  process.exit(1)
})

const args = process.argv.slice(2)
const asksForHelp = args.includes('--help') || args.includes('-h')
;(asksForHelp ? Promise.resolve(console.log(USAGE)) : main(args)).catch((error: unknown) => {
  if (error instanceof UsageError) {
    console.error(`factdesk: ${error.message}\n\n${USAGE}`)
    process.exit(2)
  }
  const known = [
    ApiError,
    ConfigError,
    DataFolderError,
    DataFolderLockedError,
    DatabaseUnusableError,
    CommandError,
  ].some((kind) => error instanceof kind)
  // Anything else in one line: a stack or a program's whole error output is not for the terminal.
  console.error(`factdesk: ${known ? (error as Error).message : String(error).split('\n')[0]}`)
  process.exit(1)
})
