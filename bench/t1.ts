import { SpellingChecker } from '../src/main/engine/tiers/t1'
import { sample, summarise, type Figure } from './measure'
import { prose } from './prose'

const WORDS = 1000
const COLD_RUNS = 2
const WARM_RUNS = 5

/// t1's checker (Harper in a worker thread) on a 1,000-word text in paragraphs of about 100 words: words per
/// second from a fresh checker (the worker's start and Harper's load included) and from a warm one, and the
/// peak growth of the process's resident memory while checking over the same process before the worker.
export async function t1Benchmarks(): Promise<Figure[]> {
  const paragraphs = paragraphsOf(prose(WORDS, 7))
  const words = paragraphs.join(' ').split(/\s+/).length
  const idle = process.memoryUsage.rss()
  let peak = idle
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10)
  const peaks: number[] = []
  const checkAll = async (checker: SpellingChecker): Promise<number> => {
    const started = performance.now()
    for (const paragraph of paragraphs) await checker.check(paragraph)
    return words / ((performance.now() - started) / 1000)
  }
  try {
    const warm: number[] = []
    const cold = await sample(COLD_RUNS, async () => {
      peak = process.memoryUsage.rss()
      const checker = new SpellingChecker()
      try {
        const speed = await checkAll(checker)
        if (warm.length === 0) warm.push(...(await sample(WARM_RUNS, () => checkAll(checker))))
        peaks.push((Math.max(peak, process.memoryUsage.rss()) - idle) / 2 ** 20)
        return speed
      } finally {
        await checker.close()
      }
    })
    return [
      summarise(`t1 Harper, ${words} words, cold (worker start included)`, 'words/s', cold),
      summarise(`t1 Harper, ${words} words, warm`, 'words/s', warm),
      summarise('t1 checker, peak resident memory over the idle process', 'MiB', peaks),
    ]
  } finally {
    clearInterval(sampler)
  }
}

/// The text in paragraphs of about 100 words, as the editor and the claims send them.
function paragraphsOf(text: string): string[] {
  const sentences = text.split(/(?<=[.?!])\s+/)
  const out: string[] = []
  let current: string[] = []
  for (const sentence of sentences) {
    current.push(sentence)
    if (current.join(' ').split(/\s+/).length >= 100) {
      out.push(current.join(' '))
      current = []
    }
  }
  if (current.length) out.push(current.join(' '))
  return out
}
