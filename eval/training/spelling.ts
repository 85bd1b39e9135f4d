// Counting the slips of the spelling error model (src/shared/spellingErrors.ts) in pairs of a misspelling and the
// word meant. Used by scripts/build-spelling-errors.ts and the spelling eval's cross-validation, never by the
// running app.
import { z } from 'zod'
import {
  slipChances,
  slipCosts,
  SLIPS,
  slipsBetween,
  type SlipCosts,
  type SlipCounts,
} from '../../src/shared/spellingErrors'
import { dataSet, readJsonLines } from '../lines'

/// The pairs the shipped costs are counted in: Norvig's first spelling test set.
export const TRAINING_FILE = dataSet('spelling', 'norvig-set1.jsonl')

/// Where the shipped counts come from, as resources/spelling-errors.json says.
const TRAINING_SOURCE = 'Norvig, spell-testset1 (270 misspellings)'

/// A misspelling and the word meant.
export interface Misspelling {
  wrong: string
  right: string
}

/// The misspellings of the JSON-lines file at `path`.
export function readMisspellings(path: string): Misspelling[] {
  return readJsonLines(
    path,
    z.object({ wrong: z.string(), right: z.string() }),
    '{"wrong": a misspelt word, "right": the word meant}',
  )
}

/// Each kind of slip counted in `misspellings`, and its chances in the words meant. Which slips made a
/// misspelling depends on what they cost, so the slips are found twice: first with every slip costing the same,
/// then with the costs of that first count.
export function countSlips(misspellings: readonly Misspelling[]): SlipCounts {
  const even = Object.fromEntries(SLIPS.map((slip) => [slip, 1])) as SlipCosts
  return count(misspellings, slipCosts(count(misspellings, even)))
}

function count(misspellings: readonly Misspelling[], costs: SlipCosts): SlipCounts {
  const counts = Object.fromEntries(SLIPS.map((slip) => [slip, { count: 0, chances: 0 }])) as SlipCounts
  for (const { wrong, right } of misspellings) {
    const meant = right.toLowerCase()
    for (const slip of slipsBetween(wrong.toLowerCase(), meant, costs).slips) counts[slip].count++
    const chances = slipChances(meant)
    for (const slip of SLIPS) counts[slip].chances += chances[slip]
  }
  return counts
}

/// The text of resources/spelling-errors.json: where the counts come from, and one kind of slip a line, as
/// Prettier formats it (so `npm run lint` passes on the file as written).
export function errorsFile(counts: SlipCounts): string {
  const lines = SLIPS.map(
    (slip) => `    "${slip}": { "count": ${counts[slip].count}, "chances": ${counts[slip].chances} }`,
  )
  return `{\n  "source": ${JSON.stringify(TRAINING_SOURCE)},\n  "slips": {\n${lines.join(',\n')}\n  }\n}\n`
}

/// The folds of a cross-validation, each held out and the rest: the `index`th item is in fold `index % count`.
export function folds<T>(items: readonly T[], count = 5): { held: T[]; rest: T[] }[] {
  return Array.from({ length: count }, (_, fold) => ({
    held: items.filter((_, index) => index % count === fold),
    rest: items.filter((_, index) => index % count !== fold),
  }))
}
