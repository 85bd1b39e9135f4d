// `npm run bench -- robustness` (issue #31, item 10): whether verdicts survive the slips small models make. A
// document of 24 labelled claims of Factcheck-Bench (../shared/data), each with a page on a fake wiki made of the
// claim's real evidence passages, is checked with t2 and with t3 on a fresh engine through the fake OpenAI server,
// its every model an oracle that answers exactly: it reads the data block of each request (the resolver's, the
// search step's, the evidence choice's, a vote's, a judge's, the stance check's), answers by the claim's label,
// and cites the sentence of the claim's evidence that settles it, verbatim. Then the same oracle answers with
// each kind of slip of test/helpers/slips.ts (one kind at a time, then all together), and each run's verdicts are
// compared with the exact run's: the share of claims whose t2 and t3 verdicts are the same, and the model
// requests per claim each costs. The target is 100% for every kind. The third panelist dissents on every fifth
// claim and, with the second, splits three ways on every seventh, so that the debate, the majority and the judge
// are measured too; a first exact run against a second checks that the measurement itself is repeatable.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { openEngine } from '../src/main/engine/engine'
import { hasEnded } from '../src/shared/vocabulary'
import { normaliseSpace } from '../src/main/engine/web'
import { folded } from '../src/main/engine/web/typography'
import { Config } from '../src/shared/config'
import type { Consensus, Tier, Verdict } from '../src/shared/schemas'
import {
  fromSchema,
  requestData,
  startFakeOpenAI,
  type Behaviour,
  type RecordedRequest,
} from '../test/helpers/fakeOpenAI'
import { FakeWiki } from '../test/helpers/fakeWiki'
import { ALL_SLIPS, SLIPS, slipping, type Slip } from '../test/helpers/slips'
import type { Figure } from './measure'

const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url))
/// Claims in the bench's document: half of them true, half false.
export const CLAIMS = 24
/// The third panelist dissents on claims whose number is a multiple of this; with the second, the panel splits
/// three ways on multiples of THREE_WAYS.
const DISSENT_EVERY = 5
const THREE_WAYS = 7
/// Results the fake wiki returns per search.
const HITS = 5
/// The longest sentence the oracle quotes, where a shorter one will do.
const MAX_QUOTE = 300

/// A labelled claim, the sentence of its evidence that settles it, and its page.
export interface LabelledClaim {
  claim: string
  verdict: 'supported' | 'refuted'
  /// The claim corrected (Factcheck-Bench's revision), for a false one.
  correction: string | null
  /// The sentence of the passage that confirms or contradicts the claim, as the page has it.
  quote: string
  /// The title of the claim's page, and its paragraphs: the claim's evidence passages, the deciding one first.
  page: string
  paragraphs: string[]
}

const segmenter = new Intl.Segmenter('en', { granularity: 'sentence' })
const words = (text: string): Set<string> => new Set(folded(text).match(/[\p{L}\p{N}]{3,}/gu) ?? [])

/// The first `count` claims of Factcheck-Bench (half true, half false, in the file's order) that have a passage
/// that completely supports (a true claim) or refutes (a false one) them, with that passage's sentence that
/// shares the most words with the claim as the quote that settles it.
export function labelledClaims(count = CLAIMS): LabelledClaim[] {
  const rows = (file: string) =>
    readFileSync(join(DATA, file), 'utf8')
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Record<string, string>)
  const evidence = rows('evidence/factcheckbench-stance.jsonl')
  const chosen: LabelledClaim[] = []
  const titles = new Set<string>()
  for (const row of rows('verification/factcheckbench-claims.jsonl')) {
    const verdict = row.label === 'true' ? 'supported' : 'refuted'
    const claim = row.claim ?? ''
    if (chosen.filter((c) => c.verdict === verdict).length >= Math.ceil(count / 2)) continue
    // Sentences only, as a writer ends them.
    if (!/[^.,]\.$/.test(claim)) continue
    // The claim's passages, each once, and the one that decides it.
    const found = new Map(
      evidence
        .filter((e) => e.claim === claim)
        .map((e) => [normaliseSpace(e.evidence ?? ''), e.stance] as const),
    )
    const passages = [...found.keys()]
    const deciding = passages.find(
      (passage) => found.get(passage) === (verdict === 'supported' ? 'completely-support' : 'refute'),
    )
    if (!deciding) continue
    const claimWords = words(claim)
    const all = [...segmenter.segment(deciding)]
      .map((part) => part.segment.trim())
      .filter((sentence) => sentence.split(' ').length >= 4)
    // A sentence as a writer ends it, of a quote's length, where the passage has one.
    const written = all.filter((sentence) => /[.!?]["”’)]?$/.test(sentence) && sentence.length <= MAX_QUOTE)
    const sentences = written.length > 0 ? written : all
    const shared = (sentence: string) => [...words(sentence)].filter((word) => claimWords.has(word)).length
    const quote = sentences.reduce<string | undefined>(
      (best, sentence) => (best === undefined || shared(sentence) > shared(best) ? sentence : best),
      undefined,
    )
    if (!quote) continue
    // Words only: a page's address is made of its title.
    const title = claim
      .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
      .split(/\s+/)
      .slice(0, 6)
      .join(' ')
    let page = title
    for (let n = 2; titles.has(page); n++) page = `${title} ${n}`
    titles.add(page)
    chosen.push({
      claim,
      verdict,
      correction: verdict === 'refuted' ? (row.revised_claim ?? null) : null,
      quote,
      page,
      paragraphs: [deciding, ...passages.filter((passage) => passage !== deciding)],
    })
    if (chosen.length === count) break
  }
  return chosen
}

/// The document: the claims one after another, as one paragraph.
export const documentOf = (claims: readonly LabelledClaim[]): string => claims.map((c) => c.claim).join(' ')

const same = (a: string, b: string): boolean => {
  const plain = (text: string) => folded(text).replace(/[\s.,;:!?…]+$/, '')
  return plain(a) !== '' && (plain(a).includes(plain(b)) || plain(b).includes(plain(a)))
}

/// The oracle: every model answers each request exactly, from its data block, for the claims it knows (a claim
/// it does not know, such as a statement that says something else, is unverifiable: not checkable). Its votes
/// and decisions follow the claim's label; with passages, only when one of them holds the quote that settles the
/// claim (else: no evidence), citing it. Its search step reads the claim's page, its evidence choice names the
/// passages that hold the quote, and its stance check finds that quote supports (or refutes) the claim and any
/// other neutral. The third panelist (`model-c`) dissents on every fifth claim, the second (`model-b`) says
/// unverifiable on every seventh, and both keep their votes in the debate.
export function oracle(claims: readonly LabelledClaim[]): Behaviour {
  const known = new Map(claims.map((claim, index) => [folded(claim.claim), { ...claim, number: index + 1 }]))
  const answerFor = (model: string, question: { claim?: string }, data: any): Record<string, unknown> => {
    const claim = known.get(folded(question.claim ?? ''))
    const passages: Array<{ id: string; text: string }> = data.passages ?? []
    const holding = claim ? passages.filter((passage) => same(passage.text, claim.quote)) : []
    const found = data.passages === undefined || holding.length > 0
    let verdict: Verdict = claim ? (found ? claim.verdict : 'unverifiable') : 'unverifiable'
    const number = claim?.number ?? 0
    if (claim && model === 'model-c' && number % DISSENT_EVERY === 0)
      verdict = verdict === 'supported' ? 'refuted' : 'supported'
    if (claim && (model === 'model-c' || model === 'model-b') && number % THREE_WAYS === 0)
      verdict = model === 'model-b' ? 'unverifiable' : verdict === 'supported' ? 'refuted' : 'supported'
    const reasons = claim
      ? `${claim.correction ?? claim.claim} (${claim.quote})`
      : 'The claim names nothing that can be checked.'
    const stance = claim?.verdict === 'supported' ? 'supports' : 'refutes'
    return {
      verdict,
      detail: verdict !== 'unverifiable' ? null : claim ? 'no_evidence' : 'not_checkable',
      confidence: verdict === claim?.verdict ? 0.9 : 0.6,
      rationale: reasons,
      reasoning: reasons,
      correction: verdict === 'refuted' ? (claim?.correction ?? null) : null,
      citations:
        claim && (verdict === 'supported' || verdict === 'refuted')
          ? holding.slice(0, 1).map(({ id }) => ({ passage: id, quote: claim.quote }))
          : [],
      read: ((data.results ?? []) as Array<{ id: string; title: string }>)
        .filter((result) => result.title === claim?.page)
        .map(({ id }) => id),
      nextQuery: null,
      query: question.claim ?? '',
      passages: holding.map(({ id }) => id),
      stances: ((data.quotes ?? []) as Array<{ id: string; quote: string }>).map(({ id, quote }) => {
        const bears = claim !== undefined && same(quote, claim.quote)
        return {
          quote: id,
          reasoning: bears ? `It states ${claim?.quote}` : 'It is about something else.',
          stance: bears ? stance : 'neutral',
        }
      }),
    }
  }
  return {
    answer: (request: RecordedRequest) => {
      const schema = request.body.response_format.json_schema.schema
      const data = requestData(request)
      // A batch: each claim's vote under its key.
      if (Array.isArray(data.claims))
        return Object.fromEntries(
          data.claims.map((question: { key: string; claim: string }) => [
            question.key,
            fromSchema(schema.properties[question.key], schema, answerFor(request.model, question, data), ''),
          ]),
        )
      return fromSchema(schema, schema, answerFor(request.model, data, data), '')
    },
  }
}

/// The fake wiki's search: the pages that share the most words with the query (title and text), best first.
function searchOf(claims: readonly LabelledClaim[]) {
  return (query: string) => {
    const asked = words(query)
    return claims
      .map((claim) => ({
        claim,
        score: [...words(`${claim.page} ${claim.paragraphs.join(' ')}`)].filter((w) => asked.has(w)).length,
      }))
      .filter(({ score }) => score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, HITS)
      .map(({ claim }) => ({ title: claim.page, snippet: `${(claim.paragraphs[0] ?? '').slice(0, 160)}…` }))
  }
}

const escaped = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')

/// One check of the document per tier, on a fresh engine with a panel of three and a judge whose every model is
/// `model`, and search on the fake wiki: each claim's verdict per tier (by its words), and the model requests
/// each tier and the resolver made.
export interface Checked {
  verdicts: Record<'t2' | 't3', Map<string, Consensus['verdict'] | null>>
  requests: Record<'t2' | 't3' | 'resolver', number>
  claims: number
}

export async function checkDocument(claims: readonly LabelledClaim[], model: Behaviour): Promise<Checked> {
  const fake = await startFakeOpenAI({ '*': model })
  const wiki = await new FakeWiki().start()
  for (const claim of claims) wiki.article(claim.page, claim.paragraphs.map(escaped))
  wiki.search = searchOf(claims)
  const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-bench-robustness-'))
  const handle = (id: string, name: string) => ({
    id,
    provider: 'openai-compatible' as const,
    baseURL: fake.baseURL,
    model: name,
  })
  const engine = await openEngine({
    dataDir,
    config: Config.parse({
      models: {
        panel: ['a', 'b', 'c'].map((letter) => handle(`panel-${letter}`, `model-${letter}`)),
        judge: handle('judge', 'model-judge'),
      },
      search: { baseURL: wiki.apiUrl },
      web: { allowLocalTargets: true },
    }),
    runJobs: true,
  })
  const resolving = (request: RecordedRequest) =>
    request.body.response_format?.json_schema?.name === 'statements'
  try {
    const principal = await engine.localPrincipal()
    const verdicts = { t2: new Map(), t3: new Map() } as Checked['verdicts']
    const requests = { t2: 0, t3: 0, resolver: 0 }
    let count = 0
    for (const tier of ['t2', 't3'] as const satisfies Tier[]) {
      const before = fake.requests.length
      const { check } = await engine.service.submit(principal, { text: documentOf(claims), tiers: [tier] })
      if (!hasEnded(await engine.service.getCheck(principal, check.id))) await engine.events.ended(check.id)
      const report = await engine.service.report(principal, check.id)
      if (report.check.status !== 'completed') throw new Error(`robustness check ${report.check.status}`)
      for (const claim of report.claims)
        verdicts[tier].set(claim.text, claim.consensus[tier]?.verdict ?? null)
      const made = fake.requests.slice(before)
      requests[tier] = made.filter((request) => !resolving(request)).length
      requests.resolver += made.filter(resolving).length
      count = report.claims.length
    }
    return { verdicts, requests, claims: count }
  } finally {
    await engine.close()
    rmSync(dataDir, { recursive: true, force: true })
    await Promise.all([fake.close(), wiki.close()])
  }
}

/// One row of the bench: a kind of slip (or none), the share of claims whose verdict in each tier is the exact
/// run's, and the model requests per claim.
export interface RobustnessRow {
  slip: string
  claims: number
  t2Same: number
  t3Same: number
  t2RequestsPerClaim: number
  t3RequestsPerClaim: number
  resolverRequestsPerClaim: number
}

/// What the bench measured: a row per kind of slip, and how many of the exact run's verdicts are the claims'
/// labels (what the oracle makes of the engine: every claim, where the engine reads it right).
export interface Robustness {
  rows: RobustnessRow[]
  exactMatchesLabels: Record<'t2' | 't3', number>
}

const share = (part: number, whole: number) => Math.round((part / Math.max(1, whole)) * 1000) / 1000
const perClaim = (requests: number, claims: number) => Math.round((requests / Math.max(1, claims)) * 10) / 10

/// A run of the bench: its name and the slips the oracle makes in it.
export type SlipRun = readonly [string, readonly Slip[]]

/// Each kind of slip alone, then all of them together.
export const SLIP_RUNS: readonly SlipRun[] = [
  ...Object.entries(SLIPS).map(([kind, slip]): SlipRun => [kind, [slip]]),
  ['all together', ALL_SLIPS],
]

/// The exact run, then a second exact one (the row "none": the measurement is repeatable), then `runs`, each
/// compared with the exact run, on the first `claims` labelled claims.
export async function robustness(
  options: { claims?: number; runs?: readonly SlipRun[] } = {},
): Promise<Robustness> {
  const claims = labelledClaims(options.claims ?? CLAIMS)
  const exact = oracle(claims)
  const reference = await checkDocument(claims, exact)
  const runs: SlipRun[] = [['none (exact answers again)', []], ...(options.runs ?? SLIP_RUNS)]
  const rows: RobustnessRow[] = []
  for (const [slip, slips] of runs) {
    const run = await checkDocument(claims, slipping(exact, slips))
    const sameIn = (tier: 't2' | 't3') =>
      [...reference.verdicts[tier]].filter(([text, verdict]) => run.verdicts[tier].get(text) === verdict)
        .length
    rows.push({
      slip,
      claims: reference.claims,
      t2Same: share(sameIn('t2'), reference.claims),
      t3Same: share(sameIn('t3'), reference.claims),
      t2RequestsPerClaim: perClaim(run.requests.t2, run.claims),
      t3RequestsPerClaim: perClaim(run.requests.t3, run.claims),
      resolverRequestsPerClaim: perClaim(run.requests.resolver, run.claims),
    })
  }
  const labelled = new Map(claims.map((claim) => [claim.claim, claim.verdict]))
  const matching = (tier: 't2' | 't3') =>
    share(
      [...reference.verdicts[tier]].filter(([text, verdict]) => labelled.get(text) === verdict).length,
      claims.length,
    )
  return { rows, exactMatchesLabels: { t2: matching('t2'), t3: matching('t3') } }
}

/// The bench's figures: per kind of slip, the share of t2's and t3's verdicts equal to the exact run's (target
/// 100%) and the requests per claim; and how many of the exact run's verdicts are the labels.
export function robustnessFigures({ rows, exactMatchesLabels }: Robustness): Figure[] {
  const figure = (name: string, unit: string, value: number, target?: string): Figure => ({
    name,
    unit,
    median: value,
    p95: value,
    min: value,
    max: value,
    runs: 1,
    ...(target ? { target } : {}),
  })
  return [
    figure('exact answers: t2 verdicts equal to the labels', '%', exactMatchesLabels.t2 * 100),
    figure('exact answers: t3 verdicts equal to the labels', '%', exactMatchesLabels.t3 * 100),
    ...rows.flatMap((row) => [
      figure(`${row.slip}: t2 verdicts as with exact answers`, '%', row.t2Same * 100, '≥ 100 %'),
      figure(`${row.slip}: t3 verdicts as with exact answers`, '%', row.t3Same * 100, '≥ 100 %'),
      figure(`${row.slip}: t2 model requests per claim`, 'requests', row.t2RequestsPerClaim),
      figure(`${row.slip}: t3 model requests per claim`, 'requests', row.t3RequestsPerClaim),
      figure(`${row.slip}: resolver requests per claim`, 'requests', row.resolverRequestsPerClaim),
    ]),
  ]
}
