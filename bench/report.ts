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

const citation = (claim: string, at: string) => ({
  url: 'https://www.example.org/reference/shipping/crates-and-their-weights',
  title: 'Crates and their weights: a reference',
  quote: `The register lists it: ${claim}`,
  retrievedAt: at,
  publishedAt: null,
  stance: 'supports' as const,
})
const REASON = 'The register lists this crate with this weight, and no source read disagrees with it.'

/// A t2 tier whose panel of three votes at once and whose judge decides at once, with a citation: a completed
/// 500-claim t1+t2 check's report then has 2,000 votes in about 770 KB, as the one issue 26 measured.
export const instantPanel: TierChecker = {
  tier: 't2',
  models: () => ['panel-a', 'panel-b', 'panel-c'],
  check: async ({ model, now }) => ({
    evaluation: {
      tier: 't2',
      model,
      verdict: 'supported',
      confidence: 0.9,
      rationale: REASON,
      citations: [],
      createdAt: now(),
      cached: false,
      usage: { inputTokens: 900, outputTokens: 120 },
      round: 1,
      detail: null,
    },
    consensus: null,
    issues: [],
  }),
  judge: async ({ claim, now }) => ({
    consensus: {
      verdict: 'supported',
      confidence: 0.9,
      agreement: 1,
      reasoning: REASON,
      citations: [citation(claim.text, now())],
      correction: null,
      decidedAt: now(),
      detail: null,
      sourced: true,
      sources: 1,
      decidedBy: null,
    },
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
  const principal = engine.localPrincipal()
  const { check } = await engine.service.submit(principal, { text: claimsText(claims), tiers })
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
