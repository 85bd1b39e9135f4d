// `npx tsx scripts/train-checkworthiness.ts [--file PATH]`: trains the check-worthiness model on the
// ClaimBuster debate sentences only, picks its thresholds (one per "Find claims" setting) by 5-fold
// cross-validation, and writes resources/checkworthiness.json. Deterministic: the same data gives the same file
// (test/eval/shipped.test.ts).
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import {
  modelFile,
  readLabelledSentences,
  trainWithThreshold,
  TRAINING_FILE,
} from '../eval/training/checkworthiness'

const { values } = parseArgs({ options: { file: { type: 'string', default: TRAINING_FILE } } })
const model = trainWithThreshold(readLabelledSentences(values.file))
const target = fileURLToPath(new URL('../resources/checkworthiness.json', import.meta.url))
writeFileSync(target, modelFile(model))
const sizes = `${Object.keys(model.words.features).length} + ${Object.keys(model.characters.features).length}`
console.log(`${sizes} features, threshold ${model.threshold}: ${target}`)
