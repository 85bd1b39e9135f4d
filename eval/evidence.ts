// `npm run eval -- evidence [--file PATH]`: ranking each claim's candidate passages by relevance, on
// Factcheck-Bench's claim/evidence pairs (any stance other than "irrelevant" is relevant). Over the claims
// with at least one relevant passage: precision at 1, nDCG@3 (binary relevance) and the share of irrelevant
// passages in the top 3 (passages with equal scores in a random order: expected values), for the learned
// ranking by 5-fold cross-validation grouped by claim (the headline), the shipped model (trained on this
// whole file, so in-sample), the same training on CLIMATE-FEVER alone, plain BM25 and the best possible
// ordering; and how many passages per second the shipped ranking scores.
import { fileURLToPath } from 'node:url'
import { bm25Scores, relevanceScores } from '../src/main/engine/web/rank'
import {
  crossValidate,
  featured,
  measureRanking,
  readClimateFever,
  readGroups,
  trainRanker,
  type Featured,
} from '../src/main/engine/web/rankTraining'
import type { EvalSet } from './index'

const DATA = fileURLToPath(new URL('../../shared/data/', import.meta.url))

const evidence: EvalSet = {
  describe:
    'ranking claim passages (Factcheck-Bench stance): precision@1, nDCG@3, irrelevant share of the top 3 ' +
    'over claims with a relevant passage; the learned ranking by 5-fold CV grouped by claim',
  async run({ file }) {
    const groups = featured(readGroups(file ?? `${DATA}evidence/factcheckbench-stance.jsonl`))
    const judged = crossValidate(groups, 5, trainRanker)
    const climate = trainRanker(featured(readClimateFever(`${DATA}verification/climate-fever.jsonl`)))
    return {
      'learned, 5-fold CV by claim': figures(groups, (_, i) => judged[i] as number[]),
      'shipped model (in-sample)': figures(groups, (g) => relevanceScores(g.claim, g.passages)),
      'trained on CLIMATE-FEVER': figures(groups, (g) => relevanceScores(g.claim, g.passages, climate)),
      'plain BM25': figures(groups, (g) => bm25Scores(g.claim, g.passages)),
      'best possible': figures(groups, (g) => g.relevant.map(Number)),
      claims: { 'precision@1': groups.length, 'nDCG@3': null, 'irrelevant in top 3': null },
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

/// Passages scored per second by the shipped ranking, over every claim of the file three times.
function speed(groups: Featured[]): number {
  const started = performance.now()
  let passages = 0
  for (let round = 0; round < 3; round++)
    for (const group of groups) passages += relevanceScores(group.claim, group.passages).length
  return Math.round(passages / ((performance.now() - started) / 1000))
}
