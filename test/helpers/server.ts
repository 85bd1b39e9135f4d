import { mkdtempSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Hono } from 'hono'
import type { ConfigInput } from '../../src/shared/config'
import { Config } from '../../src/shared/config'
import type { Clock } from '../../src/main/engine/base/clock'
import { openEngine, type Engine, type EngineOptions } from '../../src/main/engine/engine'
import { createApp } from '../../src/main/server/app'
import { API_BASE } from '../../src/shared/rest'
import { hasEnded } from '../../src/shared/vocabulary'
import { listen, type Listening } from '../../src/main/server/listen'
import { Store } from '../../src/main/engine/store'
import { databaseOf } from './database'

/// A fresh data folder under the system's temporary directory.
export const tempDir = (): string => mkdtempSync(join(tmpdir(), 'factdesk-test-'))

/// A text of three claims (a height, a capital, a boiling point), for tests that check a few.
export const THREE_CLAIMS =
  'The Eiffel Tower is 330 metres tall. Paris is the capital of France. Water boils at 100 degrees Celsius at sea level.'

export interface TestServer {
  engine: Engine
  /// The engine's data folder.
  dataDir: string
  /// The engine's PostgreSQL database; undefined on the data folder's SQLite.
  database: string | undefined
  /// A store of its own over the engine's database, for what a test reads or writes past the API.
  openStore(): Promise<Store>
  origin: string
  /// Base URL of the API, e.g. http://127.0.0.1:PORT/api/v1
  api: string
  /// A write token and a read token of the default organization.
  write: string
  read: string
  organizationId: string
  close(): Promise<void>
}

/// Starts the real engine and HTTP server on 127.0.0.1 with a fresh data folder.
export async function startServer(
  options: {
    clock?: Clock
    config?: ConfigInput
    /// A config file read as `serve --config FILE` reads it (with what lies beside it); wins over `config`.
    configPath?: string
    dataDir?: string
    /// A PostgreSQL database's URL (`openEngine`'s `database`); absent: the data folder's SQLite (or, with
    /// FACTDESK_TEST_STORE=postgres, the folder's database there).
    database?: string
    extend?: (app: Hono, engine: Engine) => void
    tiers?: EngineOptions['tiers']
    runner?: EngineOptions['runner']
    webhooks?: EngineOptions['webhooks']
    reachability?: EngineOptions['reachability']
    web?: EngineOptions['web']
    ollamaOrigin?: string
  } = {},
): Promise<TestServer> {
  const dataDir = options.dataDir ?? tempDir()
  const database = options.database ?? (await databaseOf(dataDir)).database
  const engine = await openEngine({
    dataDir,
    database,
    ...(options.configPath
      ? { configPath: options.configPath }
      : { config: Config.parse(options.config ?? {}) }),
    clock: options.clock,
    tiers: options.tiers,
    runner: options.runner,
    webhooks: options.webhooks,
    reachability: options.reachability,
    web: options.web,
    ollamaOrigin: options.ollamaOrigin,
    runJobs: true,
  })
  let server: Listening
  try {
    server = await listen(
      (stopping) => {
        const app = createApp(engine, { acceptSessionCookie: options.extend !== undefined, stopping })
        options.extend?.(app, engine)
        return app
      },
      '127.0.0.1',
      0,
      engine.config.server.allowedHosts,
    )
  } catch (error) {
    await engine.close()
    throw error
  }
  const organizationId = (await engine.admin.defaultOrganization()).id
  return {
    engine,
    dataDir,
    database,
    openStore: () => (database ? Store.connect(database) : Store.open(dataDir)),
    origin: server.origin,
    api: server.origin + API_BASE,
    write: (await engine.admin.createToken('write', organizationId, 'test write')).value,
    read: (await engine.admin.createToken('read', organizationId, 'test read')).value,
    organizationId,
    close: async () => {
      await server.close()
      await engine.close()
    },
  }
}

/// Fetches `path` of the API with a bearer token and returns status, headers and parsed JSON.
export async function call(
  server: TestServer,
  method: string,
  path: string,
  init: { token?: string | null; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<{ status: number; headers: Headers; json: any }> {
  const headers: Record<string, string> = { ...init.headers }
  const token = init.token === undefined ? server.write : init.token
  if (token !== null) headers.Authorization = `Bearer ${token}`
  let body: string | undefined
  if (init.rawBody !== undefined || init.body !== undefined) {
    headers['Content-Type'] ??= 'application/json'
    body = init.rawBody ?? JSON.stringify(init.body)
  }
  const response = await fetch(server.api + path, { method, headers, body })
  const text = await response.text()
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null }
}

/// Polls `GET /checks/{id}` until the check has ended (or `timeoutMs` passes) and returns it.
export async function waitForEnd(server: TestServer, checkId: string, timeoutMs = 15_000): Promise<any> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const { json } = await call(server, 'GET', `/checks/${checkId}`)
    if (hasEnded(json)) return json
    if (Date.now() > deadline) throw new Error(`check ${checkId} still ${json.status}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/// Asserts the error envelope of api-decisions.md and returns it.
export function expectEnvelope(json: any, code: string): { code: string; message: string; details: unknown } {
  if (!json || typeof json !== 'object' || !json.error)
    throw new Error(`not an error envelope: ${JSON.stringify(json)}`)
  const { error } = json
  if (error.code !== code) throw new Error(`expected code ${code}, got ${JSON.stringify(error)}`)
  if (typeof error.message !== 'string' || error.message.length === 0)
    throw new Error('envelope without message')
  if (!(error.details === null || Array.isArray(error.details)))
    throw new Error('details must be null or a list')
  if (/\bat .+:\d+:\d+|SELECT |INSERT |fdk_|whsec_/.test(error.message))
    throw new Error(`leaky message: ${error.message}`)
  return error
}

/// The bytes the database takes on disk: its file and its write-ahead log.
export function databaseBytes(dataDir: string): number {
  const size = (name: string): number => {
    try {
      return statSync(join(dataDir, name)).size
    } catch {
      return 0
    }
  }
  return size('factdesk.db') + size('factdesk.db-wal')
}
