import { extractClaims } from '../src/main/engine/claims'
import { summarise, type Figure } from './measure'
import { prose } from './prose'

const SIZES: [words: number, runs: number][] = [
  [1000, 30],
  [10_000, 7],
  [100_000, 3],
]

/// Claim extraction in words per second on 1,000, 10,000 and 100,000-word documents (seeded prose), after a
/// warm-up, and how linear its cost is: the time per word at 100,000 words (each run) over the median time per
/// word at 1,000 (1 is linear).
export function claimBenchmarks(): Figure[] {
  extractClaims(prose(5000, 99))
  const speeds = SIZES.map(([words, runs]) => {
    const text = prose(words)
    const actual = text.split(/\s+/).filter(Boolean).length
    return Array.from({ length: runs }, () => {
      const started = performance.now()
      extractClaims(text)
      return actual / ((performance.now() - started) / 1000)
    })
  })
  const figures = speeds.map((samples, i) =>
    summarise(`claim extraction, ${(SIZES[i]?.[0] ?? 0).toLocaleString('en')} words`, 'words/s', samples),
  )
  const small = figures[0]?.median ?? 0
  const ratios = (speeds.at(-1) ?? []).map((speed) => small / speed)
  return [...figures, summarise('claim extraction, time per word at 100k ÷ at 1k (1 = linear)', '×', ratios)]
}
