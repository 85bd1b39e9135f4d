// `npm run eval -- evidence [--file PATH] [--config FILE] [--limit N]`: ranking each claim's candidate passages
// by relevance, on Factcheck-Bench's claim/evidence pairs (any stance other than "irrelevant" is relevant), and on
// CLIMATE-FEVER's claims (a sentence that supports or refutes is relevant). Over the claims with at least one
// relevant passage: precision at 1, nDCG@3 (binary relevance) and the share of irrelevant passages in the top 3
// (passages with equal scores in a random order: expected values). The headline is the shipped ranking on the
// file (by default one of the two it was trained on: in-sample, and labelled so), beside plain BM25 and the best
// possible ordering; then the same training retrained by 5-fold cross-validation grouped by claim on the file and
// CLIMATE-FEVER together (not shipped: the estimate for claims the ranking never saw); the same rows on
// CLIMATE-FEVER; how many passages per second the shipped ranking scores; and with --config, t3's order: the
// passages its judge model chooses first, then the others by the shipped ranking, with the tokens that cost.
import { resolve } from 'node:path'
import { loadConfig } from '../src/main/engine/base/config'
import { apiKeys } from '../src/main/engine/base/keys'
import { ModelClient, modelHandle, modelSettings } from '../src/main/engine/models'
import { relevantPassages } from '../src/main/engine/tiers/t3'
import { bm25Scores, order, relevanceScores } from '../src/main/engine/web/rank'
import {
  CLIMATE_FEVER_FILE,
  crossValidate,
  featured,
  measureRanking,
  readClimateFever,
  readGroups,
  trainRanker,
  TRAINING_FILE,
  type Featured,
} from './training/evidence'
import { eachClaim, tokensOf } from './calls'
import { NotConfigured } from './notConfigured'
import type { EvalSet } from './set'

const CROSS_VALIDATED =
  'retrained by 5-fold CV grouped by claim on this file + CLIMATE-FEVER (not the shipped model)'

const evidence: EvalSet = {
  describe:
    'ranking claim passages (Factcheck-Bench stance, CLIMATE-FEVER): precision@1, nDCG@3, irrelevant share ' +
    'of the top 3 over claims with a relevant passage; the shipped ranking (the headline) beside plain BM25, ' +
    'in-sample and retrained rows labelled so; with --config, the judge model choosing first (t3)',
  async run({ file, config, limit }) {
    const path = file ? resolve(file) : TRAINING_FILE
    const groups = featured(readGroups(path)).slice(0, limit)
    const climate = featured(readClimateFever(CLIMATE_FEVER_FILE)).slice(0, limit)
    const shipped = groups.map((g) => relevanceScores(g.claim, g.passages))
    const chosen = config === undefined ? null : await chosenByJudge(groups, shipped, config)
    // The shipped training, each claim scored by a ranking trained without it.
    const retrained = crossValidate([...groups, ...climate], 5, trainRanker)
    const trainedOnIt = path === TRAINING_FILE ? ' (in-sample: trained on this file)' : ''
    return {
      [`shipped model${trainedOnIt}`]: figures(groups, (_, i) => shipped[i] as number[]),
      'baseline: plain BM25': figures(groups, (g) => bm25Scores(g.claim, g.passages)),
      ...(chosen && {
        'chosen by the judge, then the shipped model': figures(
          groups,
          (_, i) => chosen.scores[i] as number[],
        ),
        'judge tokens per claim': {
          'precision@1': chosen.tokensPerClaim,
          'nDCG@3': null,
          'irrelevant in top 3': null,
        },
      }),
      [CROSS_VALIDATED]: figures(groups, (_, i) => retrained[i] as number[]),
      'best possible': figures(groups, (g) => g.relevant.map(Number)),
      'climate-fever.jsonl: shipped model (in-sample: trained on it)': figures(climate, (g) =>
        relevanceScores(g.claim, g.passages),
      ),
      'climate-fever.jsonl: baseline, plain BM25': figures(climate, (g) => bm25Scores(g.claim, g.passages)),
      [`climate-fever.jsonl: ${CROSS_VALIDATED}`]: figures(
        climate,
        (_, i) => retrained[groups.length + i] as number[],
      ),
      'climate-fever.jsonl: best possible': figures(climate, (g) => g.relevant.map(Number)),
      claims: { 'precision@1': groups.length, 'nDCG@3': null, 'irrelevant in top 3': null },
      'climate-fever.jsonl: claims': {
        'precision@1': climate.length,
        'nDCG@3': null,
        'irrelevant in top 3': null,
      },
      'passages per second': { 'precision@1': speed(groups), 'nDCG@3': null, 'irrelevant in top 3': null },
    }
  },
}
export default evidence

function figures(groups: Featured[], scores: (group: Featured, index: number) => number[]) {
  const measured = measureRanking(groups, scores)
  const round = (x: number) => Math.round(x * 1000) / 1000
  return Object.fromEntries(Object.entries(measured).map(([name, value]) => [name, round(value)]))
}

/// t3's order of each claim's passages: the shipped ranking (`ranking`) gives them to the
/// judge of the config file, which names those that bear on the claim; they come first, the others keep the
/// ranking's order. As scores (higher first), with the judge's tokens per claim.
async function chosenByJudge(groups: Featured[], ranking: number[][], configPath: string) {
  const models = loadConfig(configPath).models
  if (models.judge === null)
    throw new NotConfigured(
      'evidence --config needs models.judge, the model t3 has choose its evidence. Nothing was measured.',
    )
  const client = new ModelClient(modelSettings(models))
  const judge = modelHandle(models.judge, 'models.judge', apiKeys())
  const signal = new AbortController().signal
  const judged = await eachClaim(groups, async (group, i) => {
    const ranked = order(ranking[i] as number[])
    const passages = ranked.map((index, k) => ({ id: `P${k + 1}`, text: group.passages[index] as string }))
    const chosen = await relevantPassages(client, judge, { claim: group.claim }, passages, signal, null)
    // The passages the judge left out rank after its choice, in the ranking's order.
    const judgedOrder = [...chosen.order, ...ranked.keys()].filter((k, at, all) => all.indexOf(k) === at)
    const scores = new Array<number>(ranked.length)
    judgedOrder.forEach((k, position) => (scores[ranked[k] as number] = ranked.length - position))
    return { scores, tokens: tokensOf(chosen.usage) }
  })
  const tokens = judged.reduce((sum, claim) => sum + claim.tokens, 0)
  return {
    scores: judged.map((claim) => claim.scores),
    tokensPerClaim: Math.round(tokens / Math.max(1, judged.length)),
  }
}

/// Passages scored per second by the shipped ranking, over every claim of the file three times.
function speed(groups: Featured[]): number {
  const started = performance.now()
  let passages = 0
  for (let round = 0; round < 3; round++)
    for (const group of groups) passages += relevanceScores(group.claim, group.passages).length
  return Math.round(passages / ((performance.now() - started) / 1000))
}
