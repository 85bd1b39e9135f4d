// `npx tsx scripts/train-checkworthiness.ts [--file PATH]`: trains the check-worthiness model on the
// ClaimBuster debate sentences only, picks its thresholds (one per "Find claims" setting) by 5-fold
// cross-validation, and writes
// resources/checkworthiness.json. Deterministic: the same data gives the same file.
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { LinearModel } from '../src/main/engine/claims/model'
import { readLabelledSentences, trainWithThreshold } from '../eval/training/checkworthiness'

const repository = fileURLToPath(new URL('..', import.meta.url))
const { values } = parseArgs({
  options: {
    file: { type: 'string', default: `${repository}../shared/data/checkworthiness/claimbuster-train.jsonl` },
  },
})
const model = trainWithThreshold(readLabelledSentences(values.file))
const target = `${repository}resources/checkworthiness.json`
// One feature a line: small, and its diffs readable.
const part = (linear: LinearModel) =>
  `{"bias":${linear.bias},"features":{\n${Object.entries(linear.features)
    .map(([name, entry]) => `${JSON.stringify(name)}:${JSON.stringify(entry)}`)
    .join(',\n')}\n}}`
writeFileSync(
  target,
  `{"threshold":${model.threshold},"mix":${model.mix},\n"findClaims":${JSON.stringify(model.findClaims)},\n"words":${part(model.words)},\n"characters":${part(model.characters)}}\n`,
)
const sizes = `${Object.keys(model.words.features).length} + ${Object.keys(model.characters.features).length}`
console.log(`${sizes} features, threshold ${model.threshold}: ${target}`)
