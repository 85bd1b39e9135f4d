import { join } from 'node:path'

/// One measured figure over repeated runs: the median, the 95th percentile and the spread (min to max; the
/// editor's benchmark gives quantiles only).
export interface Figure {
  name: string
  unit: string
  median: number
  p95: number
  min?: number
  max?: number
  runs: number
  /// What the issue asks of the median (e.g. `≥ 200,000 words/s`), when it asks something.
  target?: string
}

/// Where benchmarks and evaluations write their JSON: bench/results, or FACTDESK_RESULTS_DIR (tests).
export const resultsDir = (): string =>
  process.env.FACTDESK_RESULTS_DIR ?? join(import.meta.dirname, 'results')

/// The value at quantile `q` of `values` (nearest rank).
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0
}

/// A figure from its samples.
export function summarise(name: string, unit: string, samples: readonly number[]): Figure {
  return {
    name,
    unit,
    median: quantile(samples, 0.5),
    p95: quantile(samples, 0.95),
    min: Math.min(...samples),
    max: Math.max(...samples),
    runs: samples.length,
  }
}

/// Times `work` `runs` times after `warmup` untimed runs, in milliseconds.
export async function timeIt(name: string, work: () => unknown, runs = 30, warmup = 3): Promise<Figure> {
  for (let i = 0; i < warmup; i++) await work()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    await work()
    times.push(performance.now() - start)
  }
  return summarise(name, 'ms', times)
}

/// Runs `work` `runs` times in turn, each giving one sample.
export async function sample(runs: number, work: (run: number) => Promise<number>): Promise<number[]> {
  const samples: number[] = []
  for (let i = 0; i < runs; i++) samples.push(await work(i))
  return samples
}

/// The figure with the target its median must meet: at least or at most `value`, in its unit.
export function withTarget(figure: Figure, at: '≥' | '≤', value: number): Figure {
  return { ...figure, target: `${at} ${value.toLocaleString('en')} ${figure.unit}` }
}
