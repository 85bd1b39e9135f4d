// `npm run eval -- checkworthiness [--file PATH]`: precision, recall and F1 of "check-worthy" sentences.
// By default: ClaimBuster by 5-fold cross-validation of the training (each fold's threshold chosen by an
// inner cross-validation of its own training part), and Factcheck-Bench by the shipped model, which never
// saw it. With --file: the shipped model on that file.
import { fileURLToPath } from 'node:url'
import { checkWorthiness, CHECKWORTHY_THRESHOLD, documentRegister } from '../src/main/engine/claims'
import { learnedScore } from '../src/main/engine/claims/model'
import {
  BAG_OF_WORDS,
  crossValidate,
  measure,
  readLabelledSentences,
  trainWithThreshold,
  type LabelledSentence,
  type TrainingOptions,
} from './training/checkworthiness'
import type { EvalSet } from './set'

const DATA = fileURLToPath(new URL('../../shared/data/checkworthiness/', import.meta.url))

const checkworthiness: EvalSet = {
  describe:
    'precision, recall and F1 of check-worthy sentences (ClaimBuster by 5-fold CV, others by the shipped model), and of a plain bag of words in the same way',
  async run({ file }) {
    if (file) return { [file]: shipped(readLabelledSentences(file)) }
    const claimBuster = readLabelledSentences(`${DATA}claimbuster-train.jsonl`)
    const factcheckBench = readLabelledSentences(`${DATA}factcheckbench-sentences.jsonl`)
    return {
      'claimbuster-train.jsonl (5-fold CV)': crossValidated(claimBuster),
      'claimbuster-train.jsonl, plain bag of words (5-fold CV)': crossValidated(claimBuster, BAG_OF_WORDS),
      'factcheckbench-sentences.jsonl': shipped(factcheckBench),
      'factcheckbench-sentences.jsonl, plain bag of words': bagOfWords(factcheckBench, claimBuster),
    }
  },
}
export default checkworthiness

/// Each file is read as one document: its register (talk or prose) is that of its sentences together.
function shipped(rows: LabelledSentence[]) {
  const register = documentRegister(rows.map((row) => row.text))
  const scores = rows.map((row) => checkWorthiness(row.text, register))
  return figures(rows, measure(scores, labels(rows), CHECKWORTHY_THRESHOLD))
}

/// The plain bag of words trained on `training` (ClaimBuster), on sentences it never saw.
function bagOfWords(rows: LabelledSentence[], training: LabelledSentence[]) {
  const model = trainWithThreshold(training, BAG_OF_WORDS)
  const scores = rows.map((row) => learnedScore(model, row.text))
  return figures(rows, measure(scores, labels(rows), model.threshold))
}

function crossValidated(rows: LabelledSentence[], options?: TrainingOptions) {
  const judged = crossValidate(rows, 5, (training) => trainWithThreshold(training, options))
  return figures(
    rows,
    measure(
      judged.map((row) => row.score),
      labels(rows),
      judged.map((row) => row.threshold),
    ),
  )
}

function labels(rows: LabelledSentence[]): boolean[] {
  return rows.map((row) => row.checkworthy)
}

function figures(rows: LabelledSentence[], result: { precision: number; recall: number; f1: number }) {
  const round = (x: number) => Math.round(x * 1000) / 1000
  return {
    sentences: rows.length,
    register: documentRegister(rows.map((row) => row.text)),
    checkworthy: rows.filter((row) => row.checkworthy).length,
    precision: round(result.precision),
    recall: round(result.recall),
    f1: round(result.f1),
  }
}
