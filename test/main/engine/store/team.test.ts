import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { afterEach, describe, expect, it } from 'vitest'
import { Config } from '../../../../src/shared/config'
import { verifyWebhook } from '../../../../src/shared/webhooks'
import { newId } from '../../../../src/main/engine/base/ids'
import { keyFingerprint } from '../../../../src/main/engine/base/secrets'
import { openEngine, type Engine, type EngineOptions } from '../../../../src/main/engine/engine'
import { Store } from '../../../../src/main/engine/store'
import { DatabaseUnusableError, shownUrl } from '../../../../src/main/engine/store/connection'
import { teamSecretBox } from '../../../../src/main/engine/store/engineKeys'
import { PostgresDatabase } from '../../../../src/main/engine/store/postgres'
import { postgresForTests } from '../../../helpers/postgres'
import { tempDir } from '../../../helpers/server'
import { GatedTier } from '../../../helpers/tiers'
import { startReceiver, type Receiver } from '../webhooks/helpers'

// A team server's replicas share nothing but the database: here, engines in one process, each with a data folder
// of its own, on one PostgreSQL database.

const postgres = postgresForTests()

const opened: Engine[] = []
let receiver: Receiver | undefined
afterEach(async () => {
  for (const engine of opened.splice(0)) await engine.close()
  await receiver?.close()
  receiver = undefined
})

/// A replica: an engine on `database` with a fresh data folder of its own.
async function replica(database: string, options: Partial<EngineOptions> = {}): Promise<Engine> {
  const engine = await openEngine({ dataDir: tempDir(), database, ...options })
  opened.push(engine)
  return engine
}

/// The current webhook signing secret of the engine's default organization.
async function secretOf(engine: Engine): Promise<{ secret: string }> {
  return await engine.service.webhookSecret(await engine.localPrincipal())
}

/// A check of one claim in t1 as a replica that works on it leaves it in the store (with its webhook event when it
/// has completed with a `callbackUrl`), written through a store of the test's own: another process, as far as the
/// replicas know. Its id.
async function storedCheck(
  database: string,
  owner: Engine,
  status: 'running' | 'completed',
  callbackUrl: string | null = null,
): Promise<string> {
  const { organizationId } = await owner.localPrincipal()
  const store = await Store.connect(database)
  try {
    const now = new Date()
    const at = now.toISOString()
    const id = newId('chk', now)
    const documentId = newId('doc', now)
    const text = 'The Eiffel Tower is 330 metres tall.'
    await store.documents.insert(
      {
        id: documentId,
        organizationId,
        text,
        tiers: ['t1'],
        unitPrices: { t1: 1 },
        createdAt: at,
        expiresAt: null,
      },
      [
        {
          id: newId('clm', now),
          documentId,
          text,
          charStart: 0,
          charEnd: text.length,
          statement: null,
          parts: null,
          statementState: null,
        },
      ],
    )
    await store.checks.insert({
      id,
      organizationId,
      documentId,
      status,
      name: null,
      author: null,
      sourceUrl: null,
      callbackUrl,
      tiers: ['t1'],
      unitPrices: { t1: 1 },
      claimCount: 1,
      credits: { charged: 1, refunded: 0 },
      createdAt: at,
      updatedAt: at,
      completedAt: status === 'completed' ? at : null,
      error: null,
      sourcePolicy: null,
    })
    if (callbackUrl && status === 'completed')
      await store.outbox.insert({
        id: newId('evt', now),
        organizationId,
        checkId: id,
        type: 'check.completed',
        url: callbackUrl,
        body: JSON.stringify({
          id: 'evt_team',
          type: 'check.completed',
          createdAt: at,
          data: { checkId: id },
        }),
        createdAt: at,
      })
    return id
  } finally {
    await store.close()
  }
}

/// Runs `query` on the database at `url` with a connection of its own.
async function query<T extends pg.QueryResultRow>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query<T>(text)).rows
  } finally {
    await client.end()
  }
}

describe.skipIf(postgres.skip)('replicas on one PostgreSQL database', { timeout: 60_000 }, () => {
  it('a webhook secret made on one replica is read on another and signs its deliveries; no data folder holds a key', async () => {
    const database = await postgres.database()
    const first = await replica(database)
    const rotated = await first.service.rotateWebhookSecret(await first.localPrincipal())
    // An API key saved in Settings is sealed with the same key: the second replica opens it.
    await first.settings.update(await first.localPrincipal(), {
      models: { panel: [{ id: 'hosted', provider: 'openai', model: 'gpt-5-mini', apiKey: 'sk-team-4242' }] },
    })

    receiver = await startReceiver()
    const second = await replica(database, {
      runJobs: true,
      config: Config.parse({ webhooks: { allowLocalTargets: true } }),
      tiers: new Map([['t1', new GatedTier(true)]]),
    })
    const principal = await second.localPrincipal()
    expect(principal.organizationId).toBe((await first.localPrincipal()).organizationId)
    expect((await second.service.webhookSecret(principal)).secret).toBe(rotated.secret)
    expect(second.settings.keys.model('hosted', undefined)).toBe('sk-team-4242')

    const check = await storedCheck(database, second, 'completed', `${receiver.origin}/hook`)
    await second.webhooks.deliverDue()
    expect(receiver.requests).toHaveLength(1)
    const [delivery] = receiver.requests
    expect(delivery?.json.data.checkId).toBe(check)
    const header = String(delivery?.headers['x-svc-signature'])
    expect(await verifyWebhook(delivery?.rawBody ?? '', header, rotated.secret)).toBe(true)
    expect(await verifyWebhook(delivery?.rawBody ?? '', header, 'whsec_another')).toBe(false)

    for (const engine of [first, second]) {
      expect(existsSync(join(engine.dataDir, 'secret.key')), engine.dataDir).toBe(false)
      expect(existsSync(join(engine.dataDir, 'factdesk.db')), engine.dataDir).toBe(false)
    }
    // The database keeps the key; its fingerprint names it.
    const [stored] = await query<{ key: Buffer; fingerprint: string }>(
      database,
      "SELECT key, fingerprint FROM engine_keys WHERE name = 'secrets'",
    )
    expect(stored?.key).toHaveLength(32)
    expect(stored?.fingerprint).toBe(keyFingerprint(stored?.key ?? Buffer.alloc(0)))
  })

  it('with FACTDESK_SECRET_KEY the database keeps only its fingerprint; another key, or none, is refused in words', async () => {
    const database = await postgres.database()
    const key = randomBytes(32)
    const first = await replica(database, { secretKey: key.toString('hex') })
    const { secret } = await secretOf(first)
    const second = await replica(database, { secretKey: key.toString('base64') })
    expect((await second.service.webhookSecret(await second.localPrincipal())).secret).toBe(secret)
    expect(await query(database, 'SELECT key, fingerprint FROM engine_keys')).toEqual([
      { key: null, fingerprint: keyFingerprint(key) },
    ])

    const other = randomBytes(32)
    await expect(replica(database, { secretKey: other.toString('hex') })).rejects.toThrow(
      new DatabaseUnusableError(
        `FACTDESK_SECRET_KEY (fingerprint ${keyFingerprint(other)}) is not the key this database's secrets ` +
          `are sealed with (fingerprint ${keyFingerprint(key)}): give every replica that one.`,
      ),
    )
    await expect(replica(database)).rejects.toThrow(
      new DatabaseUnusableError(
        "This database's secrets are sealed with a key kept outside it: set FACTDESK_SECRET_KEY to that key " +
          `(fingerprint ${keyFingerprint(key)}), as on the other replicas.`,
      ),
    )
    await expect(replica(database, { secretKey: 'not a key' })).rejects.toThrow(
      /^FACTDESK_SECRET_KEY must be a key of 32 bytes, written as 64 hexadecimal digits/,
    )
  })

  it('a key the database keeps may be given as FACTDESK_SECRET_KEY too, and then taken out of the database', async () => {
    const database = await postgres.database()
    const first = await replica(database)
    const { secret } = await secretOf(first)
    const [stored] = await query<{ key: Buffer }>(database, 'SELECT key FROM engine_keys')
    const hex = stored?.key.toString('hex') ?? ''
    await query(database, 'UPDATE engine_keys SET key = NULL')
    const second = await replica(database, { secretKey: hex })
    expect((await second.service.webhookSecret(await second.localPrincipal())).secret).toBe(secret)
  })

  it('replicas starting together on a fresh database agree on one key and one default organization', async () => {
    const database = await postgres.database()
    const engines = await Promise.all([1, 2, 3, 4].map(() => replica(database)))
    const organizations = await Promise.all(engines.map((engine) => engine.admin.defaultOrganization()))
    expect(new Set(organizations.map((organization) => organization.id)).size).toBe(1)
    const secrets = await Promise.all(engines.map(async (engine) => (await secretOf(engine)).secret))
    expect(new Set(secrets).size).toBe(1)
    expect(await query(database, 'SELECT name FROM organizations')).toEqual([
      { name: 'Default organization' },
    ])
    expect(await query(database, 'SELECT name FROM engine_keys')).toEqual([{ name: 'secrets' }])

    // The key is offered by each and stored once, whoever comes first.
    const fresh = await PostgresDatabase.open(await postgres.database())
    try {
      const boxes = await Promise.all(
        [1, 2, 3, 4, 5].map(() => teamSecretBox(fresh.root, null, new Date().toISOString())),
      )
      const sealed = boxes[0]?.encrypt('one key for all') ?? Buffer.alloc(0)
      for (const box of boxes) expect(box.decrypt(sealed)).toBe('one key for all')
    } finally {
      await fresh.close()
    }
  })

  // Skipped until a report's queries run on PostgreSQL (store/results.ts is being ported to it): then it must pass.
  it.skip('a report read on one replica follows the changes another replica makes', async () => {
    const database = await postgres.database()
    const [writer, reader] = [await replica(database), await replica(database)]
    const principal = await writer.localPrincipal()
    const check = await storedCheck(database, writer, 'running')
    const statusOf = async () =>
      JSON.parse((await reader.reports.report(principal, check)).json.toString()).check
    expect(await statusOf()).toMatchObject({ status: 'running', name: null })
    await writer.service.patch(principal, check, { name: 'Renamed on the writer' })
    expect(await statusOf()).toMatchObject({ status: 'running', name: 'Renamed on the writer' })
    const store = await Store.connect(database)
    try {
      await store.checks.end(check, {
        status: 'completed',
        refunded: 0,
        error: null,
        at: new Date().toISOString(),
      })
    } finally {
      await store.close()
    }
    expect(await statusOf()).toMatchObject({ status: 'completed' })
  })

  it('a database that cannot be used is said in one line, its URL without the password', async () => {
    const database = await postgres.database()
    const url = new URL(database)
    const cases: [string, RegExp][] = [
      [
        `postgres://factdesk:hunter2@127.0.0.1:1/factdesk`,
        /^Cannot connect to the database postgres:\/\/factdesk@127\.0\.0\.1:1\/factdesk: nothing listens at that address/,
      ],
      [
        `postgres://${url.username}:wrong-password@${url.host}${url.pathname}`,
        /^Cannot connect to the database postgres:\/\/\S+: password authentication failed .*check the user and the password/,
      ],
      [
        `postgres://${url.username}:${url.password}@${url.host}/no_such_database`,
        /^Cannot connect to the database postgres:\/\/\S+\/no_such_database: database "no_such_database" does not exist: create it first/,
      ],
    ]
    for (const [wrong, message] of cases) {
      const error = await Store.connect(wrong).catch((failed: unknown) => failed)
      expect(error, wrong).toBeInstanceOf(DatabaseUnusableError)
      expect((error as Error).message, wrong).toMatch(message)
      expect((error as Error).message, wrong).not.toMatch(/hunter2|wrong-password|\n/)
      if (url.password) expect((error as Error).message).not.toContain(url.password)
    }
    expect(shownUrl('postgres://u:p@h:5432/db?sslmode=require&password=p2')).toBe(
      'postgres://u@h:5432/db?sslmode=require',
    )
    // The data folder of an engine that could not open its database is left as it was.
    const dataDir = tempDir()
    await expect(openEngine({ dataDir, database: cases[0]?.[0] ?? '' })).rejects.toThrow(
      DatabaseUnusableError,
    )
    expect(readdirSync(dataDir)).toEqual([])
  })
})
