// Fitting the learned ranking: a pairwise logistic regression (every relevant passage of a claim should
// score above every irrelevant one of the same claim) over every feature of rankFeatures.ts, its penalty
// chosen by cross-validation grouped by claim. Used by scripts/train-evidence.ts and the eval, never by the
// running app.
import { z } from 'zod'
import { featureScore, order, type RankerModel } from '../../src/main/engine/web/rank'
import { FEATURE_NAMES, passageFeatures, type Feature } from '../../src/main/engine/web/rankFeatures'
import { dataSet, readJsonLines } from '../lines'

/// A claim with its candidate passages and which of them a person judged relevant.
export interface Group {
  /// The data set it comes from: cross-validation splits each set into folds of its own.
  source: string
  claim: string
  passages: string[]
  relevant: boolean[]
}

/// The Factcheck-Bench file the shipped ranking is trained on (with CLIMATE-FEVER): its claim/evidence pairs.
export const TRAINING_FILE = dataSet('evidence', 'factcheckbench-stance.jsonl')

/// CLIMATE-FEVER's claims with their evidence sentences, the shipped ranking's other training file.
export const CLIMATE_FEVER_FILE = dataSet('verification', 'climate-fever.jsonl')

/// Everything the shipped ranking learns from: Factcheck-Bench's claims, then CLIMATE-FEVER's.
export function trainingGroups(stanceFile = TRAINING_FILE, climateFeverFile = CLIMATE_FEVER_FILE): Group[] {
  return [...readGroups(stanceFile), ...readClimateFever(climateFeverFile)]
}

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
    const group = groups.get(row.claim) ?? {
      source: 'Factcheck-Bench',
      claim: row.claim,
      passages: [],
      relevant: [],
    }
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
      source: 'CLIMATE-FEVER',
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
  /// The L2 penalties on the weights of the standardised features to choose from.
  penalties: number[]
  /// Folds of the inner cross-validation that chooses the penalty.
  folds: number
}

export const DEFAULT_RANK_TRAINING: RankTrainingOptions = { penalties: [0.1, 1, 10, 100, 1000], folds: 4 }

/// A trained ranking and the penalty its training chose.
export interface TrainedRanker extends RankerModel {
  penalty: number
}

/// The text of resources/evidence-ranker.json for a model.
export const rankerFile = (model: RankerModel): string =>
  `${JSON.stringify({ weights: model.weights }, null, 2)}\n`

/// Trains the ranking on the groups: the penalty that gives the best mean of precision@1 and nDCG@3 under
/// grouped cross-validation of these groups only (each data set counting once, however many claims it
/// has; the smaller penalty on a tie), then the weights fitted on all of them with it.
export function trainRanker(
  groups: readonly Featured[],
  options: RankTrainingOptions = DEFAULT_RANK_TRAINING,
): TrainedRanker {
  let best = { penalty: options.penalties[0] ?? 1, score: -Infinity }
  for (const penalty of options.penalties) {
    const judged = crossValidate(groups, options.folds, (training) => fitWeights(training, penalty))
    const score = meanOverSources(groups, (_, i) => judged[i] as number[])
    if (score > best.score) best = { penalty, score }
  }
  return { ...fitWeights(groups, best.penalty), penalty: best.penalty }
}

/// The mean of precision@1 and nDCG@3 on each source's groups, averaged over the sources.
function meanOverSources(groups: readonly Featured[], scores: (group: Featured, index: number) => number[]) {
  const sources = [...new Set(groups.map((group) => group.source))]
  const means = sources.map((source) => {
    const indices = groups.flatMap((group, i) => (group.source === source ? [i] : []))
    const figures = measureRanking(
      indices.map((i) => groups[i] as Featured),
      (group, k) => scores(group, indices[k] as number),
    )
    return (figures['precision@1'] + figures['nDCG@3']) / 2
  })
  return means.reduce((sum, mean) => sum + mean, 0) / Math.max(1, means.length)
}

/// The fold of each group: fold k holds the k-th of `folds` contiguous blocks of each source's groups, so
/// every fold has its share of each data set, and claims next to each other in a file (split from the same
/// answer, often sharing passages) mostly stay in one fold. Groups with the same claim share the fold of the
/// first: no claim is in two folds.
export function foldsOf(groups: readonly Group[], folds: number): number[] {
  const sizes = new Map<string, number>()
  for (const group of groups) sizes.set(group.source, (sizes.get(group.source) ?? 0) + 1)
  const seen = new Map<string, number>()
  const claimFold = new Map<string, number>()
  return groups.map((group) => {
    const index = seen.get(group.source) ?? 0
    seen.set(group.source, index + 1)
    const fold = claimFold.get(group.claim) ?? Math.floor((index * folds) / (sizes.get(group.source) ?? 1))
    claimFold.set(group.claim, fold)
    return fold
  })
}

/// Every group's passages scored by a model trained without that group's fold (`foldsOf`).
export function crossValidate(
  groups: readonly Featured[],
  folds: number,
  train: (training: Featured[]) => RankerModel,
): number[][] {
  const fold = foldsOf(groups, folds)
  const scores: number[][] = groups.map(() => [])
  for (let k = 0; k < folds; k++) {
    const model = train(groups.filter((_, i) => fold[i] !== k))
    groups.forEach((group, i) => {
      if (fold[i] === k) scores[i] = group.features.map((row) => featureScore(model, row))
    })
  }
  return scores
}

/// The pairwise logistic regression over every feature, standardised for the penalty and returned as weights
/// of the raw features, rounded as shipped.
function fitWeights(groups: readonly Featured[], penalty: number): RankerModel {
  const columns = FEATURE_NAMES.map((_, column) => column)
  const rows = groups.flatMap((group) => group.features)
  const scales = columns.map((column) => {
    const mean = rows.reduce((sum, row) => sum + (row[column] ?? 0), 0) / Math.max(1, rows.length)
    const variance =
      rows.reduce((sum, row) => sum + ((row[column] ?? 0) - mean) ** 2, 0) / Math.max(1, rows.length)
    return Math.sqrt(variance) || 1
  })
  // Each claim counts once, however many relevant and irrelevant passages it has: its pairs share a weight of 1.
  const differences: number[][] = []
  const pairWeights: number[] = []
  for (const group of groups) {
    const relevant = group.relevant.filter(Boolean).length
    const weight = 1 / Math.max(1, relevant * (group.relevant.length - relevant))
    group.relevant.forEach((isRelevant, a) => {
      if (!isRelevant) return
      group.relevant.forEach((other, b) => {
        if (other) return
        const better = group.features[a] as number[]
        const worse = group.features[b] as number[]
        differences.push(
          columns.map((column, j) => ((better[column] ?? 0) - (worse[column] ?? 0)) / (scales[j] ?? 1)),
        )
        pairWeights.push(weight)
      })
    })
  }
  const standardised = newton(differences, pairWeights, columns.length, penalty)
  const weights: Partial<Record<Feature, number>> = {}
  columns.forEach((column, j) => {
    weights[FEATURE_NAMES[column] as Feature] = round((standardised[j] ?? 0) / (scales[j] ?? 1))
  })
  return { weights }
}

/// Minimises Σ weight·log(1 + e^(−w·x)) + penalty/2 ‖w‖² over the pair differences x by Newton's method: the
/// loss is convex and has a handful of parameters, so a few exact steps converge.
function newton(
  differences: readonly number[][],
  pairWeights: readonly number[],
  size: number,
  penalty: number,
): number[] {
  let weights = new Array<number>(size).fill(0)
  for (let step = 0; step < 50; step++) {
    const gradient = weights.map((weight) => penalty * weight)
    const hessian = weights.map((_, a) => weights.map((__, b) => (a === b ? penalty : 0)))
    differences.forEach((x, pair) => {
      const weight = pairWeights[pair] ?? 1
      const margin = x.reduce((sum, value, j) => sum + value * (weights[j] ?? 0), 0)
      const wrong = 1 / (1 + Math.exp(margin))
      const curvature = weight * wrong * (1 - wrong)
      for (let a = 0; a < size; a++) {
        gradient[a] = (gradient[a] ?? 0) - weight * wrong * (x[a] ?? 0)
        const row = hessian[a] as number[]
        for (let b = 0; b < size; b++) row[b] = (row[b] ?? 0) + curvature * (x[a] ?? 0) * (x[b] ?? 0)
      }
    })
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
