// `npm run eval -- <set> [--file PATH] [--json] [--config FILE] [--limit N]`: measures a part of the engine on
// ../shared/data, prints a table (or, with --json, one line of JSON) and writes bench/results/eval-<set>.json.
// The headline is the table's first row: what the engine ships, on the file given; a file the set cannot read
// is refused (exit 2) with the line and the shape expected.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { resultsDir } from '../bench/measure'
import { WrongFormat } from './lines'
import { NotConfigured } from './notConfigured'
import type { EvalSet } from './set'
import { EVAL_STEPS } from './steps'

const SETS: Record<string, () => Promise<EvalSet>> = {
  spelling: async () => (await import('./spelling')).default,
  grammar: async () => (await import('./grammar')).default,
  checkworthiness: async () => (await import('./checkworthiness')).default,
  evidence: async () => (await import('./evidence')).default,
  verification: async () => (await import('./verification')).default,
}

/// The top-level members of each set's `--json`, and the figure of the headline row each one is.
const HEADLINES: Record<string, Record<string, string>> = {
  spelling: { flagged: 'flagged', firstSuggestionRight: 'firstSuggestionRight' },
  grammar: { precision: 'precision', recall: 'recall' },
  checkworthiness: { precision: 'precision', recall: 'recall', f1: 'f1' },
  evidence: { precisionAt1: 'precision@1', ndcgAt3: 'nDCG@3', irrelevantTop3: 'irrelevant in top 3' },
  verification: { accuracy: 'accuracy', macroF1: 'macroF1', tokensPerClaim: 'tokensPerClaim' },
}

/// The headline figures, and the name of the row they are from (`headlineRow`, null when the result is one row):
/// the result itself when it is one row, else its first row that has them.
function headline(
  set: string,
  result: Record<string, unknown>,
): Record<string, unknown> & { headlineRow: string | null } {
  const names = HEADLINES[set] ?? {}
  const has = (row: unknown): row is Record<string, unknown> =>
    typeof row === 'object' &&
    row !== null &&
    Object.values(names).every((figure) => typeof (row as Record<string, unknown>)[figure] === 'number')
  const [name, row] = has(result)
    ? [null, result]
    : (Object.entries(result).find((entry): entry is [string, Record<string, unknown>] => has(entry[1])) ?? [
        null,
        {},
      ])
  return {
    ...Object.fromEntries(Object.entries(names).map(([member, figure]) => [member, row[figure] ?? null])),
    headlineRow: name,
  }
}

/// The flag that switches a verdict step off: `--no-panel-decides` for `panelDecides`.
const stepFlag = (step: string): string => `no-${step.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`

const { values, positionals } = parseArgs({
  options: {
    file: { type: 'string' },
    json: { type: 'boolean', default: false },
    config: { type: 'string' },
    limit: { type: 'string' },
    calibrate: { type: 'boolean', default: false },
    // One flag per verdict step, from the steps themselves: a new step brings its flag.
    ...Object.fromEntries(
      Object.keys(EVAL_STEPS).map((step) => [stepFlag(step), { type: 'boolean' as const }]),
    ),
  },
  allowPositionals: true,
})
const flags = values as Record<string, unknown>
const name = positionals[0] ?? ''
const load = SETS[name]
const limit = values.limit === undefined ? undefined : Number(values.limit)
if (!load || (limit !== undefined && !(Number.isInteger(limit) && limit > 0))) {
  console.error(
    `usage: npm run eval -- <set> [--file PATH] [--json] [--config FILE] [--limit N] [--calibrate] ` +
      `${Object.keys(EVAL_STEPS)
        .map((step) => `[--${stepFlag(step)}]`)
        .join(' ')}\n` +
      `sets: ${Object.keys(SETS).join(', ')}`,
  )
  process.exit(2)
}
const set = await load()
let result: Record<string, unknown>
try {
  result = await set.run({
    file: values.file,
    config: values.config,
    limit,
    off: Object.keys(EVAL_STEPS).filter((step) => flags[stepFlag(step)] === true),
    calibrate: values.calibrate,
  })
} catch (error) {
  if (error instanceof WrongFormat) {
    console.error(`${name}: ${error.message}`)
    process.exit(2)
  }
  if (!(error instanceof NotConfigured)) throw error
  console.error(`${name}: ${error.message}`)
  process.exit(0)
}
const table = result.table ?? result
const output = { ...headline(name, result), set: name, date: new Date().toISOString(), table }
mkdirSync(resultsDir(), { recursive: true })
writeFileSync(join(resultsDir(), `eval-${name}.json`), JSON.stringify(output, null, 2) + '\n')
if (values.json) console.log(JSON.stringify(output))
else {
  console.log(`${name}: ${set.describe}`)
  if (output.headlineRow) console.log(`headline: ${output.headlineRow}`)
  console.table(table)
}
