// `npm run eval -- verification --config FILE [--file PATH] [--limit N] [--no-STEP…] [--calibrate]`: the
// verdicts of a configured panel against labelled claims (../shared/data/verification/*.jsonl): accuracy and
// macro-F1 (over the gold verdicts present) of t2, of t2 with each step switched off in turn (the ablations:
// `--no-debate` and the like switch a step off in every row instead; steps.ts), of t2 with the file's evidence
// sentences as context and no web (Climate-FEVER), and of t3 (and its ablations) when the config file names a
// search provider; with the tokens and model requests spent per claim. Claims are checked as the engine checks
// them: in documents of a few consecutive claims of the file (so that each is resolved with the sentences before
// it), resolved into their statement (and parts), then every panel model votes and the tier's judge unit decides
// (the agreeing panel, or a debate round and the judge). Requests and tokens are counted where they are made
// (the resolver's, t3's search steps, evidence choice and stance checks included), and priced when the config
// gives the models' prices (`price` of each model: a cost column). `--calibrate` fits how often a verdict of each
// confidence was right and saves the map next to the config (FILE.calibration.json), which the engine then reads
// decisions' confidences through.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { z } from 'zod'
import { Verdict, type Evaluation, type Tier } from '../src/shared/schemas'
import type { ClaimRecord } from '../src/main/engine/store/documents'
import { everyModel, type Config, type ModelConfig } from '../src/shared/config'
import { Admin } from '../src/main/engine/checks/admin'
import {
  calibrationFile,
  type CalibrationMap,
  type CalibrationSteps,
} from '../src/main/engine/tiers/calibration'
import { systemClock } from '../src/main/engine/base/clock'
import { loadConfig } from '../src/main/engine/base/config'
import { apiKeys } from '../src/main/engine/base/keys'
import {
  ModelClient,
  modelHandle,
  modelSettings,
  tallied,
  type RequestTally,
} from '../src/main/engine/models'
import { Store } from '../src/main/engine/store'
import { todayOf, type VerdictSteps } from '../src/main/engine/tiers/steps'
import { statementResolver } from '../src/main/engine/tiers/resolve'
import { resolvedTier } from '../src/main/engine/tiers/resolve/parts'
import { modelTier } from '../src/main/engine/tiers/t2'
import {
  Decision,
  Vote,
  judgeSystem,
  panelSystem,
  judgePrompt,
  votePrompt,
} from '../src/main/engine/tiers/t2/prompts'
import { webTier } from '../src/main/engine/tiers/t3'
import type { TierChecker } from '../src/main/engine/tiers/tier'
import { Web } from '../src/main/engine/web'
import { eachClaim, tokensOf } from './calls'
import { dataSet, readJsonLines } from './lines'
import { NotConfigured } from './notConfigured'
import type { EvalSet } from './set'
import { EVAL_STEPS, WEB_ONLY, type EvalSteps } from './steps'

const DATA = dataSet('verification')

/// A labelled claim, and the evidence sentences the file gives for it (Climate-FEVER), if any.
interface LabelledClaim {
  claim: string
  gold: Verdict
  evidence: string[] | null
}

// Climate-FEVER's DISPUTED (its evidence both supports and refutes) is the nearest to "misleading".
const CLIMATE_FEVER: Record<string, Verdict> = {
  SUPPORTS: 'supported',
  REFUTES: 'refuted',
  NOT_ENOUGH_INFO: 'unverifiable',
  DISPUTED: 'misleading',
}
const FACTCHECK_BENCH: Record<string, Verdict> = {
  true: 'supported',
  false: 'refuted',
  not_enough_evidence: 'unverifiable',
}

/// Reads either format, one JSON object a line: Climate-FEVER (`claim`, `claim_label`, `evidences`) or
/// Factcheck-Bench (`claim`, `label`); a file of another shape is refused (WrongFormat).
function readClaims(path: string): LabelledClaim[] {
  const climateFever = z.object({
    claim: z.string(),
    claim_label: z.enum(Object.keys(CLIMATE_FEVER)),
    evidences: z.array(z.object({ evidence: z.string() })),
  })
  const factcheckBench = z.object({
    claim: z.string(),
    label: z.union([z.enum(Object.keys(FACTCHECK_BENCH)), z.boolean()]),
  })
  return readJsonLines(
    path,
    z.union([climateFever, factcheckBench]),
    `{"claim", "claim_label": one of ${Object.keys(CLIMATE_FEVER).join(', ')}, "evidences": [{"evidence"}, …]} ` +
      `or {"claim", "label": one of ${Object.keys(FACTCHECK_BENCH).join(', ')}}`,
  ).map((row) =>
    'claim_label' in row
      ? {
          claim: row.claim,
          gold: CLIMATE_FEVER[row.claim_label] as Verdict,
          evidence: row.evidences.map((e) => e.evidence),
        }
      : { claim: row.claim, gold: FACTCHECK_BENCH[String(row.label)] as Verdict, evidence: null },
  )
}

/// A way of deciding the `index`th claim of the file: its verdict, the confidence it was given with and the
/// panel's agreement on it, or null when no vote could be had.
type Decide = (
  item: LabelledClaim,
  index: number,
) => Promise<{ verdict: Verdict; confidence: number; agreement: number } | null>

/// Claims of the file in each document checked: consecutive ones, so that a claim is resolved with the sentences
/// before it as in a writer's document, and statements are measured.
const DOCUMENT_CLAIMS = 5

const STEPS = Object.keys(EVAL_STEPS) as (keyof EvalSteps)[]
type Way = Decide & { close(): Promise<void> }

const verification: EvalSet = {
  describe:
    'verdicts of the configured panel against labelled claims: accuracy, macro-F1 over the gold verdicts, ' +
    'tokens, requests and (with prices) cost per claim (t2 and each step switched off in turn; t2 with the ' +
    'evidence sentences as context; t3 and its ablations when search is configured)',
  async run({ file, config: configPath, limit, off = [], calibrate = false }) {
    const config = loadConfig(configPath)
    const judge = config.models.judge
    if (config.models.panel.length === 0 || judge === null)
      throw new NotConfigured(
        'verification needs a panel and a judge: pass a config file with models.panel and models.judge ' +
          '(--config FILE). Nothing was measured.',
      )
    const files = file ? [resolve(file)] : readdirSync(DATA).map((name) => join(DATA, name))
    // The steps every row takes (all but those switched off), and the rows that switch off one more each.
    const base: EvalSteps = { ...EVAL_STEPS, ...Object.fromEntries(off.map((step) => [step, false])) }
    // t2 has no search and no quotes: its rows leave out the steps of t3 alone.
    const ablations = (tier: Tier): [string, EvalSteps][] => [
      ['', base],
      ...STEPS.filter((step) => base[step] && (tier === 't3' || !WEB_ONLY.includes(step))).map(
        (step): [string, EvalSteps] => [` without ${step}`, { ...base, [step]: false }],
      ),
    ]
    const search = searchConfigured(configPath)
    const prices = new Map(
      [...everyModel(config.models), ...(config.models.verifier ? [config.models.verifier] : [])].map(
        (model) => [model.id, model.price] as const,
      ),
    )
    const priced = [...prices.values()].some((price) => price !== undefined)
    const table: Record<string, ReturnType<typeof scores>> = {}
    // The headline: t2 with every step over every claim of every file; calibration fits on it (and t3's).
    const headline: Record<Tier, Decided[]> = { t1: [], t2: [], t3: [] }
    for (const path of files.sort()) {
      const claims = readClaims(path).slice(0, limit)
      const ways: [string, () => Way | Promise<Way>][] = []
      for (const [name, steps] of ablations('t2')) {
        ways.push([
          `t2${name}`,
          async () =>
            await byTier(
              't2',
              (store) => modelTier(config.models, store.voteCache, apiKeys(), steps),
              steps.statement && config.models,
              claims,
            ),
        ])
      }
      if (claims.some((item) => item.evidence))
        ways.push([
          't2 with evidence',
          () => Object.assign(withEvidence(config.models, judge, base), { close: async () => {} }),
        ])
      if (search)
        for (const [name, steps] of ablations('t3'))
          ways.push([
            `t3${name}`,
            async () =>
              await byTier(
                't3',
                () => webTier(config, new Web(config), apiKeys(), steps),
                steps.statement && config.models,
                claims,
              ),
          ])
      for (const [how, make] of ways) {
        const decide = await make()
        const decided = await eachClaim(claims, async (item, index): Promise<Decided> => {
          // Every request the claim's check makes, by any step, counted as it is made.
          const tally: RequestTally = { requests: 0, tokens: new Map() }
          const outcome = await tallied(tally, () => decide(item, index))
          return {
            gold: item.gold,
            ...(outcome ?? { verdict: null, confidence: 0, agreement: 0 }),
            tokens: [...tally.tokens.values()].reduce((sum, usage) => sum + tokensOf(usage), 0),
            requests: tally.requests,
            cost: costOf(tally, prices),
          }
        })
        await decide.close()
        if (how === 't2' || how === 't3') headline[how].push(...decided)
        table[`${basename(path)}: ${how}`] = scores(decided, priced)
      }
    }
    if (calibrate && configPath) {
      const map: CalibrationMap = {
        t2: calibration(headline.t2),
        t3: search ? calibration(headline.t3) : null,
      }
      writeFileSync(calibrationFile(configPath), JSON.stringify(map, null, 2) + '\n')
    }
    return { ...scores(headline.t2, priced), table }
  },
}
export default verification

/// Whether the config file names a search provider for t3 (every config has a default one; the eval runs t3
/// only on request, since it reaches the web).
function searchConfigured(configPath: string | undefined): boolean {
  return configPath !== undefined && 'search' in (JSON.parse(readFileSync(configPath, 'utf8')) as object)
}

/// A claim's gold verdict, the one decided (null when no model voted), its confidence, the panel's agreement on
/// it, and the tokens, requests and dollars spent (null when a model that spent tokens has no price).
interface Decided {
  gold: Verdict
  verdict: Verdict | null
  confidence: number
  agreement: number
  tokens: number
  requests: number
  cost: number | null
}

/// The dollars the tally's tokens cost at the models' prices (per million tokens), or null when a model that
/// spent tokens has no price.
function costOf(tally: RequestTally, prices: ReadonlyMap<string, ModelConfig['price']>): number | null {
  let cost = 0
  for (const [model, usage] of tally.tokens) {
    const price = prices.get(model)
    if (!price) return null
    cost += (usage.inputTokens * price.inputPerMTok + usage.outputTokens * price.outputPerMTok) / 1e6
  }
  return cost
}

/// Accuracy, macro-F1 over the gold verdicts present, tokens and requests per claim, and the cost per claim in
/// dollars when `priced` (null when some model's price is missing); a claim no model voted on counts as wrong.
function scores(decided: Decided[], priced: boolean) {
  const golds = [...new Set(decided.map((d) => d.gold))]
  const f1s = golds.map((label) => {
    const tp = decided.filter((d) => d.gold === label && d.verdict === label).length
    const predicted = decided.filter((d) => d.verdict === label).length
    const actual = decided.filter((d) => d.gold === label).length
    return tp === 0 ? 0 : (2 * tp) / (predicted + actual)
  })
  const n = Math.max(1, decided.length)
  return {
    claims: decided.length,
    failed: decided.filter((d) => d.verdict === null).length,
    accuracy: round(decided.filter((d) => d.gold === d.verdict).length / n),
    macroF1: round(f1s.reduce((sum, f1) => sum + f1, 0) / Math.max(1, f1s.length)),
    tokensPerClaim: Math.round(decided.reduce((sum, d) => sum + d.tokens, 0) / n),
    requestsPerClaim: round(decided.reduce((sum, d) => sum + d.requests, 0) / n),
    ...(priced && {
      costPerClaim: decided.every((d) => d.cost !== null)
        ? Math.round((decided.reduce((sum, d) => sum + (d.cost ?? 0), 0) / n) * 1e6) / 1e6
        : null,
    }),
  }
}

/// How often the verdict was right at each confidence it was given with, made non-decreasing in the confidence
/// (isotonic regression, pool adjacent violators): the probability to show in place of the confidence. Each
/// step: a confidence, the probability from there up to the next, and the claims it rests on. Null when no
/// claim was decided.
function calibration(decided: readonly Decided[]): CalibrationSteps | null {
  const levels = [...new Set(decided.filter((d) => d.verdict).map((d) => d.confidence))].sort((a, b) => a - b)
  const blocks = levels.map((confidence) => {
    const at = decided.filter((d) => d.verdict && d.confidence === confidence)
    return { confidence, right: at.filter((d) => d.verdict === d.gold).length, claims: at.length }
  })
  const pooled: typeof blocks = []
  for (const block of blocks) {
    pooled.push({ ...block })
    // Merge backwards while an earlier level is right more often than a later one.
    for (;;) {
      const [before, last] = pooled.slice(-2)
      if (!before || !last || before.right / before.claims <= last.right / last.claims) break
      pooled.splice(-2, 2, {
        confidence: before.confidence,
        right: before.right + last.right,
        claims: before.claims + last.claims,
      })
    }
  }
  if (pooled.length === 0) return null
  return pooled.map((b) => ({
    confidence: b.confidence,
    probability: round(b.right / b.claims),
    claims: b.claims,
  }))
}

/// Claims checked by a tier alone, made for this row on a store of its own (no vote cached by another row is
/// reused, so each row's tokens are its own): `claims` in documents of DOCUMENT_CLAIMS consecutive claims (a
/// claim without an end gets a full stop after it), each resolved into its statement by `resolveWith`'s resolver
/// unless that is false (a document's claims in one request), then every panel model's unit and the judge unit,
/// as the job runner runs them.
async function byTier(
  tier: Tier,
  make: (store: Store) => TierChecker | null,
  resolveWith: Config['models'] | false,
  claims: readonly LabelledClaim[],
): Promise<Way> {
  const dataDir = mkdtempSync(join(tmpdir(), 'factdesk-eval-'))
  const store = await Store.open(dataDir)
  const organizationId = (await new Admin(store, systemClock).defaultOrganization()).id
  const inner = make(store)
  if (!inner) throw new Error(`${tier} is not configured`)
  const resolver = resolveWith && statementResolver(resolveWith, store.documents, apiKeys())
  const checker = resolver ? resolvedTier(inner, resolver) : inner
  // Each document is stored when its first claim is checked (the others wait for it).
  const documents = new Map<number, Promise<{ text: string; claims: ClaimRecord[] }>>()
  const documentOf = (number: number) => {
    const known = documents.get(number)
    if (known) return known
    const stored = storeDocument(number)
    documents.set(number, stored)
    return stored
  }
  const storeDocument = async (number: number) => {
    const documentId = `eval_${number + 1}`
    let text = ''
    const records = claims
      .slice(number * DOCUMENT_CLAIMS, (number + 1) * DOCUMENT_CLAIMS)
      .map((item, index): ClaimRecord => {
        if (text) text += ' '
        const charStart = text.length
        text += item.claim
        const charEnd = text.length
        if (!/[.!?]["')\]]?$/.test(item.claim)) text += '.'
        return {
          id: `claim_${number * DOCUMENT_CLAIMS + index + 1}`,
          documentId,
          text: item.claim,
          charStart,
          charEnd,
          statement: null,
          parts: null,
          statementState: null,
        }
      })
    const createdAt = new Date().toISOString()
    await store.documents.insert(
      { id: documentId, organizationId, text, tiers: [tier], unitPrices: null, createdAt, expiresAt: null },
      records,
    )
    return { text, claims: records }
  }
  const decide: Decide = async (_item, index) => {
    const document = await documentOf(Math.floor(index / DOCUMENT_CLAIMS))
    const input = {
      claim: document.claims[index % DOCUMENT_CLAIMS] as ClaimRecord,
      checkId: `eval_${tier}`,
      organizationId,
      documentText: document.text,
      signal: new AbortController().signal,
      now: () => new Date().toISOString(),
    }
    const outcomes = await Promise.allSettled(
      checker.models().map((model) => checker.check({ ...input, model })),
    )
    const votes = outcomes.flatMap((o) =>
      o.status === 'fulfilled' && o.value.evaluation
        ? [{ ...o.value.evaluation, parts: o.value.partEvaluations ?? null }]
        : [],
    )
    if (votes.length === 0 || !checker.judge) return null
    const judged = await checker.judge({ ...input, model: '#judge', votes }).catch(() => null)
    const verdict = Verdict.safeParse(judged?.consensus?.verdict)
    if (!judged?.consensus || !verdict.success) return null
    const { confidence, agreement } = judged.consensus
    return { verdict: verdict.data, confidence, agreement }
  }
  return Object.assign(decide, {
    close: async () => {
      await checker.close?.()
      await store.close()
      rmSync(dataDir, { recursive: true, force: true })
    },
  })
}

/// t2's prompts with the claim's evidence sentences beside it in the data block (and no web): each panel model
/// votes, then the judge decides.
function withEvidence(models: Config['models'], judgeModel: ModelConfig, steps: VerdictSteps): Decide {
  const client = new ModelClient(modelSettings(models))
  const keys = apiKeys()
  const panel = models.panel.map((model, i) => modelHandle(model, `models.panel[${i}]`, keys))
  const judge = modelHandle(judgeModel, 'models.judge', keys)
  return async (item) => {
    const data = { claim: item.claim, evidence: item.evidence ?? [] }
    const signal = new AbortController().signal
    const now = new Date().toISOString()
    const answers = await Promise.allSettled(
      panel.map((handle) =>
        client.generate(handle, {
          system: panelSystem(todayOf(now, steps), [data]),
          prompt: votePrompt(data),
          schema: Vote,
          name: 'vote',
          signal,
        }),
      ),
    )
    const votes: Evaluation[] = []
    answers.forEach((answer, i) => {
      if (answer.status !== 'fulfilled') return
      const model = models.panel[i]?.id ?? ''
      votes.push({
        tier: 't2',
        model,
        ...answer.value.object,
        citations: [],
        createdAt: now,
        cached: false,
        usage: null,
        round: 1,
        detail: null,
      })
    })
    if (votes.length === 0) return null
    const decided = await client
      .generate(judge, {
        system: judgeSystem(todayOf(now, steps), data),
        prompt: judgePrompt(data, votes),
        schema: Decision,
        name: 'decision',
        signal,
      })
      .catch(() => null)
    if (!decided) return null
    const { verdict, confidence } = decided.object
    const agreement = votes.filter((vote) => vote.verdict === verdict).length / votes.length
    return { verdict, confidence, agreement }
  }
}

const round = (value: number): number => Math.round(value * 1000) / 1000
