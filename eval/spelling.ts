// `npm run eval -- spelling [--file PATH]`: t1 on misspelt words, one `{"wrong","right"}` JSON object a line.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SpellingChecker } from '../src/main/engine/tiers/t1'
import type { EvalSet } from './set'

// ../shared beside the repository, as on the build machines and in CI.
const DATA = fileURLToPath(new URL('../../shared/data/spelling/norvig-set1.jsonl', import.meta.url))

interface Pair {
  wrong: string
  right: string
}

const spelling: EvalSet = {
  describe: 'misspelt words flagged; first / top-3 suggestion right; correct words wrongly flagged',
  async run({ file }) {
    const pairs = (await readFile(file ? resolve(file) : DATA, 'utf8'))
      .split('\n')
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line) as Pair)
    const checker = new SpellingChecker()
    try {
      const started = performance.now()
      await checker.check(pairs[0]?.wrong ?? '')
      const coldSeconds = (performance.now() - started) / 1000
      let flagged = 0
      let first = 0
      let top3 = 0
      let falseAlarms = 0
      const timed = performance.now()
      for (const { wrong, right } of pairs) {
        // A lone word: the finding on it, if any, is the first.
        const suggestions = (await checker.check(wrong)).findings[0]?.suggestions
        if (suggestions) flagged++
        if (suggestions?.[0] === right) first++
        if (suggestions?.slice(0, 3).includes(right)) top3++
      }
      // One word a check: this measures the cost of a check more than the speed of linting.
      const checksPerSecond = pairs.length / ((performance.now() - timed) / 1000)
      for (const { right } of pairs) if ((await checker.check(right)).findings.length) falseAlarms++
      const share = (count: number): number => round(count / pairs.length)
      return {
        pairs: pairs.length,
        flagged: share(flagged),
        firstSuggestionRight: share(first),
        top3SuggestionsRight: share(top3),
        rightWordsFlagged: share(falseAlarms),
        coldStartSeconds: round(coldSeconds),
        checksPerSecond: Math.round(checksPerSecond),
      }
    } finally {
      await checker.close()
    }
  },
}

const round = (value: number): number => Math.round(value * 1000) / 1000

export default spelling
