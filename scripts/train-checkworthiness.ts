// `npx tsx scripts/train-checkworthiness.ts [--file PATH]`: trains the check-worthiness model on the
// ClaimBuster debate sentences only, picks its threshold by 5-fold cross-validation, and writes
// resources/checkworthiness.json. Deterministic: the same data gives the same file.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { readLabelledSentences, trainWithThreshold } from '../src/main/engine/claims/training'

const repository = fileURLToPath(new URL('..', import.meta.url))
const { values } = parseArgs({
  options: {
    file: { type: 'string', default: `${repository}../shared/data/checkworthiness/claimbuster-train.jsonl` },
  },
})
const model = trainWithThreshold(readLabelledSentences(values.file))
const target = `${repository}resources/checkworthiness.json`
writeFileSync(target, `${JSON.stringify(model, null, 2)}\n`)
console.log(`${Object.keys(model.weights).length} weights, threshold ${model.threshold}: ${target}`)
