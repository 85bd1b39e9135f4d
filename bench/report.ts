import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine } from '../src/main/engine/engine'
import { Config } from '../src/shared/config'
import { hasEnded } from '../src/main/engine/events'
import type { Engine } from '../src/main/engine/engine'
import type { Tier } from '../src/shared/schemas'
import type { TierChecker } from '../src/main/engine/tiers/tier'
import { summarise, timeIt, type Figure } from './measure'

/// A tier that decides at once, so the benchmark fills a real store through the real runner.
export const instant: TierChecker = {
  tier: 't1',
  models: () => [''],
  check: async ({ now }) => ({
    evaluation: {
      tier: 't1',
      model: 'bench',
      verdict: 'issues',
      confidence: 1,
      rationale: 'one finding',
      citations: [],
      createdAt: now(),
      cached: false,
      usage: null,
      round: 1,
      detail: null,
    },
    consensus: {
      verdict: 'issues',
      confidence: 1,
      agreement: 1,
      reasoning: 'one finding',
      citations: [],
      correction: 'x',
      decidedAt: now(),
      detail: null,
      sourced: false,
      sources: 0,
      decidedBy: null,
      calibratedConfidence: null,
    },
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

/// How the benchmarks open an engine whose t1 decides at once: submitted texts up to 1,000,000 characters
/// (10,000 claims are about 330,000, over the default limit).
export const instantEngine = {
  config: { limits: { maxTextChars: 1_000_000 } },
  tiers: new Map<Tier, TierChecker>([['t1', instant]]),
  runner: { concurrency: 16 },
}

/// A text of `claims` one-sentence claims.
export const claimsText = (claims: number): string =>
  Array.from({ length: claims }, (_, i) => `Crate ${i + 1} weighs ${(i % 90) + 10} kilograms.`).join(' ')

/// Submits a t1 check of `claims` claims as the engine's local principal and waits until it has ended.
export async function checkedClaims(engine: Engine, claims: number): Promise<string> {
  const principal = engine.localPrincipal()
  const { check } = await engine.service.submit(principal, { text: claimsText(claims), tiers: ['t1'] })
  if (!hasEnded(engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
  return check.id
}

/// Report assembly (`GET /checks/{id}/report` without HTTP) for checks of 100, 1,000 and 10,000 claims, and
/// how fast the job runner fills them (one run each: the store's and the runner's cost per unit).
export async function reportBenchmarks(): Promise<Figure[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-'))
  const engine = openEngine({
    ...instantEngine,
    dataDir,
    config: Config.parse(instantEngine.config),
    runJobs: true,
  })
  const principal = engine.localPrincipal()
  engine.admin.grantCredits(principal.organizationId, 100_000)
  const figures: Figure[] = []
  for (const claims of [100, 1000, 10_000]) {
    const started = performance.now()
    const checkId = await checkedClaims(engine, claims)
    const seconds = (performance.now() - started) / 1000
    const report = engine.service.report(principal, checkId)
    figures.push(
      summarise(
        `runner: a check of ${claims.toLocaleString('en')} claims whose tier answers at once, submit to end`,
        'claims/s',
        [claims / seconds],
      ),
      timeIt(
        `report of ${report.claims.length.toLocaleString('en')} claims`,
        () => engine.service.report(principal, checkId),
        claims > 1000 ? 10 : 30,
      ),
    )
  }
  await engine.close()
  rmSync(dataDir, { recursive: true, force: true })
  return figures
}
