// `npm run eval -- checkworthiness [--file PATH]`: precision, recall, F1 and accuracy of "check-worthy" sentences.
// The headline is the shipped model on the file (by default Factcheck-Bench's sentences, which it never saw,
// then the ClaimBuster file it was trained on, in-sample and labelled so), beside the trivial baselines (every
// sentence check-worthy; the file's majority label for every sentence) and a plain bag of words trained on
// ClaimBuster. By default ClaimBuster is measured by 5-fold cross-validation of the training too (each fold's
// threshold chosen by an inner cross-validation of its own training part): a retrained model, not the shipped one.
import { basename, resolve } from 'node:path'
import { checkWorthiness, CHECKWORTHY_THRESHOLD, documentRegister } from '../src/main/engine/claims'
import { learnedScore, type WorthinessModel } from '../src/main/engine/claims/model'
import {
  BAG_OF_WORDS,
  crossValidate,
  measure,
  PROSE_FILE,
  readLabelledSentences,
  trainWithThreshold,
  TRAINING_FILE,
  type LabelledSentence,
  type TrainingOptions,
} from './training/checkworthiness'
import type { EvalSet } from './set'

const checkworthiness: EvalSet = {
  describe:
    'precision, recall, F1 and accuracy of check-worthy sentences: the shipped model (the headline) beside ' +
    'every sentence check-worthy, the majority label and a plain bag of words; ClaimBuster also retrained by 5-fold CV',
  async run({ file }) {
    // The file given is read first: one of the wrong shape is refused before any training.
    const given = file ? { path: resolve(file), rows: readLabelledSentences(resolve(file)) } : null
    const claimBuster = readLabelledSentences(TRAINING_FILE)
    const bagOfWords = trainWithThreshold(claimBuster, BAG_OF_WORDS)
    if (given) return fileRows(given.path, given.rows, bagOfWords)
    return {
      ...fileRows(PROSE_FILE, readLabelledSentences(PROSE_FILE), bagOfWords),
      ...fileRows(TRAINING_FILE, claimBuster, bagOfWords),
      'claimbuster-train.jsonl: model retrained by 5-fold CV (not the shipped model)':
        crossValidated(claimBuster),
      'claimbuster-train.jsonl: plain bag of words retrained by 5-fold CV': crossValidated(
        claimBuster,
        BAG_OF_WORDS,
      ),
    }
  },
}
export default checkworthiness

/// The rows of one file: the shipped model first (in-sample on its own training file, and labelled so), then the
/// baselines. Each file is read as one document: its register (talk or prose) is that of its sentences together.
function fileRows(path: string, rows: LabelledSentence[], bagOfWords: WorthinessModel) {
  const name = basename(path)
  const trainedOnIt = path === TRAINING_FILE ? ' (in-sample: trained on this file)' : ''
  const register = documentRegister(rows.map((row) => row.text))
  const majority = 2 * rows.filter((row) => row.checkworthy).length >= rows.length
  return {
    [`${name}: shipped model${trainedOnIt}`]: figures(
      rows,
      rows.map((row) => checkWorthiness(row.text, register)),
      CHECKWORTHY_THRESHOLD,
    ),
    [`${name}: baseline, every sentence check-worthy`]: figures(
      rows,
      rows.map(() => 1),
      0.5,
    ),
    [`${name}: baseline, the majority label (${majority ? 'check-worthy' : 'not'}) for every sentence`]:
      figures(
        rows,
        rows.map(() => (majority ? 1 : 0)),
        0.5,
      ),
    [`${name}: baseline, plain bag of words trained on ClaimBuster${trainedOnIt}`]: figures(
      rows,
      rows.map((row) => learnedScore(bagOfWords, row.text)),
      bagOfWords.threshold,
    ),
  }
}

function crossValidated(rows: LabelledSentence[], options?: TrainingOptions) {
  const judged = crossValidate(rows, 5, (training) => trainWithThreshold(training, options))
  return figures(
    rows,
    judged.map((row) => row.score),
    judged.map((row) => row.threshold),
  )
}

function figures(rows: LabelledSentence[], scores: number[], threshold: number | number[]) {
  const result = measure(
    scores,
    rows.map((row) => row.checkworthy),
    threshold,
  )
  const round = (x: number) => Math.round(x * 1000) / 1000
  return {
    sentences: rows.length,
    register: documentRegister(rows.map((row) => row.text)),
    checkworthy: rows.filter((row) => row.checkworthy).length,
    precision: round(result.precision),
    recall: round(result.recall),
    f1: round(result.f1),
    accuracy: round(result.accuracy),
  }
}
