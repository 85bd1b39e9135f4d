import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine } from '../src/main/engine/engine'
import { hasEnded } from '../src/main/engine/events'
import { RESOLVE_BATCH } from '../src/main/engine/tiers/resolve'
import { Config } from '../src/shared/config'
import { startFakeOpenAI } from '../test/helpers/fakeOpenAI'
import { sample, summarise, withTarget, type Figure } from './measure'
import { claimsText } from './report'

const CLAIMS = 200
/// Requests in flight at once to the fake's endpoint (all models share it), and units the runner runs at once.
const CONCURRENCY = 64
const RUNS = 2
const TARGET_LATENCY_MS = 200
const SETUPS: [latencyMs: number, panel: number][] = [
  [200, 1],
  [200, 3],
  [1000, 1],
  [1000, 3],
]

/// A 200-claim t2 check against the fake model server answering each request after a fixed latency, with a
/// panel of 1 and of 3 models: claims per minute, and that over the ideal bound, where every one of the
/// `CONCURRENCY` request slots is always busy: CONCURRENCY ÷ latency requests per second, and each claim needs
/// one request per panel model and one for its judge, and its share of a resolver request (RESOLVE_BATCH claims
/// each). The resolver's requests are counted because the engine must make them: no claim may be voted on before
/// it is resolved (its statement is what is checked), so they are work of the check like its votes. Counting them
/// lowers the bound by 6% with a panel of 1 and 3% with a panel of 3; it does not count the one request's wait
/// before the first vote, nor the judges an agreeing panel saves.
export async function engineBenchmarks(): Promise<Figure[]> {
  const fake = await startFakeOpenAI()
  const figures: Figure[] = []
  try {
    for (const [latencyMs, panelSize] of SETUPS) {
      fake.behave('*', { latencyMs })
      const requests = CLAIMS * (panelSize + 1) + Math.ceil(CLAIMS / RESOLVE_BATCH)
      const ideal = (CONCURRENCY / (latencyMs / 1000) / (requests / CLAIMS)) * 60
      const perMinute = await sample(RUNS, async (run) => {
        const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-engine-'))
        const model = (id: string) => ({
          id,
          provider: 'openai-compatible' as const,
          baseURL: fake.baseURL,
          // A model name per run: no vote is served from the cache of an earlier run.
          model: `${id}-${latencyMs}-${run}`,
        })
        const engine = openEngine({
          dataDir,
          config: Config.parse({
            models: {
              panel: Array.from({ length: panelSize }, (_, i) => model(`panel-${i + 1}`)),
              judge: model('judge'),
              concurrencyPerProvider: CONCURRENCY,
            },
          }),
          runJobs: true,
        })
        try {
          const principal = engine.localPrincipal()
          engine.admin.grantCredits(principal.organizationId, 10_000)
          const started = performance.now()
          const { check } = await engine.service.submit(principal, {
            text: claimsText(CLAIMS),
            tiers: ['t2'],
          })
          if (!hasEnded(engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
          const minutes = (performance.now() - started) / 60_000
          const report = engine.service.report(principal, check.id)
          if (report.check.status !== 'completed') throw new Error(`bench check ${report.check.status}`)
          return report.claims.length / minutes
        } finally {
          await engine.close()
          rmSync(dataDir, { recursive: true, force: true })
        }
      })
      const setup = `t2, ${CLAIMS} claims, panel of ${panelSize}, ${latencyMs} ms a request`
      const ratio = summarise(
        `${setup}: ÷ ideal ${Math.round(ideal)}/min`,
        '×',
        perMinute.map((value) => value / ideal),
      )
      // The issue asks t2 to reach 0.9 of its bound at 200 ms a request.
      figures.push(
        summarise(setup, 'claims/min', perMinute),
        latencyMs === TARGET_LATENCY_MS ? withTarget(ratio, '≥', 0.9) : ratio,
      )
    }
  } finally {
    await fake.close()
  }
  return figures
}
