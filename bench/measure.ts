/// One measured figure: the median and 95th percentile over repeated runs.
export interface Figure {
  name: string
  unit: string
  median: number
  p95: number
  runs: number
}

/// Times `work` `runs` times after `warmup` untimed runs, in milliseconds.
export function timeIt(name: string, work: () => void, runs = 30, warmup = 3): Figure {
  for (let i = 0; i < warmup; i++) work()
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const start = performance.now()
    work()
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))] ?? 0
  return { name, unit: 'ms', median: at(0.5), p95: at(0.95), runs }
}
