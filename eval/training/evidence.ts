// Fitting the learned ranking: a pairwise logistic regression (every relevant passage of a claim should
// score above every irrelevant one of the same claim) over the features of rankFeatures.ts, which features
// it uses chosen by forward selection under cross-validation grouped by claim. Used by
// scripts/train-evidence.ts and the eval, never by the running app.
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import { featureScore, order, type RankerModel } from '../../src/main/engine/web/rank'
import { FEATURE_NAMES, passageFeatures, type Feature } from '../../src/main/engine/web/rankFeatures'
import { readJsonLines } from '../lines'

/// A claim with its candidate passages and which of them a person judged relevant.
export interface Group {
  claim: string
  passages: string[]
  relevant: boolean[]
}

/// The file the shipped ranking is trained on: Factcheck-Bench's claim/evidence pairs, in ../shared beside the
/// repository.
export const TRAINING_FILE = fileURLToPath(
  new URL('../../../shared/data/evidence/factcheckbench-stance.jsonl', import.meta.url),
)

/// Factcheck-Bench's stances of a passage towards a claim.
const STANCES = ['irrelevant', 'completely-support', 'partially-support', 'refute'] as const

/// Factcheck-Bench's claim/evidence pairs (`{"claim","evidence","stance"}` lines) grouped by claim, in the
/// order of the file; any stance but "irrelevant" is relevant. Claims without a relevant passage are left
/// out: no ordering of theirs is better than another. A file of another shape is refused (WrongFormat).
export function readGroups(file: string): Group[] {
  const rows = readJsonLines(
    file,
    z.object({ claim: z.string(), evidence: z.string(), stance: z.enum(STANCES) }),
    `{"claim": a claim, "evidence": a passage, "stance": one of ${STANCES.join(', ')}}`,
  )
  const groups = new Map<string, Group>()
  for (const row of rows) {
    const group = groups.get(row.claim) ?? { claim: row.claim, passages: [], relevant: [] }
    group.passages.push(row.evidence)
    group.relevant.push(row.stance !== 'irrelevant')
    groups.set(row.claim, group)
  }
  return [...groups.values()].filter((group) => group.relevant.some(Boolean))
}

/// CLIMATE-FEVER's claims, each with its five Wikipedia sentences; a sentence that supports or refutes the
/// claim is relevant. NOT_ENOUGH_INFO sentences count as irrelevant: they were found for the claim and are on
/// its topic, yet decide nothing, which is what Factcheck-Bench's annotators called irrelevant too (its
/// off-topic junk has no counterpart here). Claims whose sentences are all of one kind teach nothing.
export function readClimateFever(file: string): Group[] {
  return readJsonLines(
    file,
    z.object({
      claim: z.string(),
      evidences: z.array(z.object({ evidence: z.string(), evidence_label: z.string() })),
    }),
    '{"claim": a claim, "evidences": [{"evidence": a sentence, "evidence_label": SUPPORTS, REFUTES or NOT_ENOUGH_INFO}, …]}',
  )
    .map((row) => ({
      claim: row.claim,
      passages: row.evidences.map((evidence) => evidence.evidence),
      relevant: row.evidences.map((evidence) => evidence.evidence_label !== 'NOT_ENOUGH_INFO'),
    }))
    .filter((group) => group.relevant.some(Boolean) && !group.relevant.every(Boolean))
}

/// Precision at 1, nDCG@3 (binary relevance) and the irrelevant share of the top 3 when each group's
/// passages are ordered by their scores, averaged over the groups. Passages with equal scores are taken in
/// a random order, and the figures are their expected values: the order of a data file never counts.
export function measureRanking<G extends Group>(
  groups: readonly G[],
  scores: (group: G, index: number) => number[],
) {
  let p1 = 0
  let ndcg = 0
  let junk = 0
  groups.forEach((group, index) => {
    const scored = scores(group, index)
    const ranked = order(scored)
    // The expected relevance at each rank: the relevant share of the passages tied with the one there.
    const expected = ranked.map((i) => {
      const tied = ranked.filter((j) => scored[j] === scored[i])
      return tied.filter((j) => group.relevant[j]).length / tied.length
    })
    const top = expected.slice(0, 3)
    p1 += expected[0] ?? 0
    const dcg = top.reduce((sum, relevance, k) => sum + relevance / Math.log2(k + 2), 0)
    const ideal = Math.min(3, group.relevant.filter(Boolean).length)
    let idcg = 0
    for (let k = 0; k < ideal; k++) idcg += 1 / Math.log2(k + 2)
    ndcg += dcg / idcg
    junk += top.reduce((sum, relevance) => sum + 1 - relevance, 0) / Math.max(1, top.length)
  })
  const n = groups.length || 1
  return { 'precision@1': p1 / n, 'nDCG@3': ndcg / n, 'irrelevant in top 3': junk / n }
}

/// A group with the features of its passages, computed once.
export interface Featured extends Group {
  features: number[][]
}

export function featured(groups: readonly Group[]): Featured[] {
  return groups.map((group) => ({ ...group, features: passageFeatures(group.claim, group.passages) }))
}

/// Settings of a training run.
export interface RankTrainingOptions {
  /// Features the model always has, chosen ones are added to them.
  required: Feature[]
  /// L2 penalty on the weights of the standardised features.
  penalty: number
  /// Folds of the inner cross-validation that chooses the features.
  folds: number
  /// At most this many features.
  maxFeatures: number
  /// A feature is added only when it raises the cross-validated mean of precision@1 and nDCG@3 this much.
  minGain: number
}

export const DEFAULT_RANK_TRAINING: RankTrainingOptions = {
  required: ['debris'],
  penalty: 1,
  folds: 4,
  maxFeatures: 6,
  minGain: 0.005,
}

/// The text of resources/evidence-ranker.json for a model.
export const rankerFile = (model: RankerModel): string => `${JSON.stringify(model, null, 2)}\n`

/// Trains the ranking on the groups: features chosen one at a time (the one that most raises the mean of
/// precision@1 and nDCG@3 under grouped cross-validation of these groups only), then weights fitted on all.
export function trainRanker(
  groups: readonly Featured[],
  options: RankTrainingOptions = DEFAULT_RANK_TRAINING,
): RankerModel {
  const chosen = options.required.map((name) => FEATURE_NAMES.indexOf(name))
  let score = -Infinity
  while (chosen.length < options.maxFeatures) {
    let bestColumn = -1
    let bestScore = -Infinity
    for (let column = 0; column < FEATURE_NAMES.length; column++) {
      if (chosen.includes(column)) continue
      const columns = [...chosen, column]
      const judged = crossValidate(groups, options.folds, (training) =>
        fitWeights(training, columns, options),
      )
      const figures = measureRanking(groups, (_, i) => judged[i] as number[])
      const candidate = (figures['precision@1'] + figures['nDCG@3']) / 2
      if (candidate > bestScore) {
        bestScore = candidate
        bestColumn = column
      }
    }
    if (bestColumn < 0 || (Number.isFinite(score) && bestScore < score + options.minGain)) break
    chosen.push(bestColumn)
    score = bestScore
  }
  return fitWeights(groups, chosen, options)
}

/// Every group's passages scored by a model trained without that group: fold k holds the k-th of `folds`
/// contiguous blocks of the groups, so claims next to each other in the file (split from the same answer,
/// often sharing passages) mostly stay in one fold.
export function crossValidate(
  groups: readonly Featured[],
  folds: number,
  train: (training: Featured[]) => RankerModel,
): number[][] {
  const fold = (i: number) => Math.floor((i * folds) / groups.length)
  const scores: number[][] = groups.map(() => [])
  for (let k = 0; k < folds; k++) {
    const model = train(groups.filter((_, i) => fold(i) !== k))
    groups.forEach((group, i) => {
      if (fold(i) === k) scores[i] = group.features.map((row) => featureScore(model, row))
    })
  }
  return scores
}

/// The pairwise logistic regression over the given feature columns, standardised for the penalty and
/// returned as weights of the raw features, rounded as shipped.
function fitWeights(groups: readonly Featured[], columns: readonly number[], options: RankTrainingOptions) {
  const rows = groups.flatMap((group) => group.features)
  const scales = columns.map((column) => {
    const mean = rows.reduce((sum, row) => sum + (row[column] ?? 0), 0) / Math.max(1, rows.length)
    const variance =
      rows.reduce((sum, row) => sum + ((row[column] ?? 0) - mean) ** 2, 0) / Math.max(1, rows.length)
    return Math.sqrt(variance) || 1
  })
  const differences: number[][] = []
  for (const group of groups)
    group.relevant.forEach((relevant, a) => {
      if (!relevant) return
      group.relevant.forEach((other, b) => {
        if (other) return
        const better = group.features[a] as number[]
        const worse = group.features[b] as number[]
        differences.push(
          columns.map((column, j) => ((better[column] ?? 0) - (worse[column] ?? 0)) / (scales[j] ?? 1)),
        )
      })
    })
  const standardised = newton(differences, columns.length, options.penalty)
  const weights: Partial<Record<Feature, number>> = {}
  columns.forEach((column, j) => {
    weights[FEATURE_NAMES[column] as Feature] = round((standardised[j] ?? 0) / (scales[j] ?? 1))
  })
  return { weights }
}

/// Minimises Σ log(1 + e^(−w·x)) + penalty/2 ‖w‖² over the pair differences x by Newton's method: the
/// loss is convex and has a handful of parameters, so a few exact steps converge.
function newton(differences: readonly number[][], size: number, penalty: number): number[] {
  let weights = new Array<number>(size).fill(0)
  for (let step = 0; step < 50; step++) {
    const gradient = weights.map((weight) => penalty * weight)
    const hessian = weights.map((_, a) => weights.map((__, b) => (a === b ? penalty : 0)))
    for (const x of differences) {
      const margin = x.reduce((sum, value, j) => sum + value * (weights[j] ?? 0), 0)
      const wrong = 1 / (1 + Math.exp(margin))
      const curvature = wrong * (1 - wrong)
      for (let a = 0; a < size; a++) {
        gradient[a] = (gradient[a] ?? 0) - wrong * (x[a] ?? 0)
        const row = hessian[a] as number[]
        for (let b = 0; b < size; b++) row[b] = (row[b] ?? 0) + curvature * (x[a] ?? 0) * (x[b] ?? 0)
      }
    }
    const change = solve(hessian, gradient)
    weights = weights.map((weight, j) => weight - (change[j] ?? 0))
    if (change.every((value) => Math.abs(value) < 1e-9)) break
  }
  return weights
}

/// Solves `matrix · x = vector` for a symmetric positive definite matrix (Gaussian elimination).
function solve(matrix: readonly number[][], vector: readonly number[]): number[] {
  const size = vector.length
  const rows = matrix.map((row, i) => [...row, vector[i] ?? 0])
  for (let pivot = 0; pivot < size; pivot++) {
    const pivotRow = rows[pivot] as number[]
    for (let r = pivot + 1; r < size; r++) {
      const row = rows[r] as number[]
      const factor = (row[pivot] ?? 0) / (pivotRow[pivot] ?? 1)
      for (let c = pivot; c <= size; c++) row[c] = (row[c] ?? 0) - factor * (pivotRow[c] ?? 0)
    }
  }
  const x = new Array<number>(size).fill(0)
  for (let r = size - 1; r >= 0; r--) {
    const row = rows[r] as number[]
    let sum = row[size] ?? 0
    for (let c = r + 1; c < size; c++) sum -= (row[c] ?? 0) * (x[c] ?? 0)
    x[r] = sum / (row[r] ?? 1)
  }
  return x
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000
}
