// `npx tsx scripts/train-evidence.ts [--file PATH] [--climate-fever PATH]`: trains the evidence ranking on
// Factcheck-Bench's claim/evidence pairs and CLIMATE-FEVER's claims together (every claim of both files;
// `npm run eval -- evidence` measures the same training by cross-validation grouped by claim) and writes
// resources/evidence-ranker.json. Deterministic: the same data gives the same file (test/eval/shipped.test.ts).
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { FEATURES, type Feature } from '../src/main/engine/web/rankFeatures'
import {
  CLIMATE_FEVER_FILE,
  featured,
  rankerFile,
  trainingGroups,
  trainRanker,
  TRAINING_FILE,
} from '../eval/training/evidence'

const { values } = parseArgs({
  options: {
    file: { type: 'string', default: TRAINING_FILE },
    'climate-fever': { type: 'string', default: CLIMATE_FEVER_FILE },
  },
})
const model = trainRanker(featured(trainingGroups(values.file, values['climate-fever'])))
const target = fileURLToPath(new URL('../resources/evidence-ranker.json', import.meta.url))
writeFileSync(target, rankerFile(model))
console.log(`penalty ${model.penalty} (chosen by cross-validation)`)
for (const [name, weight] of Object.entries(model.weights))
  console.log(`${String(weight).padStart(8)}  ${name}: ${FEATURES[name as Feature]}`)
console.log(target)
