import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Figure } from './measure'

const run = promisify(execFile)

/// The editor's benchmark (bench/editor.ts, Chromium) in its own process; its figures from the JSON it writes.
export async function editorBenchmarks(): Promise<Figure[]> {
  await run(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'editor.ts')], {
    timeout: 600_000,
  })
  const { figures } = JSON.parse(readFileSync(join(import.meta.dirname, 'results/editor.json'), 'utf8')) as {
    figures: { benchmark: string; p50: number; p95: number; runs: number }[]
  }
  return figures.map((f) => ({ name: f.benchmark, unit: 'ms', median: f.p50, p95: f.p95, runs: f.runs }))
}
