// Replicas of a team server on one PostgreSQL database, each with its data folder: they share a check's units
// without running one twice, a replica that dies mid-unit leaves its units to the others once its leases expire,
// and one whose lease was taken over stops and writes nothing. And on SQLite, whose one engine per data folder
// takes back at once what a process that died left leased.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { join } from 'node:path'
import Database from 'libsql'
import { afterEach, describe, expect, it } from 'vitest'
import { Config } from '../../../../src/shared/config'
import { openEngine, type Engine, type EngineOptions } from '../../../../src/main/engine/engine'
import { Store } from '../../../../src/main/engine/store'
import type { CheckRecord } from '../../../../src/main/engine/store/checks'
import { exited } from '../../../helpers/cli'
import { postgresForTests } from '../../../helpers/postgres'
import { tempDir } from '../../../helpers/server'
import { GatedTier } from '../../../helpers/tiers'

const postgres = postgresForTests()

/// Leases short enough for a test: renewed every 500 ms, taken over 1.5 s after the last renewal.
const LEASE_MS = 1_500
const REPLICA = join(import.meta.dirname, '../../../helpers/replica.ts')

const crates = (count: number): string =>
  Array.from({ length: count }, (_, i) => `Crate ${i + 1} weighs ${i + 10} kilograms.`).join(' ')

let opened: { close(): Promise<void> }[] = []
let children: ChildProcessWithoutNullStreams[] = []
afterEach(async () => {
  // Forgotten first: a close that fails (a test that failed half-way) is not tried again after the next test.
  const [engines, processes] = [opened.reverse(), children]
  ;[opened, children] = [[], []]
  for (const child of processes) child.kill('SIGKILL')
  const closed = await Promise.allSettled(engines.map((each) => each.close()))
  const failed = closed.find((result) => result.status === 'rejected')
  if (failed) throw failed.reason
})

/// An engine over `database` (the data folder's SQLite without one), with its own data folder.
async function replica(
  database: string | undefined,
  options: Partial<EngineOptions> & { tier?: GatedTier } = {},
): Promise<Engine> {
  const engine = await openEngine({
    dataDir: options.dataDir ?? tempDir(),
    database,
    config: Config.parse({}),
    tiers: new Map([['t1', options.tier ?? new GatedTier()]]),
    runner: { leaseMs: LEASE_MS, pollMs: 50, ...options.runner },
    runJobs: options.runJobs ?? true,
  })
  opened.push(engine)
  return engine
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !(await condition());) {
    if (Date.now() > deadline) throw new Error('timed out')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/// A store of the test's own over the replicas' database (or the data folder's SQLite), to read what they wrote.
async function reader(database: string | undefined, dataDir = tempDir()): Promise<Store> {
  const store = database ? await Store.connect(database) : await Store.open(dataDir)
  opened.push(store)
  return store
}

/// The check's end, once it has one: its status and credits, how many evaluations each of its claims has, how many
/// claims were decided, and what its organization was charged and refunded in all.
async function ended(store: Store, checkId: string, timeoutMs = 20_000) {
  const ends = ['completed', 'failed', 'cancelled']
  await until(async () => ends.includes((await store.checks.byId(checkId))?.status ?? ''), timeoutMs)
  const check = (await store.checks.byId(checkId)) as CheckRecord
  const results = await store.results.forCheck(checkId)
  const { charge, refund } = await store.ledger.totals(check.organizationId)
  return {
    status: check.status,
    credits: check.credits,
    evaluations: Array.from(results.evaluations.values(), (evaluations) => evaluations.length),
    decided: results.consensus.size,
    ledger: { charge, refund },
  }
}

describe.skipIf(postgres.skip)('replicas on one PostgreSQL database', () => {
  it('share a check’s units: every unit runs once, on one replica or the other; each claim voted once, one charge', async () => {
    const database = await postgres.database()
    const [tierA, tierB] = [new GatedTier(), new GatedTier()]
    const a = await replica(database, { tier: tierA, runner: { concurrency: 2 } })
    await replica(database, { tier: tierB, runner: { concurrency: 2 } })
    const principal = await a.localPrincipal()
    const { check } = await a.service.submit(principal, { text: crates(8), tiers: ['t1'] })
    expect(check.claimCount).toBe(8)
    // Each holds two units (its concurrency); then both run the rest as they can.
    await until(() => tierA.started.length === 2 && tierB.started.length === 2)
    tierA.releaseAll()
    tierB.releaseAll()
    expect(await ended(await reader(database), check.id)).toEqual({
      status: 'completed',
      credits: { charged: 8, refunded: 0 },
      evaluations: Array(8).fill(1),
      decided: 8,
      ledger: { charge: 8, refund: 0 },
    })
    const started = [...tierA.started, ...tierB.started]
    expect(started).toHaveLength(8)
    expect(new Set(started).size).toBe(8)
    expect(tierB.started.length).toBeGreaterThanOrEqual(2)
  })

  it('units queued on one replica are told to the others, which lease them at once rather than at their next look', async () => {
    const database = await postgres.database()
    const front = await replica(database, { runJobs: false })
    // A worker that would look for work again only after a minute: it must be told.
    const tier = new GatedTier()
    await replica(database, { tier, runner: { pollMs: 60_000 } })
    const principal = await front.localPrincipal()
    const { check } = await front.service.submit(principal, { text: crates(3), tiers: ['t1'] })
    await until(() => tier.started.length === 3, 10_000)
    tier.releaseAll()
    expect((await ended(await reader(database), check.id)).status).toBe('completed')
  })

  it('a replica killed mid-unit: the others leave its units alone while it renews, and take them over once its leases expire', async () => {
    const database = await postgres.database()
    // A replica that serves the API and runs no jobs takes the check.
    const front = await replica(database, { runJobs: false })
    const principal = await front.localPrincipal()
    const { check } = await front.service.submit(principal, { text: crates(4), tiers: ['t1'] })

    // The replica that dies starts all four units and never finishes them.
    const doomed = spawn(process.execPath, [
      '--import',
      'tsx',
      REPLICA,
      tempDir(),
      database,
      String(LEASE_MS),
    ])
    children.push(doomed)
    const started = new Set<string>()
    let output = ''
    doomed.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      for (const [, claim] of output.matchAll(/^started (\S+)$/gm)) started.add(claim as string)
    })
    await until(() => started.size === 4, 60_000)

    // Another replica starts meanwhile: it resets nothing, and leaves the live replica's units alone for two leases.
    const tier = new GatedTier(true)
    await replica(database, { tier })
    await new Promise((resolve) => setTimeout(resolve, 2 * LEASE_MS))
    expect(tier.started).toEqual([])

    const killed = Date.now()
    doomed.kill('SIGKILL')
    await exited(doomed)
    const end = await ended(await reader(database), check.id)
    expect(Date.now() - killed).toBeGreaterThanOrEqual(LEASE_MS / 3) // not before the leases could expire
    expect(tier.started.sort()).toEqual([...started].sort())
    expect(end).toEqual({
      status: 'completed',
      credits: { charged: 4, refunded: 0 },
      evaluations: [1, 1, 1, 1],
      decided: 4,
      ledger: { charge: 4, refund: 0 },
    })
  }, 90_000)
})

describe.each([
  { dialect: 'SQLite', postgres: false },
  { dialect: 'PostgreSQL', postgres: true },
])('a unit whose lease is taken over, on $dialect', ({ postgres: onPostgres }) => {
  it('its replica stops its tier at the next renewal, and writes nothing of it', async (context) => {
    if (onPostgres && postgres.skip) return context.skip()
    const dataDir = tempDir()
    const database = onPostgres ? await postgres.database() : undefined
    const tier = new GatedTier()
    const engine = await replica(database, { dataDir, tier })
    const principal = await engine.localPrincipal()
    const { check } = await engine.service.submit(principal, { text: crates(1), tiers: ['t1'] })
    await until(() => tier.started.length === 1)

    // Another holder takes the unit over (as if the replica's lease had expired unrenewed).
    const other = await reader(database, dataDir)
    const now = new Date().toISOString()
    const later = new Date(Date.now() + 60_000).toISOString()
    const [taken] = await other.transaction(async (tx) => {
      await tx.units.expireLeases(now)
      return await tx.units.lease(now, later, 'another', 10)
    })
    expect(taken?.checkId).toBe(check.id)
    await until(() => tier.aborted.length === 1, 5_000)
    expect(tier.aborted).toEqual(tier.started)
    tier.releaseAll()
    // Nothing of the unit was written: it is still the other holder's, running, with no evaluation.
    expect(await other.units.renew(['another'], later)).toEqual([String(taken?.id)])
    expect((await other.checks.byId(check.id))?.status).toBe('running')
    expect((await other.results.forCheck(check.id)).evaluations.size).toBe(0)
  })
})

describe('a restart on SQLite', () => {
  it('takes back at once the units a process that died left leased, however long their leases', async () => {
    const dataDir = tempDir()
    const first = await replica(undefined, { dataDir })
    const principal = await first.localPrincipal()
    const { check } = await first.service.submit(principal, { text: crates(3), tiers: ['t1'] })
    await first.close()
    opened = []
    // As a process killed mid-unit leaves them: running, leased for an hour more.
    const db = new Database(join(dataDir, 'factdesk.db'))
    db.prepare(
      "UPDATE units SET status = 'running', lease_until = ?, lease_id = 'dead' WHERE check_id = ?",
    ).run(new Date(Date.now() + 3_600_000).toISOString(), check.id)
    db.close()

    const started = Date.now()
    await replica(undefined, {
      dataDir,
      tier: new GatedTier(true),
      runner: { leaseMs: 30_000 },
    })
    expect(await ended(await reader(undefined, dataDir), check.id, 10_000)).toMatchObject({
      status: 'completed',
      evaluations: [1, 1, 1],
    })
    expect(Date.now() - started).toBeLessThan(10_000)
  })
})
