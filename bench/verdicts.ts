// Tokens and model requests per claim of t2 and t3 with a panel of three, before and after #22, with fake
// models of fixed behaviour (on four claims in five the panelists agree, on the fifth one of them dissents and
// keeps its vote through the debate) and a fake search that finds three pages. Rows per tier:
// - "before #22": the engine as it was before issue #22 (commit PRE_ISSUE_22, checked out into a temporary
//   folder and run against the same fakes): no resolver, no date, every claim to the judge, t3's one-shot
//   search reading three pages per query and padding the panel's evidence to eight passages. The issue's
//   targets are against it ("today's tokens per claim"): t2 ≤ 0.8×, t3 ≤ 0.6×.
// - "steps off": today's engine with the steps of VerdictSteps switched off and without the resolver's
//   requests: what the shared prompts cost now, and the steps' own cost beside it.
// - "after": today's engine as shipped, the resolver's requests included (its share shown apart).
// - "after without the debate": what the agreeing panel alone saves, and what the debate round costs.
// - t2 "after, in two parts": as shipped, with a resolver that splits each claim into its two facts (its
//   opening year, its trains a week), as a capable one would; each panelist votes on both parts in one
//   request. (The other rows' resolver repeats each claim as it is, in one part.)
import { execFileSync, execFile } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { openEngine } from '../src/main/engine/engine'
import { hasEnded } from '../src/shared/vocabulary'
import { ALL_STEPS, type VerdictSteps } from '../src/main/engine/tiers/steps'
import { Config } from '../src/shared/config'
import type { Tier } from '../src/shared/schemas'
import {
  fromSchema,
  requestData,
  startFakeOpenAI,
  type ClaimToResolve,
  type RecordedRequest,
} from '../test/helpers/fakeOpenAI'
import { FakeWiki } from '../test/helpers/fakeWiki'
import type { Figure } from './measure'

/// The last commit before the work on issue #22 (its first commit, d348269, changed only the report's shape).
export const PRE_ISSUE_22 = '6a64a37'
/// The issue's targets: tokens per claim after, over before #22, at equal panel size.
export const TARGETS: Record<'t2' | 't3', number> = { t2: 0.8, t3: 0.6 }

const CLAIMS = 20
/// Claims whose number is a multiple of this split the panel (one in five).
const SPLIT_EVERY = 5
const QUOTE = 'The old railway bridges of the region were opened between 1850 and 1910.'

/// 20 claims of about 20 words, each its own sentence, as in an article.
export const ARTICLE = Array.from(
  { length: CLAIMS },
  (_, i) =>
    `Bridge ${i + 1} of the old railway was opened in ${1850 + i * 3} and carried ${1200 + i * 45} trains a week.`,
).join(' ')

/// What the search finds for any claim: three pages of four paragraphs that share the claims' words, the
/// first of them with the sentence that settles every claim.
export const PAGES: Record<string, string[]> = {
  'Railway bridges of the region': [
    `${QUOTE} Many of them still stand, and several are listed monuments.`,
    'The bridges carried goods and passenger trains; at their busiest, several carried more than a thousand ' +
      'trains a week between the coast and the mining towns.',
    'Most were built of wrought iron on stone piers, and several were rebuilt in steel after 1920 when ' +
      'heavier locomotives came into service on the old railway.',
    'The railway company published timetables for each line, listing the trains that crossed each bridge ' +
      'and the week of the year in which a bridge was closed for repairs.',
  ],
  'The old railway': [
    'The old railway opened its first line in 1848 and reached the mining towns a decade later, with a ' +
      'bridge over each of the three rivers.',
    'At its peak the railway ran more than two hundred trains a day, most of them carrying coal to the port.',
    'The line was nationalised in 1948 and closed to passengers in 1967; a short stretch is now a heritage ' +
      'railway that runs trains on summer weekends.',
    'Its archive, with drawings of every bridge and station, is kept by the county record office.',
  ],
  'Bridge engineering in the nineteenth century': [
    'Iron railway bridges of the nineteenth century were built as girders, trusses or arches, depending on ' +
      'the span and the ground.',
    'A bridge opened to trains only after a load test, in which locomotives were run across it and the ' +
      'deflection of the girders was measured.',
    'Several failures, most famously the Tay Bridge in 1879, led to stricter rules on wind loads for ' +
      'bridges opened after that year.',
    'Engineers kept weekly records of the trains a bridge carried to plan its inspections.',
  ],
}

/// The steps of #22 off (the later ones stay on: #22's figures are measured as they were).
const STEPS_OFF: VerdictSteps = { ...ALL_STEPS, date: false, panelDecides: false, debate: false }

/// What a request's data block holds that the fake reads: the claim, the passages offered and the quotes
/// to judge.
interface RequestData {
  claim?: string
  /// A batch's claims, each under its key.
  claims?: Array<{ key: string; claim: string }>
  passages?: Array<{ id: string; text: string }>
  quotes?: Array<{ id: string }>
  /// The search loop's queries so far.
  queries?: string[]
}

/// Every model answers what its response format asks for, as a capable model would on these claims: it
/// searches the claim's words, reads the first search result and searches no more, names the passage that
/// holds the quote as the evidence, says each quote supports the claim, and votes citing the quote; `model-c`
/// dissents on every fifth claim (and keeps its vote in the debate). The same answers whatever the prompts say.
export function answer(request: RecordedRequest): unknown {
  const schema = request.body.response_format.json_schema.schema
  const data = requestData(request) as RequestData
  const about = (claim: string | undefined, part: unknown) => {
    const number = Number(/Bridge (\d+)/.exec(claim ?? '')?.[1] ?? 0)
    const dissents = request.model === 'model-c' && number % SPLIT_EVERY === 0
    return fromSchema(
      part,
      schema,
      {
        verdict: dissents ? 'refuted' : 'supported',
        citations: [{ passage: 'P1', quote: QUOTE }],
        read: ['R1'],
        // The first query is the claim's words, as t3 searched before the model wrote it.
        nextQuery: data.queries?.length === 0 ? (claim ?? null) : null,
        passages: (data.passages ?? []).filter((passage) => passage.text.includes(QUOTE)).map(({ id }) => id),
        stances: (data.quotes ?? []).map(({ id }) => ({
          quote: id,
          reasoning: 'The quote states when the bridges were opened.',
          stance: 'supports',
        })),
      },
      '',
    )
  }
  // A batch: each claim's vote under its key.
  if (data.claims)
    return Object.fromEntries(
      data.claims.map(({ key, claim }) => [key, about(claim, schema.properties[key])]),
    )
  return about(data.claim, schema)
}

/// How a resolver that knows what the bench's claims say splits each into its two facts.
export function inTwoParts({ claim }: ClaimToResolve): { statement: string; parts: string[] | null } {
  const facts = /^(.+) was opened in (\d+) and (carried .+)$/.exec(claim)
  if (!facts) return { statement: claim, parts: null }
  const [, subject, year, carried] = facts
  return { statement: claim, parts: [`${subject} was opened in ${year}.`, `${subject} ${carried}`] }
}

export interface VerdictFigure {
  tier: 't2' | 't3'
  when: 'before #22' | 'steps off' | 'after' | 'after without the debate' | 'after, in two parts'
  /// Claims per panel request (the config's models.batchSize).
  batchSize: number
  tokensPerClaim: number
  requestsPerClaim: number
  /// The resolver's share of tokensPerClaim (0 where it does not run).
  resolverTokensPerClaim: number
}

/// What an engine must offer the measurement: today's and the one before #22 alike.
/// An engine of this commit or of an earlier one, whose store answered at once (before it was asynchronous).
export interface MeasuredEngine {
  localPrincipal(): unknown
  service: {
    submit(principal: unknown, input: { text: string; tiers: Tier[] }): Promise<{ check: { id: string } }>
    getCheck(principal: unknown, id: string): MaybeAsync<{ status: string }>
    report(principal: unknown, id: string): MaybeAsync<{ check: { status: string }; claims: unknown[] }>
  }
  events: { ended(id: string): Promise<unknown> }
  close(): Promise<void>
}

/// The engine's options for the bench: a panel of three and a judge on the fake models, search on the fake wiki.
type MaybeAsync<T> = T | Promise<T>

export type OpenBenchEngine = (options: {
  dataDir: string
  config: unknown
  runJobs: true
}) => MaybeAsync<MeasuredEngine>

const round = (n: number) => Math.round(n * 10) / 10

/// What one check measures.
type Measured = Pick<VerdictFigure, 'tokensPerClaim' | 'requestsPerClaim' | 'resolverTokensPerClaim'>

/// One check of the article in `tier` on a fresh engine opened by `open`: its tokens and requests per claim, as
/// the fake server counted them; without the resolver's requests unless `withResolver`; each claim split into
/// its two facts when `inParts`.
export async function measureWith(
  tier: Tier,
  open: OpenBenchEngine,
  parse: (input: unknown) => unknown,
  ended: (check: { status: string }) => boolean,
  withResolver: boolean,
  batchSize: number,
  inParts = false,
): Promise<Measured> {
  const fake = await startFakeOpenAI({ '*': { answer, ...(inParts ? { resolve: inTwoParts } : {}) } })
  const wiki = await new FakeWiki().start()
  for (const [title, paragraphs] of Object.entries(PAGES)) wiki.article(title, paragraphs)
  wiki.search = () =>
    Object.entries(PAGES).map(([title, paragraphs]) => ({
      title,
      snippet: `${paragraphs[0]!.slice(0, 160)}…`,
    }))
  const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-verdicts-'))
  const model = (id: string, name: string) => ({
    id,
    provider: 'openai-compatible' as const,
    baseURL: fake.baseURL,
    model: name,
  })
  const engine = await open({
    dataDir,
    config: parse({
      models: {
        panel: ['a', 'b', 'c'].map((letter) => model(`panel-${letter}`, `model-${letter}`)),
        judge: model('judge', 'model-judge'),
        batchSize,
      },
      search: { baseURL: wiki.apiUrl },
      web: { allowLocalTargets: true },
    }),
    runJobs: true,
  })
  try {
    const principal = await engine.localPrincipal()
    const { check } = await engine.service.submit(principal, { text: ARTICLE, tiers: [tier] })
    if (!ended(await engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
    const report = await engine.service.report(principal, check.id)
    if (report.check.status !== 'completed') throw new Error(`bench check ${report.check.status}`)
    const claims = report.claims.length
    const resolving = (request: RecordedRequest) =>
      request.body.response_format?.json_schema?.name === 'statements'
    const tokens = (requests: RecordedRequest[]) =>
      requests.reduce((sum, r) => sum + (r.usage?.total_tokens ?? 0), 0)
    const counted = fake.requests.filter((request) => withResolver || !resolving(request))
    return {
      tokensPerClaim: round(tokens(counted) / claims),
      requestsPerClaim: round(counted.length / claims),
      resolverTokensPerClaim: round(tokens(counted.filter(resolving)) / claims),
    }
  } finally {
    await engine.close()
    rmSync(dataDir, { recursive: true, force: true })
    await Promise.all([fake.close(), wiki.close()])
  }
}

/// Today's engine with `steps`.
const today = (
  tier: Tier,
  steps: Readonly<VerdictSteps>,
  withResolver: boolean,
  batchSize = 1,
  inParts = false,
) =>
  measureWith(
    tier,
    (options) => openEngine({ ...options, config: options.config as Config, verdictSteps: steps }),
    (input) => Config.parse(input),
    hasEnded as (check: { status: string }) => boolean,
    withResolver,
    batchSize,
    inParts,
  )

/// The engine of PRE_ISSUE_22, checked out into a temporary folder (with this checkout's node_modules) and run
/// by tsx against this file's fakes; one process per tier.
async function beforeIssue22(tier: 't2' | 't3', batchSize = 1): Promise<Measured> {
  const root = join(import.meta.dirname, '..')
  const dir = mkdtempSync(join(tmpdir(), 'factdesk-before-22-'))
  try {
    let archive: Buffer
    try {
      archive = execFileSync('git', ['archive', '--format=tar', PRE_ISSUE_22], {
        cwd: root,
        maxBuffer: 1 << 30,
        stdio: ['ignore', 'pipe', 'pipe'],
      })
    } catch {
      throw new Error(`the engine before #22 is measured from commit ${PRE_ISSUE_22}, which this clone lacks`)
    }
    execFileSync('tar', ['-x', '-C', dir], { input: archive })
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
    const runner = join(dir, 'bench-before.ts')
    writeFileSync(
      runner,
      [
        `import { measureWith } from ${JSON.stringify(join(root, 'bench', 'verdicts.ts'))}`,
        "import { openEngine } from './src/main/engine/engine'",
        "import { hasEnded } from './src/main/engine/events'",
        "import { Config } from './src/shared/config'",
        `const figure = await measureWith(${JSON.stringify(tier)}, openEngine, (i) => Config.parse(i), hasEnded, false, ${batchSize})`,
        'console.log(JSON.stringify(figure))',
      ].join('\n'),
    )
    const { stdout } = await promisify(execFile)('npx', ['tsx', runner], { cwd: dir, maxBuffer: 1 << 24 })
    return JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as Measured
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/// t2 and t3: before #22, with the steps off, after, and after without the debate, at batch size 1; t2 after
/// with each claim in two parts, and before and after at batch size 8 too (votes, and debate rounds, batched).
export async function verdictBenchmarks(): Promise<VerdictFigure[]> {
  const figures: VerdictFigure[] = []
  for (const tier of ['t2', 't3'] as const) {
    const row = (when: VerdictFigure['when'], measured: Measured, batchSize = 1): VerdictFigure => ({
      tier,
      when,
      batchSize,
      ...measured,
    })
    figures.push(row('before #22', await beforeIssue22(tier)))
    figures.push(row('steps off', await today(tier, STEPS_OFF, false)))
    figures.push(row('after', await today(tier, ALL_STEPS, true)))
    figures.push(row('after without the debate', await today(tier, { ...ALL_STEPS, debate: false }, true)))
    if (tier === 't2') {
      figures.push(row('after, in two parts', await today(tier, ALL_STEPS, true, 1, true)))
      figures.push(row('before #22', await beforeIssue22(tier, 8), 8))
      figures.push(row('after', await today(tier, ALL_STEPS, true, 8), 8))
    }
  }
  return figures
}

/// The figures as the bench prints them and writes them to latest.json: per tier and row its tokens and
/// requests per claim, the resolver's share, the ratio of tokens to before #22, and the issue's target.
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
    const before = figures.find(
      (other) => other.tier === f.tier && other.when === 'before #22' && other.batchSize === f.batchSize,
    )
    const when = f.batchSize === 1 ? f.when : `${f.when}, batch size ${f.batchSize}`
    const ratio = before ? Math.round((f.tokensPerClaim / before.tokensPerClaim) * 1000) / 1000 : 1
    return [
      figure(`${f.tier} ${when}: tokens per claim`, 'tokens', f.tokensPerClaim),
      figure(`${f.tier} ${when}: model requests per claim`, 'requests', f.requestsPerClaim),
      ...(f.resolverTokensPerClaim > 0
        ? [figure(`${f.tier} ${when}: of which the resolver`, 'tokens', f.resolverTokensPerClaim)]
        : []),
      ...(f.when !== 'before #22'
        ? [figure(`${f.tier} ${when}: tokens per claim / before #22`, '×', ratio)]
        : f.batchSize === 1
          ? [figure(`${f.tier} target: tokens per claim / before #22 at most`, '×', TARGETS[f.tier])]
          : []),
    ]
  })
}
