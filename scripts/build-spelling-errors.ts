// `npx tsx scripts/build-spelling-errors.ts`: counts the slips of Norvig's first spelling test set (the dev
// set, never the held-out one) and writes resources/spelling-errors.json, which the spelling suggestions are ranked
// by (src/shared/spellingErrors.ts). Deterministic: the same pairs give the same file (test/eval/shipped.test.ts).
import { writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { countSlips, errorsFile, readMisspellings, TRAINING_FILE } from '../eval/training/spelling'

const counts = countSlips(readMisspellings(TRAINING_FILE))
const target = fileURLToPath(new URL('../resources/spelling-errors.json', import.meta.url))
writeFileSync(target, errorsFile(counts))
console.log(`${Object.keys(counts).length} kinds of slip: ${target}`)
