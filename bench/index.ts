// `npm run bench`: runs every benchmark, prints one table and writes bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { reportBenchmarks } from './report'
import { tokenBenchmarks } from './tokens'
import type { Figure } from './measure'

const figures: Figure[] = [...(await reportBenchmarks())]

console.table(
  figures.map((f) => ({
    benchmark: f.name,
    median: `${f.median.toFixed(2)} ${f.unit}`,
    p95: `${f.p95.toFixed(2)} ${f.unit}`,
    runs: f.runs,
  })),
)
// t2 tokens per claim at batch sizes 1, 4 and 8, against the fake OpenAI-compatible server.
const tokens = await tokenBenchmarks()
console.table(tokens)
const out = join(import.meta.dirname, 'results')
mkdirSync(out, { recursive: true })
writeFileSync(
  join(out, 'latest.json'),
  JSON.stringify(
    {
      date: new Date().toISOString(),
      machine: {
        cpus: cpus().length,
        cpu: cpus()[0]?.model ?? 'unknown',
        memoryGiB: Math.round(totalmem() / 2 ** 30),
      },
      node: process.version,
      figures,
      tokens,
    },
    null,
    2,
  ),
)
console.log(`wrote ${join(out, 'latest.json')}`)
