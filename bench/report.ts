import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine } from '../src/main/engine/engine'
import { Config } from '../src/shared/config'
import { hasEnded } from '../src/shared/vocabulary'
import type { Engine } from '../src/main/engine/engine'
import type { Tier } from '../src/shared/schemas'
import type { TierChecker } from '../src/main/engine/tiers/tier'
import { ReportCache } from '../src/main/engine/checks/reports'
import { Store } from '../src/main/engine/store'
import { decision, evaluation } from '../test/helpers/resources'
import { sample, summarise, timeIt, withTarget, type Figure } from './measure'

/// A tier that decides at once, so the benchmark fills a real store through the real runner.
export const instant: TierChecker = {
  tier: 't1',
  models: () => [''],
  check: async ({ now }) => ({
    evaluation: evaluation({
      tier: 't1',
      model: 'bench',
      verdict: 'issues',
      confidence: 1,
      rationale: 'one finding',
      createdAt: now(),
    }),
    consensus: decision({
      verdict: 'issues',
      confidence: 1,
      reasoning: 'one finding',
      correction: 'x',
      decidedAt: now(),
      decidedBy: null,
    }),
    issues: [
      {
        charStart: 0,
        charEnd: 5,
        message: 'Did you mean “Crate”?',
        suggestions: ['Crate'],
        rule: 'Spelling',
      },
    ],
  }),
}

const REASON = 'The register lists this weight.'

/// A t2 tier whose panel of three votes at once and whose judge decides at once: a completed 500-claim t1+t2
/// check's report then has 2,000 votes in about 800 KB, as the one issue 26 measured (773 KB).
export const instantPanel: TierChecker = {
  tier: 't2',
  models: () => ['panel-a', 'panel-b', 'panel-c'],
  check: async ({ model, now }) => ({
    evaluation: evaluation({
      tier: 't2',
      model,
      verdict: 'supported',
      confidence: 0.9,
      rationale: REASON,
      createdAt: now(),
      usage: { inputTokens: 900, outputTokens: 120 },
    }),
    consensus: null,
    issues: [],
  }),
  judge: async ({ now }) => ({
    consensus: decision({
      verdict: 'supported',
      confidence: 0.9,
      reasoning: REASON,
      decidedAt: now(),
      decidedBy: null,
    }),
    consensusUsage: { inputTokens: 1500, outputTokens: 150 },
    issues: [],
  }),
}

/// How the benchmarks open an engine whose t1 decides at once: submitted texts up to 1,000,000 characters
/// (10,000 claims are about 330,000, over the default limit).
export const instantEngine = {
  config: { limits: { maxTextChars: 1_000_000 } },
  tiers: new Map<Tier, TierChecker>([
    ['t1', instant],
    ['t2', instantPanel],
  ]),
  runner: { concurrency: 16 },
}

/// A text of `claims` one-sentence claims.
export const claimsText = (claims: number): string =>
  Array.from({ length: claims }, (_, i) => `Crate ${i + 1} weighs ${(i % 90) + 10} kilograms.`).join(' ')

/// Submits a check of `claims` claims in `tiers` (t1) as the engine's local principal and waits until it has
/// ended.
export async function checkedClaims(engine: Engine, claims: number, tiers: Tier[] = ['t1']): Promise<string> {
  const principal = await engine.localPrincipal()
  const { check } = await engine.service.submit(principal, { text: claimsText(claims), tiers })
  if (!hasEnded(await engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
  return check.id
}

/// Issue 26: a report's assembly never holds the event loop for more than a few milliseconds.
const HELD_MS = 5

/// Runs `work`: how long it took, and the longest the event loop was held meanwhile: the most time between two
/// turns of a ticker that asks for every turn, as the lesser of the wall time and the process's CPU time, each
/// more than the event loop's thread spent (on a busy machine wall time counts other programs; CPU time counts
/// the worker threads and the garbage collector's helpers that run beside the event loop).
async function heldWhile(work: () => Promise<unknown>): Promise<{ total: number; held: number }> {
  const cpuMs = () => {
    const { user, system } = process.cpuUsage()
    return (user + system) / 1000
  }
  let held = 0
  let last = { cpu: cpuMs(), wall: performance.now() }
  let ticking = true
  const tick = () => {
    const now = { cpu: cpuMs(), wall: performance.now() }
    held = Math.max(held, Math.min(now.cpu - last.cpu, now.wall - last.wall))
    last = now
    if (ticking) setImmediate(tick)
  }
  setImmediate(tick)
  const started = performance.now()
  await work()
  const total = performance.now() - started
  ticking = false
  held = Math.max(held, Math.min(cpuMs() - last.cpu, performance.now() - last.wall))
  return { total, held }
}

/// Report assembly (`GET /checks/{id}/report` without HTTP) for checks of 100, 1,000 and 10,000 claims, and
/// how fast the job runner fills them (one run each: the store's and the runner's cost per unit): the whole
/// report built at once (as `service.report` does), and through the report cache, assembled a page at a time
/// on a first read, then kept.
export async function reportBenchmarks(): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-'))
  const engine = await openEngine({
    ...instantEngine,
    dataDir,
    config: Config.parse(instantEngine.config),
    runJobs: true,
  })
  const principal = await engine.localPrincipal()
  await engine.admin.grantCredits(principal.organizationId, 100_000)
  // A second connection to the store, for caches of the benchmark's own: each first read assembles.
  const store = await Store.open(dataDir)
  const figures: Figure[] = []
  for (const claims of [100, 1000, 10_000]) {
    const started = performance.now()
    const checkId = await checkedClaims(engine, claims)
    const seconds = (performance.now() - started) / 1000
    const report = await engine.service.report(principal, checkId)
    const built: { total: number; held: number }[] = []
    for (let run = 0; run < (claims > 1000 ? 5 : 10); run++) {
      const cache = new ReportCache(store, engine.events)
      built.push(await heldWhile(() => cache.report(principal, checkId)))
      cache.close()
    }
    const kept = new ReportCache(store, engine.events)
    await kept.report(principal, checkId)
    const hits = await sample(30, async () => (await heldWhile(() => kept.report(principal, checkId))).total)
    kept.close()
    figures.push(
      summarise(
        `runner: a check of ${claims.toLocaleString('en')} claims whose tier answers at once, submit to end`,
        'claims/s',
        [claims / seconds],
      ),
      await timeIt(
        `report of ${report.claims.length.toLocaleString('en')} claims`,
        () => engine.service.report(principal, checkId),
        claims > 1000 ? 10 : 30,
      ),
      summarise(
        `report cache, ${claims.toLocaleString('en')} claims: first read (assembled a page at a time)`,
        'ms',
        built.map((b) => b.total),
      ),
      withTarget(
        summarise(
          `report cache, ${claims.toLocaleString('en')} claims: longest hold of the event loop meanwhile, least of wall and CPU time`,
          'ms',
          built.map((b) => b.held),
        ),
        '≤',
        HELD_MS,
      ),
      summarise(`report cache, ${claims.toLocaleString('en')} claims: a read of the kept report`, 'ms', hits),
    )
  }
  await store.close()
  await engine.close()
  rmSync(dataDir, { recursive: true, force: true })
  return figures
}
