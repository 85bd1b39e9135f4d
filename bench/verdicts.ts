// Tokens and model requests per claim of t2 and t3, before and after the verdict steps of #22 (the panel
// deciding when it agrees, one debate round when it does not, today's date in every prompt), with fake models
// of fixed behaviour: on four claims in five the three panelists agree, on the fifth one of them dissents and
// keeps its vote through the debate. "Before" is the same run with those steps switched off, as the job runner
// ran t2 and t3 until then: every claim goes to the judge.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openEngine } from '../src/main/engine/engine'
import { hasEnded } from '../src/main/engine/events'
import { ALL_STEPS, type VerdictSteps } from '../src/main/engine/tiers/steps'
import { DATA_CLOSE, DATA_OPEN } from '../src/main/engine/tiers/t2/prompts'
import { Config } from '../src/shared/config'
import type { Tier } from '../src/shared/schemas'
import { fromSchema, startFakeOpenAI, type RecordedRequest } from '../test/helpers/fakeOpenAI'
import { FakeWiki } from '../test/helpers/fakeWiki'
import type { Figure } from './measure'

const CLAIMS = 20
/// Claims whose number is a multiple of this split the panel (one in five).
const SPLIT_EVERY = 5
const QUOTE = 'The old railway bridges of the region were opened between 1850 and 1910.'

/// 20 claims of about 20 words, each its own sentence, as in an article.
const ARTICLE = Array.from(
  { length: CLAIMS },
  (_, i) =>
    `Bridge ${i + 1} of the old railway was opened in ${1850 + i * 3} and carried ${1200 + i * 45} trains a week.`,
).join(' ')

const BEFORE: VerdictSteps = { date: false, panelDecides: false, debate: false }

/// The claim a request is about, read from its data block.
const claimOf = (request: RecordedRequest): string => {
  const start = request.user.indexOf(`${DATA_OPEN}\n`) + DATA_OPEN.length + 1
  const data = JSON.parse(request.user.slice(start, request.user.lastIndexOf(`\n${DATA_CLOSE}`))) as {
    claim?: string
  }
  return data.claim ?? ''
}

/// Every model answers what its response format asks for; `model-c` dissents on every fifth claim (and keeps
/// its vote in the debate), and votes cite the one sentence the wiki serves.
function answer(request: RecordedRequest): unknown {
  const schema = request.body.response_format.json_schema.schema
  const number = Number(/Bridge (\d+)/.exec(claimOf(request))?.[1] ?? 0)
  const dissents = request.model === 'model-c' && number % SPLIT_EVERY === 0
  return fromSchema(
    schema,
    schema,
    { verdict: dissents ? 'refuted' : 'supported', citations: [{ passage: 'P1', quote: QUOTE }] },
    '',
  )
}

export interface VerdictFigure {
  tier: Tier
  when: 'before' | 'after' | 'after without the debate'
  tokensPerClaim: number
  requestsPerClaim: number
}

/// One check of the article in `tier` with `steps`, on a fresh engine: its tokens and requests per claim.
async function measure(tier: Tier, steps: Readonly<VerdictSteps>): Promise<Omit<VerdictFigure, 'when'>> {
  const fake = await startFakeOpenAI({ '*': { answer } })
  const wiki = await new FakeWiki().start()
  wiki.article('Bridges', [`${QUOTE} Many of them still stand.`])
  wiki.search = () => [{ title: 'Bridges' }]
  const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-verdicts-'))
  const model = (id: string, name: string) => ({
    id,
    provider: 'openai-compatible' as const,
    baseURL: fake.baseURL,
    model: name,
  })
  const engine = openEngine({
    dataDir,
    config: Config.parse({
      models: {
        panel: ['a', 'b', 'c'].map((letter) => model(`panel-${letter}`, `model-${letter}`)),
        judge: model('judge', 'model-judge'),
      },
      search: { baseURL: wiki.apiUrl },
      web: { allowLocalTargets: true },
    }),
    runJobs: true,
    verdictSteps: steps,
  })
  try {
    const principal = engine.localPrincipal()
    const { check } = await engine.service.submit(principal, { text: ARTICLE, tiers: [tier] })
    if (!hasEnded(engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
    const report = engine.service.report(principal, check.id)
    if (report.check.status !== 'completed') throw new Error(`bench check ${report.check.status}`)
    const claims = report.claims.length
    const { input, output } = report.summary.tokens
    const round = (n: number) => Math.round(n * 10) / 10
    return {
      tier,
      tokensPerClaim: round((input + output) / claims),
      requestsPerClaim: round(fake.requests.length / claims),
    }
  } finally {
    await engine.close()
    rmSync(dataDir, { recursive: true, force: true })
    await Promise.all([fake.close(), wiki.close()])
  }
}

/// t2 and t3, each before and after.
export async function verdictBenchmarks(): Promise<VerdictFigure[]> {
  const figures: VerdictFigure[] = []
  for (const tier of ['t2', 't3'] as const) {
    figures.push({ ...(await measure(tier, BEFORE)), when: 'before' })
    figures.push({ ...(await measure(tier, ALL_STEPS)), when: 'after' })
    // What the agreeing panel alone saves, and what the debate round costs.
    figures.push({
      ...(await measure(tier, { ...ALL_STEPS, debate: false })),
      when: 'after without the debate',
    })
  }
  return figures
}

/// The figures as the bench prints them, with each tier's ratio of tokens after to before.
export function verdictFigures(figures: readonly VerdictFigure[]): Figure[] {
  const figure = (name: string, unit: string, value: number): Figure => ({
    name,
    unit,
    median: value,
    p95: value,
    min: value,
    max: value,
    runs: 1,
  })
  return figures.flatMap((f) => {
    const before = figures.find((other) => other.tier === f.tier && other.when === 'before')
    const ratio = before ? Math.round((f.tokensPerClaim / before.tokensPerClaim) * 100) / 100 : 1
    return [
      figure(`${f.tier} ${f.when}: tokens per claim`, 'tokens', f.tokensPerClaim),
      figure(`${f.tier} ${f.when}: model requests per claim`, 'requests', f.requestsPerClaim),
      ...(f.when === 'before' ? [] : [figure(`${f.tier} ${f.when}: tokens per claim / before`, '×', ratio)]),
    ]
  })
}
