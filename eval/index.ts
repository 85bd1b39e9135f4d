// `npm run eval -- <set> [--file PATH] [--json]`: measures a part of the engine on ../shared/data.
import { parseArgs } from 'node:util'

/// One evaluation: reads its data, measures, and returns the figures (printed as a table or as JSON).
export interface EvalSet {
  /// What is measured, in one line.
  describe: string
  run(options: { file?: string }): Promise<Record<string, unknown>>
}

const SETS: Record<string, () => Promise<EvalSet>> = {
  spelling: async () => (await import('./spelling')).default,
  grammar: async () => (await import('./grammar')).default,
  checkworthiness: async () => (await import('./checkworthiness')).default,
  evidence: async () => (await import('./evidence')).default,
}

const { values, positionals } = parseArgs({
  options: { file: { type: 'string' }, json: { type: 'boolean', default: false } },
  allowPositionals: true,
})
const name = positionals[0]
const load = name ? SETS[name] : undefined
if (!load) {
  console.error(
    `usage: npm run eval -- <set> [--file PATH] [--json]\nsets: ${Object.keys(SETS).join(', ') || '(none yet)'}`,
  )
  process.exit(2)
}
const set = await load()
const result = await set.run({ file: values.file })
if (values.json) console.log(JSON.stringify({ set: name, ...result }))
else {
  console.log(`${name}: ${set.describe}`)
  console.table(result)
}
