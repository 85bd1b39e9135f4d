// The shipped model files are what their training scripts make of the dev data (../shared/data): each is
// trained again here, as scripts/train-checkworthiness.ts, scripts/train-evidence.ts and
// scripts/build-spelling-errors.ts make it, and compared byte for byte. A model file edited by hand, or a training change without a retrained file, fails here.
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import * as checkworthiness from '../../eval/training/checkworthiness'
import * as evidence from '../../eval/training/evidence'
import * as spelling from '../../eval/training/spelling'

const shipped = (name: string): string =>
  readFileSync(new URL(`../../resources/${name}`, import.meta.url), 'utf8')

describe('the shipped models and their training scripts', () => {
  it('resources/checkworthiness.json is the model trained on ClaimBuster', () => {
    const model = checkworthiness.trainWithThreshold(
      checkworthiness.readLabelledSentences(checkworthiness.TRAINING_FILE),
    )
    expect(checkworthiness.modelFile(model)).toBe(shipped('checkworthiness.json'))
  }, 300_000)

  it('resources/evidence-ranker.json is the ranking trained on Factcheck-Bench’s stance pairs and CLIMATE-FEVER', () => {
    const groups = evidence.trainingGroups()
    expect(new Set(groups.map((group) => group.source))).toEqual(
      new Set(['Factcheck-Bench', 'CLIMATE-FEVER']),
    )
    const model = evidence.trainRanker(evidence.featured(groups))
    expect(evidence.rankerFile(model)).toBe(shipped('evidence-ranker.json'))
  }, 120_000)

  it('resources/spelling-errors.json is the slips counted in Norvig’s misspellings', () => {
    const counts = spelling.countSlips(spelling.readMisspellings(spelling.TRAINING_FILE))
    expect(spelling.errorsFile(counts)).toBe(shipped('spelling-errors.json'))
  })
})
