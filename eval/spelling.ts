// `npm run eval -- spelling [--file PATH]`: t1 on misspelt words, one `{"wrong","right"}` JSON object a line. The
// headline is t1 as shipped (Harper, its suggestions ranked again: src/shared/spellings.ts, names and words of
// another English left alone: src/shared/typos.ts; in-sample on the file its slips were counted in, and labelled
// so), beside its ranking retrained by 5-fold cross-validation (the slips counted again in four folds, the fifth
// ranked by those counts: the figure to expect on misspellings the counts never saw) and Harper alone (its own
// findings and suggestions).
// Without --file, also the share of the words of well-written prose (Factcheck-Bench's 311 sentences of
// answers, checked as one document, a sentence at a time as t1 checks claims) flagged as misspelt: false flags,
// mostly names and terms.
import { resolve } from 'node:path'
import { Dialect, LocalLinter } from 'harper.js'
import { slimBinary } from 'harper.js/slimBinary'
import type { Finding } from '../src/shared/findings'
import { harperFindings, LINT_CONFIG, lintText } from '../src/shared/harper'
import { slipCosts } from '../src/shared/spellingErrors'
import { likelyTypo, type Placement } from '../src/shared/typos'
import { SpellingChecker } from '../src/main/engine/tiers/t1'
import { PROSE_FILE, readLabelledSentences } from './training/checkworthiness'
import { countSlips, folds, readMisspellings, TRAINING_FILE, type Misspelling } from './training/spelling'
import type { EvalSet } from './set'

const spelling: EvalSet = {
  describe:
    'misspelt words flagged; first / top-3 suggestion right; correct words wrongly flagged: t1 as shipped ' +
    '(the headline), its ranking retrained by 5-fold CV, and Harper alone',
  async run({ file }) {
    const path = file ? resolve(file) : TRAINING_FILE
    const pairs = readMisspellings(path)
    const countedIn = path === TRAINING_FILE ? ' (in-sample: its slips counted in this file)' : ''
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
      const prose = file ? null : readLabelledSentences(PROSE_FILE).map((row) => row.text)
      return {
        [`t1 as shipped${countedIn}`]: {
          ...shipped,
          ...(prose && {
            proseWordsFlagged: await proseFlags(prose, (sentence, placement) =>
              checker.check(sentence, undefined, undefined, placement).then((result) => result.findings),
            ),
          }),
          coldStartSeconds: round(coldSeconds),
          checksPerSecond: Math.round(checksPerSecond),
        },
        't1, ranking retrained by 5-fold CV (not the shipped model)': await crossValidated(pairs, harper),
        'baseline: Harper alone': {
          ...(await figures(pairs, (text) => harperFindings(harper, text))),
          ...(prose && {
            proseWordsFlagged: await proseFlags(prose, (sentence) => harperFindings(harper, sentence)),
          }),
        },
      }
    } finally {
      await checker.close()
    }
  },
}

/// The shares of misspellings flagged and corrected, and of the right words flagged, when `check` checks
/// each word alone (the finding on it, if any, is the first).
async function figures(pairs: Misspelling[], check: (text: string) => Promise<Finding[]>) {
  const { flagged, first, top3 } = await corrections(pairs, check)
  let falseAlarms = 0
  for (const { right } of pairs) if ((await check(right)).length) falseAlarms++
  const share = (count: number): number => round(count / pairs.length)
  return {
    pairs: pairs.length,
    flagged: share(flagged),
    firstSuggestionRight: share(first),
    top3SuggestionsRight: share(top3),
    rightWordsFlagged: share(falseAlarms),
  }
}

/// How many misspellings `check` flags, and corrects with its first suggestion and within its first three.
async function corrections(pairs: Misspelling[], check: (text: string) => Promise<Finding[]>) {
  const counts = { flagged: 0, first: 0, top3: 0 }
  for (const { wrong, right } of pairs) {
    const suggestions = (await check(wrong))[0]?.suggestions
    if (suggestions) counts.flagged++
    if (suggestions?.[0] === right) counts.first++
    if (suggestions?.slice(0, 3).includes(right)) counts.top3++
  }
  return counts
}

/// The shares of misspellings corrected as t1 corrects them, each fold's words ranked by the costs of the slips
/// counted in the other folds. Which words are flagged does not depend on the ranking: those are the shipped row's.
async function crossValidated(pairs: Misspelling[], linter: LocalLinter) {
  let first = 0
  let top3 = 0
  for (const { held, rest } of folds(pairs)) {
    const costs = slipCosts(countSlips(rest))
    const counts = await corrections(held, async (text) =>
      (await lintText(linter, text, costs)).filter((finding) =>
        likelyTypo(finding, text, { document: text, charStart: 0 }),
      ),
    )
    first += counts.first
    top3 += counts.top3
  }
  return {
    pairs: pairs.length,
    firstSuggestionRight: round(first / pairs.length),
    top3SuggestionsRight: round(top3 / pairs.length),
  }
}

/// The share of the words of `sentences` (one document, a space between them) on which `check`, given each
/// sentence and where it stands, finds a misspelling.
async function proseFlags(
  sentences: string[],
  check: (sentence: string, placement: Placement) => Promise<Finding[]>,
): Promise<number> {
  const document = sentences.join(' ')
  let charStart = 0
  let words = 0
  let flagged = 0
  for (const sentence of sentences) {
    words += sentence.split(/\s+/).filter((word) => /\p{L}/u.test(word)).length
    flagged += (await check(sentence, { document, charStart })).filter((finding) => finding.spelling).length
    charStart += sentence.length + 1
  }
  return Math.round((flagged / words) * 10000) / 10000
}

const round = (value: number): number => Math.round(value * 1000) / 1000

export default spelling
