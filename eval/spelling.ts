// `npm run eval -- spelling [--file PATH]`: t1 on misspelt words, one `{"wrong","right"}` JSON object a line. The
// headline is t1 as shipped (Harper, its suggestions ranked again: src/shared/spellings.ts), beside Harper alone
// (its own suggestions, in their own order).
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Dialect, LocalLinter } from 'harper.js'
import { slimBinary } from 'harper.js/slimBinary'
import { z } from 'zod'
import type { Finding } from '../src/shared/findings'
import { harperFindings, LINT_CONFIG } from '../src/shared/harper'
import { SpellingChecker } from '../src/main/engine/tiers/t1'
import { readJsonLines } from './lines'
import type { EvalSet } from './set'

// ../shared beside the repository, as on the build machines and in CI.
const DATA = fileURLToPath(new URL('../../shared/data/spelling/norvig-set1.jsonl', import.meta.url))

/// A misspelling and the word meant.
interface Pair {
  wrong: string
  right: string
}

const spelling: EvalSet = {
  describe:
    'misspelt words flagged; first / top-3 suggestion right; correct words wrongly flagged: t1 as shipped ' +
    '(the headline) and Harper alone',
  async run({ file }) {
    const pairs = readJsonLines(
      file ? resolve(file) : DATA,
      z.object({ wrong: z.string(), right: z.string() }),
      '{"wrong": a misspelt word, "right": the word meant}',
    )
    const checker = new SpellingChecker()
    try {
      const started = performance.now()
      await checker.check(pairs[0]?.wrong ?? '')
      const coldSeconds = (performance.now() - started) / 1000
      const timed = performance.now()
      const shipped = await figures(pairs, async (text) => (await checker.check(text)).findings)
      // Each word checked twice: this measures the cost of a check more than the speed of linting.
      const checksPerSecond = (2 * pairs.length) / ((performance.now() - timed) / 1000)
      const harper = new LocalLinter({ binary: slimBinary, dialect: Dialect.American })
      await harper.setup()
      await harper.setLintConfig(LINT_CONFIG)
      return {
        't1 as shipped': {
          ...shipped,
          coldStartSeconds: round(coldSeconds),
          checksPerSecond: Math.round(checksPerSecond),
        },
        'baseline: Harper alone': await figures(pairs, (text) => harperFindings(harper, text)),
      }
    } finally {
      await checker.close()
    }
  },
}

/// The shares of misspellings flagged and corrected, and of the right words flagged, when `check` checks
/// each word alone (the finding on it, if any, is the first).
async function figures(pairs: Pair[], check: (text: string) => Promise<Finding[]>) {
  let flagged = 0
  let first = 0
  let top3 = 0
  let falseAlarms = 0
  for (const { wrong, right } of pairs) {
    const suggestions = (await check(wrong))[0]?.suggestions
    if (suggestions) flagged++
    if (suggestions?.[0] === right) first++
    if (suggestions?.slice(0, 3).includes(right)) top3++
    if ((await check(right)).length) falseAlarms++
  }
  const share = (count: number): number => round(count / pairs.length)
  return {
    pairs: pairs.length,
    flagged: share(flagged),
    firstSuggestionRight: share(first),
    top3SuggestionsRight: share(top3),
    rightWordsFlagged: share(falseAlarms),
  }
}

const round = (value: number): number => Math.round(value * 1000) / 1000

export default spelling
