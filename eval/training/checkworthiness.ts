// Fitting the check-worthiness model: two logistic regressions (words and hand-built features; character
// n-grams) with L2 penalties, minimised by L-BFGS, and its threshold by cross-validation. Used by scripts/train-checkworthiness.ts and
// the eval, never by the running app.
import { z } from 'zod'
import { characterGrams, sentenceFeatures } from '../../src/main/engine/claims/features'
import {
  learnedScore,
  modelScore,
  ruling,
  type FoundClaims,
  type LinearModel,
  type TrainedModel,
  type WorthinessModel,
} from '../../src/main/engine/claims/model'
import { documentRegister, sentenceForm } from '../../src/main/engine/claims/statements'
import { dataSet, readJsonLines } from '../lines'

/// The file the shipped model is trained on: ClaimBuster's debate sentences.
export const TRAINING_FILE = dataSet('checkworthiness', 'claimbuster-train.jsonl')

/// Factcheck-Bench's sentences of prose, labelled: the check-worthiness eval's and the spelling eval's prose.
export const PROSE_FILE = dataSet('checkworthiness', 'factcheckbench-sentences.jsonl')

/// A sentence with its human label.
export interface LabelledSentence {
  text: string
  checkworthy: boolean
}

/// Settings of one training run.
export interface TrainingOptions {
  /// Words, word pairs and hand-built features seen in fewer training sentences than this are dropped.
  wordMinCount: number
  /// Character n-grams seen in fewer training sentences than this are dropped (keeps the model small).
  characterMinCount: number
  /// L2 penalty on the words model's weights (the inverse of a prior variance).
  wordPenalty: number
  /// L2 penalty on the characters model's weights.
  characterPenalty: number
  /// The share of the characters model in the averaged logit.
  mix: number
  /// Steps of L-BFGS; the loss is convex, so this only bounds the time.
  iterations: number
  /// The plain bag-of-words baseline instead of the model: the words alone (numbers by their shape), without
  /// word pairs, hand-built features or the characters model. The eval measures it beside the model.
  wordsOnly?: boolean
}

export const DEFAULT_TRAINING: TrainingOptions = {
  wordMinCount: 3,
  characterMinCount: 10,
  wordPenalty: 1 / 3,
  characterPenalty: 1 / 10,
  mix: 0.3,
  iterations: 1000,
}

/// The baseline the issue's targets are set against: a plain bag of words, every word kept, a penalty as
/// scikit-learn's default (C = 1).
export const BAG_OF_WORDS: TrainingOptions = {
  ...DEFAULT_TRAINING,
  wordMinCount: 1,
  wordPenalty: 1,
  wordsOnly: true,
}

/// Fits a model on the sentences: its two logistic regressions by penalised log-loss minimised by L-BFGS;
/// its threshold is left at 0.5 (see `trainWithThreshold`).
export function trainModel(
  rows: LabelledSentence[],
  options: TrainingOptions = DEFAULT_TRAINING,
): TrainedModel {
  const labels = rows.map((row) => (row.checkworthy ? 1 : 0))
  const words = trainLinear(
    rows.map((row) => {
      const features = sentenceFeatures(row.text)
      return options.wordsOnly ? features.filter((name) => name.startsWith('w:')) : features
    }),
    labels,
    options.wordMinCount,
    options.wordPenalty,
    options.iterations,
  )
  if (options.wordsOnly) return { words, characters: { bias: 0, features: {} }, mix: 0, threshold: 0.5 }
  const characters = trainLinear(
    rows.map((row) => [...characterGrams(row.text)]),
    labels,
    options.characterMinCount,
    options.characterPenalty,
    options.iterations,
  )
  return { words, characters, mix: options.mix, threshold: 0.5 }
}

/// A logistic regression over tf-idf weighted, unit-length feature vectors (see `LinearModel`).
function trainLinear(
  featureRows: string[][],
  labels: number[],
  minCount: number,
  penalty: number,
  iterations: number,
): LinearModel {
  const counts = new Map<string, number>()
  for (const features of featureRows)
    for (const name of features) counts.set(name, (counts.get(name) ?? 0) + 1)
  const names = [...counts.keys()].filter((name) => (counts.get(name) ?? 0) >= minCount).sort()
  const index = new Map(names.map((name, i) => [name, i]))
  // Rounded as shipped, so that training sees the numbers the app will use.
  const idf = names.map((name) =>
    round(Math.log((1 + featureRows.length) / (1 + (counts.get(name) ?? 0))) + 1),
  )
  const encoded = featureRows.map((features) => {
    const indices = Int32Array.from(
      features.map((name) => index.get(name)).filter((i): i is number => i !== undefined),
    )
    const values = Float64Array.from(indices, (i) => idf[i] as number)
    const length = Math.sqrt(values.reduce((sum, value) => sum + value * value, 0))
    if (length > 0) for (let k = 0; k < values.length; k++) values[k] = (values[k] as number) / length
    return { indices, values }
  })
  // Parameters: the weights, then the bias (not penalised).
  const size = names.length + 1
  const lossAndGradient = (parameters: Float64Array, gradient: Float64Array): number => {
    gradient.fill(0)
    let loss = 0
    const bias = parameters[size - 1] as number
    for (let i = 0; i < encoded.length; i++) {
      const { indices, values } = encoded[i] as { indices: Int32Array; values: Float64Array }
      let logit = bias
      for (let k = 0; k < indices.length; k++)
        logit += (parameters[indices[k] as number] as number) * (values[k] as number)
      const label = labels[i] as number
      loss += Math.max(logit, 0) - logit * label + Math.log1p(Math.exp(-Math.abs(logit)))
      const error = sigmoid(logit) - label
      for (let k = 0; k < indices.length; k++) {
        const f = indices[k] as number
        gradient[f] = (gradient[f] as number) + error * (values[k] as number)
      }
      gradient[size - 1] = (gradient[size - 1] as number) + error
    }
    for (let f = 0; f < size - 1; f++) {
      const weight = parameters[f] as number
      loss += 0.5 * penalty * weight * weight
      gradient[f] = (gradient[f] as number) + penalty * weight
    }
    return loss
  }
  const parameters = minimise(lossAndGradient, new Float64Array(size), iterations)
  const features: Record<string, [number, number]> = {}
  names.forEach((name, i) => (features[name] = [idf[i] as number, round(parameters[i] as number)]))
  return { bias: round(parameters[size - 1] as number), features }
}

/// L-BFGS with a backtracking (Armijo) line search: deterministic, and enough for a convex loss.
function minimise(
  lossAndGradient: (x: Float64Array, gradient: Float64Array) => number,
  start: Float64Array,
  iterations: number,
): Float64Array {
  const memory = 10
  const n = start.length
  let x = start
  let gradient = new Float64Array(n)
  let loss = lossAndGradient(x, gradient)
  const steps: Float64Array[] = []
  const changes: Float64Array[] = []
  for (let iteration = 0; iteration < iterations; iteration++) {
    const direction = Float64Array.from(gradient, (g) => -g)
    const alphas: number[] = []
    for (let k = steps.length - 1; k >= 0; k--) {
      const alpha =
        dot(steps[k] as Float64Array, direction) / dot(changes[k] as Float64Array, steps[k] as Float64Array)
      alphas[k] = alpha
      addScaled(direction, changes[k] as Float64Array, -alpha)
    }
    if (steps.length > 0) {
      const last = steps.length - 1
      const scale =
        dot(steps[last] as Float64Array, changes[last] as Float64Array) /
        dot(changes[last] as Float64Array, changes[last] as Float64Array)
      for (let i = 0; i < n; i++) direction[i] = (direction[i] as number) * scale
    }
    for (let k = 0; k < steps.length; k++) {
      const beta =
        dot(changes[k] as Float64Array, direction) / dot(changes[k] as Float64Array, steps[k] as Float64Array)
      addScaled(direction, steps[k] as Float64Array, (alphas[k] as number) - beta)
    }
    const slope = dot(gradient, direction)
    if (slope >= 0) break
    let stepSize = steps.length === 0 ? 1 / Math.max(1, Math.sqrt(dot(gradient, gradient))) : 1
    const next = new Float64Array(n)
    const nextGradient = new Float64Array(n)
    let nextLoss = Infinity
    for (let tries = 0; tries < 40; tries++) {
      for (let i = 0; i < n; i++) next[i] = (x[i] as number) + stepSize * (direction[i] as number)
      nextLoss = lossAndGradient(next, nextGradient)
      if (nextLoss <= loss + 1e-4 * stepSize * slope) break
      stepSize /= 2
    }
    if (!(nextLoss < loss)) break
    const step = Float64Array.from(next, (value, i) => value - (x[i] as number))
    const change = Float64Array.from(nextGradient, (value, i) => value - (gradient[i] as number))
    if (dot(step, change) > 1e-12) {
      steps.push(step)
      changes.push(change)
      if (steps.length > memory) {
        steps.shift()
        changes.shift()
      }
    }
    const converged = loss - nextLoss < 1e-7 * Math.max(1, Math.abs(loss))
    x = next
    gradient = nextGradient
    loss = nextLoss
    if (converged) break
  }
  return x
}

function dot(a: Float64Array, b: Float64Array): number {
  let sum = 0
  for (let i = 0; i < a.length; i++) sum += (a[i] as number) * (b[i] as number)
  return sum
}

function addScaled(target: Float64Array, source: Float64Array, scale: number): void {
  for (let i = 0; i < target.length; i++) target[i] = (target[i] as number) + scale * (source[i] as number)
}

/// What "Find claims: fewer" asks of its threshold in cross-validation: this precision at least.
export const FEWER_PRECISION = 0.85
/// What "Find claims: more" asks of its threshold in cross-validation: this recall at least.
export const MORE_RECALL = 0.9

/// A model trained on the sentences, with the threshold that gives the best F1 in k-fold cross-validation (the
/// balanced setting's), and the thresholds of "Find claims: fewer" (the lowest at or above it with a precision of
/// FEWER_PRECISION) and "more" (the highest at or below it with a recall of MORE_RECALL), each with the
/// precision and recall it had.
export function trainWithThreshold(
  rows: LabelledSentence[],
  options: TrainingOptions = DEFAULT_TRAINING,
): WorthinessModel {
  const judged = crossValidate(rows, 5, (training) => trainModel(training, options))
  // The rules of form hold at any threshold (scores 1 and 0 here): the thresholds are chosen for the sentences
  // they leave to the words.
  const register = documentRegister(rows.map((row) => row.text))
  const scores = judged.map((row, i) => {
    const ruled = ruling(sentenceForm((rows[i] as LabelledSentence).text), register)
    return ruled === undefined ? row.learned : ruled ? 1 : 0
  })
  const labels = rows.map((row) => row.checkworthy)
  const found = (at: number): FoundClaims => {
    const { precision, recall } = measure(scores, labels, at)
    return { threshold: at, precision: thousandths(precision), recall: thousandths(recall) }
  }
  const threshold = bestThreshold(scores, labels)
  const grid = Array.from({ length: 99 }, (_, k) => (k + 1) / 100)
  const fewer = grid.find((at) => at >= threshold && found(at).precision >= FEWER_PRECISION) ?? 0.99
  const more = grid.findLast((at) => at <= threshold && found(at).recall >= MORE_RECALL) ?? 0.01
  return {
    ...trainModel(rows, options),
    threshold,
    findClaims: { fewer: found(fewer), balanced: found(threshold), more: found(more) },
  }
}

/// Every sentence judged by a model that never saw it (k-fold cross-validation with fixed folds): its score
/// as a sentence of that file (whose register is the file's), its learned score alone, and the threshold.
export function crossValidate(
  rows: LabelledSentence[],
  folds: number,
  train: (rows: LabelledSentence[]) => TrainedModel,
): { score: number; learned: number; threshold: number }[] {
  const fold = foldOf(rows.length, folds)
  const register = documentRegister(rows.map((row) => row.text))
  const judged = rows.map(() => ({ score: 0, learned: 0, threshold: 0 }))
  for (let k = 0; k < folds; k++) {
    const model = train(rows.filter((_, i) => fold[i] !== k))
    rows.forEach((row, i) => {
      if (fold[i] !== k) return
      judged[i] = {
        score: modelScore(model, row.text, register),
        learned: learnedScore(model, row.text),
        threshold: model.threshold,
      }
    })
  }
  return judged
}

/// Precision, recall, F1 and accuracy of "check-worthy" when scores at or above the threshold count as
/// check-worthy.
export function measure(scores: number[], labels: boolean[], threshold: number | number[]) {
  let truePositives = 0
  let falsePositives = 0
  let falseNegatives = 0
  scores.forEach((score, i) => {
    const predicted = score >= (typeof threshold === 'number' ? threshold : (threshold[i] as number))
    if (predicted && labels[i]) truePositives++
    else if (predicted) falsePositives++
    else if (labels[i]) falseNegatives++
  })
  const precision = truePositives / Math.max(1, truePositives + falsePositives)
  const recall = truePositives / Math.max(1, truePositives + falseNegatives)
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall)
  const accuracy = 1 - (falsePositives + falseNegatives) / Math.max(1, scores.length)
  return { precision, recall, f1, accuracy }
}

/// The threshold on a 0.01 grid whose neighbourhood (±THRESHOLD_WINDOW steps) gives the best mean F1 on
/// these scores: a threshold on a broad plateau rather than on a narrow peak, which one lucky fold of the
/// cross-validation can make (in nested cross-validation on ClaimBuster this loses less to the held-out fold).
export function bestThreshold(scores: number[], labels: boolean[]): number {
  const f1s = Array.from({ length: 99 }, (_, k) => measure(scores, labels, (k + 1) / 100).f1)
  let best = 0.5
  let bestF1 = -1
  f1s.forEach((_, k) => {
    const window = f1s.slice(Math.max(0, k - THRESHOLD_WINDOW), k + THRESHOLD_WINDOW + 1)
    const f1 = window.reduce((sum, value) => sum + value, 0) / window.length
    if (f1 > bestF1) {
      bestF1 = f1
      best = (k + 1) / 100
    }
  })
  return best
}

/// Grid steps on either side of a threshold that `bestThreshold` weighs with it.
const THRESHOLD_WINDOW = 4

/// Fold k holds every sentence whose shuffled position is k modulo the number of folds.
function foldOf(length: number, folds: number): number[] {
  const order = Array.from({ length }, (_, i) => i)
  shuffle(order, seededRandom(12345))
  const fold = new Array<number>(length).fill(0)
  order.forEach((row, position) => (fold[row] = position % folds))
  return fold
}

function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x))
}

function thousandths(x: number): number {
  return Math.round(x * 1000) / 1000
}

function round(x: number): number {
  return Math.round(x * 100) / 100
}

/// Mulberry32: a tiny seeded generator, so folds are the same on every machine.
function seededRandom(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

function shuffle(items: number[], random: () => number): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1))
    const swap = items[i] as number
    items[i] = items[j] as number
    items[j] = swap
  }
}

/// Sentences of a JSON-lines file of `{"text","checkworthy"}` rows; a file of another shape is refused
/// (WrongFormat).
export function readLabelledSentences(path: string): LabelledSentence[] {
  return readJsonLines(
    path,
    z.object({ text: z.string(), checkworthy: z.boolean() }),
    '{"text": a sentence, "checkworthy": true or false}',
  )
}

/// The text of resources/checkworthiness.json for a model: one feature a line, small and its diffs readable.
export function modelFile(model: WorthinessModel): string {
  const part = (linear: LinearModel) =>
    `{"bias":${linear.bias},"features":{\n${Object.entries(linear.features)
      .map(([name, entry]) => `${JSON.stringify(name)}:${JSON.stringify(entry)}`)
      .join(',\n')}\n}}`
  return `{"threshold":${model.threshold},"mix":${model.mix},\n"findClaims":${JSON.stringify(model.findClaims)},\n"words":${part(model.words)},\n"characters":${part(model.characters)}}\n`
}
