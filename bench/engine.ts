import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine, type Engine } from '../src/main/engine/engine'
import { hasEnded } from '../src/shared/vocabulary'
import { RESOLVE_BATCH } from '../src/main/engine/tiers/resolve'
import { Config } from '../src/shared/config'
import { mostAtOnce, startFakeOpenAI, type FakeOpenAI } from '../test/helpers/fakeOpenAI'
import { freshDatabase, stopTestCluster } from '../test/helpers/postgres'
import { summarise, withTarget, type Figure } from './measure'
import { claimsText } from './report'

const CLAIMS = 200
/// `models.concurrencyPerProvider`: requests in flight at once to one provider endpoint. Every model here (panel,
/// judge, and so the resolver) is served by the one fake endpoint, so it bounds all their requests together.
/// With 64 slots, 200 claims are about eight latencies of work, the first of which can only resolve claims: no
/// schedule came within 0.9 of the bound (0.83 with a panel of 1). With 16 the check lasts long enough for the
/// bound to be reachable (0.98), so what the bench shows is the engine's loss, not the waves'.
const CONCURRENCY = 16
const RUNS = 2
const TARGET_LATENCY_MS = 200
const SETUPS: [latencyMs: number, panel: number][] = [
  [200, 1],
  [200, 3],
  [1000, 1],
  [1000, 3],
]

/// A 200-claim t2 check against the fake model server answering each request after a fixed latency, with a
/// panel of 1 and of 3 models, on an engine whose t1 thread is warm (a 4-claim t1 check runs first; the
/// extraction thread it started has ended by then, as after any second of quiet, so the timed check pays for
/// starting one): claims per minute, and that over the ideal bound.
///
/// The ideal bound keeps every one of the provider's `CONCURRENCY` request slots busy all the time:
/// CONCURRENCY ÷ latency requests per second, divided by the requests the check cannot do without: each claim's
/// vote by each panel model, its judge where the judge decided (a panel of one always; an agreeing panel of
/// three decides alone, and the fake's panel always agrees), and the resolver's requests (one per RESOLVE_BATCH
/// claims), since no claim may be voted on before it is resolved into its statement. The bench checks that the
/// fake never saw more than CONCURRENCY requests at once (the bound assumes it), and prints the best any
/// schedule can reach against that bound: requests take exactly the latency, so they go in waves, the first
/// of which can only resolve claims (at most CONCURRENCY resolver requests, the rest of its slots idle when
/// fewer); so no schedule takes fewer than 1 + ⌈(requests − the first wave's) ÷ CONCURRENCY⌉ latencies.
///
/// The engine sizes its runner itself (t2 asks for twice its providers' request slots). Runs with source maps
/// off, as the built engine does: tsx turns them on, and the HTTP client's internal stack traces then cost
/// about 3% of the run.
export async function engineBenchmarks(): Promise<Figure[]> {
  const fake = await startFakeOpenAI()
  const figures: Figure[] = []
  const sourceMaps = process.sourceMapsEnabled
  process.setSourceMapsEnabled(false)
  try {
    for (const [latencyMs, panelSize] of SETUPS) {
      fake.behave('*', { latencyMs })
      const runs: { perMinute: number; ideal: number; best: number }[] = []
      for (let run = 0; run < RUNS; run++) runs.push(await engineRun([fake], latencyMs, panelSize, run))
      const setup = `t2, ${CLAIMS} claims, panel of ${panelSize}, ${latencyMs} ms a request`
      const [{ ideal, best }] = runs as [(typeof runs)[number]]
      const ratio = summarise(
        `${setup}: ÷ ideal ${Math.round(ideal)}/min (best schedule ${best.toFixed(2)}×)`,
        '×',
        runs.map((each) => each.perMinute / each.ideal),
      )
      // The issue asks t2 to reach 0.9 of its bound at 200 ms a request.
      figures.push(
        summarise(
          setup,
          'claims/min',
          runs.map((each) => each.perMinute),
        ),
        latencyMs === TARGET_LATENCY_MS ? withTarget(ratio, '≥', 0.9) : ratio,
      )
    }
  } finally {
    process.setSourceMapsEnabled(sourceMaps)
    await fake.close()
  }
  return figures
}

/// The team server's t2 throughput (`npm run bench -- team`): the 200-claim check at 200 ms a request with a
/// panel of 3, on the data folder's SQLite, on PostgreSQL with one engine, and on PostgreSQL with three engines
/// working one database (replicas: each its own data folder and its own request slots to the provider). The
/// issue asks PostgreSQL to keep 0.9 of SQLite's throughput with one replica.
///
/// A process's request slots are per provider endpoint, shared by its engines (models/limiter.ts), and the bench's
/// engines share one process: so each replica talks to a fake endpoint of its own, as replicas in processes of
/// their own each have their slots to one provider.
export async function teamBenchmarks(): Promise<Figure[]> {
  const fakes = [await startFakeOpenAI(), await startFakeOpenAI(), await startFakeOpenAI()]
  for (const fake of fakes) fake.behave('*', { latencyMs: TARGET_LATENCY_MS })
  const postgres = await benchPostgres()
  const figures: Figure[] = []
  try {
    const measure = async (name: string, store: StoreSetup) => {
      const runs: number[] = []
      for (let run = 0; run < RUNS; run++)
        runs.push((await engineRun(fakes, TARGET_LATENCY_MS, 3, run, store)).perMinute)
      const figure = summarise(
        `t2, ${CLAIMS} claims, panel of 3, ${TARGET_LATENCY_MS} ms a request: ${name}`,
        'claims/min',
        runs,
      )
      figures.push(figure)
      return figure.median
    }
    const sqlite = await measure('SQLite, one engine', {})
    const one = await measure('PostgreSQL, one engine', { database: postgres.database, replicas: 1 })
    const three = await measure('PostgreSQL, three engines on one database', {
      database: postgres.database,
      replicas: 3,
    })
    figures.push(
      withTarget(summarise('PostgreSQL ÷ SQLite, one engine', '×', [one / sqlite]), '≥', 0.9),
      summarise('PostgreSQL, three engines ÷ one', '×', [three / one]),
    )
  } finally {
    for (const fake of fakes) await fake.close()
    postgres.stop()
  }
  return figures
}

/// Where the engines of a run keep their data: the data folder's SQLite file (no `database`), or `replicas`
/// engines on a fresh PostgreSQL database made by `database()`.
interface StoreSetup {
  database?: () => Promise<string>
  replicas?: number
}

/// One timed check on fresh engines: its claims per minute, its ideal bound (claims per minute) and the share
/// of that bound the best schedule reaches (the bounds of one engine).
async function engineRun(
  fakes: readonly FakeOpenAI[],
  latencyMs: number,
  panelSize: number,
  run: number,
  store: StoreSetup = {},
): Promise<{ perMinute: number; ideal: number; best: number }> {
  const database = store.database ? { database: await store.database() } : {}
  /// Replica `replica`'s configuration: its models at its fake endpoint.
  const config = (replica: number) => {
    const model = (id: string) => ({
      id,
      provider: 'openai-compatible' as const,
      baseURL: (fakes[replica % fakes.length] as FakeOpenAI).baseURL,
      // A model name per run: no vote is served from the cache of an earlier run.
      model: `${id}-${latencyMs}-${run}`,
    })
    return Config.parse({
      models: {
        panel: Array.from({ length: panelSize }, (_, i) => model(`panel-${i + 1}`)),
        judge: model('judge'),
        concurrencyPerProvider: CONCURRENCY,
      },
    })
  }
  const engines = []
  const dataDirs: string[] = []
  for (let replica = 0; replica < (store.replicas ?? 1); replica++) {
    const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-engine-'))
    dataDirs.push(dataDir)
    engines.push(await openEngine({ dataDir, ...database, config: config(replica), runJobs: true }))
  }
  const [engine] = engines as [Engine, ...Engine[]]
  try {
    const principal = await engine.localPrincipal()
    await engine.admin.grantCredits(principal.organizationId, 10_000)
    const checked = async (text: string, tiers: ('t1' | 't2')[]) => {
      const { check } = await engine.service.submit(principal, { text, tiers })
      if (!hasEnded(await engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
      const report = await engine.service.report(principal, check.id)
      if (report.check.status !== 'completed') throw new Error(`bench check ${report.check.status}`)
      return report
    }
    await checked(claimsText(4), ['t1'])
    const before = fakes.map((fake) => fake.requests.length)
    const started = performance.now()
    const report = await checked(claimsText(CLAIMS), ['t2'])
    const minutes = (performance.now() - started) / 60_000
    for (const [replica, fake] of fakes.entries()) {
      const peak = mostAtOnce(fake.requests.slice(before[replica]))
      if (peak > CONCURRENCY) throw new Error(`${peak} requests at once, over the limit of ${CONCURRENCY}`)
    }
    const claims = report.claims.length
    const judges = report.claims.filter((claim) => claim.consensus.t2?.decidedBy === 'judge').length
    const resolving = Math.ceil(claims / RESOLVE_BATCH)
    const requests = claims * panelSize + judges + resolving
    const ideal = (CONCURRENCY / (latencyMs / 1000) / requests) * claims * 60
    const waves = 1 + Math.ceil((requests - Math.min(resolving, CONCURRENCY)) / CONCURRENCY)
    return { perMinute: claims / minutes, ideal, best: requests / CONCURRENCY / waves }
  } finally {
    for (const each of engines) await each.close()
    for (const dataDir of dataDirs) rmSync(dataDir, { recursive: true, force: true })
  }
}

/// A PostgreSQL cluster for the bench (the tests' own, in a folder of the bench's), removed by `stop`.
async function benchPostgres(): Promise<{ database: () => Promise<string>; stop(): void }> {
  const root = mkdtempSync(join(tmpdir(), 'factdesk-bench-postgres-'))
  const previous = process.env.TMPDIR
  process.env.TMPDIR = root
  return {
    database: async () => (await freshDatabase()).url,
    stop: () => {
      stopTestCluster(root)
      rmSync(root, { recursive: true, force: true })
      if (previous === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = previous
    },
  }
}
