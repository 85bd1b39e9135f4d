// `npm run bench`: runs every benchmark, prints one table and writes bench/results/latest.json.
import { mkdirSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { reportBenchmarks } from './report'
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
    },
    null,
    2,
  ),
)
console.log(`wrote ${join(out, 'latest.json')}`)
