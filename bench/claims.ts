import { readFileSync } from 'node:fs'
import { extractClaims } from '../src/main/engine/claims'
import { summarise, withTarget, type Figure } from './measure'
import { prose } from './prose'

const SIZES: [words: number, runs: number][] = [
  [1000, 30],
  [10_000, 7],
  [100_000, 3],
]
const REAL_RUNS = 5
/// Real sentences: US presidential debates (ClaimBuster) and LLM answers (Factcheck-Bench), ../shared/data.
const REAL_FILES = ['claimbuster-train.jsonl', 'factcheckbench-sentences.jsonl']
const SENTENCES_PER_PARAGRAPH = 5

/// Claim extraction in words per second on 1,000, 10,000 and 100,000-word documents (seeded prose) and on real
/// sentences (about 156,000 words), after a warm-up, and how linear its cost is: the time per word at 100,000
/// words (each run) over the median time per word at 1,000 (1 is linear).
export function claimBenchmarks(): Figure[] {
  extractClaims(prose(5000, 99))
  const speedOf = (text: string, runs: number): number[] => {
    const words = text.split(/\s+/).filter(Boolean).length
    return Array.from({ length: runs }, () => {
      const started = performance.now()
      extractClaims(text)
      return words / ((performance.now() - started) / 1000)
    })
  }
  const speeds = SIZES.map(([words, runs]) => speedOf(prose(words), runs))
  const figures = speeds.map((samples, i) =>
    summarise(`claim extraction, ${(SIZES[i]?.[0] ?? 0).toLocaleString('en')} words`, 'words/s', samples),
  )
  const small = figures[0]?.median ?? 0
  const ratios = (speeds.at(-1) ?? []).map((speed) => small / speed)
  return [
    ...figures,
    summarise('claim extraction, time per word at 100k ÷ at 1k (1 = linear)', '×', ratios),
    withTarget(
      summarise(
        'claim extraction, real sentences (ClaimBuster, Factcheck-Bench)',
        'words/s',
        speedOf(realText(), REAL_RUNS),
      ),
      '≥',
      200_000,
    ),
  ]
}

/// The real sentences in paragraphs of five, as a document.
function realText(): string {
  const sentences = REAL_FILES.flatMap((file) =>
    readFileSync(new URL(`../../shared/data/checkworthiness/${file}`, import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { text: string }).text),
  )
  const paragraphs: string[] = []
  for (let i = 0; i < sentences.length; i += SENTENCES_PER_PARAGRAPH)
    paragraphs.push(sentences.slice(i, i + SENTENCES_PER_PARAGRAPH).join(' '))
  return paragraphs.join('\n\n')
}
