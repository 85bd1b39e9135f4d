import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine } from '../src/main/engine/engine'
import { Config } from '../src/shared/config'
import { hasEnded } from '../src/main/engine/events'
import type { TierChecker } from '../src/main/engine/tiers/tier'
import { timeIt, type Figure } from './measure'

/// A tier that decides at once, so the benchmark fills a real store through the real runner.
const instant: TierChecker = {
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
    },
    consensus: {
      verdict: 'issues',
      confidence: 1,
      agreement: 1,
      reasoning: 'one finding',
      citations: [],
      correction: 'x',
      decidedAt: now(),
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

/// Report assembly (`GET /checks/{id}/report` without HTTP) for checks of 100, 1,000, 2,000 and 10,000 claims.
export async function reportBenchmarks(): Promise<Figure[]> {
  const engine = openEngine({
    dataDir: mkdtempSync(join(tmpdir(), 'factdesk-bench-')),
    // 10,000 claims are about 330,000 characters, over the default limit of a submitted text.
    config: Config.parse({ limits: { maxTextChars: 1_000_000 } }),
    runJobs: true,
    tiers: new Map([['t1', instant]]),
    runner: { concurrency: 16 },
  })
  const principal = engine.localPrincipal()
  engine.admin.grantCredits(principal.organizationId, 100_000)
  const figures: Figure[] = []
  for (const claims of [100, 1000, 2000, 10_000]) {
    const text = Array.from(
      { length: claims },
      (_, i) => `Crate ${i + 1} weighs ${(i % 90) + 10} kilograms.`,
    ).join(' ')
    const { check } = await engine.service.submit(principal, { text, tiers: ['t1'] })
    if (!hasEnded(engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
    const report = engine.service.report(principal, check.id)
    figures.push(
      timeIt(
        `report of ${report.claims.length.toLocaleString('en')} claims`,
        () => engine.service.report(principal, check.id),
        claims > 2000 ? 10 : 30,
      ),
    )
  }
  await engine.close()
  return figures
}
