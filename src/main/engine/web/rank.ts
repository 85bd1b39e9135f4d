// Ranking a claim's candidate passages: plain BM25, and the engine's learned ranking, a weighted sum of the
// lexical features of rankFeatures.ts (how many of the claim's words a passage has, BM25, …) whose weights
// come from scripts/train-evidence.ts (resources/evidence-ranker.json).
import shipped from '../../../../resources/evidence-ranker.json' with { type: 'json' }
import { FEATURE_NAMES, passageFeatures, type Feature } from './rankFeatures'

export { bm25Scores } from './rankFeatures'

/// A trained ranking: the weight of each feature it uses (on the features' own scales).
export interface RankerModel {
  weights: Partial<Record<Feature, number>>
}

/// The ranking the engine ships.
export const RANKER: RankerModel = shipped

/// The engine's relevance scores of `passages` for `claim` (higher is more relevant; only the order of one
/// claim's passages means anything).
export function relevanceScores(
  claim: string,
  passages: readonly string[],
  model: RankerModel = RANKER,
): number[] {
  // Only the features the model weighs are measured.
  const used = FEATURE_NAMES.filter((name) => model.weights[name] !== undefined)
  return passageFeatures(claim, passages, used).map((row) => featureScore(model, row, used))
}

/// The score of one passage from its values of `features` (by default every feature, in the order of
/// `FEATURE_NAMES`).
export function featureScore(
  model: RankerModel,
  row: readonly number[],
  features: readonly Feature[] = FEATURE_NAMES,
): number {
  let score = 0
  features.forEach((name, column) => (score += (model.weights[name] ?? 0) * (row[column] ?? 0)))
  return score
}

/// Indices of `scores` from the highest score to the lowest (ties keep their order).
export function order(scores: readonly number[]): number[] {
  return scores.map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0) || a - b)
}

/// The passages in order of relevance to the claim, each with its score.
export function rankPassages<T extends { text: string }>(
  claim: string,
  passages: readonly T[],
): Array<T & { score: number }> {
  const scores = relevanceScores(
    claim,
    passages.map((passage) => passage.text),
  )
  return passages
    .map((passage, i) => ({ ...passage, score: scores[i] ?? 0 }))
    .sort((a, b) => b.score - a.score)
}
