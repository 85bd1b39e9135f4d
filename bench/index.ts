// `npm run bench [-- NAME…] [--markdown]`: runs every benchmark (or the named ones), prints one table and writes
// bench/results/latest.json with the machine, the Node and Chromium versions, the date and every figure; with
// `--markdown` (in any position) also docs/measurements.md, the same figures as tables. npm runs
// it with the young generation `factdesk serve` has (bin/factdesk.js), so that the engine measured here
// collects its garbage as the served one does (V8's default semi-space made each scavenge of a report's
// assembly a few times longer).
import { execFile } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, totalmem } from 'node:os'
import { join } from 'node:path'
import { format, resolveConfig } from 'prettier'
import { promisify } from 'node:util'
import { apiBenchmarks } from './api'
import { claimBenchmarks } from './claims'
import { editorBenchmarks } from './editorRun'
import { engineBenchmarks, teamBenchmarks } from './engine'
import { estimateBenchmarks } from './estimates'
import { limitBenchmarks } from './limits'
import { benchArgs, measurementsMarkdown, shown, spread, type BenchRun } from './markdown'
import { resultsDir, type Figure } from './measure'
import { reportBenchmarks } from './report'
import { robustness, robustnessFigures } from './robustness'
import { startupBenchmarks } from './startup'
import { t1Benchmarks } from './t1'
import { tokenBenchmarks, type TokenFigure } from './tokens'
import { verdictBenchmarks, verdictFigures } from './verdicts'

const BENCHMARKS: Record<string, () => Promise<Figure[]>> = {
  claims: async () => claimBenchmarks(),
  t1: t1Benchmarks,
  report: reportBenchmarks,
  tokens: async () => (await tokenBenchmarks()).flatMap(tokenFigures),
  verdicts: async () => verdictFigures(await verdictBenchmarks()),
  engine: engineBenchmarks,
  team: teamBenchmarks,
  api: apiBenchmarks,
  estimates: estimateBenchmarks,
  limits: limitBenchmarks,
  startup: startupBenchmarks,
  editor: editorBenchmarks,
  robustness: async () => robustnessFigures(await robustness()),
}

const { names, markdown, unknownFlags } = benchArgs(process.argv.slice(2))
if (unknownFlags.length > 0) {
  console.error(`unknown flag ${unknownFlags.join(', ')}; the one flag is --markdown`)
  process.exit(2)
}
const unknown = names.filter((name) => !(name in BENCHMARKS))
if (unknown.length > 0) {
  console.error(`unknown benchmark ${unknown.join(', ')}; benchmarks: ${Object.keys(BENCHMARKS).join(', ')}`)
  process.exit(2)
}
const chosen = names.length > 0 ? names : Object.keys(BENCHMARKS)
const load = loadavg()[0]

const figures: (Figure & { benchmark: string })[] = []
// A benchmark that fails is reported and the others still run; the command then exits 1.
const failed: Record<string, string> = {}
for (const benchmark of chosen) {
  const started = performance.now()
  const run = BENCHMARKS[benchmark] as () => Promise<Figure[]>
  try {
    figures.push(...(await run()).map((figure) => ({ benchmark, ...figure })))
    console.error(`${benchmark}: ${((performance.now() - started) / 1000).toFixed(1)} s`)
  } catch (error) {
    failed[benchmark] = error instanceof Error ? error.message : String(error)
    console.error(`${benchmark} failed: ${failed[benchmark]}`)
  }
}

console.table(
  figures.map((f) => ({
    benchmark: f.name,
    median: `${shown(f.median)} ${f.unit}`,
    spread: spread(f),
    runs: f.runs,
    target: f.target ?? '',
  })),
)
const out = resultsDir()
mkdirSync(out, { recursive: true })
const run: BenchRun = {
  date: new Date().toISOString(),
  machine: {
    cpus: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    load,
  },
  node: process.version,
  chromium: await chromiumVersion(),
  benchmarks: chosen,
  all: Object.keys(BENCHMARKS),
  failed,
  figures,
}
writeFileSync(join(out, 'latest.json'), JSON.stringify(run, null, 2) + '\n')
console.log(`wrote ${join(out, 'latest.json')}`)
if (markdown) {
  // Formatted as `npm run lint` checks it, so the file written is the file committed.
  const path = join(import.meta.dirname, '..', 'docs', 'measurements.md')
  const options = (await resolveConfig(path)) ?? {}
  writeFileSync(path, await format(measurementsMarkdown(run), { ...options, filepath: path }))
  console.log(`wrote ${path}`)
}
if (Object.keys(failed).length > 0) process.exitCode = 1

/// t2's tokens per claim at one batch size as figures (one deterministic run each).
function tokenFigures(t: TokenFigure): Figure[] {
  const figure = (what: string, value: number): Figure => ({
    name: `t2 tokens per claim, batch size ${t.batchSize}: ${what}`,
    unit: 'tokens',
    median: value,
    p95: value,
    min: value,
    max: value,
    runs: 1,
  })
  return [
    figure('panel model input', t.panelInputPerClaim),
    figure('panel model output', t.panelOutputPerClaim),
    figure('judge', t.judgeTotalPerClaim),
    figure('resolver', t.resolverTotalPerClaim),
  ]
}

/// The version of the Chromium the editor's benchmark and the end-to-end tests use, as it reports it.
async function chromiumVersion(): Promise<string | null> {
  const path = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
    (candidate) => candidate !== undefined && existsSync(candidate),
  )
  if (!path) return null
  return (await promisify(execFile)(path, ['--version'])).stdout.trim()
}
